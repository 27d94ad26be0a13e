"""How the analysis words a move and a count for people (the terminal; the page has
the same in ``web/shell/analysis_values.js``).

A game's analyser may describe each action (``describe(view, action)``, see
docs/adding-a-game.md) as a ``Part`` whose arguments may be parts themselves (a tile's
colour, translated on the page); a move also carries ``label_words`` ("round 3").
Without them the engine's notation and the English label are shown.

>>> move = {"label": "round 2", "played": "r1@3,-2", "best": "r0@0,0",
...         "played_words": {"key": "the {card} at {spot}",
...                          "args": {"card": 7, "spot": {"key": "column {x}", "args": {"x": 3}}}}}
>>> move_words(move, "played"), move_words(move, "best"), label_words(move)
('the 7 at column 3', 'r0@0,0', 'round 2')
>>> count_words(1, "inaccuracy"), count_words(2, "blunder")
('1 inaccuracy', '2 blunders')
"""

from __future__ import annotations

from typing import Any

from babel.support import NullTranslations

from ..core.analysis import JSON
from ..i18n import fill

#: The terminal speaks English: Babel's plural rules without a catalogue.
ENGLISH = NullTranslations()

#: Each mark's noun, singular and plural (by the count, with ``ngettext``).
MARK_NOUNS = {
    "inaccuracy": ("{n} inaccuracy", "{n} inaccuracies"),
    "mistake": ("{n} mistake", "{n} mistakes"),
    "blunder": ("{n} blunder", "{n} blunders"),
}


def part_text(part: Any) -> str:
    """A ``Part`` (``{"key", "args"}``, arguments that may be parts) in English."""
    if isinstance(part, dict) and "key" in part:
        args = {name: part_text(value) for name, value in (part.get("args") or {}).items()}
        return fill(str(part["key"]), args)
    return str(part)


def move_words(move: JSON, which: str) -> str:
    """The move ``which`` ("played" or "best") in the game's words, else its notation."""
    words = move.get(f"{which}_words")
    return part_text(words) if words else str(move[which])


def label_words(move: JSON) -> str:
    """The move's label ("round 3"), or its number where it has none."""
    words = move.get("label_words")
    if words:
        return part_text(words)
    return str(move.get("label") or f"#{move['index'] + 1}")


def count_words(n: int, mark: str) -> str:
    """``"1 inaccuracy"``, ``"2 blunders"``: the noun by the plural rule."""
    singular, plural = MARK_NOUNS[mark]
    return fill(ENGLISH.ngettext(singular, plural, n), {"n": n})


def plural_words(n: int, singular: str, plural: str, **args: Any) -> str:
    """Any count with its noun by the plural rule (``{n}`` and ``args`` filled)."""
    return fill(ENGLISH.ngettext(singular, plural, n), {"n": n, **args})
