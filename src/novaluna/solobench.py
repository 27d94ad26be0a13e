"""Solo benchmark: one bot plays the solo game on consecutive seeds.

Lower solo scores are better (see docs/records.md, "The result").

>>> stats = solo_stats([{"phase1": 30, "phase2": 60, "total": 90},
...                     {"phase1": 40, "phase2": 80, "total": 120}], [0.5, 1.5],
...                    [0.1, 0.4, 0.1])
>>> stats.mean, stats.median, stats.best, stats.worst, stats.under_100
(105.0, 105.0, 90, 120, 0.5)
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.table import Table

from .bots import BotSpecError, make_bot
from .tournament import (
    Job,
    UsageError,
    check_plot_path,
    new_figure,
    open_out,
    output_console,
    play_all,
    save_figure,
    write_records,
)


@dataclass(frozen=True)
class SoloStats:
    """Figures over solo games' results (scores: lower is better)."""

    games: int
    totals: tuple[int, ...]
    mean: float
    median: float
    stdev: float  # sample standard deviation; 0 for a single game
    best: int
    worst: int
    under_100: float  # share of games with a total under 100
    mean_phase1: float
    mean_phase2: float
    mean_seconds: float
    mean_move_seconds: float  # over all moves of all games
    longest_move_seconds: float


def solo_stats(
    results: Sequence[Mapping[str, Any]],
    seconds: Sequence[float],
    move_seconds: Sequence[float] = (),
) -> SoloStats:
    """Statistics of solo ``result`` objects (as in records), per-game times and
    per-move times."""
    totals = tuple(r["total"] for r in results)
    return SoloStats(
        games=len(totals),
        totals=totals,
        mean=statistics.fmean(totals),
        median=float(statistics.median(totals)),
        stdev=statistics.stdev(totals) if len(totals) > 1 else 0.0,
        best=min(totals),
        worst=max(totals),
        under_100=sum(t < 100 for t in totals) / len(totals),
        mean_phase1=statistics.fmean(r["phase1"] for r in results),
        mean_phase2=statistics.fmean(r["phase2"] for r in results),
        mean_seconds=statistics.fmean(seconds),
        mean_move_seconds=statistics.fmean(move_seconds) if move_seconds else 0.0,
        longest_move_seconds=max(move_seconds, default=0.0),
    )


def headline(bot: str, games: int, first_seed: int) -> str:
    seeds = f"seed {first_seed}" if games == 1 else f"seeds {first_seed}–{first_seed + games - 1}"
    return f"{bot}: {games} solo game{'s' if games > 1 else ''} ({seeds}), lower is better"


def stats_table(stats: SoloStats) -> Table:
    table = Table(title=f"{stats.games} games")
    table.add_column("total score")
    table.add_column("", justify="right")
    rows = [
        ("mean", f"{stats.mean:.1f}"),
        ("median", f"{stats.median:.1f}"),
        ("standard deviation", f"{stats.stdev:.1f}"),
        ("best", str(stats.best)),
        ("worst", str(stats.worst)),
        ("games under 100", f"{100 * stats.under_100:.1f}%"),
        ("mean phase 1", f"{stats.mean_phase1:.1f}"),
        ("mean phase 2", f"{stats.mean_phase2:.1f}"),
        ("seconds per game", f"{stats.mean_seconds:.3f}"),
        ("seconds per move, mean", f"{stats.mean_move_seconds:.3f}"),
        ("seconds per move, longest", f"{stats.longest_move_seconds:.3f}"),
    ]
    for row in rows:
        table.add_row(*row)
    return table


def plot_totals(stats: SoloStats, path: str, title: str) -> None:
    """A histogram of total scores, with the mean and median marked."""
    from matplotlib.ticker import MaxNLocator

    fig, axes = new_figure(1)
    width = max(1, (stats.worst - stats.best) // 25 + 1)
    bins = range(stats.best, stats.worst + width + 1, width)
    axes.hist(stats.totals, bins=bins, color="tab:blue", alpha=0.8, edgecolor="white")
    axes.axvline(stats.mean, color="black", linestyle="--", label=f"mean {stats.mean:.1f}")
    axes.axvline(stats.median, color="tab:orange", label=f"median {stats.median:.1f}")
    axes.axvline(100, color="grey", linestyle=":", label="100")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("total score (lower is better)")
    axes.set_ylabel("games")
    axes.legend()
    fig.suptitle(title, fontsize=9)
    save_figure(fig, path)


def parse_bot(text: str) -> str:
    spec = text.strip()
    if not spec or "," in spec:
        raise UsageError("solo-bench plays one bot, e.g. --bot greedy")
    make_bot(spec)
    return spec


def solo_bench_from_args(args: argparse.Namespace) -> int:
    """``novaluna solo-bench``: returns the exit status (2 for bad input)."""
    out = None
    try:
        bot = parse_bot(args.bot)
        check_plot_path(args.plot)
        out = open_out(args.out)
        jobs = [Job(1, False, (bot,), seed) for seed in range(args.seed, args.seed + args.games)]
        results, seconds, move_seconds = [], [], []
        show = sys.stderr.isatty()
        for played in play_all(jobs, args.jobs, label="solo-bench", progress=show):
            results.append(played.record["result"])
            seconds.append(played.seconds)
            move_seconds.extend(played.move_seconds)
            write_records(out, played)
        if out is not None:
            out.close()
        stats = solo_stats(results, seconds, move_seconds)
        title = headline(bot, args.games, args.seed)
        print(title)
        output_console().print(stats_table(stats))
        if args.out:
            print(f"{stats.games} records written to {args.out}")
        if args.plot:
            plot_totals(stats, args.plot, title)
            print(f"plot written to {args.plot}")
    except (UsageError, BotSpecError) as err:
        print(f"novaluna solo-bench: {err}", file=sys.stderr)
        return 2
    finally:
        if out is not None:
            out.close()
    return 0
