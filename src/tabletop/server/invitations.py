"""Fair play with invitations (issue 42): a stranger's invitations are capped, can be
blocked, and all declined at once.

An invitation lands in another person's *My games* (and notifications), so sending
them is limited per account, not per address (one account sent 50 through 40
addresses):

* an account keeps at most ``OPEN_PER_INVITEE`` invitations waiting for an answer,
  and sends at most ``OPEN_PER_INVITER`` that wait at once and ``PER_DAY`` a day;
* into rated games, at most ``NEWCOMERS_PER_DAY`` a day go to accounts still
  provisional in the game type (fresh accounts: the alts of a rating farm);
* an account that blocked the inviter is never invited by it. Its refusal reads like
  a full invitee's (``NOT_NOW``), so the inviter does not learn that it was blocked;
  nor does an account invite one it blocked itself (blocks keep both apart: apart.py).
"""

from __future__ import annotations

from ..i18n import N_
from .errors import ApiError, reading
from .ratings import provisional
from .rows import Account, Seat, days_ago
from .storage import GameStore

OPEN_PER_INVITEE = 10
OPEN_PER_INVITER = 10
PER_DAY = 30
NEWCOMERS_PER_DAY = 3
NOT_NOW = N_("seat {seat}: {name} cannot be invited now")


def newcomers(store: GameStore, game_type: str, seats: list[Seat]) -> frozenset[int]:
    """The invited accounts still provisional in ``game_type`` (``ratings.provisional``)."""
    return frozenset(
        s.invited
        for s in seats
        if s.invited is not None
        and provisional(
            f"a:{s.invited}", reading(store.rated_opponents, game_type, f"a:{s.invited}")
        )
    )


def check_invitations(
    store: GameStore, inviter: Account | None, seats: list[Seat], new: frozenset[int]
) -> None:
    """409 for an invitee that blocked ``inviter`` or has too many invitations waiting;
    429 when ``inviter`` sent too many (``new``: the invitees that are newcomers to a
    rated game). Nothing is stored before these pass."""
    invited = [s for s in seats if s.invited is not None]
    if not invited or inviter is None:
        return
    for seat in invited:
        assert seat.invited is not None
        if reading(store.blocks, inviter.id, seat.invited):  # its own block: it may know
            raise ApiError(409, "you blocked {name}: unblock them to invite them", name=seat.name)
        blocked = reading(store.blocks, seat.invited, inviter.id)
        if blocked or len(reading(store.invitations_of, seat.invited)) >= OPEN_PER_INVITEE:
            raise ApiError(409, NOT_NOW, seat=seat.seat + 1, name=seat.name)
    if reading(store.open_invitations_sent, inviter.id) + len(invited) > OPEN_PER_INVITER:
        raise ApiError(
            429,
            "you have {n} invitations waiting for an answer, the most at once: wait for "
            "answers or withdraw some",
            n=OPEN_PER_INVITER,
        )
    today, newcomers_today = reading(store.invitations_sent_since, inviter.id, days_ago(1))
    if today + len(invited) > PER_DAY:
        raise ApiError(429, "you sent {n} invitations today, the most a day", n=PER_DAY)
    if new and newcomers_today + len(new) > NEWCOMERS_PER_DAY:
        raise ApiError(
            429,
            "you can invite at most {n} new players into rated games a day; invite them "
            "to an unrated game",
            n=NEWCOMERS_PER_DAY,
        )
