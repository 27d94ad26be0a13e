"""How fast can a Python game be in OpenSpiel? A rules-free twin of each of our games.

``python -m tabletop.research.bench`` measures our OpenSpiel games with a random loop.
This script measures, in the same run, a *twin* of each game that has its shape and no
rules: as many chance nodes per player step, chance outcomes per chance node, legal
actions per step and steps per game (the means of random games of ours), and an
observation tensor of the same size filled by copying a fixed array. Its state is a few
counters, so its steps/s is what pyspiel itself lets a Python game of that shape reach:
the ceiling our rules cannot pass, whatever they cost. The loop is the benchmark's own
(``openspiel_steps_per_second``), both tensor readings, beside OpenSpiel's C++
backgammon. docs/research-speed.md reports what it measured.

    .venv/bin/python scripts/bench_spiel_ceiling.py --runs 5 --seconds 2
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

import numpy as np
import pyspiel

from tabletop.research import bench, openspiel
from tabletop.research.encoding import encoded_games, spiel_name


class Shape(NamedTuple):
    """The means of random two-player games of one of ours."""

    actions: int  # num_distinct_actions
    tensor: int  # observation tensor size
    legal: float  # legal actions per player step
    chance_per_step: float  # chance nodes per player step
    outcomes: float  # outcomes per chance node
    steps: float  # player steps per game
    density: float  # the share of the tensor's entries that are not zero


def measure_shape(name: str, games: int = 30, seed: int = 0) -> Shape:
    """The shape of two-player ``name`` (ours, registry name) over ``games`` random games."""
    game = pyspiel.load_game(spiel_name(name), {"players": 2})
    rng = random.Random(seed)
    legal = chance = outcomes = steps = 0
    nonzero = 0.0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                choices, probs = zip(*state.chance_outcomes(), strict=True)
                chance += 1
                outcomes += len(choices)
                state.apply_action(rng.choices(choices, probs)[0])
            else:
                actions = state.legal_actions()
                tensor = np.asarray(state.observation_tensor())
                nonzero += np.count_nonzero(tensor) / len(tensor)
                legal += len(actions)
                steps += 1
                state.apply_action(rng.choice(actions))
    return Shape(
        actions=game.num_distinct_actions(),
        tensor=game.observation_tensor_size(),
        legal=legal / steps,
        chance_per_step=chance / steps,
        outcomes=outcomes / chance,
        steps=steps / games,
        density=nonzero / steps,
    )


class _TwinObserver:
    def __init__(self, shape: Shape) -> None:
        self.tensor = np.zeros(shape.tensor, np.float32)
        self.dict = {"observation": self.tensor}
        rng = np.random.default_rng(0)
        fixed = rng.random(shape.tensor, dtype=np.float32)
        fixed[rng.random(shape.tensor) >= shape.density] = 0.0
        self._fixed = fixed

    def set_from(self, state: TwinState, player: int) -> None:
        self.tensor[:] = self._fixed

    def string_from(self, state: TwinState, player: int) -> str:
        return str(state)


class TwinGame(pyspiel.Game):
    """The rules-free twin of a shape (``shape`` set on the class by ``register``)."""

    shape: Shape

    def __init__(self, params: dict | None = None) -> None:
        shape = self.shape
        info = pyspiel.GameInfo(
            num_distinct_actions=shape.actions,
            max_chance_outcomes=max(1, round(shape.outcomes)),
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=10 * round(shape.steps * (1 + shape.chance_per_step)),
        )
        super().__init__(_twin_type(self.short_name), info, params or {})
        stride = max(1, shape.actions // max(1, round(shape.legal)))
        self.legal = list(range(0, shape.actions, stride))[: max(1, round(shape.legal))]
        n = max(1, round(shape.outcomes))
        self.outcomes = [(k, 1.0 / n) for k in range(n)]
        self.observer = _TwinObserver(shape)

    short_name = ""

    def new_initial_state(self) -> TwinState:
        return TwinState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> _TwinObserver:
        return _TwinObserver(self.shape)


class _Twin(NamedTuple):
    """What a state reads of its game (kept on the state: pyspiel may hand a state a
    game object other than the one that made it)."""

    shape: Shape
    legal: list[int]
    outcomes: list[tuple[int, float]]
    observer: _TwinObserver

    def __deepcopy__(self, memo: dict) -> _Twin:
        return self  # never changes: clones share it


class TwinState(pyspiel.State):
    """Counters only: player steps taken, chance nodes owed, whose turn."""

    def __init__(self, game: TwinGame) -> None:
        super().__init__(game)
        self._game = _Twin(game.shape, game.legal, game.outcomes, game.observer)
        self._steps = 0
        self._owed = 0.0  # chance nodes due (fractional: the mean per step)
        self._player = 0

    def current_player(self) -> int:
        if self._steps >= self._game.shape.steps:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE if self._owed >= 1 else self._player

    # As ours do: the Python-side reads skip pyspiel's C++ round trips.
    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.is_terminal():
            return []
        if self._owed >= 1:
            return [k for k, _ in self._game.outcomes]
        return self._game.legal

    def is_chance_node(self) -> bool:
        return self.current_player() == pyspiel.PlayerId.CHANCE

    def observation_tensor(self, player: int | None = None) -> list[float]:
        observer = self._game.observer
        observer.set_from(self, self.current_player() if player is None else player)
        return openspiel._as_list(observer.tensor)

    def _legal_actions(self, player: int) -> list[int]:
        return self._game.legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._game.outcomes

    def _apply_action(self, action: int) -> None:
        if self._owed >= 1:
            self._owed -= 1
        else:
            self._steps += 1
            self._owed += self._game.shape.chance_per_step
            self._player = 1 - self._player

    def _action_to_string(self, player: int, action: int) -> str:
        return str(action)

    def is_terminal(self) -> bool:
        return self._steps >= self._game.shape.steps

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def __str__(self) -> str:
        return f"{self._steps} steps"


def _twin_type(short_name: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=short_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={},
    )


def register_twin(name: str, shape: Shape) -> str:
    """Register the twin of ``name`` (``<spiel name>_twin``); its short name."""
    short = f"{spiel_name(name)}_twin"
    if short not in pyspiel.registered_names():
        cls = type(f"Twin_{short}", (TwinGame,), {"shape": shape, "short_name": short})
        pyspiel.register_game(_twin_type(short), cls)
    return short


def _median(measure: Callable[[], tuple[float, float]], runs: int) -> float:
    return statistics.median(measure()[0] for _ in range(runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per run (default 2)")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (default 5)")
    args = parser.parse_args()
    openspiel.register()
    games = [name for name in encoded_games() if name != "toy"]
    shapes = {name: measure_shape(name) for name in games}
    for name, shape in shapes.items():
        print(
            f"{name}: {shape.tensor} floats ({shape.density:.0%} not 0), {shape.legal:.1f} "
            f"legal actions and {shape.chance_per_step:.2f} chance nodes "
            f"({shape.outcomes:.1f} outcomes) per step, {shape.steps:.0f} steps a game"
        )
    ref = bench.REFERENCE
    steps = bench.openspiel_steps_per_second
    for observer in (False, True):
        how = "make_observation" if observer else "observation_tensor lists"
        base = _median(partial(steps, ref, None, args.seconds, observer=observer), args.runs)
        print(f"[{how}] OpenSpiel {ref}: {base:,.0f} steps/s", flush=True)
        for name, shape in shapes.items():
            twin = register_twin(name, shape)
            for label, game, players in ((f"{name} twin (no rules)", twin, None), (name, name, 2)):
                measure = partial(steps, game, players, args.seconds, observer=observer)
                rate = _median(measure, args.runs)
                print(f"[{how}] {label}: {rate:,.0f} steps/s; {rate / base:.3g}x {ref}'s")


if __name__ == "__main__":
    main()
