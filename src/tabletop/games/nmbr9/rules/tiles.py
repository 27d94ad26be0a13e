"""The ten number tiles and their rotations, read from ``data/tiles.json``.

A shape is a set of unit squares ``(dx, dy)``: ``dx`` grows to the right, ``dy``
downwards, rows as drawn in the JSON file. A rotation ``r`` is ``r`` quarter
turns **clockwise**; one turn maps the square ``(dx, dy)`` of a shape ``h`` rows
tall to ``(h - 1 - dy, dx)``. Tiles are never mirrored.

>>> SHAPES[1][0].rows()
['##', '.#', '.#', '.#']
>>> SHAPES[1][1].rows()  # clockwise: the top-left square goes top-right
['...#', '####']
>>> [s.rotation for s in DISTINCT[0]], [s.rotation for s in DISTINCT[8]], len(DISTINCT[7])
([0, 1], [0, 1], 4)
>>> SQUARES
(10, 5, 9, 9, 8, 10, 9, 7, 8, 10)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

DIGITS = tuple(range(10))


@dataclass(frozen=True, slots=True)
class Shape:
    """One digit in one rotation: its squares, with the bounding box's top-left at 0,0."""

    digit: int
    rotation: int  # quarter turns clockwise, 0-3
    cells: tuple[tuple[int, int], ...]  # (dx, dy), sorted by row then column
    width: int
    height: int

    def rows(self) -> list[str]:
        """The shape drawn as in tiles.json: ``#`` a square, ``.`` none."""
        cells = set(self.cells)
        return [
            "".join("#" if (x, y) in cells else "." for x in range(self.width))
            for y in range(self.height)
        ]


def _turn(cells: frozenset[tuple[int, int]], height: int) -> frozenset[tuple[int, int]]:
    """A quarter turn clockwise (screen coordinates, y down)."""
    return frozenset((height - 1 - y, x) for x, y in cells)


def _shape(digit: int, rotation: int, cells: frozenset[tuple[int, int]]) -> Shape:
    width = 1 + max(x for x, _ in cells)
    height = 1 + max(y for _, y in cells)
    ordered = tuple(sorted(cells, key=lambda c: (c[1], c[0])))
    return Shape(digit, rotation, ordered, width, height)


def _drawn() -> tuple[tuple[str, ...], ...]:
    text = resources.files("tabletop.games.nmbr9").joinpath("data/tiles.json").read_text("utf-8")
    rows = json.loads(text)
    return tuple(tuple(rows[str(digit)]) for digit in DIGITS)


#: Each digit's rows as drawn in ``data/tiles.json`` (``#`` a square).
DRAWN = _drawn()


def _load() -> tuple[tuple[tuple[Shape, ...], ...], tuple[tuple[int, ...], ...]]:
    shapes, canonical = [], []
    for digit in DIGITS:
        drawn = DRAWN[digit]
        cells = frozenset(
            (x, y) for y, row in enumerate(drawn) for x, ch in enumerate(row) if ch == "#"
        )
        turns = []
        for rotation in range(4):
            turns.append(_shape(digit, rotation, cells))
            cells = _turn(cells, turns[-1].height)
        shapes.append(tuple(turns))
        # The same squares in two rotations (the 0 and the 8 turned half way) are one
        # placement: each rotation maps to the lowest rotation with the same squares.
        canonical.append(
            tuple(next(r for r in range(4) if turns[r].cells == turns[q].cells) for q in range(4))
        )
    return tuple(shapes), tuple(canonical)


#: ``SHAPES[digit][rotation]``, all four rotations.
SHAPES, CANONICAL = _load()
#: The distinct rotations of each digit (the 0 and the 8 have two), lowest rotation first.
DISTINCT: tuple[tuple[Shape, ...], ...] = tuple(
    tuple(SHAPES[d][r] for r in range(4) if CANONICAL[d][r] == r) for d in DIGITS
)
#: Squares per digit.
SQUARES: tuple[int, ...] = tuple(len(SHAPES[d][0].cells) for d in DIGITS)
