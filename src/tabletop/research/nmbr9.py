"""NMBR 9 as arrays: the fixed flat action space, the observation and the mask.

The table has no edge, but a fixed action space needs one: the environments
play on a **window** of ``size × size`` squares (default ``SIZE = 40``),
squares ``x, y`` from ``-size // 2`` to ``size - size // 2 - 1``. The first
tile lies with its top-left corner on ``(0, 0)`` (the engine offers only that:
where the first tile lies changes nothing), near the middle of the window.

**Actions** (``Discrete(4 * size * size)``): ``rotation * size * size +
(y + size // 2) * size + (x + size // 2)`` lays this round's tile turned
``rotation`` quarter turns clockwise with the top-left corner of its bounding
box on square ``(x, y)``. The mask offers exactly the engine's legal
placements (one per distinct rotation, as ``State.legal_actions``) whose
squares all lie in the window. There is no pass: the rules always offer a
placement. A tile lies at most 4 squares from the tiles it touches, and a board
of at most 20 tiles (≤ 200 squares on the table) leaves room in a 40 × 40
window in every game we have played; ``window_is_full`` is what would tell.

**Observation** (``Box(-1, 1000, (n,), int16)``, seats rotated so that the
observer comes first):

* ``header`` (6): players, round (from 0), rounds in the game, this round's
  card (digit; -1 once over), whether the observer has still to place this
  round, game over;
* ``unturned`` (10): per digit, the cards not turned yet (the removed ones among
  them: nobody knows which) — a multiset, never the order;
* ``scores`` (players): points on each board as the observer may see it;
* ``boards`` (players × 2 × size × size): per seat the height of every square
  and the digit + 1 of its top tile (0 = empty). Other seats' boards are as of
  the last completed round: their placements of the current round stay hidden
  until the round resolves (the engine's ``View``).

>>> from tabletop.games.nmbr9.rules import Game
>>> state = Game(players=2).new_state(seed=1)
>>> mask = legal_mask(state, 0)
>>> int(mask.sum()) == len(state.legal_actions(0))
True
>>> parts = split(observe(state, 0), 2)
>>> parts["boards"].shape, parts["header"].tolist()
((2, 2, 40, 40), [2, 0, 20, 5, 1, 0])
"""

from __future__ import annotations

import numpy as np

from ..games.nmbr9.rules import SHAPES, Place, State, View

SIZE = 40
HEADER = 6
LOW, HIGH = -1, 1000


def actions(size: int = SIZE) -> int:
    return 4 * size * size


def observation_size(players: int, size: int = SIZE) -> int:
    """The length of the observation vector.

    >>> observation_size(1)
    3217
    """
    return HEADER + 10 + players + players * 2 * size * size


def split(obs: np.ndarray, players: int, size: int = SIZE) -> dict[str, np.ndarray]:
    """The observation's parts as shaped views (see the module docstring)."""
    out = {}
    at = 0
    for name, shape in (
        ("header", (HEADER,)),
        ("unturned", (10,)),
        ("scores", (players,)),
        ("boards", (players, 2, size, size)),
    ):
        n = int(np.prod(shape))
        out[name] = obs[at : at + n].reshape(shape)
        at += n
    return out


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


def _offsets(bits: int) -> np.ndarray:
    """The positions of the set bits of a non-negative int, lowest first."""
    raw = np.frombuffer(bits.to_bytes((bits.bit_length() + 7) // 8, "little"), dtype=np.uint8)
    return np.flatnonzero(np.unpackbits(raw, bitorder="little"))


#: Per digit and rotation: the shape's (width, height).
_EXTENT = tuple(tuple((s.width, s.height) for s in rotations) for rotations in SHAPES)


def legal_mask(state: State, seat: int, size: int = SIZE) -> np.ndarray:
    """``int8``: 1 for each legal placement of ``seat`` that lies in the window.

    The same placements as ``state.legal_actions(seat)`` (tests check it), read
    straight from the board's bit masks of legal corners rather than listed.
    """
    mask = np.zeros(actions(size), dtype=np.int8)
    if state.is_over or state.placed[seat] is not None:
        return mask
    digit = state.card
    board = state.boards[seat]
    if not board.tiles:
        for place in state.legal_actions(seat):
            if in_window(digit, place, size):
                mask[encode(place, size)] = 1
        return mask
    half = size // 2
    ox, oy = board.corner(0)
    w = board._w  # the board's bitboard stride (see ``Board.corner``)
    for bits, _level, offsets in board.legal_masks(digit):
        rotation = bits.shape.rotation
        width, height = _EXTENT[digit][rotation]
        rows, columns = np.divmod(_offsets(offsets), w)
        x, y = columns + (ox + half), rows + (oy + half)  # window coordinates
        inside = (x >= 0) & (x + width <= size) & (y >= 0) & (y + height <= size)
        mask[rotation * size * size + y[inside] * size + x[inside]] = 1
    return mask


def window_is_full(state: State, seat: int, size: int = SIZE) -> bool:
    """Whether ``seat`` must place but no legal placement fits the window."""
    return (
        not state.is_over
        and state.placed[seat] is None
        and not any(in_window(state.card, p, size) for p in state.legal_actions(seat))
    )


def observe(state: State, seat: int, size: int = SIZE, *, acting: bool | None = None) -> np.ndarray:
    """The observation of ``seat`` (see the module docstring), built from the engine's
    ``View``: nothing of another seat's pending placement can reach it.

    ``acting``: whether ``seat`` is to place now (default: it has not placed yet)."""
    view = View(state, seat)
    return observe_view(view, size, acting=acting)


def observe_view(view: View, size: int = SIZE, *, acting: bool | None = None) -> np.ndarray:
    seat = view.viewer
    n = view.game.players
    obs = np.zeros(observation_size(n, size), dtype=np.int16)
    if acting is None:
        acting = not view.is_over and not view.has_placed[seat]
    obs[:HEADER] = (
        n,
        view.round,
        view.rounds,
        -1 if view.card is None else view.card,
        acting,
        view.is_over,
    )
    at = HEADER
    for digit in view.unturned:
        obs[at + digit] += 1
    at += 10
    order = [(seat + k) % n for k in range(n)]
    obs[at : at + n] = [view.boards[s].score for s in order]
    at += n
    planes = obs[at:].reshape(n, 2, size, size)
    half = size // 2
    for k, s in enumerate(order):
        board = view.boards[s]
        if not board.squares:
            continue
        tiles = board.tiles
        cells = np.array(list(board.squares), dtype=np.int64) + half
        tops = np.array(list(board.squares.values()), dtype=np.int64)
        inside = ((cells >= 0) & (cells < size)).all(axis=1)
        columns, rows = cells[inside, 0], cells[inside, 1]
        planes[k, 0, rows, columns] = tops[inside, 0]
        digits = np.array([tiles[i].digit + 1 for i in tops[inside, 1].tolist()], dtype=np.int16)
        planes[k, 1, rows, columns] = digits
    return obs


def render(state: State, seat: int | None = None) -> str:
    """Plain text: the card, and each board as ``seat`` may see it (``None``: all of it,
    pending placements included, as a referee sees it)."""
    lines = [
        f"NMBR 9, {state.game.players} player(s), round {min(state.round, state.rounds - 1) + 1}"
        f"/{state.rounds}, " + ("over" if state.is_over else f"card {state.card}")
    ]
    boards = state.boards if seat is None else View(state, seat).boards
    for s, board in enumerate(boards):
        lines.append(f"seat {s}: {board.score} points, {len(board.tiles)} tiles")
        if board.squares:
            x0, y0, x1, y1 = board.bounds()
            for y in range(y0, y1 + 1):
                row = ""
                for x in range(x0, x1 + 1):
                    height, index = board.squares.get((x, y), (0, -1))
                    row += str(board.tiles[index].digit) if height else "."
                lines.append("  " + row)
    return "\n".join(lines)


__all__ = ["SIZE", "decode", "encode", "legal_mask", "observe", "split"]
