"""Every change the server stores, one typed value each, run the same way on both stores.

A write is a frozen dataclass that knows how to run itself (``run``) against a
``Sql`` inside the batch's transaction (see ``Committer``); its result type is
the write's own (the new account's id, whether a claim won, ...). The
statements are written once here; a shared store's ``Sql`` adds the change
counter to ``change_game`` (``expected_seq`` is its compare-and-set), so the
writes themselves never ask which database they are on.

This module holds the writes of games, seats, analyses and daily challenges; those of
accounts, sessions and tokens live in ``account_writes``, those of e-mail and sign-in
tries in ``mail_writes``, the base class in ``writebase``: every write is imported from
here.

>>> from tabletop.server.store import Store
>>> store = Store(":memory:")
>>> store.write(CreateGame("g", "nmbr9", {}, 7, [Seat(0, "Ann", "human", None, "tok")]))
>>> store.write(AppendAction("g", 0, 0, "r0@0,0", reveals=False, over=False))[:2]
'20'
>>> store.write(CreateAccount("Ann", "ann", "hash")), store.write(ClaimSeat("g", 0, 1, "Ann"))
(1, True)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import ratings
from .account_writes import (
    DELETED_PLAYER,
    Block,
    ChangePassword,
    CreateAccount,
    CreateSession,
    CreateToken,
    DeleteAccount,
    EndOtherSessions,
    EndSession,
    EndSessions,
    MakeBot,
    RekeyNames,
    RevokeToken,
    RevokeTokens,
    TouchSession,
    TouchToken,
    Unblock,
)
from .mail_writes import (
    ClaimMail,
    ForgetMail,
    GiveBackLoginTry,
    MailRefusal,
    PruneLoginTries,
    PruneMails,
    RefundLoginTry,
    ReserveConfirmation,
    ReserveLoginTry,
    SaveMailSettings,
    ServerSecret,
    StopMail,
    VerifyMail,
)
from .ratings import RatedEnd
from .rows import ActionRow, Seat, StoreError, days_ago, hash_token, now
from .sql import Sql
from .writebase import Write


@dataclass(frozen=True)
class CreateGame(Write[None]):
    """A new game with its seats; ``seed_chosen``: the creator fixed the seed."""

    game_id: str
    type_name: str
    options: dict[str, Any]  # the game type's own options: any JSON object
    seed: int
    seats: Sequence[Seat]
    seed_chosen: bool = False
    creator: int | None = None
    #: invited accounts still provisional, invited to a rated game (``invitations``)
    newcomers: frozenset[int] = frozenset()

    def run(self, sql: Sql) -> None:
        stamp = now()
        sql.run(
            "INSERT INTO games (id, type, options, seed, seed_chosen, created, updated, creator) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                *(self.game_id, self.type_name, json.dumps(self.options), self.seed),
                *(self.seed_chosen, stamp, stamp, self.creator),
            ),
        )
        sql.run_many(
            "INSERT INTO seats (game_id, seat, name, kind, bot, token_hash, account_id, open, "
            "invited) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    *(self.game_id, s.seat, s.name, s.kind, s.bot),
                    *(s.token and hash_token(s.token), s.account_id, s.open, s.invited),
                )
                for s in self.seats
            ],
        )
        invited = [s.invited for s in self.seats if s.invited is not None]
        if invited and self.creator is not None:  # counted for the caps per day
            sql.run("DELETE FROM invitations_sent WHERE created < ?", (days_ago(2),))
            sql.run_many(
                "INSERT INTO invitations_sent (inviter, invitee, newcomer, created) "
                "VALUES (?, ?, ?, ?)",
                [(self.creator, i, i in self.newcomers, stamp) for i in invited],
            )


@dataclass(frozen=True)
class AppendAction(Write[str]):
    """Action number ``ply`` (0-based); its result is the time stored with it. Fails if
    the ply is taken. ``by``: who acted when not the seat itself (``"clock"``);
    ``rated``: the game ends with it and is rated (in the same transaction);
    ``ranks``: each seat's rank when it ends."""

    game_id: str
    ply: int
    seat: int
    action: str
    reveals: bool
    over: bool
    by: str | None = None
    rated: RatedEnd | None = None
    ranks: tuple[int, ...] | None = None
    expected_seq: int | None = None

    def run(self, sql: Sql) -> str:
        stamp = now()
        sql.change_game(self.game_id, self.expected_seq, updated=stamp, over=self.over)
        sql.run(
            "INSERT INTO actions (game_id, ply, seat, action, reveals, at, by) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (self.game_id, self.ply, self.seat, self.action, self.reveals, stamp, self.by),
        )
        if self.over:
            end_game(sql, self.game_id, self.ranks, self.rated)
        return stamp


def end_game(sql: Sql, game_id: str, ranks: tuple[int, ...] | None, rated: RatedEnd | None) -> None:
    """Store each seat's rank ("my games" shows results without replaying) and rate the
    game, unless a hint or an undo was stored for it meanwhile (by any process: the
    room that ended it may not know yet)."""
    if ranks is not None:
        sql.run_many(
            "UPDATE seats SET rank = ? WHERE game_id = ? AND seat = ?",
            [(rank, game_id, number) for number, rank in enumerate(ranks)],
        )
    if rated is None:
        return
    helped = sql.row("SELECT 1 FROM games WHERE id = ? AND (hinted OR undone)", (game_id,))
    if helped is None:
        sql.lock_ratings()
        ratings.apply(sql, game_id, rated)


@dataclass(frozen=True)
class Truncate(Write[None]):
    """Drop the actions from ``ply`` on (an undo), then store ``again`` (some of them,
    numbered anew from ``ply``: the bots' placements of a simultaneous round that
    stay): the game is not over any more, and it is unrated from now on."""

    game_id: str
    ply: int
    expected_seq: int | None = None
    again: tuple[ActionRow, ...] = ()

    def run(self, sql: Sql) -> None:
        stamp = now()  # the move clock starts again from the undo (``Room.time_limit_deadline``)
        sql.change_game(
            self.game_id,
            self.expected_seq,
            updated=stamp,
            over=False,
            undone=True,
            clock_from=stamp,
        )
        sql.run("DELETE FROM actions WHERE game_id = ? AND ply >= ?", (self.game_id, self.ply))
        sql.run_many(
            "INSERT INTO actions (game_id, ply, seat, action, reveals, at, by) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(self.game_id, a.ply, a.seat, a.action, a.reveals, a.at, a.by) for a in self.again],
        )
        sql.run("UPDATE seats SET rank = NULL WHERE game_id = ?", (self.game_id,))


@dataclass(frozen=True)
class Abandon(Write[None]):
    """End the game unfinished (a move's time ran out, "abandon" chosen): ``timed_out``
    are the seats whose time ran out; a rated game is rated with them last
    (``ranks``, ``rated``), an unrated one just ends."""

    game_id: str
    expected_seq: int | None = None
    timed_out: tuple[int, ...] = ()
    ranks: tuple[int, ...] | None = None
    rated: RatedEnd | None = None
    resigned: bool = False  # ``timed_out`` resigned instead

    def run(self, sql: Sql) -> None:
        seats = ",".join(map(str, self.timed_out)) or None
        sql.change_game(
            self.game_id,
            self.expected_seq,
            updated=now(),
            over=True,
            abandoned=True,
            timed_out=seats,
            resigned=self.resigned,
        )
        end_game(sql, self.game_id, self.ranks, self.rated)


@dataclass(frozen=True)
class ClaimSeat(Write[bool]):
    """Give an unclaimed human seat to an account (its name becomes the seat's); false if
    someone claimed it first. A change of the game, so that other processes reload
    its seats."""

    game_id: str
    seat: int
    account_id: int
    name: str
    expected_seq: int | None = None

    def run(self, sql: Sql) -> bool:
        sql.change_game(self.game_id, self.expected_seq)  # a shared store locks the game here
        was_open = sql.row(
            "SELECT open FROM seats WHERE game_id = ? AND seat = ?", (self.game_id, self.seat)
        )
        claimed = sql.run(
            "UPDATE seats SET account_id = ?, name = ?, open = ?, invited = NULL "
            "WHERE game_id = ? AND seat = ? AND kind = 'human' AND account_id IS NULL",
            (self.account_id, self.name, False, self.game_id, self.seat),
        )
        if was_open and was_open[0]:  # the game starts when its last open seat is taken
            sql.run(
                "UPDATE games SET started = ? WHERE id = ? AND NOT EXISTS "
                "(SELECT 1 FROM seats WHERE game_id = ? AND open)",
                (now(), self.game_id, self.game_id),
            )
        sql.announce(self.game_id)  # again, naming the new account (change_game's did not)
        return claimed == 1


@dataclass(frozen=True)
class DeclineInvitation(Write[bool]):
    """The account invited to an open seat says no: the seat stays open, to anyone in
    the lobby (its creator may withdraw the game); false if it was not invited there
    (any more)."""

    game_id: str
    seat: int
    account_id: int
    name: str  # the open seat's name again
    expected_seq: int | None = None

    def run(self, sql: Sql) -> bool:
        sql.change_game(self.game_id, self.expected_seq)  # announced with the invitee
        return (
            sql.run(
                "UPDATE seats SET invited = NULL, name = ? WHERE game_id = ? AND seat = ? "
                "AND invited = ? AND open",
                (self.name, self.game_id, self.seat, self.account_id),
            )
            == 1
        )


@dataclass(frozen=True)
class WithdrawGame(Write[bool]):
    """Delete a game that never started (a seat still open: no move was made, nothing
    rated); false if it had started meanwhile (its last open seat taken)."""

    game_id: str

    def run(self, sql: Sql) -> bool:
        waiting = sql.row(
            "SELECT 1 FROM games g WHERE id = ? AND NOT over AND EXISTS "
            "(SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.open)",
            (self.game_id,),
        )
        if not waiting:
            return False
        sql.run("DELETE FROM seats WHERE game_id = ?", (self.game_id,))
        sql.run("DELETE FROM games WHERE id = ?", (self.game_id,))
        return True


# -- post-game analyses ---------------------------------------------------------------


@dataclass(frozen=True)
class RequestAnalysis(Write[bool]):
    """Ask for a game's analysis at ``budget``; True if this asked first (a game is
    analysed once: a second request, from any process, changes nothing, unless the
    first one failed: then it starts again)."""

    game_id: str
    budget: int

    def run(self, sql: Sql) -> bool:
        return (
            sql.run(
                "INSERT INTO analyses (game_id, budget, requested) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET requested = excluded.requested, done = 0, "
                "total = NULL, finished = NULL, result = NULL, error = NULL "
                "WHERE analyses.error IS NOT NULL",
                (self.game_id, self.budget, now()),
            )
            == 1
        )


@dataclass(frozen=True)
class AnalysisProgress(Write[None]):
    """``done`` of ``total`` decisions judged so far, and ``partial``: the analysis of
    those decisions alone (kept in ``result`` until the finished one replaces it, so
    that every process's readers see the first judged moves while the rest runs)."""

    game_id: str
    done: int
    total: int
    partial: dict[str, Any] | None = None

    def run(self, sql: Sql) -> None:
        shown = None if self.partial is None else json.dumps(self.partial, separators=(",", ":"))
        sql.run(
            "UPDATE analyses SET done = ?, total = ?, result = ? "
            "WHERE game_id = ? AND finished IS NULL",
            (self.done, self.total, shown, self.game_id),
        )


@dataclass(frozen=True)
class FinishAnalysis(Write[None]):
    """The analysis worked out (``result``), or why it could not be (``error``)."""

    game_id: str
    result: dict[str, Any] | None
    error: str | None = None

    def run(self, sql: Sql) -> None:
        sql.run(
            "UPDATE analyses SET finished = ?, result = ?, error = ? "
            "WHERE game_id = ? AND finished IS NULL",
            (
                now(),
                None if self.result is None else json.dumps(self.result, separators=(",", ":")),
                self.error,
                self.game_id,
            ),
        )


# -- daily challenges -------------------------------------------------------------------


@dataclass(frozen=True)
class StartDaily(Write[tuple[str, bool]]):
    """An account's (``game.creator``) counted attempt at ``day``'s challenge: ``game``
    is created with it, unless the account has an attempt at that game and day already;
    then nothing is created. The result is ``(game id, created)``. The table's key
    decides, not a read before: two requests at once (two tabs, two processes) count
    once, the second one's transaction waiting for the first and then finding its row."""

    game: CreateGame
    day: str

    def run(self, sql: Sql) -> tuple[str, bool]:
        key = (self.game.type_name, self.day, self.game.creator)
        claimed = sql.run(
            "INSERT INTO daily_attempts (type, day, account_id, game_id, created) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (type, day, account_id) DO NOTHING",
            (*key, self.game.game_id, now()),
        )
        if claimed != 1:
            row = sql.row(
                "SELECT game_id FROM daily_attempts WHERE type = ? AND day = ? AND account_id = ?",
                key,
            )
            if row is None:  # cannot happen: the conflict was with this very key
                raise StoreError("the daily attempt could not be stored; try again")
            return str(row[0]), False
        self.game.run(sql)  # its key is checked at the commit: the game is in by then
        return self.game.game_id, True


@dataclass(frozen=True)
class MarkHinted(Write[None]):
    """A seat of the game asked for a hint (a daily board says "with help")."""

    game_id: str

    def run(self, sql: Sql) -> None:
        sql.run("UPDATE games SET hinted = ? WHERE id = ? AND NOT hinted", (True, self.game_id))


# every write, here and in the modules of accounts and of mail (where they live)
__all__ = [
    "DELETED_PLAYER",
    "Abandon",
    "AnalysisProgress",
    "AppendAction",
    "Block",
    "ChangePassword",
    "ClaimMail",
    "ClaimSeat",
    "CreateAccount",
    "CreateGame",
    "CreateSession",
    "CreateToken",
    "DeclineInvitation",
    "DeleteAccount",
    "EndOtherSessions",
    "EndSession",
    "EndSessions",
    "FinishAnalysis",
    "ForgetMail",
    "GiveBackLoginTry",
    "MailRefusal",
    "MakeBot",
    "MarkHinted",
    "PruneLoginTries",
    "PruneMails",
    "RefundLoginTry",
    "RekeyNames",
    "RequestAnalysis",
    "ReserveConfirmation",
    "ReserveLoginTry",
    "RevokeToken",
    "RevokeTokens",
    "SaveMailSettings",
    "ServerSecret",
    "StartDaily",
    "StopMail",
    "TouchSession",
    "TouchToken",
    "Truncate",
    "Unblock",
    "VerifyMail",
    "WithdrawGame",
    "Write",
    "end_game",
]
