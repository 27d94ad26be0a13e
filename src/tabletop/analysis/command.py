"""``<game> analyse FILE``: every record of a file analysed, as tables or JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..core.errors import RecordError, Unavailable
from ..core.game import GameType
from ..records import read_records
from .render import output_console, print_analysis
from .run import analyse_records, analyser_of, check_available


def analyse_file(
    game: GameType, path: str, budget: int | None, seed: int, as_json: bool, jobs: int
) -> int:
    """Analyse each record of ``path`` (``.json`` or ``.jsonl``); the exit status: 0,
    1 if a record is invalid (it is named on stderr, the others are still analysed),
    2 if the file cannot be read or this installation cannot analyse (a compiled
    kernel was not built: ``Unavailable``; a record it cannot is named, the others are
    still analysed)."""
    name = f"{game.command} analyse"
    try:
        check_available(analyser_of(game), None)
    except (RecordError, Unavailable) as err:
        print(f"{name}: {err}", file=sys.stderr)
        return 2
    if not Path(path).is_file():
        print(f"{name}: no such file: {path}", file=sys.stderr)
        return 2
    try:
        numbered = list(read_records(path))
    except (RecordError, UnicodeDecodeError) as err:
        print(f"{name}: {path}: {err}", file=sys.stderr)
        return 2
    console = output_console()
    status = 0
    records = [record for _, record in numbered]
    analyses = analyse_records(game, records, budget, seed, jobs)
    for (line, _), analysis in zip(numbered, analyses, strict=True):
        if "error" in analysis:
            print(f"{path}:{line}: cannot analyse: {analysis['error']}", file=sys.stderr)
            status = max(status, 2 if analysis.get("unavailable") else 1)
        elif as_json:
            print(json.dumps(analysis, separators=(",", ":")), flush=True)
        else:
            if len(numbered) > 1:
                console.rule(f"{path}:{line}")
            print_analysis(analysis, console)
    return status
