"""An independent reference for the NMBR 9 placement rules, for the engine's tests.

Written from ``/work/shared/nmbr9/RULES.md`` and ``tiles.json`` only: nothing here
imports the engine's tiles or board code. It is deliberately slow and plain (dicts
and sets, brute force) so that it is obviously right:

* shapes are read from the package's ``data/tiles.json`` and turned as pictures
  (a clockwise quarter turn of a picture: its columns, read bottom to top, become
  the rows);
* ``reference_level`` applies the rules of RULES.md one by one to a list of placed
  tiles ``(digit, rotation, x, y, level)``;
* ``reference_legal`` tries every rotation at every corner of the tiles' bounding
  box expanded by 4 squares.

The pictures: rows top to bottom, ``#`` a square, ``.`` none; ``x`` grows to the
right and ``y`` downwards, as in the engine's notation ``r<rotation>@x,y`` (the
top-left corner of the turned shape's bounding box).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import cache
from importlib import resources
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED_TILES_JSON = REPO.parent / "shared" / "nmbr9" / "tiles.json"

DIGITS = tuple(range(10))
ROTATIONS = (0, 1, 2, 3)
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))
#: How far around the tiles ``reference_legal`` looks for top-left corners.
SEARCH_MARGIN = 4

Square = tuple[int, int]
#: A placed tile as the reference sees it: (digit, rotation, x, y, level).
Tile = tuple[int, int, int, int, int]


# -- shapes ------------------------------------------------------------------------


def package_tiles_json() -> dict[str, list[str]]:
    """The package's copy of tiles.json, read directly (not through the engine)."""
    text = resources.files("tabletop.games.nmbr9").joinpath("data/tiles.json").read_text("utf-8")
    return json.loads(text)


@cache
def drawn(digit: int) -> tuple[str, ...]:
    """The digit's picture as drawn in tiles.json."""
    return tuple(package_tiles_json()[str(digit)])


def turn_picture(rows: Sequence[str]) -> tuple[str, ...]:
    """The picture turned a quarter clockwise: the left column, read from the bottom
    up, becomes the top row."""
    return tuple("".join(row[column] for row in reversed(rows)) for column in range(len(rows[0])))


def mirror_picture(rows: Sequence[str]) -> tuple[str, ...]:
    """The picture flipped left to right (what a tile laid face down would show)."""
    return tuple(row[::-1] for row in rows)


@cache
def picture(digit: int, rotation: int) -> tuple[str, ...]:
    """The digit turned ``rotation`` quarter turns clockwise, as a picture."""
    rows = drawn(digit)
    for _ in range(rotation):
        rows = turn_picture(rows)
    return rows


def squares_of_picture(rows: Sequence[str]) -> frozenset[Square]:
    """The ``#`` squares of a picture as ``(x, y)``, top-left at 0,0."""
    return frozenset((x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#")


@cache
def cells(digit: int, rotation: int) -> frozenset[Square]:
    """The squares of the turned digit, relative to its bounding box's top-left corner."""
    return squares_of_picture(picture(digit, rotation))


@cache
def canonical(digit: int, rotation: int) -> int:
    """The lowest rotation covering the same squares (the 0 and the 8 turned half way
    are the same placement)."""
    return next(r for r in ROTATIONS if cells(digit, r) == cells(digit, rotation))


@cache
def distinct_rotations(digit: int) -> tuple[int, ...]:
    return tuple(r for r in ROTATIONS if canonical(digit, r) == r)


def footprint(digit: int, rotation: int, x: int, y: int) -> frozenset[Square]:
    """The board squares a tile covers."""
    return frozenset((x + dx, y + dy) for dx, dy in cells(digit, rotation))


def square_count(digit: int) -> int:
    return len(cells(digit, 0))


# -- the rules ---------------------------------------------------------------------


def stacks(tiles: Iterable[Tile]) -> dict[Square, list[int]]:
    """Square -> the indices (in ``tiles``) of the tiles covering it, bottom first."""
    out: dict[Square, list[int]] = {}
    ordered = sorted(enumerate(tiles), key=lambda it: it[1][4])  # by level
    for index, (digit, rotation, x, y, _level) in ordered:
        for square in footprint(digit, rotation, x, y):
            out.setdefault(square, []).append(index)
    return out


class ReferenceBoard:
    """The tiles already placed, with two plain lookups prepared once: which tiles
    cover each square (bottom first) and which squares each level's tiles cover."""

    def __init__(self, tiles: Iterable[Tile]) -> None:
        self.tiles = [tuple(t) for t in tiles]
        self.under = stacks(self.tiles)
        self.on_level: dict[int, set[Square]] = {}
        for digit, rotation, x, y, level in self.tiles:
            self.on_level.setdefault(level, set()).update(footprint(digit, rotation, x, y))

    def level(self, digit: int, rotation: int, x: int, y: int) -> int | None:
        """The level the tile lies on, or ``None`` if RULES.md forbids it."""
        if rotation not in ROTATIONS:
            return None
        # "The first tile goes anywhere on level 0 (the table)."
        if not self.tiles:
            return 0
        mine = footprint(digit, rotation, x, y)
        # Decision: the level is the height of the stack below, and every square under
        # the tile has the same height (no overhang, no bridging a hole, no steps).
        heights = {len(self.under.get(square, [])) for square in mine}
        if len(heights) != 1:
            return None
        (level,) = heights
        # "must rest on at least two different tiles"
        if level >= 1:
            resting_on = {self.under[square][-1] for square in mine}
            if len(resting_on) < 2:
                return None
        # "on a level that already has tiles, the new tile must share at least one
        # square edge with a tile already on that level"
        on_level = self.on_level.get(level)
        if on_level:
            touching = any(
                (sx + dx, sy + dy) in on_level for sx, sy in mine for dx, dy in NEIGHBOURS
            )
            if not touching:
                return None
        return level


def reference_level(tiles: Sequence[Tile], digit: int, rotation: int, x: int, y: int) -> int | None:
    """The level a tile of ``digit`` turned ``rotation`` at ``(x, y)`` lies on, or
    ``None`` if RULES.md forbids it. ``tiles`` are the tiles already placed."""
    return ReferenceBoard(tiles).level(digit, rotation, x, y)


def bounding_box(tiles: Iterable[Tile]) -> tuple[int, int, int, int]:
    """``(min x, min y, max x, max y)`` of the tiles' squares."""
    squares = [s for d, r, x, y, _ in tiles for s in footprint(d, r, x, y)]
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    return min(xs), min(ys), max(xs), max(ys)


def reference_legal(tiles: Sequence[Tile], digit: int) -> set[tuple[int, int, int, int]]:
    """Every legal placement ``(canonical rotation, x, y, level)``, by brute force over
    the bounding box of the tiles expanded by ``SEARCH_MARGIN``. On an empty board:
    each distinct rotation at 0,0 (the table has no edge, so one spot stands for all)."""
    tiles = [tuple(t) for t in tiles]
    if not tiles:
        return {(r, 0, 0, 0) for r in distinct_rotations(digit)}
    board = ReferenceBoard(tiles)
    x0, y0, x1, y1 = bounding_box(tiles)
    m = SEARCH_MARGIN
    out = set()
    for rotation in ROTATIONS:
        for y in range(y0 - m, y1 + m + 1):
            for x in range(x0 - m, x1 + m + 1):
                level = board.level(digit, rotation, x, y)
                if level is not None:
                    out.add((canonical(digit, rotation), x, y, level))
    return out


def reference_score(tiles: Iterable[Tile]) -> int:
    """Each tile scores its digit times its level."""
    return sum(digit * level for digit, _r, _x, _y, level in tiles)


def replay(tiles: Sequence[Tile]) -> list[int | None]:
    """The level the reference gives each tile, laid in order on the tiles before it."""
    return [reference_level(tiles[:i], *tiles[i][:4]) for i in range(len(tiles))]


# -- pictures for readable tests ---------------------------------------------------


def heights_picture(tiles: Iterable[Tile]) -> list[str]:
    """The stack heights as a picture over the tiles' bounding box: ``.`` for the
    table, ``1`` for one tile, ``2`` for two..."""
    tiles = list(tiles)
    if not tiles:
        return []
    under = stacks(tiles)
    x0, y0, x1, y1 = bounding_box(tiles)
    return [
        "".join(str(len(under[x, y])) if (x, y) in under else "." for x in range(x0, x1 + 1))
        for y in range(y0, y1 + 1)
    ]


def squares_from_picture(rows: Sequence[str], mark: str = "#", at: Square = (0, 0)) -> set[Square]:
    """The squares marked ``mark`` in a picture whose top-left is ``at``."""
    ax, ay = at
    return {
        (ax + x, ay + y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == mark
    }


def as_tiles(board) -> list[Tile]:
    """An engine board's tiles as plain tuples (the engine's ``Placed`` is one)."""
    return [(t.digit, t.rotation, t.x, t.y, t.level) for t in board.tiles]


# -- engine snapshots (read through the public API only) ---------------------------


def board_snapshot(board) -> tuple:
    """What a board shows: its tiles, squares, score and levels."""
    return (tuple(board.tiles), tuple(sorted(board.squares.items())), board.score, board.levels)


def snapshot(state) -> tuple:
    """Everything a state shows through its reading methods, including every seat's
    legal placements of the current card (so a change to any internal structure that
    affects the rules shows up too)."""
    boards = tuple(board_snapshot(board) for board in state.boards)
    legal = () if state.is_over else tuple(tuple(b.legal(state.card)) for b in state.boards)
    return (
        state.round,
        state.is_over,
        state.card,
        tuple(state.placed),
        state.acting_seats(),
        state.turned(),
        state.unturned(),
        state.deck_order(),
        state.removed,
        boards,
        legal,
    )


def deck_starting(*digits: int) -> list[int]:
    """A deck (20 digits, two of each) that turns ``digits`` first, the rest after in
    ascending order."""
    rest = [d for d in DIGITS for _ in range(2)]
    for digit in digits:
        rest.remove(digit)
    return [*digits, *rest]
