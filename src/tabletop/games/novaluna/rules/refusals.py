"""Why the rules refuse an action: the messages of ``State.apply``'s refusals.

Apart from the engine (``state.py``) because they are only read on the way to an
``IllegalActionError``, never in play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import IllegalActionError, Place
from .display import cell_key, in_bounds

if TYPE_CHECKING:
    from .state import State


def why_not_place(state: State, action: object) -> IllegalActionError:
    """Why ``action`` (any object a caller passed) is not a legal take-and-place now;
    only asked of one that is not."""
    if state.is_over:
        return IllegalActionError("the game is over")
    if not isinstance(action, Place):
        return IllegalActionError("{action} is not a take-and-place action", action=str(action))
    spaces = state.takeable_spaces()
    if action.space not in spaces:
        if not 0 <= action.space < len(state.wheel):  # the wheel lists every space
            return IllegalActionError(
                "{action}: there is no wheel space {space}",
                action=str(action),
                space=action.space,
            )
        allowed = ", ".join(map(str, spaces))
        if not state.wheel[action.space]:
            return IllegalActionError(
                "{action}: space {space} is empty; you may take from space {allowed}",
                action=str(action),
                space=action.space,
                allowed=allowed,
            )
        return IllegalActionError(
            "{action}: space {space} is not one of the next three tiles; "
            "you may take from space {allowed}",
            action=str(action),
            space=action.space,
            allowed=allowed,
        )
    display = state.displays[state.current_seat]
    if not in_bounds(action.x, action.y) or cell_key(action.x, action.y) not in display._fpos:
        cell = f"{action.x},{action.y}"
        if not display.tiles:
            return IllegalActionError(
                "{action}: the first tile goes on cell 0,0", action=str(action)
            )
        if in_bounds(action.x, action.y) and cell_key(action.x, action.y) in display.tiles:
            return IllegalActionError(
                "{action}: cell {cell} is taken", action=str(action), cell=cell
            )
        return IllegalActionError(
            "{action}: cell {cell} does not touch your tiles edge to edge",
            action=str(action),
            cell=cell,
        )
    raise AssertionError(f"{action} is a legal place")


def why_no_refill(state: State) -> IllegalActionError:
    """Why a refill is refused now."""
    if state.is_over:
        return IllegalActionError("the game is over")
    if state.game.solo:
        return IllegalActionError("there is no refill during a solo phase")
    if state.refilled:
        return IllegalActionError("the wheel was already refilled this turn")
    if state.pile_count <= 0:
        return IllegalActionError("the draw pile is empty")
    return IllegalActionError(
        "a refill is only allowed with 1 or 2 tiles on the wheel, not {tiles}",
        tiles=state.on_wheel,
    )


def why_no_end(state: State) -> IllegalActionError:
    """Why ending solo phase 1 is refused now."""
    if state.is_over:
        return IllegalActionError("the game is over")
    if not state.game.solo:
        return IllegalActionError("only the solo game has phases")
    if state.phase != 1:
        return IllegalActionError("phase 1 has already ended")
    return IllegalActionError(
        "phase 1 can end once 8 discs are placed; {discs} are", discs=state.discs_placed(0)
    )
