"""NMBR 9's observation for the research encoding (``encoding``): its size, bounds and
parts, built from the engine's ``View``, and the position as text. Needs numpy.

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
>>> parts = split(observe(Game(players=2).new_state(seed=1), 0), 2)
>>> parts["boards"].shape, parts["header"].tolist()
((2, 2, 40, 40), [2, 0, 20, 5, 1, 0])
"""

from __future__ import annotations

import numpy as np

from ...research.encoding import split_parts
from .rules import CARDS, State, View
from .window import SIZE

HEADER = 6
LOW, HIGH = -1, 1000


def observation_size(players: int, size: int = SIZE) -> int:
    """The length of the observation vector.

    >>> observation_size(1)
    3217
    """
    return HEADER + 10 + players + players * 2 * size * size


# A bound on the solo score: each tile scores digit × level, the 20 digits sum to
# 90 and no tile lies higher than level 19.
SOLO_BEST = 90.0 * 19


def observation_bounds(players: int, size: int = SIZE) -> tuple[np.ndarray, np.ndarray]:
    """Per entry the lowest and highest value the observation can hold (``Scaler``):
    the header ``(players, round, rounds, card, to place, over)`` from ``(0, 0, 0, -1,
    0, 0)`` to ``(4, 20, 20, 9, 1, 1)``, each digit's unturned cards 0-2, scores 0 to
    ``SOLO_BEST``, heights 0-20 and digits + 1 0-10.

    >>> low, high = observation_bounds(1)
    >>> low.shape, int(low.min()), int(high.max())
    ((3217,), -1, 1710)
    """
    plane = size * size
    low = np.zeros(observation_size(players, size), np.int16)
    low[3] = -1
    high = np.concatenate(
        [
            (4, CARDS, CARDS, 9, 1, 1),
            np.full(10, 2),
            np.full(players, SOLO_BEST),
            np.tile(np.repeat((CARDS, 10), plane), players),
        ]
    ).astype(np.int16)
    return low, high


def split(obs: np.ndarray, players: int, size: int = SIZE) -> dict[str, np.ndarray]:
    """The observation's parts as shaped views (see the module docstring)."""
    parts = [
        ("header", (HEADER,)),
        ("unturned", (10,)),
        ("scores", (players,)),
        ("boards", (players, 2, size, size)),
    ]
    return split_parts(obs, parts)


def observe(state: State, seat: int, size: int = SIZE, *, acting: bool | None = None) -> np.ndarray:
    """The observation of ``seat`` (see the module docstring), built from the engine's
    ``View``: nothing of another seat's pending placement can reach it.

    ``acting``: whether ``seat`` is to place now (default: it has not placed yet)."""
    view = View(state, seat)
    return observe_view(view, size, acting=acting)


def observe_view(view: View, size: int = SIZE, *, acting: bool | None = None) -> np.ndarray:
    """The observation of ``view``'s seat; a spectator's view (``viewer`` None) gives the
    public observation: seat 0 first, no pending placement, "to place" 0."""
    viewer = view.viewer
    seat = 0 if viewer is None else viewer
    n = view.game.players
    obs = np.zeros(observation_size(n, size), dtype=np.int16)
    if acting is None:
        acting = viewer is not None and not view.is_over and not view.has_placed[seat]
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


def render(
    state: State, seat: int | None = None, *, turned: bool = True, public: bool = False
) -> str:
    """Plain text: the card, and each board as ``seat`` may see it (``None``: all of it,
    pending placements included, as a referee sees it; ``public``: as everyone sees it,
    no pending placement shown). ``turned=False``: the round's card is not turned yet
    (OpenSpiel's chance node), whatever card the engine's deck holds there."""
    card = f"card {state.card}" if turned else "no card turned yet"
    if state.is_over:
        card = "over"
    lines = [
        f"NMBR 9, {state.game.players} player(s), round {min(state.round, state.rounds - 1) + 1}"
        f"/{state.rounds}, {card}"
    ]
    if public:
        boards = View(state, None).boards
    else:
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
