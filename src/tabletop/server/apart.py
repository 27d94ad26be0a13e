"""Blocks keep two accounts apart (issue 46): whoever blocked whom, they are never
seated in one game, the lobby never lists one's open games to the other, and neither
is invited, notified or mailed because of the other.

The account that was blocked is never told: each refusal it meets reads like the
ordinary one (a full game, a seat no longer there). The block list itself is
``invitations_api``'s (``/api/account/blocks``)."""

from __future__ import annotations

from collections.abc import Iterable

from ..i18n import N_
from .errors import reading
from .room import Room
from .storage import GameStore

#: a seat refused to an account kept apart from a player there: as a seat gone
SEAT_GONE = N_("that seat is no longer available")


def accounts_in(room: Room, invited: bool = True) -> set[int]:
    """The accounts holding a seat of the game, and those invited to one (unless not
    ``invited``: two invitees kept apart may each accept until the other did)."""
    return {a for s in room.seats for a in (s.account_id, s.invited if invited else None) if a}


def kept_apart(store: GameStore, account_id: int, others: Iterable[int]) -> bool:
    """Whether ``account_id`` blocked, or was blocked by, any of ``others``."""
    others = set(others) - {account_id}
    return bool(others) and bool(reading(store.kept_apart, account_id) & others)
