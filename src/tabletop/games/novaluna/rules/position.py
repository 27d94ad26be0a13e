"""Positions set up by hand: a state in the middle of a game, for tutorials and tests.

A tutorial teaches the end of the game without playing forty turns first, so it
starts from a described position: the wheel, the meeple, the rest of the pile in
draw order, each seat's display, discs left and time on the moon track.

>>> from tabletop.games.novaluna.rules import Game
>>> state = from_position(
...     Game(players=2),
...     wheel={1: 52, 2: 19},
...     meeple=0,
...     pile=[35, 36],
...     displays=[{(0, 0): 18}, {(0, 0): 1}],
...     time=[3, 5],
... )
>>> state.current_seat, state.takeable_spaces(), state.pile_count, state.can_refill()
(0, [1, 2], 2, True)

Tiles named nowhere (not on the wheel, in the pile or in a display) are out of
play, as if they lay in displays the position does not show.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .display import Display, cell_key
from .state import DISCS, WHEEL_SPACES, Game, State
from .tiles import TILE_IDS

Cells = Mapping[tuple[int, int], int]


def from_position(
    game: Game,
    *,
    wheel: Mapping[int, int],
    meeple: int,
    pile: Sequence[int],
    displays: Sequence[Cells],
    time: Sequence[int] | None = None,
    stack: Sequence[int] | None = None,
    supply: Sequence[int] | None = None,
) -> State:
    """A state with this position, the seat to move found by the usual rule.

    ``wheel`` maps spaces (0–11) to tile ids; ``pile`` is the draw pile, top first.
    Each display's tiles are laid from ``(0, 0)`` outwards (they must form one group
    of edge-to-edge neighbours) and every task they fulfil is covered, as in play.
    ``time`` is each seat's total time (standard games; default all 0); ``stack``
    lists the seats bottom to top for markers sharing a space (default seat order).
    ``supply`` is each seat's discs left (default: the game's supply less the discs
    on its display). A solo position is in phase 1.
    """
    players = game.players
    _check_tiles(wheel, meeple, pile, displays, players)
    time = [0] * players if time is None else list(time)
    stack = list(range(players)) if stack is None else list(stack)
    if len(time) != players or min(time) < 0 or (game.solo and any(time)):
        raise ValueError("time lists each seat's non-negative total (all 0 in the solo game)")
    if sorted(stack) != list(range(players)):
        raise ValueError(f"the stack must list seats 0..{players - 1} once each")
    if max(time) - min(time) > 7:
        raise ValueError("markers are never more than 7 spaces apart")
    laid = [_lay(cells) for cells in displays]
    if supply is None:
        supply = [game.supply - d.covered for d in laid]
    if len(supply) != players or not all(0 < left <= game.supply for left in supply):
        raise ValueError(f"each seat has 1 to {game.supply} discs left")
    if game.solo and laid[0].covered + supply[0] != DISCS:
        raise ValueError(f"a solo position places {DISCS} discs in all")

    # The pile's drawn part: the tiles out of play and those on the wheel.
    drawn = sorted(set(TILE_IDS) - set(pile))
    state = game.new_state(pile=drawn + list(pile), start_stack=None if game.solo else stack)
    state.wheel = [wheel.get(space, 0) for space in range(WHEEL_SPACES)]
    state.on_wheel = len(wheel)
    state.meeple = meeple
    state.drawn = len(drawn)
    state._spaces = None
    state.displays = laid
    state.supply = list(supply)
    state.time = time
    state._start_turn()
    return state


def _check_tiles(
    wheel: Mapping[int, int],
    meeple: int,
    pile: Sequence[int],
    displays: Sequence[Cells],
    players: int,
) -> None:
    if len(displays) != players:
        raise ValueError(f"a position lists {players} displays, one per seat")
    if not 0 <= meeple < WHEEL_SPACES or wheel.get(meeple):
        raise ValueError("the meeple stands on an empty wheel space (0-11)")
    if any(not 0 <= space < WHEEL_SPACES for space in wheel):
        raise ValueError("wheel spaces are numbered 0 to 11")
    named = [*wheel.values(), *pile, *(t for cells in displays for t in cells.values())]
    if len(set(named)) != len(named) or not set(named) <= set(TILE_IDS):
        raise ValueError("a position names each tile (1-68) at most once")


def _lay(cells: Cells) -> Display:
    """A display holding ``cells``, laid from ``(0, 0)`` outwards, fulfilled tasks covered."""
    display = Display()
    if not cells:
        return display
    if (0, 0) not in cells:
        raise ValueError("a display's first tile lies on (0, 0)")
    todo = dict(cells)
    while todo:
        cell = next((c for c in sorted(todo) if cell_key(*c) in display._fpos), None)
        if cell is None:
            raise ValueError(f"{sorted(todo)} do not touch the rest of the display")
        for key, index in display.lay(todo.pop(cell), cell_key(*cell)):
            display.cover(key, index)
    return display
