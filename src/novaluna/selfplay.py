"""Bots playing each other, and checking record files: ``selfplay`` and ``replay``."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from .bots import BotSpecError, make_bot
from .records import Recorder, RecordError, dumps, read_records, replay
from .rules import Game, SoloResult


def bot_specs(text: str, seats: int) -> list[str]:
    """Split ``"random,greedy"`` into one spec per seat; the last one repeats."""
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if not specs:
        raise BotSpecError("name at least one bot, e.g. --bots greedy")
    if len(specs) > seats:
        raise BotSpecError(f"{len(specs)} bots named for {seats} seat(s)")
    return specs + [specs[-1]] * (seats - len(specs))


def play_game(
    game: Game, specs: list[str], seed: int, move_seconds: list[float] | None = None
) -> Recorder:
    """One game between bots (seat i plays ``specs[i]``), recorded; each move's
    thinking time is appended to ``move_seconds`` if given."""
    bots = [make_bot(spec, seed=seed * 7919 + seat) for seat, spec in enumerate(specs)]
    names = [f"{spec} ({seat})" for seat, spec in enumerate(specs)]
    rec = Recorder.new(game, names, seed=seed)
    state = rec.state
    while not state.is_over:
        start = time.perf_counter()
        action = bots[state.current_seat].choose(state.view())
        if move_seconds is not None:
            move_seconds.append(time.perf_counter() - start)
        rec.apply(action)
    return rec


def selfplay(
    game: Game, specs: list[str], games: int, first_seed: int, progress: bool = True
) -> Iterator[Recorder]:
    """Play ``games`` games on seeds ``first_seed, first_seed + 1, ...``."""
    columns = (
        TextColumn("selfplay"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), disable=not progress) as bar:
        task = bar.add_task("games", total=games)
        for seed in range(first_seed, first_seed + games):
            yield play_game(game, specs, seed)
            bar.advance(task)


def selfplay_from_args(args: argparse.Namespace) -> int:
    try:
        game = Game(players=args.players, first_game=args.first_game)
        specs = bot_specs(args.bots, args.players)
        for spec in set(specs):
            make_bot(spec)
    except ValueError as err:
        print(f"novaluna selfplay: {err}", file=sys.stderr)
        return 2
    out: TextIO | None = None
    if args.out:
        try:
            out = open(args.out, "w", encoding="utf-8")  # noqa: SIM115
        except OSError as err:
            print(f"novaluna selfplay: cannot write {args.out}: {err.strerror}", file=sys.stderr)
            return 2
    summary = _Summary(specs)
    try:
        show_bar = args.games >= 5 and sys.stderr.isatty()
        for rec in selfplay(game, specs, args.games, args.seed, progress=show_bar):
            summary.add(rec)
            if out:
                out.write(dumps(rec.to_record()) + "\n")
    finally:
        if out:
            out.close()
    summary.print()
    if args.out:
        print(f"records written to {args.out}")
    return 0


class _Summary:
    """Wins per seat (standard) or score statistics (solo)."""

    def __init__(self, specs: list[str]) -> None:
        self.specs = specs
        self.wins = [0] * len(specs)
        self.scores: list[int] = []
        self.games = 0

    def add(self, rec: Recorder) -> None:
        self.games += 1
        result = rec.state.result()
        if isinstance(result, SoloResult):
            self.scores.append(result.total)
        else:
            self.wins[result.winner] += 1

    def print(self) -> None:
        if self.scores:
            mean = sum(self.scores) / len(self.scores)
            print(
                f"{self.games} solo games by {self.specs[0]}: mean score {mean:.1f}, "
                f"best {min(self.scores)}, worst {max(self.scores)}"
            )
            return
        print(f"{self.games} games")
        for seat, spec in enumerate(self.specs):
            print(f"  seat {seat} {spec}: {self.wins[seat]} wins")


def replay_file(path: str) -> int:
    """``novaluna replay``: verify every record in a file and print its outcome."""
    if not Path(path).is_file():
        print(f"novaluna replay: no such file: {path}", file=sys.stderr)
        return 2
    count = 0
    try:
        for line, record in read_records(path):
            try:
                rec = replay(record)
            except RecordError as err:
                print(f"{path}:{line}: invalid record: {err}", file=sys.stderr)
                return 1
            count += 1
            print(f"{path}:{line}: {describe(rec)}")
    except (RecordError, UnicodeDecodeError) as err:
        print(f"novaluna replay: {path}: {err}", file=sys.stderr)
        return 1
    print(f"{count} record{'s' if count != 1 else ''} replayed, all valid")
    return 0


def describe(rec: Recorder) -> str:
    """A one-line outcome, e.g. ``'Ann wins (0 discs left); Bob 4 — 37 turns'``."""
    state = rec.state
    turns = f"{len(rec.turns)} turns"
    if not state.is_over:
        return f"unfinished after {turns}; {rec.players[state.current_seat]} to move"
    result = state.result()
    if isinstance(result, SoloResult):
        return (
            f"solo score {result.total} (phase 1: {result.phase1}, phase 2: {result.phase2}); "
            f"{result.discs_placed} discs placed, {turns}"
        )
    names = rec.players
    ranking = ", ".join(f"{names[s]} {result.discs_left[s]}" for s in result.ranking[1:])
    how = "placed the last disc" if result.winner_by_last_disc else "no tiles left"
    winner = result.ranking[0]
    return (
        f"{names[winner]} wins ({how}, {result.discs_left[winner]} discs left); "
        f"then {ranking} — {turns}"
    )
