"""One-line reasons for hints: what an action does right now."""

from __future__ import annotations

from ..rules import END_PHASE, REFILL, Action, Place, View
from ..rules.tiles import TILES


def describe(view: View, action: Action) -> str:
    """``"covers 2 tasks now; cost 3"`` and the like.

    >>> from tabletop.games.novaluna.rules import Game
    >>> view = Game(players=2).new_state(seed=1).view()
    >>> describe(view, view.legal_actions()[0])
    'lays the first tile; cost 2'
    """
    if action == REFILL:
        return "refill the wheel for a better choice of tiles"
    if action == END_PHASE:
        return "end phase 1: every further tile would score twice"
    assert isinstance(action, Place)
    tile = TILES[view.wheel[action.space]]
    covers = len(view.preview(action))
    if covers:
        what = f"covers {covers} task{'s' if covers > 1 else ''} now"
    elif not view.display(view.current_seat):
        what = "lays the first tile"
    else:
        what = "covers nothing yet"
    return f"{what}; cost {tile.cost}"
