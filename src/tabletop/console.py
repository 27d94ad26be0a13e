"""Terminal play's shared pieces: the console a game prints to, the line reader it
takes moves from, and where a record is saved by default.

Both look up ``sys.stdin``/``sys.stdout`` when used, not when imported, so tests
can swap them (``monkeypatch.setattr(sys, "stdin", io.StringIO(...))``).
"""

from __future__ import annotations

import contextlib
import os
import sys
from datetime import datetime
from pathlib import Path

from rich.console import Console
from rich.text import Text

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
