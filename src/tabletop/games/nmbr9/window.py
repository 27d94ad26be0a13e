"""NMBR 9's action window for the research encoding (``encoding``'s docstring tells
the whole story): the flat action of a placement and back, whether a placement lies in
the window, and the mask of a seat's legal placements inside it (in C where the
optional extension ``_nmbr9fast`` is built, the same mask in Python otherwise) with its
list of legal actions.

>>> from tabletop.games.nmbr9.rules import Game, Place
>>> decode(encode(Place(1, -3, 2))), actions(), MIN_SIZE
(Place(rotation=1, x=-3, y=2), 6400, 7)
"""

from __future__ import annotations

import numpy as np

from .rules import SHAPES, Board, Place, State
from .rules.tiles import DIGITS, DISTINCT

try:
    from . import _nmbr9fast
except ImportError:  # built without a C compiler: the pure Python mask serves
    _nmbr9fast = None  # type: ignore[assignment]
else:
    _nmbr9fast.setup(
        [[shape.cells for shape in SHAPES[digit]] for digit in DIGITS],
        [[shape.rotation for shape in DISTINCT[digit]] for digit in DIGITS],
    )

#: Whether the mask is computed in C (the optional extension ``_nmbr9fast``, built by
#: ``pip install`` where a C compiler is found); the pure Python mask otherwise, the same
#: (tests check it). ``python -m tabletop.research.bench`` says which.
COMPILED = _nmbr9fast is not None
#: The widest window the compiled mask handles (a row of the window and its ring in one
#: 64-bit word); wider windows use the Python mask.
COMPILED_SIZE = 62

SIZE = 40


def actions(size: int = SIZE) -> int:
    return 4 * size * size


def encode(place: Place, size: int = SIZE) -> int:
    half = size // 2
    return place.rotation * size * size + (place.y + half) * size + place.x + half


def decode(action: int, size: int = SIZE) -> Place:
    rotation, cell = divmod(int(action), size * size)
    row, column = divmod(cell, size)
    half = size // 2
    return Place(rotation, column - half, row - half)


def in_window(digit: int, place: Place, size: int = SIZE) -> bool:
    """Whether every square of the tile lies in the window."""
    shape = SHAPES[digit][place.rotation]
    low, high = -(size // 2), size - size // 2
    return (
        low <= place.x
        and place.x + shape.width <= high
        and low <= place.y
        and place.y + shape.height <= high
    )


def _min_size() -> int:
    """The smallest window in which every digit, as the first tile (at ``(0, 0)``), has
    a rotation that fits."""

    def holds(size: int) -> bool:
        return all(
            any(in_window(digit, Place(s.rotation, 0, 0), size) for s in shapes)
            for digit, shapes in enumerate(DISTINCT)
        )

    size = 1
    while not holds(size):
        size += 1
    return size


#: The smallest ``size`` accepted: every first tile fits (smaller windows are refused).
MIN_SIZE = _min_size()


#: Per digit and rotation: the shape's (width, height).
_EXTENT = tuple(tuple((s.width, s.height) for s in rotations) for rotations in SHAPES)


def legal_mask(
    state: State, seat: int, size: int = SIZE, *, compiled: bool = COMPILED
) -> np.ndarray:
    """``int8``: 1 for each legal placement of ``seat`` that lies in the window.

    The same placements as ``state.legal_actions(seat)`` (tests check it), read
    straight from the board's bit masks of legal corners (``Board.legal_masks``)
    rather than listed: one bit per corner of the board's own window, all rotations
    unpacked at once and cut to the action window. ``compiled`` (where the extension
    is built, windows up to ``COMPILED_SIZE``): the same mask computed in C.
    """
    mask = np.zeros(actions(size), dtype=np.int8)
    if state.is_over or state.placed[seat] is not None:
        return mask
    digit = state.card
    assert digit is not None  # the game is not over
    board = state.boards[seat]
    if not board.tiles:
        for place in state.legal_actions(seat):
            if in_window(digit, place, size):
                mask[encode(place, size)] = 1
        return mask
    if compiled and _nmbr9fast is not None and size <= COMPILED_SIZE:
        _nmbr9fast.window_mask(mask, board.tiles, digit, size)
    else:
        _board_mask(board, digit, size, mask)
    return mask


def mask_indices(mask: np.ndarray, *, compiled: bool = COMPILED) -> list[int]:
    """The indices of ``mask``'s nonzero entries, increasing: a seat's legal actions
    (``compiled``: scanned in C, a word of zeros at a time; the same list).

    >>> mask_indices(np.array([0, 1, 0, 0, 1], np.int8), compiled=False)
    [1, 4]
    """
    if compiled and _nmbr9fast is not None:
        return _nmbr9fast.mask_indices(mask)
    return mask.view(np.bool_).nonzero()[0].tolist()  # bool: 2x faster


def _board_mask(board: Board, digit: int, size: int, mask: np.ndarray) -> None:
    """Set ``mask``'s legal placements of ``digit`` on a board with tiles."""
    half = size // 2
    ox, oy = board.corner(0)
    w = board._w  # the board's bitboard stride and rows (see ``Board.corner``)
    rows = board._rows
    span = rows * w
    everything = 0
    rotations = set()
    for bits, _level, offsets in board.legal_masks(digit):
        rotation = bits.shape.rotation
        everything |= offsets << (rotation * span)
        rotations.add(rotation)
    if not everything:
        return
    raw = np.frombuffer(everything.to_bytes(span // 2 + 1, "little"), dtype=np.uint8)
    corners = np.unpackbits(raw, count=4 * span, bitorder="little").reshape(4, rows, w)
    planes = mask.reshape(4, size, size)
    for rotation in rotations:
        width, height = _EXTENT[digit][rotation]
        # window x = ox + column + half, inside 0 .. size - width (the whole tile in)
        c0, c1 = max(0, -(ox + half)), min(w, size - width + 1 - (ox + half))
        r0, r1 = max(0, -(oy + half)), min(rows, size - height + 1 - (oy + half))
        if c0 < c1 and r0 < r1:
            x0, y0 = ox + half + c0, oy + half + r0
            planes[rotation, y0 : y0 + r1 - r0, x0 : x0 + c1 - c0] = corners[rotation, r0:r1, c0:c1]


def window_is_full(state: State, seat: int, size: int = SIZE) -> bool:
    """Whether ``seat`` must place but no legal placement fits the window."""
    if state.is_over or state.placed[seat] is not None:
        return False
    digit = state.card
    assert digit is not None  # the game is not over
    return not any(in_window(digit, p, size) for p in state.legal_actions(seat))
