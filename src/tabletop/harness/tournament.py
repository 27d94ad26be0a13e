"""Bot tournaments: every table of bots, seats rotated on the same deals.

A *table* is the list of bots sitting down together. With ``k`` bots named
for ``P`` seats, the tournament plays every multiset of ``P`` bots that uses
``min(k, P)`` different bots:

>>> line_ups(["greedy", "mcts"], 2)
[('greedy', 'mcts')]
>>> line_ups(["a", "b", "c"], 2)
[('a', 'b'), ('a', 'c'), ('b', 'c')]
>>> line_ups(["a", "b"], 3)  # one against two copies, both ways
[('a', 'a', 'b'), ('a', 'b', 'b')]

Where seats matter (Nova Luna: who moves first), each table plays every deal
(seed) once per cyclic seat rotation, so every bot sits in every seat on the
same deal:

>>> rotations(("a", "a", "b"))
[('a', 'a', 'b'), ('a', 'b', 'a'), ('b', 'a', 'a')]

Where they do not (NMBR 9: everybody places the same tile at once), each table
plays every deal once. A game is fully determined by its ``Fixture`` (game, options,
seed and seat assignment; the bots' seeds come from the game seed and the seat,
see ``selfplay.bot_seed``), so running the fixtures in parallel gives the same games
as running them in order. Any game works through its ``GameType``.
"""

from __future__ import annotations

import argparse
import math
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from importlib.util import find_spec
from itertools import combinations, combinations_with_replacement
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..core.errors import OptionsError
from ..core.game import JSON, GameType, get_game
from ..core.outcome import Outcome
from ..records import dumps
from .executor import Executor, chunksize, executor_from_args, ray_map
from .selfplay import check_bots, play_game

if TYPE_CHECKING:  # matplotlib is imported only when a plot is asked for
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

Z95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval
PLOT_FORMATS = (".png", ".svg", ".pdf")


class UsageError(OptionsError):
    """Bad command-line input; the message is shown on one line."""


# -- the schedule -----------------------------------------------------------------


class Fixture(NamedTuple):
    """One game: everything needed to play it, in any process."""

    game: str  # the game's name (the worker looks it up)
    options: JSON  # the game's variant options
    specs: tuple[str, ...]  # bot spec per seat
    seed: int


class Played(NamedTuple):
    """A finished game: its record (docs/records.md) and the seconds it took."""

    fixture: Fixture
    record: dict[str, Any]
    seconds: float
    move_seconds: tuple[float, ...] = ()  # each move's thinking time
    decisions: Any = None  # the data set's rows of the game (research.dataset), if asked for


def line_ups(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every multiset of ``players`` bots with as many different bots as fit.

    >>> line_ups(["a", "b", "c"], 4)
    [('a', 'a', 'b', 'c'), ('a', 'b', 'b', 'c'), ('a', 'b', 'c', 'c')]
    """
    distinct = min(len(bots), players)
    return [t for t in combinations_with_replacement(bots, players) if len(set(t)) == distinct]


def rotations(table: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The table's cyclic seat rotations: each bot takes each seat once per copy."""
    return [table[r:] + table[:r] for r in range(len(table))]


def schedule(
    game: GameType,
    bots: Sequence[str],
    players: int,
    deals: int,
    first_seed: int,
    options: JSON | None = None,
) -> list[Fixture]:
    """All games: per table, per seed ``first_seed..first_seed+deals-1``, per rotation
    (only where seats matter).

    >>> nova_luna, nmbr9 = get_game("nova-luna"), get_game("nmbr9")
    >>> [fixture.specs for fixture in schedule(nova_luna, ["a", "b"], 2, deals=1, first_seed=9)]
    [('a', 'b'), ('b', 'a')]
    >>> [fixture.specs for fixture in schedule(nmbr9, ["a", "b"], 2, deals=1, first_seed=9)]
    [('a', 'b')]
    """
    seatings = rotations if game.seats_matter else lambda table: [table]
    return [
        Fixture(game.name, options or {}, specs, seed)
        for table in line_ups(bots, players)
        for seed in range(first_seed, first_seed + deals)
        for specs in seatings(table)
    ]


def games_per_deal(game: GameType, players: int) -> int:
    """How many games a table plays on each deal: one per seat rotation where seats matter."""
    return players if game.seats_matter else 1


# -- playing ----------------------------------------------------------------------


def play_fixture(fixture: Fixture) -> Played:
    """Play one scheduled game (a top-level function, so worker processes can run it)."""
    start = time.perf_counter()
    moves: list[float] = []
    record = play_game(
        get_game(fixture.game), list(fixture.specs), fixture.seed, fixture.options, moves
    )
    return Played(fixture, record, time.perf_counter() - start, tuple(moves))


def play_all(
    fixtures: Sequence[Fixture],
    workers: int | Executor = 1,
    *,
    label: str = "games",
    progress: bool = False,
    play: Callable[[Fixture], Played] = play_fixture,
) -> Iterator[Played]:
    """``play`` every fixture on ``workers`` processes, or where an ``Executor`` says (a
    Ray cluster); yield the games in schedule order. ``play`` must be a top-level
    function (other processes import it)."""
    executor = workers if isinstance(workers, Executor) else Executor("local", workers)
    pool = None
    if executor.kind == "ray":
        results: Iterable[Played] = ray_map(play, fixtures, executor)
    elif executor.workers > 1 and len(fixtures) > 1:
        count = executor.workers
        pool = ProcessPoolExecutor(max_workers=count, initializer=_ignore_interrupts)
        # map submits every fixture now, so the workers start before the progress thread does
        results = pool.map(play, fixtures, chunksize=chunksize(len(fixtures), count))
    else:
        results = map(play, fixtures)
    try:
        with _progress(label, progress) as bar:
            task = bar.add_task(label, total=len(fixtures))
            for played in results:
                yield played
                bar.advance(task)
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _ignore_interrupts() -> None:
    # Ctrl-C reaches the whole process group; the main process handles it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _progress(label: str, enabled: bool) -> Progress:
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    return Progress(*columns, console=Console(stderr=True), disable=not enabled)


# -- statistics -------------------------------------------------------------------


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% by default).

    >>> low, high = wilson(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z / (1 + z2 / games) * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == games else min(1.0, centre + half)
    return low, high


def elo_ratings(
    beats: Mapping[tuple[str, str], float],
    names: Sequence[str],
    *,
    prior: float = 0.5,
    mean: float = 1500.0,
) -> dict[str, float | None]:
    """Elo ratings fitted to pairwise results (Bradley–Terry, maximum likelihood).

    ``beats[a, b]`` counts the times ``a`` finished ahead of ``b``. Every pair
    that met gets ``prior`` extra wins each way, which keeps ratings finite
    when a bot never won. The ratings average ``mean``; a bot that met nobody
    gets ``None``.

    >>> r = elo_ratings({("a", "b"): 3, ("b", "a"): 1}, ["a", "b"], prior=0)
    >>> round(r["a"] - r["b"])  # 3:1 is 400 * log10(3) Elo apart
    191
    """
    wins = {(a, b): beats.get((a, b), 0) for a in names for b in names if a != b}
    met = {(a, b) for (a, b), n in wins.items() if n + wins[b, a] > 0}
    wins = {pair: n + (prior if pair in met else 0) for pair, n in wins.items()}
    rated = [a for a in names if any((a, b) in met for b in names)]
    strength = _bradley_terry(wins, rated)
    ratings: dict[str, float | None] = {a: None for a in names}
    for a in rated:
        ratings[a] = mean + 400 * math.log10(max(strength[a], 1e-12))
    return ratings


def _bradley_terry(
    wins: Mapping[tuple[str, str], float], names: Sequence[str], steps: int = 10_000
) -> dict[str, float]:
    """Strengths by Hunter's MM iteration, scaled to a geometric mean of 1."""
    p = dict.fromkeys(names, 1.0)
    for _ in range(steps):
        new = {}
        for a in names:
            won = sum(wins[a, b] for b in names if b != a)
            rate = sum((wins[a, b] + wins[b, a]) / (p[a] + p[b]) for b in names if b != a)
            new[a] = won / rate if rate else p[a]
        scale = math.exp(sum(math.log(max(v, 1e-300)) for v in new.values()) / len(names))
        new = {a: v / scale for a, v in new.items()}
        done = all(abs(new[a] - p[a]) <= 1e-12 * max(1.0, p[a]) for a in names)
        p = new
        if done:
            break
    return p


@dataclass
class BotStats:
    """One bot's figures; ``games`` counts seats (two copies at a table: two games).

    ``wins`` counts a shared first place as a fraction (two seats sharing it: half each).
    """

    games: int = 0
    wins: float = 0.0
    scores: list[float] = field(default_factory=list)  # the game's figure per seat played
    turns: int = 0  # summed lengths of the games played

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.0

    @property
    def mean_turns(self) -> float:
        return self.turns / self.games if self.games else 0.0


class Standings:
    """Tournament figures, built from finished games' outcomes."""

    def __init__(self, bots: Sequence[str]) -> None:
        self.bots = {bot: BotStats() for bot in bots}
        # Counters of wins that count a shared rank as halves: typeshed's Counter
        # counts in ints, hence the three "type: ignore[assignment]" in ``add``.
        self.beats: Counter[tuple[str, str]] = Counter()
        self.by_table: dict[tuple[str, ...], Counter[str]] = {}
        self.games = 0
        self.score_name = "score"
        self.length_name = "turns"

    def add(self, specs: Sequence[str], outcome: Outcome) -> None:
        """Count one finished game; ``specs[seat]`` is the bot in each seat.

        A pair of seats that shares a rank counts half a win each way.
        """
        self.games += 1
        self.score_name, self.length_name = outcome.score_name, outcome.length_name
        table = tuple(sorted(specs, key=list(self.bots).index))
        counts = self.by_table.setdefault(table, Counter())
        counts["games"] += 1
        for seat, spec in enumerate(specs):
            stats = self.bots[spec]
            stats.games += 1
            stats.scores.append(outcome.scores[seat])
            stats.turns += outcome.length
            stats.wins += outcome.wins(seat)
            counts[spec] += outcome.wins(seat)  # type: ignore[assignment]  # halves
        for a, b in combinations(range(len(specs)), 2):
            if specs[a] == specs[b]:
                continue
            if outcome.ranks[a] == outcome.ranks[b]:
                self.beats[specs[a], specs[b]] += 0.5  # type: ignore[assignment]  # halves
                self.beats[specs[b], specs[a]] += 0.5  # type: ignore[assignment]
            elif outcome.ranks[a] < outcome.ranks[b]:
                self.beats[specs[a], specs[b]] += 1
            else:
                self.beats[specs[b], specs[a]] += 1

    def elo(self) -> dict[str, float | None]:
        return elo_ratings(self.beats, list(self.bots))


# -- output -----------------------------------------------------------------------


def headline(game: GameType, bots: Sequence[str], players: int, deals: int, first_seed: int) -> str:
    """What is played, with the total, e.g. ``'greedy vs mcts, 2 players: ... = 400 games'``."""
    count = len(line_ups(bots, players))
    seeds = f"seed {first_seed}" if deals == 1 else f"seeds {first_seed}–{first_seed + deals - 1}"
    per_deal = games_per_deal(game, players)
    total = count * deals * per_deal
    rotations_text = f" × {players} seat rotations" if game.seats_matter else ""
    return (
        f"{' vs '.join(bots)}, {players} players: {count} table{'s' if count > 1 else ''}"
        f" × {deals} deal{'s' if deals > 1 else ''} ({seeds}){rotations_text}"
        f" = {total} games"
    )


def standings_table(standings: Standings) -> Table:
    """The per-bot table: games, wins, win rate with 95% CI, mean score, length, Elo."""
    table = Table(title=f"{standings.games} games")
    columns = ("bot", "games", "wins", "win rate", "95% CI")
    for name in (*columns, standings.score_name, standings.length_name, "Elo"):
        table.add_column(name, justify="left" if name == "bot" else "right")
    elo = standings.elo()
    for bot, s in standings.bots.items():
        low, high = s.interval
        rating = elo[bot]
        table.add_row(
            bot,
            str(s.games),
            f"{s.wins:g}",
            f"{100 * s.win_rate:.1f}%",
            f"{100 * low:.1f}–{100 * high:.1f}%",
            f"{s.mean_score:.2f}",
            f"{s.mean_turns:.1f}",
            "—" if rating is None else f"{rating:.0f}",
        )
    return table


def tables_table(standings: Standings) -> Table:
    """Wins per bot at each table (shown when there is more than one table)."""
    table = Table(title="by table")
    table.add_column("table")
    table.add_column("games", justify="right")
    table.add_column("wins", justify="left")
    for seats, counts in standings.by_table.items():
        bots = [b for b in standings.bots if b in seats]
        wins = ", ".join(f"{b} {counts[b]:g}" for b in bots)
        table.add_row(_table_name(seats), str(counts["games"]), wins)
    return table


def _table_name(seats: tuple[str, ...]) -> str:
    """``('a', 'a', 'b')`` → ``'a ×2 + b'``."""
    counts = Counter(seats)
    return " + ".join(f"{b} ×{n}" if n > 1 else b for b, n in counts.items())


def output_console() -> Console:
    """A console for stdout that does not squeeze tables into 80 columns when piped."""
    console = Console()
    if not console.is_terminal:
        console.width = max(console.width, 160)
    return console


def print_standings(standings: Standings, title: str) -> None:
    print(title)
    console = output_console()
    console.print(standings_table(standings))
    if len(standings.by_table) > 1:
        console.print(tables_table(standings))
    print(
        "Elo: Bradley–Terry fit to who finished ahead in every pair of seats, mean 1500. "
        "CI: Wilson 95%."
    )


def plot_standings(standings: Standings, path: str, title: str, players: int) -> None:
    """Win rates with 95% error bars, and the distribution of the game's figure per bot."""
    fig, (rates, scores) = new_figure(2)
    names = list(standings.bots)
    stats = list(standings.bots.values())
    values = [s.win_rate for s in stats]
    errors = [[max(0.0, v - s.interval[0]) for v, s in zip(values, stats, strict=True)]]
    errors.append([max(0.0, s.interval[1] - v) for v, s in zip(values, stats, strict=True)])
    colors = [f"C{i}" for i in range(len(names))]
    rates.bar(names, values, yerr=errors, capsize=6, color=colors, alpha=0.85)
    rates.axhline(1 / players, color="grey", linestyle="--", linewidth=1, label="even")
    rates.set_ylim(0, 1)
    rates.set_ylabel("win rate (95% Wilson interval)")
    rates.legend()
    plot_shares(scores, names, [s.scores for s in stats], colors)
    scores.set_xlabel(f"{standings.score_name} at the end")
    fig.suptitle(title, fontsize=9)
    save_figure(fig, path)


def plot_shares(
    axes: Axes, names: Sequence[str], values: Sequence[Sequence[float]], colors: Sequence[str]
) -> None:
    """The share of games per value for each bot: side-by-side bars for a few whole
    values (discs left), binned bars for many (points)."""
    from matplotlib.ticker import MaxNLocator

    low = min((min(v, default=0) for v in values), default=0)
    high = max((max(v, default=0) for v in values), default=0)
    step = max(1, math.ceil((high - low + 1) / 30))
    edges = [low + step * k for k in range(int((high - low) // step) + 2)]
    width = 0.8 * step / max(1, len(values))
    for i, (name, series) in enumerate(zip(names, values, strict=True)):
        counts = Counter(int((v - low) // step) for v in series)
        shares = [counts[k] / max(1, len(series)) for k in range(len(edges) - 1)]
        offset = (i - (len(values) - 1) / 2) * width + (step - 1) / 2
        xs = [edge + offset for edge in edges[:-1]]
        axes.bar(xs, shares, width, label=name, color=colors[i])
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylabel("share of games")
    axes.legend()


def new_figure(columns: int) -> tuple[Figure, Any]:
    """A figure drawn with the Agg backend (no display needed) and its axes: one
    ``Axes``, or an array of them for several columns (matplotlib types it ``Any``)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5 * columns, 4.2), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, columns)
    return fig, axes


def save_figure(fig: Figure, path: str) -> None:
    try:
        fig.savefig(path, dpi=110)
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror or err}") from None


# -- checking input ---------------------------------------------------------------


def parse_bots(game: GameType, text: str, players: int) -> list[str]:
    """Bot specs from ``"greedy,mcts:easy"``; each must be a known bot, named once."""
    bots = [s.strip() for s in text.split(",") if s.strip()]
    if len(bots) < 2:
        raise UsageError("a tournament needs at least two different bots, e.g. --bots greedy,mcts")
    repeated = [b for b, n in Counter(bots).items() if n > 1]
    if repeated:
        raise UsageError(f"bot {repeated[0]!r} is named twice")
    check_bots(game, bots, players)  # raises BotSpecError with the known names
    return bots


def open_out(path: str | None) -> TextIO | None:
    """Open ``--out`` for writing now, so a bad path fails before any game is played."""
    if path is None:
        return None
    try:
        return open(path, "w", encoding="utf-8")  # noqa: SIM115
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror or err}") from None


def check_plot_path(path: str | None) -> None:
    """Fail early if the plot cannot be written there (or has an unknown format)."""
    if path is None:
        return
    target = Path(path)
    if target.suffix.lower() not in PLOT_FORMATS:
        raise UsageError(f"--plot needs a file name ending in {', '.join(PLOT_FORMATS)}: {path}")
    if find_spec("matplotlib") is None:  # not in the base install
        raise UsageError(
            "--plot needs matplotlib, the optional extra plot: pip install 'tabletop[plot]'"
        )
    existed = target.exists()
    try:
        with open(target, "ab"):
            pass
    except OSError as err:
        raise UsageError(f"cannot write {path}: {err.strerror or err}") from None
    if not existed:
        target.unlink()


def write_records(out: TextIO | None, played: Played) -> None:
    if out is not None:
        out.write(dumps(played.record) + "\n")


# -- the command --------------------------------------------------------------------


def tournament_from_args(game: GameType, args: argparse.Namespace) -> int:
    """``tournament``: returns the exit status (2 for bad input)."""
    out = None
    try:
        if args.players < 2:
            raise UsageError(
                f"a tournament is for 2 to {game.max_seats} players; try solo-bench for solo"
            )
        options = game.options(args, args.players)
        bots = parse_bots(game, args.bots, args.players)
        check_plot_path(args.plot)
        executor = executor_from_args(args)
        out = open_out(args.out)
        fixtures = schedule(game, bots, args.players, args.games, args.seed, options)
        standings = Standings(bots)
        show = sys.stderr.isatty()
        for played in play_all(fixtures, executor, label="tournament", progress=show):
            standings.add(played.fixture.specs, game.outcome(played.record))
            write_records(out, played)
        if out is not None:
            out.close()
        title = headline(game, bots, args.players, args.games, args.seed)
        print_standings(standings, title)
        if args.out:
            print(f"{standings.games} records written to {args.out}")
        if args.plot:
            plot_standings(standings, args.plot, title, args.players)
            print(f"plot written to {args.plot}")
    except OptionsError as err:
        print(f"{game.command} tournament: {err}", file=sys.stderr)
        return 2
    finally:
        if out is not None:
            out.close()
    return 0
