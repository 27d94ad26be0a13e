"""Every change the server stores, one typed value each, run the same way on both stores.

A write is a frozen dataclass that knows how to run itself (``run``) against a
``Sql`` inside the batch's transaction (see ``Committer``); its result type is
the write's own (the new account's id, whether a claim won, ...). The
statements are written once here; a shared store's ``Sql`` adds the change
counter to ``change_game`` (``expected_seq`` is its compare-and-set), so the
writes themselves never ask which database they are on.

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
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from . import ratings
from .ratings import RatedEnd
from .rows import OPEN_NAME, ActionRow, Seat, StoreError, days_ago, hash_token, now
from .sql import Sql

T_co = TypeVar("T_co", covariant=True)


class Write(ABC, Generic[T_co]):
    """A change waiting to be stored; ``run`` applies it and returns its result."""

    @abstractmethod
    def run(self, sql: Sql) -> T_co: ...


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


@dataclass(frozen=True)
class CreateAccount(Write[int]):
    """A new account; its result is the account's id. Fails if ``key`` (the case-folded
    name) is taken."""

    name: str
    key: str
    password_hash: str

    def run(self, sql: Sql) -> int:
        return sql.insert_id(
            "INSERT INTO accounts (name, name_key, password_hash, created) VALUES (?, ?, ?, ?)",
            (self.name, self.key, self.password_hash, now()),
        )


@dataclass(frozen=True)
class CreateSession(Write[None]):
    token_hash: str
    account_id: int

    def run(self, sql: Sql) -> None:
        sql.run(
            "INSERT INTO sessions (token_hash, account_id, created) VALUES (?, ?, ?)",
            (self.token_hash, self.account_id, now()),
        )


@dataclass(frozen=True)
class EndSession(Write[None]):
    token_hash: str

    def run(self, sql: Sql) -> None:
        row = sql.row("SELECT account_id FROM sessions WHERE token_hash = ?", (self.token_hash,))
        if row is not None:
            sql.announce_account(int(row[0]))
            sql.run("DELETE FROM sessions WHERE token_hash = ?", (self.token_hash,))


@dataclass(frozen=True)
class EndSessions(Write[int]):
    """Log out everywhere; its result is how many sessions ended."""

    account_id: int

    def run(self, sql: Sql) -> int:
        sql.announce_account(self.account_id)
        return sql.run("DELETE FROM sessions WHERE account_id = ?", (self.account_id,))


@dataclass(frozen=True)
class TouchSession(Write[None]):
    """A session was used: it lives on (its idle limit counts from ``at``)."""

    token_hash: str
    at: str

    def run(self, sql: Sql) -> None:
        sql.run(
            "UPDATE sessions SET last_used = ? WHERE token_hash = ?", (self.at, self.token_hash)
        )


@dataclass(frozen=True)
class EndOtherSessions(Write[int]):
    """Every session of the account but ``keep`` ends; its result is how many did."""

    account_id: int
    keep: str  # the token hash of the session that asked

    def run(self, sql: Sql) -> int:
        sql.announce_account(self.account_id)
        return sql.run(
            "DELETE FROM sessions WHERE account_id = ? AND token_hash <> ?",
            (self.account_id, self.keep),
        )


@dataclass(frozen=True)
class ChangePassword(Write[tuple[int, int]]):
    """A new password hash; every other session of the account ends, so whoever knew
    the old password is signed out everywhere, and its API tokens are revoked unless
    kept (``revoke_tokens``): its result is how many sessions ended and tokens went."""

    account_id: int
    password_hash: str
    keep: str
    revoke_tokens: bool = True

    def run(self, sql: Sql) -> tuple[int, int]:
        sql.run(
            "UPDATE accounts SET password_hash = ? WHERE id = ?",
            (self.password_hash, self.account_id),
        )
        revoked = RevokeTokens(self.account_id).run(sql) if self.revoke_tokens else 0
        return EndOtherSessions(self.account_id, self.keep).run(sql), revoked


DELETED_PLAYER = "deleted player"  # the seat name a deleted account leaves in its games


@dataclass(frozen=True)
class DeleteAccount(Write[None]):
    """Delete an account: its sessions, ratings and daily attempts go; its games stay,
    its seats named ``DELETED_PLAYER``, tied to no account and playable by no link."""

    account_id: int

    def run(self, sql: Sql) -> None:
        account, player = (self.account_id,), (f"a:{self.account_id}",)
        sql.run(
            "UPDATE seats SET name = ?, account_id = NULL, token_hash = NULL WHERE account_id = ?",
            (DELETED_PLAYER, self.account_id),
        )
        sql.run(  # its invitations: the seats open to the lobby, as when declined
            "UPDATE seats SET name = ?, invited = NULL WHERE invited = ?",
            (OPEN_NAME, self.account_id),
        )
        sql.run("UPDATE games SET creator = NULL WHERE creator = ?", account)
        sql.run("DELETE FROM daily_attempts WHERE account_id = ?", account)
        sql.run("DELETE FROM mails_sent WHERE account_id = ?", account)
        sql.run("DELETE FROM mail_settings WHERE account_id = ?", account)
        # the address's count stays (a new account starts no new day of mails to it)
        sql.run("UPDATE mail_confirmations SET account_id = NULL WHERE account_id = ?", account)
        sql.run("DELETE FROM ratings WHERE player = ?", player)
        sql.run("DELETE FROM rating_changes WHERE player = ?", player)
        sql.announce_account(self.account_id)
        sql.run("DELETE FROM sessions WHERE account_id = ?", account)
        sql.run("DELETE FROM api_tokens WHERE account_id = ?", account)
        sql.run("DELETE FROM blocks WHERE account_id = ? OR blocked = ?", account * 2)
        sql.run("DELETE FROM invitations_sent WHERE inviter = ? OR invitee = ?", account * 2)
        sql.run("DELETE FROM accounts WHERE id = ?", account)


@dataclass(frozen=True)
class Block(Write[bool]):
    """``account_id`` blocks ``blocked`` (whose invitations it no longer gets); whether
    that is new."""

    account_id: int
    blocked: int

    def run(self, sql: Sql) -> bool:
        return (
            sql.run(
                "INSERT INTO blocks (account_id, blocked, created) VALUES (?, ?, ?) "
                "ON CONFLICT (account_id, blocked) DO NOTHING",
                (self.account_id, self.blocked, now()),
            )
            == 1
        )


@dataclass(frozen=True)
class Unblock(Write[bool]):
    """``account_id`` no longer blocks ``blocked``; whether it did."""

    account_id: int
    blocked: int

    def run(self, sql: Sql) -> bool:
        return (
            sql.run(
                "DELETE FROM blocks WHERE account_id = ? AND blocked = ?",
                (self.account_id, self.blocked),
            )
            == 1
        )


@dataclass(frozen=True)
class MakeBot(Write[bool]):
    """Turn an account into a bot account, for good; its result: whether it changed
    (not if it holds seats as a person meanwhile, or is a bot account already)."""

    account_id: int

    def run(self, sql: Sql) -> bool:
        return (
            sql.run(
                "UPDATE accounts SET bot = ? WHERE id = ? AND NOT bot AND NOT EXISTS "
                "(SELECT 1 FROM seats WHERE account_id = ? OR invited = ?)",
                (True, *(self.account_id,) * 3),
            )
            == 1
        )


@dataclass(frozen=True)
class CreateToken(Write[int]):
    """A new API token of a bot account (stored hashed); its result is the token's id."""

    account_id: int
    name: str
    token_hash: str
    scopes: tuple[str, ...]

    def run(self, sql: Sql) -> int:
        return sql.insert_id(
            "INSERT INTO api_tokens (account_id, name, token_hash, scopes, created) "
            "VALUES (?, ?, ?, ?, ?)",
            (self.account_id, self.name, self.token_hash, " ".join(self.scopes), now()),
        )


@dataclass(frozen=True)
class RevokeToken(Write[str | None]):
    """Delete an account's API token ``token_id``; its result is the token's hash (the
    sockets opened with it close), ``None`` if the account has no such token."""

    account_id: int
    token_id: int

    def run(self, sql: Sql) -> str | None:
        row = sql.row(
            "SELECT token_hash FROM api_tokens WHERE id = ? AND account_id = ?",
            (self.token_id, self.account_id),
        )
        if row is None:
            return None
        sql.announce_account(self.account_id)
        sql.run("DELETE FROM api_tokens WHERE id = ?", (self.token_id,))
        return str(row[0])


@dataclass(frozen=True)
class RevokeTokens(Write[int]):
    """Revoke all of an account's API tokens; its result is how many there were."""

    account_id: int

    def run(self, sql: Sql) -> int:
        sql.announce_account(self.account_id)
        return sql.run("DELETE FROM api_tokens WHERE account_id = ?", (self.account_id,))


@dataclass(frozen=True)
class TouchToken(Write[None]):
    """When an API token was last used (at most once a minute: ``Sessions.refresh_after``)."""

    token_hash: str
    at: str

    def run(self, sql: Sql) -> None:
        sql.run(
            "UPDATE api_tokens SET last_used = ? WHERE token_hash = ?", (self.at, self.token_hash)
        )


@dataclass(frozen=True)
class RekeyNames(Write[int]):
    """Store each account's name key as ``name_key`` now makes it (``(id, key)``), unless
    another account has that key already (the older account keeps its old one, and
    signs in with it); its result is how many changed."""

    keys: tuple[tuple[int, str], ...]

    def run(self, sql: Sql) -> int:
        changed = 0
        for account_id, key in self.keys:
            if sql.row("SELECT 1 FROM accounts WHERE name_key = ?", (key,)) is None:
                changed += sql.run(
                    "UPDATE accounts SET name_key = ? WHERE id = ?", (key, account_id)
                )
        return changed


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
                "total = NULL, finished = NULL, error = NULL WHERE analyses.error IS NOT NULL",
                (self.game_id, self.budget, now()),
            )
            == 1
        )


@dataclass(frozen=True)
class AnalysisProgress(Write[None]):
    """``done`` of ``total`` decisions judged so far."""

    game_id: str
    done: int
    total: int

    def run(self, sql: Sql) -> None:
        sql.run(
            "UPDATE analyses SET done = ?, total = ? WHERE game_id = ? AND finished IS NULL",
            (self.done, self.total, self.game_id),
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


# -- e-mail notifications ----------------------------------------------------------------


@dataclass(frozen=True)
class SaveMailSettings(Write[None]):
    """An account's e-mail settings: its ``address`` (``verified`` or not), what it wants
    mailed (``mode``: "off", "turn" or "digest") and in which language."""

    account_id: int
    address: str
    verified: bool
    mode: str
    lang: str

    def run(self, sql: Sql) -> None:
        sql.run(
            "INSERT INTO mail_settings (account_id, address, verified, mode, lang, updated) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (account_id) DO UPDATE SET "
            "address = excluded.address, verified = excluded.verified, mode = excluded.mode, "
            "lang = excluded.lang, updated = excluded.updated",
            (self.account_id, self.address, self.verified, self.mode, self.lang, now()),
        )


@dataclass(frozen=True)
class MailRefusal:
    """Why a confirmation mail may not go now: ``"address"`` (that address had its
    share today) or ``"account"`` (the account asked for its share), and the seconds
    until the oldest of them leaves the day."""

    limit: str
    seconds: float


@dataclass(frozen=True)
class ReserveConfirmation(Write[MailRefusal | None]):
    """Count a confirmation mail to ``address_key`` asked by ``account_id`` at ``at``
    (an ISO time) and save the settings ``then`` in the same transaction; or, when the
    address has had ``per_address`` or the account ``per_account`` since ``since``
    (a day before), change nothing and say why. Rows from before ``since`` go."""

    account_id: int
    address_key: str
    at: str
    since: str
    per_address: int
    per_account: int
    then: SaveMailSettings

    def run(self, sql: Sql) -> MailRefusal | None:
        sql.lock_mail_limits()
        sql.run("DELETE FROM mail_confirmations WHERE created < ?", (self.since,))
        for limit, column, key, most in (
            ("address", "address_key", self.address_key, self.per_address),
            ("account", "account_id", self.account_id, self.per_account),
        ):
            found = sql.rows(
                f"SELECT created FROM mail_confirmations WHERE {column} = ? "  # names from code
                "ORDER BY created DESC",
                (key,),
            )
            if len(found) >= most:
                return MailRefusal(limit, _seconds_between(self.since, found[most - 1][0]))
        sql.run(
            "INSERT INTO mail_confirmations (address_key, account_id, created) VALUES (?, ?, ?)",
            (self.address_key, self.account_id, self.at),
        )
        self.then.run(sql)
        return None


def _seconds_between(earlier: str, later: str) -> float:
    """Seconds from one stored ISO time to another."""
    return (datetime.fromisoformat(later) - datetime.fromisoformat(earlier)).total_seconds()


@dataclass(frozen=True)
class VerifyMail(Write[bool]):
    """The account's ``address`` is verified; False if the account has another one now."""

    account_id: int
    address: str

    def run(self, sql: Sql) -> bool:
        changed = sql.run(
            "UPDATE mail_settings SET verified = ?, updated = ? "
            "WHERE account_id = ? AND address = ?",
            (True, now(), self.account_id, self.address),
        )
        return changed == 1


@dataclass(frozen=True)
class StopMail(Write[bool]):
    """No more mails to the account's ``address`` (an unsubscribe link); False if the
    account has another address now."""

    account_id: int
    address: str

    def run(self, sql: Sql) -> bool:
        changed = sql.run(
            "UPDATE mail_settings SET mode = 'off', updated = ? "
            "WHERE account_id = ? AND address = ?",
            (now(), self.account_id, self.address),
        )
        return changed == 1


@dataclass(frozen=True)
class ClaimMail(Write[bool]):
    """Record that the mail ``key`` (a game's turn, a day's digest) is sent to an
    account; False if it was already (by this process or another): the key decides
    who sends, so a mail goes out once however many processes learn of the turn."""

    key: str
    account_id: int

    def run(self, sql: Sql) -> bool:
        claimed = sql.run(
            "INSERT INTO mails_sent (key, account_id, created) VALUES (?, ?, ?) "
            "ON CONFLICT (key) DO NOTHING",
            (self.key, self.account_id, now()),
        )
        return claimed == 1


@dataclass(frozen=True)
class PruneMails(Write[int]):
    """Forget the keys of mails sent before ``before`` (an ISO time); how many. A digest's
    key names its day and a turn's its move, so an old key stops nothing any more —
    except a turn still waiting after that long, which then gets one more mail (a
    reminder, not a flood)."""

    before: str

    def run(self, sql: Sql) -> int:
        return sql.run("DELETE FROM mails_sent WHERE created < ?", (self.before,))


@dataclass(frozen=True)
class ServerSecret(Write[str]):
    """The server's secret ``name``, made of ``fresh`` the first time; the result is the
    stored one (which another process may have made first)."""

    name: str
    fresh: str

    def run(self, sql: Sql) -> str:
        sql.run(
            "INSERT INTO server_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
            (self.name, self.fresh),
        )
        row = sql.row("SELECT value FROM server_secrets WHERE name = ?", (self.name,))
        if row is None:  # cannot happen: inserted or there already
            raise StoreError("the server's secret could not be stored")
        return str(row[0])


@dataclass(frozen=True)
class ForgetMail(Write[None]):
    """The account takes its address back: no mails, and the address is gone."""

    account_id: int

    def run(self, sql: Sql) -> None:
        sql.run("DELETE FROM mail_settings WHERE account_id = ?", (self.account_id,))


@dataclass(frozen=True)
class ReserveLoginTry(Write[float]):
    """One sign-in try for ``key``, taken before its password is hashed and counted as
    failed until ``GiveBackLoginTry``: 0.0 when taken, else the seconds until the next
    may be. A compare-and-set on the row, so of several processes asking at once each
    try is taken once (``LoginThrottle``)."""

    key: str
    now: float
    free: int  # failures in a row before any wait
    cap: float  # the longest wait
    forget: float  # quiet seconds after which past failures no longer count

    def run(self, sql: Sql) -> float:
        row = sql.row("SELECT failures, next_try FROM login_tries WHERE key = ?", (self.key,))
        if row is None:
            taken = sql.run(
                "INSERT INTO login_tries (key, failures, next_try) VALUES (?, 1, ?) "
                "ON CONFLICT (key) DO NOTHING",
                (self.key, self.now + self.wait_after(1)),
            )
        else:
            failures, next_try = int(row[0]), float(row[1])
            if self.now < next_try:
                return next_try - self.now
            counted = 0 if self.now >= next_try + self.forget else failures
            taken = sql.run(
                "UPDATE login_tries SET failures = ?, next_try = ? "
                "WHERE key = ? AND failures = ? AND next_try = ?",
                (counted + 1, self.now + self.wait_after(counted + 1), self.key, *row),
            )
        return 0.0 if taken else 1.0  # another process took it this instant

    def wait_after(self, failures: int) -> float:
        """The wait after ``failures`` in a row: none for the first ``free - 1``, then
        1 s, doubling with each one, at most ``cap``."""
        return 0.0 if failures < self.free else min(self.cap, 2.0 ** (failures - self.free))


@dataclass(frozen=True)
class GiveBackLoginTry(Write[None]):
    """The try was right: ``key``'s failures start over."""

    key: str

    def run(self, sql: Sql) -> None:
        sql.run("DELETE FROM login_tries WHERE key = ?", (self.key,))


@dataclass(frozen=True)
class RefundLoginTry(Write[None]):
    """The try was never hashed (503, the client left): it does not count. Only that
    one try: a guesser whose tries are refused must not wipe out his failures (the
    wait it set stands)."""

    key: str

    def run(self, sql: Sql) -> None:
        sql.run(
            "UPDATE login_tries SET failures = failures - 1 WHERE key = ? AND failures > 0",
            (self.key,),
        )


@dataclass(frozen=True)
class PruneLoginTries(Write[int]):
    """Forget the counts that no longer count (quiet since before ``before``)."""

    before: float

    def run(self, sql: Sql) -> int:
        return sql.run("DELETE FROM login_tries WHERE next_try < ?", (self.before,))
