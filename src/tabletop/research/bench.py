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

import gymnasium
import numpy as np

from ..core.game import get_game
from . import aec
from .encoding import encoded_games, gym_id, pettingzoo_name, solo_games, spiel_name


def game_name(text: str) -> str:
    """The registry name of an encoded game named by its name or its command.

    >>> game_name("novaluna"), game_name("nmbr9")
    ('nova-luna', 'nmbr9')
    """
    for name in encoded_games():
        if text in (name, get_game(name).command):
            return name
    raise ValueError(f"no game {text!r} with an encoding; choose from {encoded_games()}")


def _pick(mask: np.ndarray, rand) -> int:
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
    game: str, players: int, seconds: float, seed: int = 0
) -> tuple[float, float]:
    """Player steps per second (wall clock, CPU) of the OpenSpiel game of ``game``
    (needs open-spiel). Each step reads the acting player's observation tensor and
    legal actions, then applies one; chance nodes are sampled and not counted."""
    import pyspiel

    from . import openspiel  # noqa: F401  (registers the games)

    spiel_game = pyspiel.load_game(spiel_name(game_name(game)), {"players": players})
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
                state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        now = time.perf_counter()
        if now >= deadline:
            return steps / (now - start), steps / (time.process_time() - cpu)


def _has_pyspiel() -> bool:
    """Whether the optional open-spiel wheel is installed."""
    try:
        return importlib.util.find_spec("pyspiel") is not None
    except ImportError:
        return False


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tabletop.research.bench",
        description="Steps per second of the research environments (median of runs).",
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="per run (default 2)")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (default 5)")
    parser.add_argument("--only", metavar="GAME", help="one game, e.g. novaluna (default: all)")
    args = parser.parse_args(argv)
    try:
        games = [game_name(args.only)] if args.only else encoded_games()
    except ValueError as err:
        parser.error(str(err))
    rows: list[tuple[str, Callable[[], tuple[float, float]]]] = []
    for game in games:
        seats = get_game(game)
        for players in range(max(1, seats.min_seats), min(2, seats.max_seats) + 1):
            rows.append(
                (f"PettingZoo {pettingzoo_name(game)}, {players} players",
                 partial(aec_steps_per_second, game, players, args.seconds))
            )  # fmt: skip
        if game in solo_games():
            rows.append(
                (f"Gymnasium {gym_id(game)}", partial(gym_steps_per_second, game, args.seconds))
            )
        if _has_pyspiel() and seats.max_seats >= 2:
            rows.append(
                (f"OpenSpiel {seats.command}, 2 players",
                 partial(openspiel_steps_per_second, game, 2, args.seconds))
            )  # fmt: skip
    for label, measure in rows:
        values = [measure() for _ in range(args.runs)]
        wall = [w for w, _ in values]
        cpu = [c for _, c in values]
        runs = ", ".join(f"{v:,.0f}" for v in wall)
        print(
            f"{label}: {statistics.median(wall):,.0f} steps/s "
            f"(median of {args.runs}: {runs}); per CPU second {statistics.median(cpu):,.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
