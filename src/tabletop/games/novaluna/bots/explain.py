"""One-line reasons for hints: what an action does right now."""

from __future__ import annotations

from ....i18n import N_, Reason
from ..rules import END_PHASE, REFILL, Action, Place, View
from ..rules.tiles import TILES


def covers_now(n: int) -> Reason:
    """``"covers 2 tasks now"``."""
    if n == 1:
        return Reason.of(N_("covers 1 task now"))
    return Reason.of(N_("covers {n} tasks now"), n=n)


def describe(view: View, action: Action) -> Reason:
    """``"covers 2 tasks now; cost 3"`` and the like, as translatable parts.

    >>> from tabletop.games.novaluna.rules import Game
    >>> view = Game(players=2).new_state(seed=1).view()
    >>> str(describe(view, view.legal_actions()[0]))
    'lays the first tile; cost 2'
    """
    if action == REFILL:
        return Reason.of(N_("refill the wheel for a better choice of tiles"))
    if action == END_PHASE:
        return Reason.of(N_("end phase 1: every further tile would score twice"))
    assert isinstance(action, Place)
    tile = TILES[view.wheel[action.space]]
    covers = len(view.preview(action))
    if covers:
        what = covers_now(covers)
    elif not view.display(view.current_seat):
        what = Reason.of(N_("lays the first tile"))
    else:
        what = Reason.of(N_("covers nothing yet"))
    return what + Reason.of(N_("cost {cost}"), cost=tile.cost)
