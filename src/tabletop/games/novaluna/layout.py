"""Nova Luna's research encoding layout (``encoding``): the flat action space, its
codec, and the observation's parts and bounds. Needs numpy (the extra ``rl``).

**Actions** (``Discrete(ACTIONS)``, ``ACTIONS = 3 * GRID * GRID + 2 = 23765``):

* ``choice * GRID * GRID + (y + RADIUS) * GRID + (x + RADIUS)`` — take the
  ``choice``-th tile (0, 1 or 2) clockwise from the meeple (empty spaces
  skipped: ``State.takeable_spaces()[choice]``) and lay it on cell ``(x, y)``
  of your display, ``-RADIUS <= x, y <= RADIUS``;
* ``REFILL_ACTION = 3 * GRID * GRID`` — refill the wheel (2–4 players);
* ``END_PHASE_ACTION = REFILL_ACTION + 1`` — solo: end phase 1.

The first tile lies on ``(0, 0)`` and every later one touches the display, so
a seat's ``k``-th tile lies at most ``k - 1`` cells (edge steps) from it. The
rearmost seat always moves and costs are 1–7, so a seat's total time never
exceeds the others' by more than 7: with two players a seat can take at most
45 tiles (the 45 cheapest cost 137 = (268 + 7) / 2 rounded down), with three
34, with four 29, solo 22. Every legal cell therefore lies within
``RADIUS = 44`` steps of the first tile, and the grid ``GRID = 89`` covers
every legal placement of every game: the mask is exactly the engine's legal
actions.

**Observation** (``Box(-64, 300, (size,), int16)``, the seats rotated so that
the observer comes first, then the following seats in seat order):

* ``header`` (10): players, the seat to move (relative: 0 = the observer),
  whether the observer is to move, solo phase, refill legal, end-phase legal,
  tiles in the pile, tiles on the wheel, turns played, game over;
* ``wheel`` (11 × 4): the spaces clockwise after the meeple, each
  ``(tile id or 0, colour + 1 or 0, cost or 0, choice + 1 if takeable else 0)``;
* ``seats`` (players × 6): discs left, discs placed, time, time minus the
  observer's, place in the turn order (0 = moves next), tiles in the display;
* ``displays`` (players × 45 × 9): per seat the tiles in the order laid, each
  ``(1, x, y, tile id, colour, cost, task 0, task 1, task 2)``, a task being
  0 = none, 1 = open, 2 = covered; unused rows are 0;
* ``unseen`` (68): 1 for each tile id still in the draw pile — the pile as a
  multiset; its order is never encoded.

``split(obs, players)`` gives these parts as named, shaped views.
"""

from __future__ import annotations

import numpy as np

from ...research.encoding import split_parts
from .rules import DISCS, END_PHASE, REFILL, Action, Place, State
from .rules.display import cell_key
from .rules.tiles import TILE_COST, TILE_IDS

RADIUS = 44
GRID = 2 * RADIUS + 1
CELLS = GRID * GRID
REFILL_ACTION = 3 * CELLS
END_PHASE_ACTION = REFILL_ACTION + 1
ACTIONS = END_PHASE_ACTION + 1

MAX_TILES = 45  # the most tiles one seat can hold (see the module docstring)
HEADER = 10
WHEEL = 11 * 4
SEAT = 6
ROW = 9
UNSEEN = 68
LOW, HIGH = -64, 300


def observation_size(players: int) -> int:
    """The length of the observation vector for ``players`` seats.

    >>> observation_size(2)
    944
    """
    return HEADER + WHEEL + players * SEAT + players * MAX_TILES * ROW + UNSEEN


#: The most time a seat can spend: every tile's cost (268) taken by it alone.
MAX_TIME = sum(TILE_COST[t] for t in TILE_IDS)
# Per entry bounds of the raw observation (``observation_bounds``).
_HEADER_HIGH = (4, 3, 1, 2, 1, 1, UNSEEN, 11, UNSEEN, 1)  # pile, wheel, turns: <= 68 tiles
_WHEEL_HIGH = (len(TILE_IDS), 4, 7, 3)  # tile id, colour + 1, cost, choice + 1
# discs left, discs placed, time, time minus the observer's (the rearmost seat always
# moves, so no seat is ever more than 7 ahead of another), place in turn order, tiles
_SEAT_BOUNDS = ((0, 0, 0, -7, 0, 0), (DISCS, DISCS, MAX_TIME, 7, 3, MAX_TILES))
# present, x, y, tile id, colour, cost, three tasks (0 none, 1 open, 2 covered)
_ROW_BOUNDS = (
    (0, -RADIUS, -RADIUS, 0, 0, 0, 0, 0, 0),
    (1, RADIUS, RADIUS, len(TILE_IDS), 3, 7, 2, 2, 2),
)


def observation_bounds(players: int) -> tuple[np.ndarray, np.ndarray]:
    """Per entry the lowest and highest value the observation can hold (``Scaler``):
    ``(0, 0, 0, -7, 0, 0)`` to ``(21, 21, 268, 7, 3, 45)`` for a seat, ``-44`` to
    ``44`` for a display's coordinates, and so on (the module docstring's list).

    >>> low, high = observation_bounds(2)
    >>> low.shape, int(low.min()), int(high.max())
    ((944,), -44, 268)
    """
    low = np.concatenate(
        [
            np.zeros(HEADER + WHEEL),
            np.tile(_SEAT_BOUNDS[0], players),
            np.tile(_ROW_BOUNDS[0], players * MAX_TILES),
            np.zeros(UNSEEN),
        ]
    )
    high = np.concatenate(
        [
            _HEADER_HIGH,
            np.tile(_WHEEL_HIGH, 11),
            np.tile(_SEAT_BOUNDS[1], players),
            np.tile(_ROW_BOUNDS[1], players * MAX_TILES),
            np.ones(UNSEEN),
        ]
    )
    return low.astype(np.int16), high.astype(np.int16)


def split(obs: np.ndarray, players: int) -> dict[str, np.ndarray]:
    """The observation's parts as shaped views (see the module docstring)."""
    parts = [
        ("header", (HEADER,)),
        ("wheel", (11, 4)),
        ("seats", (players, SEAT)),
        ("displays", (players, MAX_TILES, ROW)),
        ("unseen", (UNSEEN,)),
    ]
    return split_parts(obs, parts)


def encode_place(choice: int, x: int, y: int) -> int:
    """The action index of taking the ``choice``-th tile and laying it on ``(x, y)``."""
    return choice * CELLS + (y + RADIUS) * GRID + (x + RADIUS)


def decode(action: int, state: State) -> Action | None:
    """The engine action an index stands for in ``state``; ``None`` if it names no tile."""
    action = int(action)
    if action == REFILL_ACTION:
        return REFILL
    if action == END_PHASE_ACTION:
        return END_PHASE
    if not 0 <= action < REFILL_ACTION:
        return None
    choice, cell = divmod(action, CELLS)
    spaces = state.takeable_spaces()
    if choice >= len(spaces):
        return None
    row, column = divmod(cell, GRID)
    return Place(spaces[choice], column - RADIUS, row - RADIUS)


def encode(action: Action, state: State) -> int:
    """The index of an engine action in ``state`` (the inverse of ``decode``)."""
    if isinstance(action, Place):
        return encode_place(state.takeable_spaces().index(action.space), action.x, action.y)
    return REFILL_ACTION if action == REFILL else END_PHASE_ACTION


def _key_index() -> list[int]:
    table = [-1] * (1 << 16)
    for y in range(-RADIUS, RADIUS + 1):
        for x in range(-RADIUS, RADIUS + 1):
            table[cell_key(x, y)] = (y + RADIUS) * GRID + x + RADIUS
    return table


#: Packed display cell key -> grid index (-1 outside the grid).
KEY_INDEX = _key_index()
