"""Actions: where to lay this round's tile, as a tiny immutable value with a notation.

``Place(rotation, x, y)`` lays the tile turned ``rotation`` quarter turns
clockwise (0-3) with the top-left corner of its bounding box on square
``(x, y)``: ``x`` grows to the right, ``y`` downwards, and the table has no
edge. The level is not part of the action: the squares underneath decide it.

>>> parse_action("r1@3,-2")
Place(rotation=1, x=3, y=-2)
>>> str(Place(0, -4, 7))
'r0@-4,7'
>>> parse_action(" R2 @ (0, 0) ")
Place(rotation=2, x=0, y=0)
"""

from __future__ import annotations

import re
from typing import NamedTuple

# the rules re-export both
from tabletop.core.errors import IllegalActionError as IllegalActionError
from tabletop.core.errors import InvalidActionError as InvalidActionError


class Place(NamedTuple):
    """Lay this round's tile turned ``rotation`` quarter turns clockwise at ``(x, y)``."""

    rotation: int
    x: int
    y: int

    def __str__(self) -> str:
        return f"r{self.rotation}@{self.x},{self.y}"


Action = Place

_PLACE_RE = re.compile(
    r"^\s*r?\s*(\d{1,3})\s*@\s*\(?\s*([+-]?\d{1,9})\s*,\s*([+-]?\d{1,9})\s*\)?\s*$",
    re.IGNORECASE | re.ASCII,  # ASCII digits only: the notation must round-trip
)


def parse_action(text: str) -> Place:
    """Parse the notation ``r<rotation>@x,y``; ``InvalidActionError`` if malformed.

    >>> parse_action("r4@0,0")
    Traceback (most recent call last):
    ...
    tabletop.core.errors.InvalidActionError: 'r4@0,0': the rotation is 0, 1, 2 or 3 (quarter turns clockwise)
    >>> parse_action("3,4")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tabletop.core.errors.InvalidActionError: '3,4' is not a placement: write r<rotation>@x,y, ...
    """  # noqa: E501
    match = _PLACE_RE.match(text)
    if not match:
        raise InvalidActionError(
            "{text} is not a placement: write r<rotation>@x,y, e.g. r1@3,-2 "
            "(rotation 0-3 quarter turns clockwise)",
            text=repr(text),
        )
    rotation, x, y = (int(g) for g in match.groups())
    if rotation > 3:
        raise InvalidActionError(
            "{text}: the rotation is 0, 1, 2 or 3 (quarter turns clockwise)", text=repr(text)
        )
    return Place(rotation, x, y)
