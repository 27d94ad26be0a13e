"""Which seat may act, undo or take back in a game now, and the checks of a submission
(its ``ply`` fresh, its seat the caller's): what ``authority.Authority`` asks before it
changes a game."""

from __future__ import annotations

from typing import Any

from ..core.web import OptionsError, Undo
from ..i18n import N_
from .errors import ApiError
from .rated import unrated_reason
from .room import Room


def late_seats(room: Room) -> tuple[int, ...]:
    """The people still to act in the current turn or round (bots never wait); with
    a clock (``clocks``) only those whose clocks have run out."""
    clocks = room.clocks()
    if clocks is not None:
        return clocks.out_of_time()
    active = room.match.active_seats()
    return tuple(s.seat for s in room.seats if s.seat in active and s.kind == "human")


def acting_seat(room: Room, seats: frozenset[int], wanted: Any = None) -> int:
    """The seat among ``seats`` (a player's, see ``require_player``) that may act
    now — ``wanted`` if given, else the lowest — or a 409 saying why not."""
    if room.row.abandoned:
        raise ApiError(409, "the game was abandoned: a move's time limit ran out")
    if room.waiting:
        raise ApiError(409, "the game waits for players to take its open seats")
    active = room.match.active_seats()
    if not active:
        raise ApiError(409, "the game is over")
    mine = sorted(active & seats)
    if wanted is not None:
        _check_wanted(wanted, seats)
        mine = [wanted] if wanted in active else []
    if not mine:
        waiting = " and ".join(room.seat(s).name for s in sorted(active))
        if any(room.match.has_pending(s) for s in seats):
            raise ApiError(409, "you have acted this round: waiting for {names}", names=waiting)
        raise ApiError(409, "it is not your turn: waiting for {names}", names=waiting)
    if room.clock is not None and mine[0] in late_seats(room):
        raise ApiError(409, "your time has run out")
    return mine[0]


def pending_seat(room: Room, seats: frozenset[int], wanted: Any = None) -> int:
    """The seat among ``seats`` with a pending action to take back, or a 409."""
    if room.row.abandoned:  # over for the server, though its rules would go on
        raise ApiError(409, "the game was abandoned: a move's time limit ran out")
    if room.match.is_over():
        raise ApiError(409, "the game is over")
    if wanted is not None:
        _check_wanted(wanted, seats)
        seats = frozenset({wanted})
    pending = sorted(s for s in seats if room.match.has_pending(s))
    if not pending:
        raise ApiError(
            409, "you have nothing to take back: no action of yours is waiting this round"
        )
    return pending[0]


def check_ply(room: Room, ply: Any) -> None:
    """409 unless the state seen (``ply``) is the current one (a sequential game)."""
    if type(ply) is not int:
        raise ApiError(400, "'ply' (the number of moves made in the state you saw) is needed")
    if ply != room.ply:
        raise ApiError(
            409,
            "the game has moved on (move {now}, not {seen}); look again",
            now=room.ply,
            seen=ply,
        )


def check_fresh(room: Room, seat: int, ply: Any) -> None:
    """409 unless the state seen (``ply``) is current for ``seat`` (``Room.since``)."""
    if type(ply) is not int:
        raise ApiError(400, "'ply' (the number of moves made in the state you saw) is needed")
    if not room.since(seat) <= ply <= room.ply:
        raise ApiError(
            409,
            "the game has moved on (move {now}, not {seen}); look again",
            now=room.ply,
            seen=ply,
        )


def undoing_seat(room: Room, seats: frozenset[int], wanted: Any = None) -> int | None:
    """The seat among ``seats`` an undo is for: ``wanted`` if given, else one with a
    pending action to take back, else the only one (``None``: several, none pending)."""
    if wanted is not None:
        _check_wanted(wanted, seats)
        return int(wanted)
    pending = [s for s in sorted(seats) if room.match.has_pending(s)]
    if pending:
        return pending[0]
    return next(iter(seats)) if len(seats) == 1 else None


def takes_back(room: Room, seat: int | None) -> bool:
    """Whether an undo by ``seat`` withdraws its pending action (not an undo proper:
    nothing was revealed, so the game stays rated)."""
    return seat is not None and not room.finished and room.match.has_pending(seat)


def undo_blocker(room: Room, seat: int | None) -> str | None:
    """Why ``seat`` may not undo now, or ``None`` if it may."""
    if takes_back(room, seat):
        return None
    plan = rewind(room, seat)
    return plan if isinstance(plan, str) else None


def rewind(room: Room, seat: int | None) -> Undo | str:
    """What undoing ``seat``'s last move leaves (the game says: ``Match.undo``), or why
    it may not (a msgid): only while the game is on and every other seat is a bot."""
    if room.finished:
        return N_("the game is over")
    if seat is None:
        return N_("only a player can undo")
    if unrated_reason(room) is None:  # else a loser could undo his way out of a rated loss
        return N_("there is no undo in a rated game (create an unrated game to practise)")
    if room.humans != [seat]:
        if room.simultaneous:
            return N_(
                "with other human players, you can take back only your action of this "
                "round, before the round resolves"
            )
        return N_("undo is only for games without other human players")
    return room.match.undo(room.steps(), seat)


def check_seen(room: Room, seat: int | None, ply: Any) -> None:
    """409 unless the state seen (``ply``) is current for ``seat``; in a simultaneous
    game the others' pending actions do not make it stale (``check_fresh``)."""
    if room.simultaneous and seat is not None:
        check_fresh(room, seat, ply)
    else:
        check_ply(room, ply)


def notation(room: Room, seat: int, action: str | int) -> str:
    """The notation of ``action``: itself, or the action a research encoding's index
    (an ``int``, as outside bots may send: docs/bot-api.md) stands for now."""
    if isinstance(action, str):
        return action
    try:
        found = room.type.action_from_index(room.match.state, seat, action)
    except OptionsError as err:
        raise ApiError(422, err.key, **err.params) from None
    if found is None:
        raise ApiError(422, "{index} is no action index of this game here", index=action)
    return str(found)


def require_player(seats: frozenset[int]) -> None:
    """401 for a spectator (no seat token): checked before anything about the game."""
    if not seats:
        raise ApiError(401, "to play, open your seat link (spectators cannot act)")


def _check_wanted(wanted: Any, seats: frozenset[int]) -> None:
    """400 unless ``wanted`` (a ``seat`` field) names one of ``seats``."""
    if type(wanted) is not int or wanted not in seats:
        yours = ", ".join(map(str, sorted(seats)))
        raise ApiError(400, "'seat' must be one of your seats ({seats})", seats=yours)
