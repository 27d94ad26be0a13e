"""One player's area: the tiles laid, level by level, and where the next tile may go.

The board keeps two pictures of the same tiles, each for what it does best:

* ``squares``: square ``(x, y)`` -> ``(height, index of the top tile)``. Checking
  one placement reads the squares under it, and a refusal can say exactly
  which square or which rule is at fault.
* Bitboards: per level, a Python integer with one bit per square of a window
  that follows the tiles (stride ``w``: ``w - GUARD`` usable columns, then
  empty guard columns so that shifts never wrap into the next row). Every
  legal placement of a digit is found at once: the offsets where a rotation
  fits are the AND of the free-square mask shifted by each of its squares.
  That is a few dozen integer operations per rotation, however many
  placements there are.

Tests check the two pictures against each other and against brute force.

>>> board = Board()
>>> board.place(9, 0, 0, 0).level, board.place(9, 0, 3, 0).level  # two 9s side by side
(0, 0)
>>> board.place(5, 3, 0, 0).level  # a 5, three quarter turns, across both 9s: level 1
1
>>> board.score
5
>>> board.place(7, 0, 9, 9)
Traceback (most recent call last):
...
tabletop.core.errors.IllegalActionError: r0@9,9 does not touch your tiles on the table: a tile on a level with tiles must share a square edge with one of them
"""  # noqa: E501

from __future__ import annotations

import random
from functools import cache
from typing import NamedTuple

from .actions import IllegalActionError, Place
from .tiles import CANONICAL, DIGITS, DISTINCT, SHAPES, Shape

GUARD = 3  # empty columns after each row: a shape is at most 4 wide
MARGIN = 4  # free squares kept around the tiles: a touching tile reaches 4 squares out
SLACK = 8  # extra room when the window is rebuilt, so that it rarely has to be

NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))

Square = tuple[int, int]


class Placed(NamedTuple):
    """A tile on the board: its digit, rotation, position and level."""

    digit: int
    rotation: int
    x: int
    y: int
    level: int

    @property
    def shape(self) -> Shape:
        return SHAPES[self.digit][self.rotation]

    def squares(self) -> list[Square]:
        x, y = self.x, self.y
        return [(x + dx, y + dy) for dx, dy in self.shape.cells]

    @property
    def action(self) -> Place:
        return Place(self.rotation, self.x, self.y)

    def __str__(self) -> str:
        return f"the {self.digit} at {self.x},{self.y}" + (
            f" (level {self.level})" if self.level else ""
        )


class ShapeBits(NamedTuple):
    """A shape's squares as bit offsets for one window stride (one distinct rotation).

    ``rows`` gives each row as ``(offset of its first square, pattern number)``; see
    ``DigitBits``.
    """

    shape: Shape
    rows: tuple[tuple[int, int], ...]
    right_pairs: tuple[int, ...]  # squares whose right neighbour is in the shape too
    down_pairs: tuple[int, ...]  # squares whose lower neighbour is in the shape too
    mask: int


class DigitBits(NamedTuple):
    """A digit's distinct rotations, and the row patterns they are made of.

    A pattern is a row's squares from its first one (``#.#`` is ``0b101``). The
    offsets where a pattern fits a mask are found once and shared by the
    rotations: pattern ``k`` is pattern ``plan[k-1][0]`` AND-ed (or OR-ed) with the
    mask shifted by ``plan[k-1][1]``; pattern 0 is a single square, the mask itself.
    """

    rotations: tuple[ShapeBits, ...]
    plan: tuple[tuple[int, int], ...]


@cache
def shape_masks(stride: int) -> tuple[tuple[int, ...], ...]:
    """``[digit][rotation]``: the squares of each rotation as a mask, for ``stride``."""
    return tuple(
        tuple(sum(1 << (dy * stride + dx) for dx, dy in shape.cells) for shape in SHAPES[digit])
        for digit in DIGITS
    )


@cache
def shape_bits(stride: int) -> tuple[DigitBits, ...]:
    """Per digit, its distinct rotations as ``DigitBits`` for a window of ``stride``."""
    out = []
    for digit in DIGITS:
        patterns = [1]  # pattern numbers index this list
        plan: list[tuple[int, int]] = []
        rotations = []
        for shape in DISTINCT[digit]:
            cells = set(shape.cells)
            rows = []
            for dy in range(shape.height):
                xs = [dx for dx in range(shape.width) if (dx, dy) in cells]
                pattern = sum(1 << (dx - xs[0]) for dx in xs)
                rows.append((dy * stride + xs[0], _number(pattern, patterns, plan)))
            rights = tuple(dy * stride + dx for dx, dy in shape.cells if (dx + 1, dy) in cells)
            downs = tuple(dy * stride + dx for dx, dy in shape.cells if (dx, dy + 1) in cells)
            mask = sum(1 << (dy * stride + dx) for dx, dy in shape.cells)
            rotations.append(ShapeBits(shape, tuple(rows), rights, downs, mask))
        out.append(DigitBits(tuple(rotations), tuple(plan)))
    return tuple(out)


def _number(pattern: int, patterns: list[int], plan: list[tuple[int, int]]) -> int:
    """The number of a row pattern, adding it (and its prefixes) to the plan if new."""
    if pattern not in patterns:
        high = pattern.bit_length() - 1
        plan.append((_number(pattern ^ (1 << high), patterns, plan), high))
        patterns.append(pattern)
    return patterns.index(pattern)


def _fits(mask: int, plan: tuple[tuple[int, int], ...]) -> list[int]:
    """Per pattern, the offsets where all its squares are in ``mask``."""
    found = [mask]
    for base, shift in plan:
        found.append(found[base] & (mask >> shift))
    return found


def _touches(mask: int, plan: tuple[tuple[int, int], ...]) -> list[int]:
    """Per pattern, the offsets where some square of it is in ``mask``."""
    found = [mask]
    for base, shift in plan:
        found.append(found[base] | (mask >> shift))
    return found


@cache
def _usable_mask(stride: int, rows: int) -> int:
    row = (1 << (stride - GUARD)) - 1
    mask = 0
    for r in range(rows):
        mask |= row << (r * stride)
    return mask


def _spread(mask: int, stride: int) -> int:
    """The squares edge-adjacent to ``mask`` (and ``mask`` itself, for callers to remove)."""
    return (mask << 1) | (mask >> 1) | (mask << stride) | (mask >> stride)


def bit_positions(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first.

    >>> bit_positions(0b101001)
    [0, 3, 5]
    """
    text = bin(mask)
    top = len(text) - 1
    out = []
    i = text.find("1", 2)
    while i >= 0:
        out.append(top - i)
        i = text.find("1", i + 1)
    out.reverse()
    return out


def nth_bit(mask: int, n: int) -> int:
    """The index of the ``n``-th set bit of ``mask`` (from 0, lowest first), found by
    halving the range with bit counts rather than by listing the bits.

    >>> nth_bit(0b1011000, 0), nth_bit(0b1011000, 2)
    (3, 6)
    """
    low, high = 0, mask.bit_length()
    while high - low > 1:
        middle = (low + high) // 2
        below = (mask >> low) & ((1 << (middle - low)) - 1)
        count = below.bit_count()
        if n < count:
            high = middle
        else:
            n -= count
            low = middle
    return low


class Board:
    """One player's tiles. Change it only through ``place`` (checked) or ``lay``."""

    __slots__ = (
        "tiles",
        "squares",
        "score",
        "_ox",
        "_oy",
        "_w",
        "_rows",
        "_occ",
        "_right_seams",
        "_down_seams",
    )

    def __init__(self) -> None:
        self.tiles: list[Placed] = []
        #: (x, y) -> (height, index in ``tiles`` of the top tile)
        self.squares: dict[Square, tuple[int, int]] = {}
        self.score = 0
        self._ox = self._oy = 0
        self._w = GUARD + 1
        self._rows = 1
        self._occ: list[int] = []  # per level: its tiles' squares
        # per level: squares whose right (lower) neighbour holds another tile of the level
        self._right_seams: list[int] = []
        self._down_seams: list[int] = []

    @classmethod
    def from_tiles(cls, tiles: list[Placed]) -> Board:
        """A board holding ``tiles`` (as laid, in order; not checked again)."""
        board = cls()
        for tile in tiles:
            board.lay(tile.digit, tile.rotation, tile.x, tile.y, tile.level)
        return board

    def clone(self) -> Board:
        b = Board.__new__(Board)
        b.tiles = self.tiles.copy()
        b.squares = self.squares.copy()
        b.score = self.score
        b._ox, b._oy, b._w, b._rows = self._ox, self._oy, self._w, self._rows
        b._occ = self._occ.copy()
        b._right_seams = self._right_seams.copy()
        b._down_seams = self._down_seams.copy()
        return b

    def without_last(self) -> Board:
        """A board without the last tile laid (others must not see a pending placement)."""
        return Board.from_tiles(self.tiles[:-1])

    # -- reading ---------------------------------------------------------------------

    def height(self, x: int, y: int) -> int:
        """How many tiles are stacked on square ``(x, y)``."""
        return self.squares.get((x, y), (0, -1))[0]

    @property
    def levels(self) -> int:
        """The number of levels holding tiles (0 for an empty board)."""
        return len(self._occ)

    def tiles_on(self, level: int) -> list[Placed]:
        return [t for t in self.tiles if t.level == level]

    def bounds(self) -> tuple[int, int, int, int]:
        """``(min x, min y, max x, max y)`` of the squares with tiles; the board must not be
        empty."""
        # from the tiles' boxes (a shape's box is tight): ~20 tiles, not ~200 squares
        if not self.tiles:
            raise ValueError("an empty board has no bounds")
        x0 = y0 = 1 << 62
        x1 = y1 = -(1 << 62)
        for digit, rotation, x, y, _level in self.tiles:
            shape = SHAPES[digit][rotation]
            if x < x0:  # comparisons: min()/max() calls would cost more than the loop
                x0 = x
            if y < y0:
                y0 = y
            if x + shape.width > x1:
                x1 = x + shape.width
            if y + shape.height > y1:
                y1 = y + shape.height
        return x0, y0, x1 - 1, y1 - 1

    # -- checking and laying ------------------------------------------------------------

    def check(self, digit: int, rotation: int, x: int, y: int) -> int:
        """The level a tile of ``digit`` turned ``rotation`` at ``(x, y)`` would lie on;
        ``IllegalActionError`` saying which rule it breaks otherwise."""
        action = Place(rotation, x, y)
        if not all(type(v) is int for v in action):
            raise IllegalActionError(
                "{action}: rotation, x and y must be whole numbers", action=repr(action)
            )
        if not 0 <= rotation <= 3:
            raise IllegalActionError("{action}: the rotation is 0, 1, 2 or 3", action=str(action))
        if not self.tiles:
            return 0  # the first tile goes anywhere
        shape = SHAPES[digit][rotation]
        cells = [(x + dx, y + dy) for dx, dy in shape.cells]
        squares = self.squares
        under = [squares.get(c, (0, -1)) for c in cells]
        level = max(h for h, _ in under)
        for cell, (h, tile) in zip(cells, under, strict=True):
            if h != level:
                high = next(c for c, (hh, _) in zip(cells, under, strict=True) if hh == level)
                return self._uneven(action, cell, h, tile, high, level)
        if level:
            below = {tile for _, tile in under}
            if len(below) == 1:
                alone = self.tiles[below.pop()]
                raise IllegalActionError(
                    "{action} would rest on the {digit} at {at} alone: a tile above the "
                    "table must rest on at least two tiles",
                    action=str(action),
                    digit=alone.digit,
                    at=f"{alone.x},{alone.y}",
                )
        if level < self.levels:
            own = set(cells)
            touching = any(
                squares.get((cx + dx, cy + dy), (0,))[0] > level
                for cx, cy in cells
                for dx, dy in NEIGHBOURS
                if (cx + dx, cy + dy) not in own
            )
            if not touching and level:
                raise IllegalActionError(
                    "{action} does not touch your tiles on level {level}: a tile on a level "
                    "with tiles must share a square edge with one of them",
                    action=str(action),
                    level=level,
                )
            if not touching:
                raise IllegalActionError(
                    "{action} does not touch your tiles on the table: a tile on a level "
                    "with tiles must share a square edge with one of them",
                    action=str(action),
                )
        return level

    def _uneven(
        self, action: Place, low: Square, height: int, tile: int, high: Square, level: int
    ) -> int:
        square = f"{low[0]},{low[1]}"
        if height == 0:
            raise IllegalActionError(
                "{action} would not lie flat on level {level}: square {square} has nothing "
                "under it (no overhang, no bridging a gap)",
                action=str(action),
                level=level,
                square=square,
            )
        under = self.tiles[tile]
        raise IllegalActionError(
            "{action} would not lie flat on level {level}: square {square} is on the {digit} "
            "at {at}, lower than square {high} (every square under a tile must be at the "
            "same height)",
            action=str(action),
            level=level,
            square=square,
            digit=under.digit,
            at=f"{under.x},{under.y}",
            high=f"{high[0]},{high[1]}",
        )

    def place(self, digit: int, rotation: int, x: int, y: int) -> Placed:
        """Check and lay a tile; return it with its level. Nothing changes if illegal."""
        level = self.check(digit, rotation, x, y)
        return self.lay(digit, rotation, x, y, level)

    def lay(self, digit: int, rotation: int, x: int, y: int, level: int) -> Placed:
        """Lay a tile that is known to be legal there (no checks)."""
        rotation = CANONICAL[digit][rotation]
        tile = Placed(digit, rotation, x, y, level)
        index = len(self.tiles)
        self.tiles.append(tile)
        self.score += digit * level
        shape = SHAPES[digit][rotation]
        height = (level + 1, index)
        squares = self.squares
        for dx, dy in shape.cells:
            squares[x + dx, y + dy] = height
        ox, oy = self._ox, self._oy
        if (
            index
            and x >= ox + MARGIN
            and y >= oy + MARGIN
            and x + shape.width <= ox + self._w - GUARD - MARGIN
            and y + shape.height <= oy + self._rows - MARGIN
        ):
            self._add_bits(tile)
        else:  # the first tile, or too near the window's edge
            self._rebuild()
        return tile

    # -- bitboards -----------------------------------------------------------------------

    def _rebuild(self) -> None:
        """A new window around every tile, with room to grow, and its bitboards."""
        x0, y0, x1, y1 = self.bounds()
        room = MARGIN + SLACK
        self._ox, self._oy = x0 - room, y0 - room
        self._w = x1 - x0 + 1 + 2 * room + GUARD
        self._rows = y1 - y0 + 1 + 2 * room
        self._occ, self._right_seams, self._down_seams = [], [], []
        for tile in self.tiles:
            self._add_bits(tile)

    def _add_bits(self, tile: Placed) -> None:
        w = self._w
        mask = shape_masks(w)[tile.digit][tile.rotation]
        new = mask << ((tile.y - self._oy) * w + tile.x - self._ox)
        level = tile.level
        if level == len(self._occ):
            self._occ.append(0)
            self._right_seams.append(0)
            self._down_seams.append(0)
        old = self._occ[level]
        # seams between the new tile and the level's other tiles, both ways
        self._right_seams[level] |= (((new << 1) & old) | ((old << 1) & new)) >> 1
        self._down_seams[level] |= (((new << w) & old) | ((old << w) & new)) >> w
        self._occ[level] = old | new

    def legal_masks(self, digit: int) -> list[tuple[ShapeBits, int, int]]:
        """``(rotation, level, offsets)`` for every distinct rotation and level that has
        legal placements: ``offsets`` has a bit per legal top-left corner (see
        ``corner``). The board must not be empty."""
        w = self._w
        rotations, plan = shape_bits(w)[digit]
        occ = self._occ
        found = []
        table = occ[0]
        free = _usable_mask(w, self._rows) & ~table
        fits = _fits(free, plan)
        touches = None
        for bits in rotations:
            (offset, pattern), *rows = bits.rows
            fit = fits[pattern] >> offset
            for offset, pattern in rows:
                fit &= fits[pattern] >> offset
            if not fit:
                continue
            if touches is None:
                touches = _touches(_spread(table, w) & free, plan)
            touch = 0
            for offset, pattern in bits.rows:
                touch |= touches[pattern] >> offset
            fit &= touch
            if fit:
                found.append((bits, 0, fit))
        for level in range(1, len(occ) + 1):
            rights, downs = self._right_seams[level - 1], self._down_seams[level - 1]
            if not (rights or downs):
                continue  # one tile below: nothing can rest on two
            above = occ[level] if level < len(occ) else 0
            top = occ[level - 1] & ~above
            fits = _fits(top, plan)
            touches = None
            for bits in rotations:
                (offset, pattern), *rows = bits.rows
                fit = fits[pattern] >> offset
                for offset, pattern in rows:
                    fit &= fits[pattern] >> offset
                if not fit:
                    continue
                # resting on two tiles = some two neighbouring squares of the shape lie on
                # different tiles (the shape is connected)
                seams = 0
                for s in bits.right_pairs:
                    seams |= rights >> s
                for s in bits.down_pairs:
                    seams |= downs >> s
                fit &= seams
                if fit and above:
                    if touches is None:
                        touches = _touches(_spread(above, w) & top, plan)
                    touch = 0
                    for offset, pattern in bits.rows:
                        touch |= touches[pattern] >> offset
                    fit &= touch
                if fit:
                    found.append((bits, level, fit))
        return found

    def corner(self, offset: int) -> Square:
        """The square ``(x, y)`` of a bit offset in the window."""
        row, column = divmod(offset, self._w)
        return self._ox + column, self._oy + row

    def legal(self, digit: int) -> list[tuple[Place, int]]:
        """Every distinct legal placement of ``digit`` with its level, ordered by level,
        rotation, then row and column. On an empty board: each rotation at 0,0 (the
        table has no edge, so where the first tile lies changes nothing)."""
        if not self.tiles:
            return [(Place(s.rotation, 0, 0), 0) for s in DISTINCT[digit]]
        out: list[tuple[Place, int]] = []
        ox, oy, w = self._ox, self._oy, self._w
        new = tuple.__new__  # a named tuple without its argument parsing: many are made
        for bits, level, offsets in self.legal_masks(digit):
            r = bits.shape.rotation
            out += [
                (new(Place, (r, ox + o % w, oy + o // w)), level) for o in bit_positions(offsets)
            ]
        return out

    def random_place(self, digit: int, rng: random.Random) -> Place:
        """``rng.choice(self.legal(digit))[0]`` without building the list: the same
        ``randrange`` draw (what ``choice`` draws with), so the same placement.
        ``ValueError`` if ``digit`` cannot be placed."""
        if not self.tiles:
            return Place(DISTINCT[digit][rng.randrange(len(DISTINCT[digit]))].rotation, 0, 0)
        options = self.legal_masks(digit)
        counts = [offsets.bit_count() for _, _, offsets in options]
        pick = rng.randrange(sum(counts))
        for (bits, _, offsets), count in zip(options, counts, strict=True):
            if pick < count:
                x, y = self.corner(nth_bit(offsets, pick))
                return Place(bits.shape.rotation, x, y)
            pick -= count
        raise AssertionError("unreachable: pick < sum(counts)")

    def __repr__(self) -> str:
        return f"<Board {len(self.tiles)} tiles, {self.levels} levels, score {self.score}>"
