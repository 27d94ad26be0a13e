"""Fit Nova Luna's ``mcts`` leaf evaluation to who won its own games, and play the
fitted leaf against today's at the same budget and time.

    PYTHONPATH=src .venv/bin/python scripts/fit_mcts_leaf_novaluna.py \\
        --level easy --games 400 --deals 100 --jobs 2

Below its tree, mcts scores a position by each seat's discs placed, minus 0.3 per unit
of moon-track time, plus 0.35 per open task one tile short, and turns the gap to the
best other seat into a reward through a logistic slope of 0.8 (``mcts.Settings``).
That is a logistic model of winning in a few features. Here it is fitted: ``--games``
two-player self-play games of ``mcts:<level>`` are recorded (after every move, each
seat's discs, time, open tasks 1, 2 and 3 tiles short, and whose turn it is), and a
logistic regression of the winner on the seats' differences gives the weights. Then
each of ``--deals`` deals is played twice, seats swapped, between a bot with the fitted
leaf (``--weights`` instead, to try given ones) and today's, both at ``<level>``'s
iterations and time cap; the fitted side's share of wins is printed (50 % is no
change). docs/learned-evaluation.md reports what it gave.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
from multiprocessing import Pool
from multiprocessing.pool import Pool as Workers

import numpy as np

from tabletop.games.novaluna.bots import mcts
from tabletop.games.novaluna.rules import Game, StandardResult, State

#: Today's leaf in the fitted form: discs, time, tasks 1/2/3 short, the turn (× 0.8).
HAND = (0.8, -0.24, 0.28, 0.0, 0.0, 0.0)
SELF_PLAY_SEEDS, MATCH_SEEDS = 500_000, 700_000
Features = list[float]


def features(state: State, seat: int) -> Features:
    display = state.displays[seat]
    turn = 1.0 if state.current_seat == seat else 0.0
    return [display.covered, state.time[seat], *mcts.short_tasks(display), turn]


def fitted_settings(level: str, weights: list[float]) -> mcts.Settings:
    """``level``'s search with the leaf ``weights`` · features (discs, time, tasks 1, 2
    and 3+ tiles short, the turn): the logistic slope is the discs' weight, the others
    are in discs."""
    discs, time, one, two, more, turn = weights
    return dataclasses.replace(
        settings(level),
        sharpness=discs,
        time_weight=-time / discs,
        near_weight=one / discs,
        far_weights=(two / discs, more / discs),
        turn_weight=turn / discs,
    )


def settings(level: str) -> mcts.Settings:
    return mcts.Settings(mcts.LEVELS[level], mcts.DEFAULT_SECONDS[level])


def winner(state: State) -> int:
    result = state.result()
    assert isinstance(result, StandardResult)
    return result.winner


def self_play(job: tuple[str, int]) -> tuple[int, list[list[Features]]]:
    """One game of today's mcts against itself: the winner, and both seats' features
    after every move."""
    level, seed = job
    bots = [mcts.MctsBot(settings(level), seed * 2 + seat) for seat in (0, 1)]
    state = Game(players=2).new_state(seed=seed)
    rows = []
    while not state.is_over:
        seat = state.current_seat
        state.apply(bots[seat].choose(state.view(seat)))
        if not state.is_over:
            rows.append([features(state, s) for s in (0, 1)])
    return winner(state), rows


def fit(games: list[tuple[int, list[list[Features]]]]) -> list[float]:
    """Logistic regression (Newton's method) of winning on the seats' differences."""
    x, y = [], []
    for won, rows in games:
        for pair in rows:
            for seat in (0, 1):
                x.append([a - b for a, b in zip(pair[seat], pair[1 - seat], strict=True)])
                y.append(1.0 if won == seat else 0.0)
    a, b = np.array(x), np.array(y)
    w = np.zeros(a.shape[1])
    for _ in range(25):
        p = 1.0 / (1.0 + np.exp(-a @ w))
        hessian = a.T @ (a * (p * (1 - p))[:, None]) + 1e-3 * np.eye(len(w))
        w += np.linalg.solve(hessian, a.T @ (b - p) - 1e-3 * w)
    for name, weights in (("fitted", w), ("today's", np.array(HAND))):
        p = np.clip(1.0 / (1.0 + np.exp(-a @ weights)), 1e-9, 1 - 1e-9)
        loss = -np.mean(b * np.log(p) + (1 - b) * np.log(1 - p))
        print(f"  {name} leaf: log loss {loss:.4f} over {len(b)} positions")
    return [round(float(v), 3) for v in w]


def match(job: tuple[str, int, int, list[float]]) -> bool:
    """One game, the fitted leaf in ``fitted_seat``: whether it won."""
    level, seed, fitted_seat, weights = job
    bots = [
        mcts.MctsBot(fitted_settings(level, weights), seed * 2 + seat)
        if seat == fitted_seat
        else mcts.MctsBot(settings(level), seed * 2 + seat)
        for seat in (0, 1)
    ]
    state = Game(players=2).new_state(seed=seed)
    while not state.is_over:
        seat = state.current_seat
        state.apply(bots[seat].choose(state.view(seat)))
    return winner(state) == fitted_seat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="easy", choices=sorted(mcts.LEVELS))
    parser.add_argument("--games", type=int, default=400, help="self-play games to fit on")
    parser.add_argument("--deals", type=int, default=100, help="deals of the match, 2 games each")
    parser.add_argument("--weights", type=json.loads, help="a leaf to play instead of fitting")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with Pool(args.jobs) as pool:
        weights = args.weights or fit_from_self_play(pool, args.level, args.games)
        print(f"leaf {weights}", flush=True)
        jobs = [
            (args.level, MATCH_SEEDS + deal, seat, weights)
            for deal in range(args.deals)
            for seat in (0, 1)
        ]
        wins = sum(pool.map(match, jobs, chunksize=1))
    share = wins / len(jobs)
    spread = math.sqrt(share * (1 - share) / len(jobs))
    print(f"the fitted leaf won {wins} of {len(jobs)}: {share:.1%} ± {spread:.1%}")


def fit_from_self_play(pool: Workers, level: str, games: int) -> list[float]:
    jobs = [(level, SELF_PLAY_SEEDS + i) for i in range(games)]
    return fit(pool.map(self_play, jobs, chunksize=1))


if __name__ == "__main__":
    main()
