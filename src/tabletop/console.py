"""Terminal play's shared pieces: the console a game prints to, the line reader it
takes moves from, the seats at the table, side-by-side layout, and where a
record is saved by default.

Both look up ``sys.stdin``/``sys.stdout`` when used, not when imported, so tests
can swap them (``monkeypatch.setattr(sys, "stdin", io.StringIO(...))``).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from .core.bots import Bot
from .core.errors import BotSpecError

PLAIN_WIDTH = 120  # when the output is not a terminal and COLUMNS is not set


def make_console() -> Console:
    """A rich console: colours on a terminal, plain text (no escapes) otherwise."""
    console = Console(highlight=False, emoji=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(highlight=False, emoji=False, width=PLAIN_WIDTH)
    return console


def read_line(console: Console, prompt: Text) -> str | None:
    """One line typed by the user, or ``None`` at end of input.

    On a terminal this is ``input()`` (with line editing); piped input is read
    with ``readline`` and echoed, so a transcript shows what was typed.
    """
    stdin = sys.stdin
    if stdin is None:
        return None
    if stdin.isatty() and console.is_terminal:
        _enable_line_editing()
        try:
            return console.input(prompt)
        except EOFError:
            console.print()
            return None
    console.print(prompt, end="")
    line = stdin.readline()
    if not line:
        console.print()
        return None
    console.print(Text(line.rstrip("\r\n")))
    return line.rstrip("\r\n")


def _enable_line_editing() -> None:
    """Arrow keys and history for ``input()`` where GNU readline exists."""
    with contextlib.suppress(ImportError):  # e.g. on Windows
        import readline  # noqa: F401


def default_save_path(prefix: str, now: datetime | None = None) -> Path:
    """``<prefix>-YYYYMMDD-HHMMSS.json`` in the current directory (never an existing file)."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    path = Path(f"{prefix}-{stamp}.json")
    number = 2
    while path.exists():
        path = Path(f"{prefix}-{stamp}-{number}.json")
        number += 1
    return path


# -- the seats -----------------------------------------------------------------------


@dataclass
class Seat:
    """One seat at the table: a human or a bot."""

    name: str  # the name in the record
    label: str  # how the screen names it
    bot: Bot | None = None  # None for a human


class SetupError(ValueError):
    """Bad command-line options: reported as one line, exit status 2."""


def bot_specs(text: str) -> list[str]:
    """``"greedy, random"`` → ``["greedy", "random"]``; empty names are an error."""
    specs = [part.strip() for part in (text or "").split(",")]
    if not all(specs):
        raise SetupError(f"--bots {text!r}: bot names are separated by commas, e.g. greedy,random")
    return specs


def make_seats(
    players: int, humans: int, specs: list[str], seed: int, make_bot: Callable[[str, int], Bot]
) -> list[Seat]:
    """Humans first, then bots from ``specs`` (the last one repeats), built with
    ``make_bot(spec, seed)``. Bot seeds come from the game's seed (``seed * 10 +
    seat``), so a seed replays the same game."""
    if humans > players:
        raise SetupError(f"--humans {humans} is more than --players {players}")
    for spec in specs:
        try:
            make_bot(spec, seed)  # check every name the user gave, even if unused
        except BotSpecError as err:
            raise SetupError(str(err)) from None
    seats = []
    for seat in range(players):
        if seat < humans:
            name = "You" if humans == 1 else f"Player {seat + 1}"
            seats.append(Seat(name, name))
        else:
            spec = specs[min(seat - humans, len(specs) - 1)]
            seats.append(Seat(spec, f"Bot {spec}", make_bot(spec, seed * 10 + seat)))
    return seats


# -- layout ----------------------------------------------------------------------------


Block = tuple[RenderableType, int]  # a renderable and its printed width
GAP = 3


def pack(blocks: Sequence[Block], width: int) -> RenderableType:
    """Blocks left to right, starting a new row whenever the next one would not fit."""
    rows: list[list[RenderableType]] = [[]]
    used = 0
    for block, need in blocks:
        if rows[-1] and used + GAP + need > width:
            rows.append([])
            used = 0
        used += need + (GAP if rows[-1] else 0)
        rows[-1].append(block)
    parts: list[RenderableType] = []
    for row in rows:
        if parts:
            parts.append(Text())
        line = Table.grid(padding=(0, GAP))
        for _ in row:
            line.add_column(vertical="top", no_wrap=True)
        line.add_row(*row)
        parts.append(line)
    return Group(*parts)
