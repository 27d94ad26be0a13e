"""Record plumbing shared by every game: reading record files, writing them safely.

A record is one JSON object per game, tagged with its ``"game"`` and
``"format"``; each game documents and checks its own (see ``docs/``). A file
holds one record (``.json``) or one per line (``.jsonl``).

>>> dumps({"game": "nmbr9", "format": 1})
'{"game":"nmbr9","format":1}'
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .core.errors import RecordError


def read_records(path: str | Path) -> Iterator[tuple[int, Any]]:
    """Yield ``(line number, record)`` from a .json file or a JSON-lines file."""
    text = Path(path).read_text("utf-8")
    stripped = text.strip()
    if not stripped:
        raise RecordError(f"{path} is empty")
    try:
        yield 1, json.loads(stripped)
        return
    except json.JSONDecodeError:
        pass
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError as err:
                raise RecordError(f"line {number} is not JSON: {err.msg}") from None


def dumps(record: dict[str, Any]) -> str:
    """One record as a single line of JSON."""
    return json.dumps(record, separators=(",", ":"))


def save(record: dict[str, Any], path: str | Path) -> None:
    """Write one record as a .json file, atomically (never a half-written file)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(record, indent=1) + "\n", "utf-8")
    tmp.replace(path)


def record_game(record: Any) -> str | None:
    """The ``"game"`` a record says it is, or ``None``."""
    game = record.get("game") if isinstance(record, dict) else None
    return game if isinstance(game, str) else None
