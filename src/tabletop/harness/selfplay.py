"""Bots playing each other, and checking record files: ``selfplay`` and ``replay``.

Works for any game through its ``GameType``: a ``Table`` to play on, the game's
bots, and the ``Outcome`` of each record.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..core.errors import BotSpecError, OptionsError, RecordError
from ..core.game import JSON, GameType
from ..records import dumps, read_records

if TYPE_CHECKING:
    from ..research.dataset import DatasetWriter
    from .executor import Executor


def bot_specs(text: str, seats: int) -> list[str]:
    """Split ``"random,greedy"`` into one spec per seat; the last one repeats.

    >>> bot_specs("random,greedy", 3)
    ['random', 'greedy', 'greedy']
    """
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if not specs:
        raise BotSpecError("name at least one bot, e.g. --bots greedy")
    if len(specs) > seats:
        raise BotSpecError(f"{len(specs)} bots named for {seats} seat(s)")
    return specs + [specs[-1]] * (seats - len(specs))


def bot_seed(game_seed: int, seat: int) -> int:
    """Each seat's bot gets its own seed, derived from the game's: a game is fixed by
    its seed and its bots, whichever process plays it."""
    return game_seed * 7919 + seat


def play_game(
    game: GameType,
    specs: list[str],
    seed: int,
    options: JSON | None = None,
    move_seconds: list[float] | None = None,
    moves: list[tuple[int, object]] | None = None,
) -> JSON:
    """One game between bots (seat i plays ``specs[i]``); its record. Each move's
    thinking time is appended to ``move_seconds`` if given, and each move, as
    ``(seat, action)`` in the order applied, to ``moves``."""
    bots = [game.bots.make(spec, seed=bot_seed(seed, seat)) for seat, spec in enumerate(specs)]
    names = [f"{spec} ({seat})" for seat, spec in enumerate(specs)]
    table = game.new_table(len(specs), options or {}, names, seed)
    while acting := table.acting():
        for seat in acting:
            start = time.perf_counter()
            action = bots[seat].choose(table.view(seat))
            if move_seconds is not None:
                move_seconds.append(time.perf_counter() - start)
            if moves is not None:
                moves.append((seat, action))
            table.apply(seat, action)
    return table.record()


def selfplay(
    game: GameType,
    specs: list[str],
    games: int,
    first_seed: int,
    options: JSON | None = None,
    progress: bool = True,
) -> Iterator[JSON]:
    """Play ``games`` games on seeds ``first_seed, first_seed + 1, ...``."""
    columns = (TextColumn("selfplay"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), disable=not progress) as bar:
        task = bar.add_task("games", total=games)
        for seed in range(first_seed, first_seed + games):
            yield play_game(game, specs, seed, options)
            bar.advance(task)


def check_bots(game: GameType, specs: list[str], players: int) -> None:
    """Raise ``BotSpecError`` unless every bot can play ``players`` seats of ``game``;
    warn (stderr) where one plays as its fallback (``warn_fallbacks``)."""
    for spec in dict.fromkeys(specs):
        game.check_bot(spec, players)
    warn_fallbacks(game, specs)


def warn_fallbacks(game: GameType, specs: list[str]) -> None:
    """Say once, on stderr, that some of ``specs`` play as their fallback here (the
    game's compiled kernel was not built): the figures are not theirs."""
    warning = game.kernel_warning()
    if warning is not None and any(game.plays_as(spec) != spec for spec in specs):
        print(f"warning: {warning}", file=sys.stderr)


def selfplay_from_args(game: GameType, args: argparse.Namespace) -> int:
    from .executor import executor_from_args

    name = f"{game.command} selfplay"
    try:
        options = game.options(args, args.players)
        specs = bot_specs(args.bots, args.players)
        check_bots(game, specs, args.players)
        executor = executor_from_args(args)
        dataset = open_dataset(game, args, options) if getattr(args, "dataset", None) else None
    except OptionsError as err:
        print(f"{name}: {err}", file=sys.stderr)
        return 2
    out: TextIO | None = None
    if args.out:
        try:
            out = open(args.out, "w", encoding="utf-8")  # noqa: SIM115
        except OSError as err:
            print(f"{name}: cannot write {args.out}: {err.strerror}", file=sys.stderr)
            if dataset is not None:
                dataset.close()
            return 2
    summary = Summary(game, specs)
    try:
        show_bar = args.games >= 5 and sys.stderr.isatty()
        if executor.workers == 1 and executor.kind == "local" and dataset is None:
            records = selfplay(game, specs, args.games, args.seed, options, progress=show_bar)
        else:
            records = _played_records(game, specs, args, options, executor, dataset, show_bar)
        for record in records:
            summary.add(record)
            if out:
                out.write(dumps(record) + "\n")
    finally:
        if out:
            out.close()
        if dataset is not None:
            dataset.close()
    summary.print()
    if args.out:
        print(f"records written to {args.out}")
    if dataset is not None:
        print(f"{dataset.rows} decisions written to {args.dataset}")
        if dataset.cut:
            print(
                f"{dataset.cut} game(s) left the encoding's window: their rows stop at the "
                "first move it cannot express (column 'complete' false)"
            )
    return 0


def open_dataset(game: GameType, args: argparse.Namespace, options: JSON) -> DatasetWriter:
    """The ``--dataset`` writer, opened before any game is played (``OptionsError``
    with the install line when pyarrow or numpy is missing, or a path it cannot write)."""
    try:
        from ..research.dataset import DatasetWriter
    except ImportError as err:
        raise OptionsError(
            f"--dataset needs pyarrow and numpy ({err.name} is missing): "
            "pip install 'tabletop[data]'"
        ) from None
    return DatasetWriter(args.dataset, game, args.players, options)


def _played_records(
    game: GameType,
    specs: list[str],
    args: argparse.Namespace,
    options: JSON,
    executor: Executor,
    dataset: DatasetWriter | None,
    progress: bool,
) -> Iterator[JSON]:
    """The games played where ``executor`` says, in seed order; their decisions go to
    ``dataset`` if given."""
    from .tournament import Fixture, play_all, play_fixture

    play = play_fixture
    if dataset is not None:
        from ..research.dataset import play_with_decisions

        play = play_with_decisions
    seeds = range(args.seed, args.seed + args.games)
    fixtures = [Fixture(game.name, options, tuple(specs), seed) for seed in seeds]
    for played in play_all(fixtures, executor, label="selfplay", progress=progress, play=play):
        if dataset is not None:
            dataset.add(played)
        yield played.record


class Summary:
    """Wins per seat (shared first places split), or solo score statistics."""

    def __init__(self, game: GameType, specs: list[str]) -> None:
        self.game = game
        self.specs = specs
        self.wins = [0.0] * len(specs)
        self.scores: list[float] = []
        self.lower_is_better = True
        self.games = 0

    def add(self, record: JSON) -> None:
        self.games += 1
        outcome = self.game.outcome(record)
        if len(self.specs) == 1:
            self.scores.append(outcome.scores[0])
            self.lower_is_better = outcome.lower_is_better
        for seat in range(len(self.specs)):
            self.wins[seat] += outcome.wins(seat)

    def print(self) -> None:
        if self.scores:
            mean = sum(self.scores) / len(self.scores)
            best, worst = (min, max) if self.lower_is_better else (max, min)
            print(
                f"{self.games} solo games by {self.specs[0]}: mean score {mean:.1f}, "
                f"best {best(self.scores):g}, worst {worst(self.scores):g}"
            )
            return
        print(f"{self.games} games")
        for seat, spec in enumerate(self.specs):
            print(f"  seat {seat} {spec}: {self.wins[seat]:g} wins")


def replay_file(game: GameType, path: str) -> int:
    """``replay``: verify every record in a file and print its outcome."""
    name = f"{game.command} replay"
    if not Path(path).is_file():
        print(f"{name}: no such file: {path}", file=sys.stderr)
        return 2
    count = 0
    try:
        for line, record in read_records(path):
            try:
                summary = game.verify(record)
            except RecordError as err:
                print(f"{path}:{line}: invalid record: {err}", file=sys.stderr)
                return 1
            count += 1
            print(f"{path}:{line}: {summary}")
    except (RecordError, UnicodeDecodeError) as err:
        print(f"{name}: {path}: {err}", file=sys.stderr)
        return 1
    print(f"{count} record{'s' if count != 1 else ''} replayed, all valid")
    return 0
