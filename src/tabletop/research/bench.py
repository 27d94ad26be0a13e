"""``python -m tabletop.research.bench``: environment steps per second, one process.

Plays whole games with a uniformly random legal action picked from each
observation's mask and counts ``env.step`` calls; every step includes the
``env.last()`` that builds the acting agent's observation and mask. PettingZoo
environments are measured as ``env()`` makes them (with ``OrderEnforcingWrapper``),
Gymnasium ones as ``gymnasium.make`` does. The median of several runs is printed,
per second of wall-clock time and per second of the process's CPU time (on a
machine shared with other work the two part: the process waits for a core).
Every registered game with an encoding is measured; a game is named by its
registry name or its command (``nova-luna`` or ``novaluna``).

With open-spiel installed, each game's OpenSpiel steps per second (the same random
loop: the acting player's ``observation_tensor`` and ``legal_actions()``) and the cost
of one ``state.clone()`` in microseconds (every state of random games cloned) are
printed beside OpenSpiel's own C++ ``backgammon`` measured the same way in the same
run, with the ratio to it (``0.5× backgammon's``). pyspiel's ``observation_tensor``
builds a new Python list of floats per call, which dominates for a large tensor (NMBR
9's has 6,418 entries, backgammon's 200), so the steps are also measured reading the
tensor through OpenSpiel's ``make_observation`` (a numpy array filled in place).
What of each game's encoding ran compiled (``Encoding.compiled``) and whether the
observations were scaled and listed in C or by numpy are printed first.

>>> wall, cpu = aec_steps_per_second("novaluna", 2, seconds=0.05)
>>> wall > 0 and cpu > 0
True
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

import gymnasium
import numpy as np

from ..core.game import get_game
from . import aec
from .encoding import (
    encoded_games,
    encoding,
    gym_id,
    pettingzoo_name,
    solo_games,
    spiel_name,
)

if TYPE_CHECKING:  # the optional open-spiel wheel (the extra rl), untyped
    import pyspiel


def game_name(text: str) -> str:
    """The registry name of an encoded game named by its name or its command.

    >>> game_name("novaluna"), game_name("nmbr9")
    ('nova-luna', 'nmbr9')
    """
    for name in encoded_games():
        if text in (name, get_game(name).command):
            return name
    raise ValueError(f"no game {text!r} with an encoding; choose from {encoded_games()}")


def _pick(mask: np.ndarray, rand: Callable[[], float]) -> int:
    legal = mask.view(np.bool_).nonzero()[0]
    return int(legal[int(rand() * len(legal))])


def aec_steps_per_second(
    game: str, players: int, seconds: float, seed: int = 0
) -> tuple[float, float]:
    """Steps per second (wall clock, CPU) of the PettingZoo environment of ``game``."""
    env = aec.env(game_name(game), players=players)
    rand = random.Random(seed).random
    env.reset(seed=seed)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(200):
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                if not env.agents:
                    env.reset()
                continue
            assert obs is not None  # last() observes unless told not to
            env.step(_pick(obs["action_mask"], rand))
            steps += 1
        now = time.perf_counter()
        if now >= deadline:
            return steps / (now - start), steps / (time.process_time() - cpu)


def gym_steps_per_second(game: str, seconds: float, seed: int = 0) -> tuple[float, float]:
    """Steps per second (wall clock, CPU) of the Gymnasium solo environment of ``game``."""
    import tabletop.research  # noqa: F401  (registers the environments)

    env = gymnasium.make(gym_id(game_name(game)))
    rand = random.Random(seed).random
    _obs, info = env.reset(seed=seed)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(200):
            _obs, _reward, terminated, truncated, info = env.step(_pick(info["action_mask"], rand))
            steps += 1
            if terminated or truncated:
                _obs, info = env.reset()
        now = time.perf_counter()
        if now >= deadline:
            return steps / (now - start), steps / (time.process_time() - cpu)


def openspiel_steps_per_second(
    game: str, players: int | None, seconds: float, seed: int = 0, observer: bool = False
) -> tuple[float, float]:
    """Player steps per second (wall clock, CPU) of the OpenSpiel game of ``game``
    (needs open-spiel): one of ours by name or command, or any game of OpenSpiel's own by
    its short name (``backgammon``; ``players`` None: its default). Each step reads the
    acting player's observation tensor and legal actions, then applies one; chance nodes
    are sampled and not counted. The tensor is ``state.observation_tensor(player)``, a
    new Python list each time; with ``observer``, OpenSpiel's
    ``open_spiel.python.observation.make_observation`` (a numpy array filled in place)."""
    spiel_game = _spiel_game(game, players)
    observe = state_tensor
    if observer:
        from open_spiel.python.observation import make_observation

        observe = make_observation(spiel_game).set_from
    rng = random.Random(seed)
    state = spiel_game.new_initial_state()
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(200):
            if state.is_terminal():
                state = spiel_game.new_initial_state()
            elif state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                observe(state, state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        now = time.perf_counter()
        if now >= deadline:
            return steps / (now - start), steps / (time.process_time() - cpu)


def state_tensor(state: pyspiel.State, player: int) -> list[float]:
    """OpenSpiel's observation tensor of ``player``, as a list (pyspiel's API)."""
    tensor: list[float] = state.observation_tensor(player)
    return tensor


def openspiel_clone_microseconds(
    game: str, players: int | None, seconds: float, seed: int = 0
) -> tuple[float, float]:
    """Microseconds (wall clock, CPU) one ``state.clone()`` takes, as MCTS-style
    algorithms pay it on every simulation: random games are played (as
    ``openspiel_steps_per_second`` plays them) and every state met, chance nodes
    included, is cloned ``CLONES`` times; the mean over all the clones."""
    spiel_game = _spiel_game(game, players)
    rng = random.Random(seed)
    state = spiel_game.new_initial_state()
    clones = 0
    wall = cpu = 0.0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            if state.is_terminal():
                state = spiel_game.new_initial_state()
                continue
            clone = state.clone
            start, used = time.perf_counter(), time.process_time()
            for _ in range(CLONES):
                clone()
            wall += time.perf_counter() - start
            cpu += time.process_time() - used
            clones += CLONES
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return wall / clones * 1e6, cpu / clones * 1e6


#: Clones timed together per state (one at a time the timer would weigh on backgammon's).
CLONES = 20
#: OpenSpiel's own game measured beside ours, in the same run: its C++ backgammon.
REFERENCE = "backgammon"
#: The rows whose tensor comes from ``make_observation`` rather than a list per call.
OBSERVER = "tensor from make_observation"


def _spiel_game(game: str, players: int | None) -> pyspiel.Game:
    """OpenSpiel's game: ours (``game`` by name or command) or one of OpenSpiel's own."""
    import pyspiel

    from . import openspiel  # noqa: F401  (registers the games)

    try:
        name = spiel_name(game_name(game))
    except ValueError:
        name = game  # one of OpenSpiel's own
    return pyspiel.load_game(name, {} if players is None else {"players": players})


def _has_pyspiel() -> bool:
    """Whether the optional open-spiel wheel is installed."""
    try:
        return importlib.util.find_spec("pyspiel") is not None
    except ImportError:
        return False


class Row(NamedTuple):
    """One printed figure: ``measure()`` gives (wall clock, CPU) in ``unit``; ``versus``
    names the row (OpenSpiel's own game's) this one is compared with."""

    label: str
    measure: Callable[[], tuple[float, float]]
    unit: str = "steps/s"
    versus: str | None = None


def rows(games: list[str], seconds: float, spiel: bool) -> list[Row]:
    """What to measure for ``games``; with ``spiel`` (open-spiel installed) OpenSpiel's
    steps and ``clone()`` too, beside its own backgammon's, measured first."""
    out: list[Row] = []
    for game in games:
        seats = get_game(game)
        for players in range(max(1, seats.min_seats), min(2, seats.max_seats) + 1):
            out.append(
                Row(f"PettingZoo {pettingzoo_name(game)}, {players} players",
                    partial(aec_steps_per_second, game, players, seconds))
            )  # fmt: skip
        if game in solo_games():
            gym = partial(gym_steps_per_second, game, seconds)
            out.append(Row(f"Gymnasium {gym_id(game)}", gym))
    if not spiel:
        return out
    steps = f"OpenSpiel {REFERENCE}"
    numpy = f"{steps}, {OBSERVER}"
    clone = f"{steps} clone()"
    out += [
        Row(steps, partial(openspiel_steps_per_second, REFERENCE, None, seconds)),
        Row(numpy, partial(openspiel_steps_per_second, REFERENCE, None, seconds, observer=True)),
        Row(clone, partial(openspiel_clone_microseconds, REFERENCE, None, seconds), "µs"),
    ]
    for game in games:
        seats = get_game(game)
        if seats.max_seats >= 2:
            label = f"OpenSpiel {seats.command}, 2 players"
            out += [
                Row(label, partial(openspiel_steps_per_second, game, 2, seconds), versus=steps),
                Row(f"{label}, {OBSERVER}",
                    partial(openspiel_steps_per_second, game, 2, seconds, observer=True),
                    versus=numpy),
                Row(f"{label}, clone()",
                    partial(openspiel_clone_microseconds, game, 2, seconds), "µs", clone),
            ]  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tabletop.research.bench",
        description="Steps per second of the research environments and the cost of an "
        "OpenSpiel clone() (median of runs), beside OpenSpiel's own backgammon.",
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="per run (default 2)")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (default 5)")
    parser.add_argument("--only", metavar="GAME", help="one game, e.g. novaluna (default: all)")
    args = parser.parse_args(argv)
    try:
        games = [game_name(args.only)] if args.only else encoded_games()
    except ValueError as err:
        parser.error(str(err))
    for game in games:
        print(f"{get_game(game).title}: {encoding(game).compiled}", flush=True)
    from .encoding import TENSORS_COMPILED

    how = "in C (extension _tensorfast)" if TENSORS_COMPILED else "by numpy (no C extension)"
    print(f"Observations scaled and listed {how}", flush=True)
    medians: dict[str, float] = {}
    for row in rows(games, args.seconds, _has_pyspiel()):
        values = [row.measure() for _ in range(args.runs)]
        wall = statistics.median(w for w, _ in values)
        cpu = statistics.median(c for _, c in values)
        medians[row.label] = wall
        digits = ",.1f" if row.unit == "µs" else ",.0f"
        runs = ", ".join(f"{w:{digits}}" for w, _ in values)
        per_cpu = "per CPU second" if row.unit == "steps/s" else "CPU"
        line = (
            f"{row.label}: {wall:{digits}} {row.unit} (median of {args.runs}: {runs}); "
            f"{per_cpu} {cpu:{digits}}"
        )
        if row.versus in medians:
            line += f"; {wall / medians[row.versus]:.3g}× {REFERENCE}'s"
        print(line, flush=True)


if __name__ == "__main__":
    main()
