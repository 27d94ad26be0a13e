"""Actions: tiny immutable values with a text notation that round-trips.

There are three kinds of action:

* ``Place(space, x, y)`` — take the tile on wheel space ``space`` (0–11) and lay
  it on cell ``(x, y)`` of your display. Notation ``"space@x,y"``.
* ``REFILL`` — refill the wheel (offered when 1 or 2 tiles are left). ``"refill"``.
* ``END_PHASE`` — solo only: end phase 1 (offered once 8 discs are placed). ``"end"``.

>>> parse_action("7@1,-2")
Place(space=7, x=1, y=-2)
>>> str(Place(7, 1, -2))
'7@1,-2'
>>> parse_action(" Refill ") is REFILL
True

Cells use screen orientation: ``x`` grows to the right, ``y`` grows downwards,
and the first tile of every display lies on ``(0, 0)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

# the rules re-export both
from tabletop.core.errors import IllegalActionError as IllegalActionError
from tabletop.core.errors import InvalidActionError as InvalidActionError


class Place(NamedTuple):
    """Take the tile from wheel space ``space`` and lay it on cell ``(x, y)``.

    A named tuple: immutable, hashable and fast to build (states list ~100).
    """

    space: int
    x: int
    y: int

    def __str__(self) -> str:
        return f"{self.space}@{self.x},{self.y}"

    @property
    def cell(self) -> tuple[int, int]:
        return (self.x, self.y)


@dataclass(frozen=True, slots=True)
class Refill:
    """Refill the moon wheel before taking a tile."""

    def __str__(self) -> str:
        return "refill"


@dataclass(frozen=True, slots=True)
class EndPhase:
    """Solo game: end phase 1 now (allowed once 8 discs are placed)."""

    def __str__(self) -> str:
        return "end"


Action = Place | Refill | EndPhase

REFILL = Refill()
END_PHASE = EndPhase()

_PLACE_RE = re.compile(  # ASCII digits only: the notation must round-trip
    r"^\s*(\d{1,2})\s*@\s*\(?\s*(-?\d{1,3})\s*,\s*(-?\d{1,3})\s*\)?\s*$", re.ASCII
)
_WORDS: dict[str, Action] = {"refill": REFILL, "end": END_PHASE}


def parse_action(text: str) -> Action:
    """Parse the engine's notation; raise ``InvalidActionError`` if malformed.

    >>> parse_action("3@0,0")
    Place(space=3, x=0, y=0)
    >>> parse_action("3 0 0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tabletop...InvalidActionError: '3 0 0' is not an action: write space@x,y (e.g. 7@1,-2), ...
    """
    word = text.strip().lower()
    if word in _WORDS:
        return _WORDS[word]
    match = _PLACE_RE.match(text)
    if not match:
        raise InvalidActionError(
            "{text} is not an action: write space@x,y (e.g. 7@1,-2), 'refill' or 'end'",
            text=repr(text),
        )
    space, x, y = (int(g) for g in match.groups())
    if not 0 <= space <= 11:
        raise InvalidActionError("{text}: wheel spaces are numbered 0 to 11", text=repr(text))
    return Place(space, x, y)
