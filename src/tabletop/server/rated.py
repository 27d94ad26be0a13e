"""Whether and how a game counts for the ratings: the ranks of a finished game or of one
that timed out, why a game is unrated, when it started for real, and whether hints are
allowed (casual games only)."""

from __future__ import annotations

from ..core.web import TAKE_BACK, Match
from .correspondence import rating_pool
from .errors import ApiError
from .ratings import RatedEnd, player_key
from .room import Room


def seat_ranks(match: Match, seats: int) -> tuple[int, ...] | None:
    """Each seat's rank in the finished game (1 best, ties shared), from its typed
    outcome; ``None`` for a solo game, which ranks nobody."""
    outcome = match.outcome()
    if outcome is None or seats < 2:
        return None
    return outcome.ranks


def unrated_reason(room: Room, when_full: bool = False) -> str | None:
    """Why the game does not count for the ratings, or ``None`` while it does:
    ``"seed"`` (its creator fixed the seed), ``"casual"`` (its creator chose an unrated
    game), ``"undo"``, ``"hint"``, or ``"players"`` (fewer than two seats, a seat without
    an account, or one account or bot in two seats).
    ``when_full``: as it will be once its open seats are taken (by other accounts)."""
    if len(room.seats) < 2:
        return "players"
    humans = [s for s in room.seats if s.kind == "human" and not (when_full and s.open)]
    accounts = [s.account_id for s in humans]
    if None in accounts or len(set(accounts)) != len(accounts):
        return "players"
    players = [player_key(s) for s in room.seats if s.kind == "bot"]
    if len(set(players)) != len(players):  # one bot in two seats: one rating, two results
        return "players"
    if room.row.seed_chosen:
        return "seed"
    if room.row.options.get("rated") is False:
        return "casual"
    if room.row.undone:
        return "undo"
    if room.row.hinted:
        return "hint"
    return None


def rated_end(room: Room, match: Match) -> RatedEnd | None:
    """The rating update for a game ending now, or ``None`` if it is unrated
    (``unrated_reason``)."""
    ranks = seat_ranks(match, len(room.seats))
    if ranks is None or unrated_reason(room) is not None:
        return None
    return RatedEnd(room.type.name, tuple(player_key(s) for s in room.seats), ranks, _pool(room))


def timeout_ranks(seats: int, timed_out: tuple[int, ...]) -> tuple[int, ...] | None:
    """Each seat's rank in a game ended by a move's time running out: the seats whose
    time ran out share the last place, the others share the first (an unfinished game
    has no final order among them); ``None`` if no seat or every seat ran out of time.

    >>> timeout_ranks(3, (1,)), timeout_ranks(2, (0, 1))
    ((1, 3, 1), None)
    """
    if not timed_out or len(timed_out) == seats:
        return None
    last = seats - len(timed_out) + 1
    return tuple(last if seat in timed_out else 1 for seat in range(seats))


def rated_timeout(room: Room, ranks: tuple[int, ...] | None) -> RatedEnd | None:
    """The rating update for a rated game ended unfinished (a move's time ran out, a
    seat resigned or left): none before the game really started (``started_for_real``)."""
    if ranks is None or unrated_reason(room) is not None or not started_for_real(room):
        return None
    return RatedEnd(room.type.name, tuple(player_key(s) for s in room.seats), ranks, _pool(room))


def _pool(room: Room) -> str:
    """The rating pool the game counts for (``correspondence.rating_pool``)."""
    return rating_pool(room.row.options)


#: the moves each person must have made before a resignation or timeout is rated
REAL_START_MOVES = 2


def started_for_real(room: Room) -> bool:
    """Whether every person in a game among people has made ``REAL_START_MOVES`` moves
    of their own (not the clock's, not a take-back). Before that, ending the game rates
    nobody: else a fresh account that resigns at once hands its opponent a win (alts
    farming a rating, issue 42). Against bots alone a resignation always counts: a bot
    farms nothing."""
    humans = room.humans
    if len(humans) < 2:
        return True
    made = dict.fromkeys(humans, 0)
    for logged, seat in zip(room.log, room.action_seats, strict=True):
        if seat in made and logged.get("by") is None and logged.get("kind") != TAKE_BACK:
            made[seat] += 1
    return min(made.values()) >= REAL_START_MOVES


def check_hint_allowed(room: Room) -> None:
    """409 for a hint in a rated game: asked for in the last round it made the game
    unrated and so cancelled a loss (issue 42). Unrated games allow hints."""
    if unrated_reason(room) is None:
        raise ApiError(
            409, "there are no hints in a rated game (create an unrated game to practise)"
        )
