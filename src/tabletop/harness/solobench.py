"""Solo benchmark: one bot plays a game's solo version on consecutive seeds.

Whether lower or higher scores are better is the game's (Nova Luna: lower;
NMBR 9: higher); ``threshold`` counts the games better than the game's
``solo_threshold``.

>>> from tabletop.core.game import Outcome
>>> def solo(total, p1):
...     return Outcome((1,), (total,), "solo score", True, 30, details={"phase 1": p1})
>>> stats = solo_stats([solo(90, 30), solo(120, 40)], [0.5, 1.5], [0.1, 0.4, 0.1], 100)
>>> stats.mean, stats.median, stats.best, stats.worst, stats.better_share
(105.0, 105.0, 90, 120, 0.5)
>>> stats.details
{'phase 1': 35.0}
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from rich.table import Table

from ..core.errors import OptionsError
from ..core.game import GameType
from ..core.outcome import Outcome
from .executor import executor_from_args
from .selfplay import warn_fallbacks
from .tournament import (
    Fixture,
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
    """Figures over solo games' outcomes."""

    games: int
    totals: tuple[float, ...]
    lower_is_better: bool
    mean: float
    median: float
    stdev: float  # sample standard deviation; 0 for a single game
    best: float
    worst: float
    threshold: float
    better_share: float  # share of games better than ``threshold``
    percentiles: dict[int, float]  # 10th, 25th, 75th, 90th (of the totals, low to high)
    details: dict[str, float]  # the means of the game's further figures
    mean_seconds: float
    mean_move_seconds: float  # over all moves of all games
    longest_move_seconds: float


def solo_stats(
    outcomes: Sequence[Outcome],
    seconds: Sequence[float],
    move_seconds: Sequence[float] = (),
    threshold: float = 0,
) -> SoloStats:
    """Statistics of solo games' outcomes, per-game times and per-move times."""
    totals = tuple(o.scores[0] for o in outcomes)
    lower = outcomes[0].lower_is_better
    better = sum((t < threshold) if lower else (t >= threshold) for t in totals)
    cuts = statistics.quantiles(totals, n=20, method="inclusive") if len(totals) > 1 else []
    percentiles = {p: cuts[p // 5 - 1] if cuts else totals[0] for p in (10, 25, 75, 90)}
    names = list(dict.fromkeys(k for o in outcomes for k in o.details))
    return SoloStats(
        games=len(totals),
        totals=totals,
        lower_is_better=lower,
        mean=statistics.fmean(totals),
        median=float(statistics.median(totals)),
        stdev=statistics.stdev(totals) if len(totals) > 1 else 0.0,
        best=min(totals) if lower else max(totals),
        worst=max(totals) if lower else min(totals),
        threshold=threshold,
        better_share=better / len(totals),
        percentiles=percentiles,
        details={k: statistics.fmean(o.details[k] for o in outcomes) for k in names},
        mean_seconds=statistics.fmean(seconds),
        mean_move_seconds=statistics.fmean(move_seconds) if move_seconds else 0.0,
        longest_move_seconds=max(move_seconds, default=0.0),
    )


def headline(bot: str, games: int, first_seed: int, lower_is_better: bool) -> str:
    seeds = f"seed {first_seed}" if games == 1 else f"seeds {first_seed}–{first_seed + games - 1}"
    better = "lower" if lower_is_better else "higher"
    return f"{bot}: {games} solo game{'s' if games > 1 else ''} ({seeds}), {better} is better"


def stats_table(stats: SoloStats) -> Table:
    table = Table(title=f"{stats.games} games")
    table.add_column("total score")
    table.add_column("", justify="right")
    if stats.lower_is_better:
        share = f"games under {stats.threshold}"
    else:
        share = f"games with {stats.threshold} or more"
    rows = [
        ("mean", f"{stats.mean:.1f}"),
        ("median", f"{stats.median:.1f}"),
        ("standard deviation", f"{stats.stdev:.1f}"),
        ("best", f"{stats.best:g}"),
        ("worst", f"{stats.worst:g}"),
        *((f"{p}th percentile", f"{v:g}") for p, v in stats.percentiles.items()),
        (share, f"{100 * stats.better_share:.1f}%"),
        *((f"mean {name}", f"{value:.1f}") for name, value in stats.details.items()),
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
    low, high = int(min(stats.totals)), int(max(stats.totals))
    width = max(1, (high - low) // 25 + 1)
    bins = range(low, high + width + 1, width)
    axes.hist(stats.totals, bins=bins, color="tab:blue", alpha=0.8, edgecolor="white")
    axes.axvline(stats.mean, color="black", linestyle="--", label=f"mean {stats.mean:.1f}")
    axes.axvline(stats.median, color="tab:orange", label=f"median {stats.median:.1f}")
    axes.axvline(stats.threshold, color="grey", linestyle=":", label=str(stats.threshold))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    better = "lower" if stats.lower_is_better else "higher"
    axes.set_xlabel(f"total score ({better} is better)")
    axes.set_ylabel("games")
    axes.legend()
    fig.suptitle(title, fontsize=9)
    save_figure(fig, path)


def parse_bot(game: GameType, text: str) -> str:
    spec = text.strip()
    if not spec or "," in spec:
        raise UsageError("solo-bench plays one bot, e.g. --bot greedy")
    game.check_bot(spec, 1)
    warn_fallbacks(game, [spec])
    return spec


def solo_bench_from_args(game: GameType, args: argparse.Namespace) -> int:
    """``solo-bench``: returns the exit status (2 for bad input)."""
    out = None
    try:
        options = game.options(args, 1)
        bot = parse_bot(game, args.bot)
        check_plot_path(args.plot)
        executor = executor_from_args(args)
        out = open_out(args.out)
        seeds = range(args.seed, args.seed + args.games)
        fixtures = [Fixture(game.name, options, (bot,), seed) for seed in seeds]
        outcomes: list[Outcome] = []
        seconds: list[float] = []
        move_seconds: list[float] = []
        show = sys.stderr.isatty()
        for played in play_all(fixtures, executor, label="solo-bench", progress=show):
            outcomes.append(game.outcome(played.record))
            seconds.append(played.seconds)
            move_seconds.extend(played.move_seconds)
            write_records(out, played)
        if out is not None:
            out.close()
        stats = solo_stats(outcomes, seconds, move_seconds, game.solo_threshold)
        title = headline(bot, args.games, args.seed, stats.lower_is_better)
        print(title)
        output_console().print(stats_table(stats))
        if args.out:
            print(f"{stats.games} records written to {args.out}")
        if args.plot:
            plot_totals(stats, args.plot, title)
            print(f"plot written to {args.plot}")
    except OptionsError as err:
        print(f"{game.command} solo-bench: {err}", file=sys.stderr)
        return 2
    finally:
        if out is not None:
            out.close()
    return 0
