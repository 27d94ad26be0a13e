"""Benchmark of a game's post-game analysis: its cost, its sanity, its hindsight.

Prints (a) the CPU seconds (user + sys, every thread) to analyse one solo game of
the game's strong bot at the default budget, the median of ``--runs``; (b) the mean
accuracy, average loss and marks per game of a weak and a strong bot over
``--games`` solo games, with the spread of the losses that the marks' thresholds
are read from; (c) where the game offers hindsight: its mean over the same deals,
its time per deal, and the strong bot's mean on them with its share.

    .venv/bin/python scripts/bench_analysis.py --game nmbr9 --games 20 --jobs 2

``--keep FILE`` keeps each game's figures as it is done (one JSON line) and reuses
them on the next run: a long run can be stopped and resumed.

A game takes part with an entry in ``BENCHES`` (bots, seats, what to call them).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from tabletop.analysis import analyse
from tabletop.analysis.run import analyser_of
from tabletop.core.analysis import JSON, MARKS
from tabletop.core.game import get_game
from tabletop.harness.selfplay import play_game


@dataclass(frozen=True)
class Bench:
    """What the benchmark plays for a game: a ``weak`` and a ``strong`` bot (bot
    specs), alone at the table."""

    weak: str
    strong: str
    players: int = 1


#: seeds played by one bot before the other's (at least, and ``--jobs`` if more, so every
#: worker has a game): a run stopped early has both bots' games
CHUNK = 4

BENCHES: dict[str, Bench] = {"nmbr9": Bench(weak="greedy", strong="planner")}


def cpu_seconds(work: Callable[[], object]) -> float:
    """User + sys CPU seconds of this process (all its threads) spent on ``work``."""
    start = time.process_time()
    work()
    return time.process_time() - start


def timing(game_name: str, bench: Bench, seed: int, runs: int) -> list[float]:
    """CPU seconds of ``runs`` analyses of one strong-bot game at the default budget."""
    game = get_game(game_name)
    record = play_game(game, [bench.strong] * bench.players, seed=seed)
    return [cpu_seconds(lambda: analyse(game, record)) for _ in range(runs)]


def analysed(job: tuple[str, str, int, int, int | None]) -> JSON:
    """One game of ``bot`` played and analysed: its seat 0's summary and losses, its
    score, and the hindsight with its CPU time."""
    game_name, bot, players, seed, budget = job
    game = get_game(game_name)
    record = play_game(game, [bot] * players, seed=seed)
    report = analyse(game, record, budget, hindsight=False)
    seat = report.seats[0]
    found: JSON = {
        "key": _key(job),
        "accuracy": seat.accuracy,
        "average_loss": seat.average_loss,
        "losses": [m.loss for m in seat.moves],
        "marks": {mark: seat.count(mark) for mark in MARKS},
        "score": game.outcome(record).scores[0],
    }
    analyser = analyser_of(game)
    used = analyser.default_budget if budget is None else budget
    start = time.process_time()
    best = analyser.hindsight(record, used, 0)
    found["hindsight_seconds"] = time.process_time() - start
    found["hindsight"] = None if best is None else best["score"]
    return found


def _key(job: tuple[str, str, int, int, int | None]) -> str:
    return json.dumps(list(job))


def run_games(
    game_name: str,
    bot: str,
    players: int,
    seeds: range,
    budget: int | None,
    jobs: int,
    keep: Path | None,
) -> list[JSON]:
    """Each seed's game played and analysed (``analysed``), those in ``keep`` reused
    and the others appended to it as they are done."""
    work = [(game_name, bot, players, seed, budget) for seed in seeds]
    kept = {}
    if keep is not None and keep.exists():
        kept = {g["key"]: g for g in map(json.loads, keep.read_text().splitlines())}
    todo = [job for job in work if _key(job) not in kept]
    with ProcessPoolExecutor(max(jobs, 1)) as pool:
        for found in pool.map(analysed, todo):
            kept[found["key"]] = found
            if keep is not None:
                with keep.open("a") as out:
                    out.write(json.dumps(found) + "\n")
    return [kept[_key(job)] for job in work]


def quantiles(values: list[float]) -> str:
    """The 50th, 90th and 99th percentiles of the nonzero losses, and the largest."""
    nonzero = sorted(v for v in values if v > 0)
    if len(nonzero) < 2:
        return "-"
    cuts = statistics.quantiles(nonzero, n=100, method="inclusive")
    return f"{cuts[49]:.1f} / {cuts[89]:.1f} / {cuts[98]:.1f} / {nonzero[-1]:.1f}"


def print_table(rows: dict[str, list[JSON]]) -> None:
    print(
        f"{'bot':<10} {'games':>5} {'accuracy %':>10} {'avg loss':>8} {'score':>6} "
        f"{'?!/game':>8} {'?/game':>7} {'??/game':>8}  {'moves lost':>10}  "
        "nonzero losses p50 / p90 / p99 / max"
    )
    for bot, games in rows.items():
        n = len(games)
        losses = [loss for g in games for loss in g["losses"]]
        marks = [statistics.fmean(g["marks"][mark] for g in games) for mark in MARKS]
        lost = sum(loss > 0 for loss in losses) / len(losses)
        print(
            f"{bot:<10} {n:>5} {statistics.fmean(g['accuracy'] for g in games):>10.1f} "
            f"{statistics.fmean(g['average_loss'] for g in games):>8.2f} "
            f"{statistics.fmean(g['score'] for g in games):>6.1f} "
            f"{marks[0]:>8.2f} {marks[1]:>7.2f} {marks[2]:>8.2f}  {100 * lost:>9.1f}%  "
            f"{quantiles(losses)}"
        )


def print_hindsight(strong: str, games: list[JSON]) -> None:
    found = [g for g in games if g["hindsight"] is not None]
    if not found:
        print("hindsight: this game offers none")
        return
    best = statistics.fmean(g["hindsight"] for g in found)
    played = statistics.fmean(g["score"] for g in found)
    per_deal = statistics.median(g["hindsight_seconds"] for g in found)
    print(
        f"hindsight over {len(found)} deals: mean {best:.1f} "
        f"(median {per_deal:.2f} s CPU per deal); {strong} on the same deals: mean "
        f"{played:.1f}, {100 * played / best:.1f}% of the hindsight mean"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="nmbr9", choices=sorted(BENCHES))
    parser.add_argument("--games", type=int, default=100, help="solo games per bot")
    parser.add_argument("--jobs", type=int, default=1, help="games analysed at once")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--budget", type=int, help="the analysis budget (default: the game's)")
    parser.add_argument("--runs", type=int, default=3, help="timed analyses (the median)")
    parser.add_argument("--skip-timing", action="store_true")
    parser.add_argument("--keep", type=Path, help="a JSON-lines file of games done, resumed")
    parser.add_argument("--strong", help="another strong bot (default: the game's entry)")
    args = parser.parse_args()
    bench = BENCHES[args.game]
    if args.strong:
        bench = replace(bench, strong=args.strong)
    analyser = analyser_of(get_game(args.game))
    budget = analyser.default_budget if args.budget is None else args.budget
    print(f"{args.game}: analysis benchmark, budget {budget}, seeds from {args.seed}")
    if not args.skip_timing:
        times = timing(args.game, bench, args.seed, args.runs)
        shown = ", ".join(f"{t:.1f}" for t in times)
        print(
            f"(a) one solo {bench.strong} game analysed at the default budget "
            f"{analyser.default_budget}: median {statistics.median(times):.1f} s CPU "
            f"(user + sys) of {args.runs} runs: {shown}"
        )
    rows: dict[str, list[JSON]] = {bench.weak: [], bench.strong: []}
    chunk = max(CHUNK, args.jobs)
    for first in range(args.seed, args.seed + args.games, chunk):  # both bots alike so far
        seeds = range(first, min(first + chunk, args.seed + args.games))
        for bot, games in rows.items():
            games += run_games(
                args.game, bot, bench.players, seeds, args.budget, args.jobs, args.keep
            )
    print(f"(b) accuracy over {args.games} solo games per bot at budget {budget}:")
    print_table(rows)
    print("(c) ", end="")
    print_hindsight(bench.strong, rows[bench.strong])


if __name__ == "__main__":
    main()
