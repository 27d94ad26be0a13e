"""Nova Luna's post-game analysis measured: its CPU time per game and an accuracy
sanity table (the strong bot should come out well above greedy).

Plays ``--games`` 2-player games (``mcts:600`` against ``greedy``, seats swapped every
other game) and as many solo games of each of the ``solo`` planner and ``greedy``, then

* times ``novaluna analyse`` on the first three records of each kind, one process
  each (CPU time: user + sys of the child; the median is printed), and
* analyses every record (``--jobs``) and prints each bot's mean accuracy, average
  loss, marks per game and loss percentiles (what the scales' thresholds were set from).

    .venv/bin/python scripts/bench_analysis_novaluna.py --games 20 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tabletop.games.novaluna.gametype import GAME
from tabletop.harness.selfplay import play_game

STRONG = "mcts:600"  # the normal level without its wall-clock cap: seeded games repeat
CLI = [sys.executable, "-m", "tabletop.cli", "novaluna", "analyse"]


def deal(job: tuple[list[str], int]) -> dict[str, Any]:
    specs, seed = job
    return play_game(GAME, specs, seed)


def play(kind: str, games: int, seed: int, jobs: int, strong: str = STRONG) -> list[dict[str, Any]]:
    """The records of one kind: ``"2p"`` (``strong`` against greedy), ``"solo"`` or
    ``"solo-greedy"``."""
    work: list[tuple[list[str], int]] = []
    for n in range(games):
        if kind == "2p":
            specs = [strong, "greedy"] if n % 2 == 0 else ["greedy", strong]
        else:
            specs = ["solo" if kind == "solo" else "greedy"]
        work.append((specs, seed + n))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(deal, work))


def cpu_of(args: list[str]) -> float:
    """CPU seconds (user + sys) a child process spends on ``args``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def timing(records: list[dict[str, Any]], folder: Path, budget: list[str]) -> list[float]:
    """CPU seconds to analyse each of the first three records alone."""
    times = []
    for n, record in enumerate(records[:3]):
        path = folder / f"time{n}.json"
        path.write_text(json.dumps(record))
        times.append(cpu_of([*CLI, str(path), "--json", *budget]))
    return times


def analyse_all(
    records: list[dict[str, Any]], folder: Path, name: str, jobs: int, budget: list[str]
) -> list[dict[str, Any]]:
    path = folder / f"{name}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    args = [*CLI, str(path), "--json", "--jobs", str(jobs), *budget]
    done = subprocess.run(args, check=True, capture_output=True, text=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def bot_of(name: str) -> str:
    return name.rsplit(" (", 1)[0]  # selfplay names seats "spec (seat)"


def table(analyses: list[dict[str, Any]]) -> None:
    """Per bot: games, mean accuracy, average loss, marks per game, loss percentiles."""
    by_bot: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for analysis in analyses:
        for seat in analysis["seats"]:
            by_bot[bot_of(seat["name"])].append(seat)
    print(
        f"  {'bot':10} {'games':>5} {'accuracy':>9} {'avg loss':>9} "
        f"{'?!/game':>8} {'?/game':>7} {'??/game':>8}   loss p50 / p90 / p99 / max"
    )
    for bot, seats in sorted(by_bot.items()):
        losses = sorted(m["loss"] for s in seats for m in s["moves"])
        n = len(seats)

        def pct(q: float, losses: list[float] = losses) -> float:
            return losses[min(len(losses) - 1, int(q * len(losses)))]

        print(
            f"  {bot:10} {n:5} {statistics.fmean(s['accuracy'] for s in seats):8.1f}% "
            f"{statistics.fmean(s['average_loss'] for s in seats):9.4f} "
            f"{sum(s['inaccuracies'] for s in seats) / n:8.2f} "
            f"{sum(s['mistakes'] for s in seats) / n:7.2f} "
            f"{sum(s['blunders'] for s in seats) / n:8.2f}   "
            f"{pct(0.5):.3f} / {pct(0.9):.3f} / {pct(0.99):.3f} / {losses[-1]:.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games of each kind")
    parser.add_argument("--seed", type=int, default=1000, help="first game's seed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--budget", type=int, help="analysis budget (default: the game's)")
    parser.add_argument("--no-timing", action="store_true", help="skip the CPU timings")
    parser.add_argument(
        "--strong", default=STRONG, help=f"the strong bot of the 2-player games ({STRONG})"
    )
    parser.add_argument(
        "--kinds",
        default="2p,solo,solo-greedy",
        help="which kinds of games, comma-separated (default: all three)",
    )
    args = parser.parse_args()
    kinds = set(args.kinds.split(","))
    budget = [] if args.budget is None else ["--budget", str(args.budget)]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for kind, title in [
            ("2p", f"2 players, {args.strong} against greedy"),
            ("solo", "solo, the solo planner"),
            ("solo-greedy", "solo, greedy"),
        ]:
            if kind not in kinds:
                continue
            records = play(kind, args.games, args.seed, args.jobs, args.strong)
            print(f"{title}: {len(records)} games", flush=True)
            if not args.no_timing and kind != "solo-greedy":
                times = timing(records, folder, budget)
                shown = ", ".join(f"{t:.1f}" for t in times)
                median = statistics.median(times)
                print(f"  CPU s to analyse one game: median {median:.1f} ({shown})")
            table(analyse_all(records, folder, kind, args.jobs, budget))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
