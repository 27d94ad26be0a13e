"""Fit the Nova Luna solo planner's estimate (``solo.Weights``) to its own games, and
screen the fitted weights against the hand-set ones on the same piles.

    PYTHONPATH=src .venv/bin/python scripts/fit_solo_weights_novaluna.py \\
        --level fast --games 200 --piles 200 --iterations 2 --jobs 2

The planner's beam ranks unfinished lines, and its phase-1 end states, by a linear
estimate of the final score (``_solokernel.c``: ``heuristic`` and ``end_value``): the
cost so far, a rate per disc still to place and a bonus per open task 1, 2 or 3 tiles
short. Policy iteration, as ``tabletop.games.nmbr9.learning`` does for NMBR 9: each
iteration plays ``--games`` training piles with the current weights, records after
every move the position's features and what the rest of the game then cost, and fits
each estimate by ridge least squares (the tiles laid enter as one indicator each: the
beam only compares lines of the same length, so only the other weights matter). Then
the held-out piles (seeds 1..``--piles``) are played with the fitted weights; the
paired difference to the hand-set weights on the same piles is printed (lower is
better). docs/learned-evaluation.md reports what it gave.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from multiprocessing import Pool
from multiprocessing.pool import Pool as Workers

import numpy as np

from tabletop.games.novaluna.bots.solo import LEVELS, SoloPlanner, Weights
from tabletop.games.novaluna.rules import DISCS, Game, SoloResult, State
from tabletop.games.novaluna.rules.state import SOLO_PHASE1_DISCS
from tabletop.games.novaluna.rules.tiles import TILE_COST, TILE_TASKS

TRAIN_SEEDS = 100_000  # training piles start here, far from the held-out 1..N
Row = tuple[int, int, int, int, list[int], int]  # phase before, after, cost, discs, gaps, tiles
Game_ = tuple[int, SoloResult, list[Row]]


def gaps(state: State) -> list[int]:
    """Open tasks by tiles still missing: [0, 1 short, 2 short, 3 short, 4 or more]."""
    display = state.displays[0]
    out = [0] * 5
    for cell, mask in display.open.items():
        for index in range(len(TILE_TASKS[display.tiles[cell]])):
            if mask >> index & 1:
                out[min(4, display.missing(cell, index))] += 1
    return out


def play(job: tuple[str, dict[str, float], int]) -> Game_:
    """One solo game of the planner with ``weights``, and a row after every move."""
    level, weights, seed = job
    settings = dataclasses.replace(LEVELS[level], weights=Weights(**weights), threads=1)
    bot = SoloPlanner(settings, seed=seed)
    state = Game(players=1).new_state(seed=seed)
    rows: list[Row] = []
    while not state.is_over:
        before = state.phase
        state.apply(bot.choose(state.view()))
        if not state.is_over:
            display = state.displays[0]
            cost = sum(TILE_COST[tile] for tile in display.tiles.values())
            rows.append(
                (before, state.phase, cost, display.covered, gaps(state), len(display.tiles))
            )
    result = state.result()
    assert isinstance(result, SoloResult)
    return seed, result, rows


def ridge(x: list[list[float]], y: list[float], penalty: float = 1.0) -> np.ndarray:
    a, b = np.array(x), np.array(y)
    return np.linalg.solve(a.T @ a + penalty * np.eye(a.shape[1]), a.T @ b)


def fit(games: list[Game_]) -> dict[str, float]:
    """The three estimates' weights fitted to what the rest of each game cost."""
    one_hot = np.eye(40).tolist()
    phase1: tuple[list[list[float]], list[float]] = ([], [])
    phase2: tuple[list[list[float]], list[float]] = ([], [])
    ends: tuple[list[list[float]], list[float]] = ([], [])
    for _, result, rows in games:
        for before, after, cost, discs, g, tiles in rows:
            left = max(0, DISCS - discs)
            shape = [left, -g[1], -g[2], -g[3]]
            if after == 1:  # the phase-1 estimate: 2 × cost + 10 per missing phase-1 disc
                rest = result.total - 2 * cost - 10 * max(0, SOLO_PHASE1_DISCS - discs)
                phase1[0].append(shape + one_hot[min(tiles, 39)])
                phase1[1].append(rest)
            else:  # phase 2: the display's cost counts once more, then the rest
                phase2[0].append(shape + one_hot[min(tiles, 39)])
                phase2[1].append(result.phase2 - cost)
                if before == 1:  # where phase 1 ended
                    ends[0].append([1.0, *shape, tiles])
                    ends[1].append(result.phase2 - cost)
    c1, c2, ce = ridge(*phase1), ridge(*phase2), ridge(*ends)
    names = [
        *("rate2", "near2_1", "near2_2", "near2_3"),
        *("rate1", "near1_1", "near1_2", "near1_3"),
        *("end_base", "end_rate", "end_near1", "end_near2", "end_near3", "end_tile"),
    ]
    values = [*c2[:4], *c1[:4], *ce]
    return {name: round(float(v), 3) for name, v in zip(names, values, strict=True)}


def games(pool: Workers, level: str, weights: dict[str, float], seeds: range) -> list[Game_]:
    return pool.map(play, [(level, weights, seed) for seed in seeds], chunksize=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="fast", choices=sorted(LEVELS))
    parser.add_argument("--games", type=int, default=200, help="training piles an iteration")
    parser.add_argument("--piles", type=int, default=200, help="held-out piles: seeds 1..N")
    parser.add_argument("--iterations", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    weights = {k: float(v) for k, v in dataclasses.asdict(Weights()).items()}
    held_out = range(1, args.piles + 1)
    with Pool(args.jobs) as pool:
        hand = [g[1].total for g in games(pool, args.level, weights, held_out)]
        print(f"hand-set weights, {args.level}: mean {statistics.mean(hand):.2f}", flush=True)
        for iteration in range(1, args.iterations + 1):
            start = time.perf_counter()
            train = range(TRAIN_SEEDS * iteration, TRAIN_SEEDS * iteration + args.games)
            played = games(pool, args.level, weights, train)
            weights = fit(played)
            fitted = [g[1].total for g in games(pool, args.level, weights, held_out)]
            diff = [a - b for a, b in zip(fitted, hand, strict=True)]
            spread = statistics.stdev(diff) / len(diff) ** 0.5
            print(f"iteration {iteration}: {weights}")
            print(
                f"  training mean {statistics.mean(g[1].total for g in played):.2f}; held out "
                f"{statistics.mean(fitted):.2f}, paired {statistics.mean(diff):+.2f} ± "
                f"{spread:.2f} ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
