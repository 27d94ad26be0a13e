"""What the two stores share: batched writes, the conveniences around them, every read.

``store.Store`` (SQLite) and ``pgstore.PgStore`` (PostgreSQL) differ only in
how they connect, migrate and recover from a lost connection, and in what a
shared database adds (the change counter, leases, notifications). Everything
here runs its statements through ``Sql``, written once with ``?`` marks.

``SqlStore`` holds the writes and the reads of games and dailies; it has the reads of
accounts (``account_reads.AccountReads``) and of ratings (``rating_reads.RatingReads``)
from mixins of their own modules, which stand on its ``_read``.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from ..core.match import TAKE_BACK
from .account_reads import AccountReads
from .chat_reads import ChatReads
from .friend_reads import FriendReads
from .moderation_reads import ModerationReads
from .rating_reads import RatingReads
from .ratings import RatedEnd
from .rows import (
    AccountGame,
    ActionRow,
    AnalysisRow,
    DailyAttempt,
    GameRow,
    Seat,
    StoreError,
    hash_token,
)
from .sql import Sql
from .tournament_reads import TournamentPairs, TournamentReads
from .writes import AppendAction, CreateGame, Truncate, Write

T = TypeVar("T")


class SqlStore(
    AccountReads,
    RatingReads,
    ChatReads,
    FriendReads,
    ModerationReads,
    TournamentReads,
    TournamentPairs,
):
    """All games in one database; a subclass says how to reach it."""

    path: str
    #: several processes may share it: moves are compare-and-set on the game's
    #: ``seq``, and bots and clocks need a lease (see ``pgstore``)
    shared: bool = False
    #: what a game row reads as its ``seq``: only a shared store keeps the column
    _seq_column = "0"
    #: the driver's errors: any of them at the transaction's level fails the batch
    _database_errors: tuple[type[Exception], ...] = ()

    # -- what each database does its own way -------------------------------------

    @abstractmethod
    def _read(self, query: Callable[[Sql], T]) -> T:
        """``query`` on the connection for reads (the event loop's)."""

    @abstractmethod
    def _begin(self) -> Sql:
        """The writer (the committer's thread's connection) in a new transaction."""

    @abstractmethod
    def _rollback(self) -> None:
        """After a failure in the transaction: leave the writer ready for the next batch."""

    @abstractmethod
    def _failed(self, err: Exception) -> StoreError:
        """What every write of a batch says when the transaction itself failed."""

    def _connection_lost(self, err: Exception) -> bool:
        """Whether ``err`` took the connection (so the whole batch failed, not one write)."""
        return False

    @abstractmethod
    def checkpoint_separately(self) -> None:
        """Leave journal upkeep to ``checkpoint``, on another thread."""

    @abstractmethod
    def checkpoint(self) -> None:
        """Copy committed writes from a journal into the database."""

    @abstractmethod
    def close(self) -> None: ...

    # -- writes -----------------------------------------------------------------

    def write_many(self, writes: Sequence[Write[object]]) -> list[object]:
        """Apply several writes in one transaction: one commit (one wait for the disk)
        for all. Each result is the write's own or a ``StoreError`` (a
        ``StoreConflict`` if another process changed the game first); a write that
        fails leaves the others in."""
        results: list[object] = []
        try:
            sql = self._begin()
            for write in writes:
                sql.run("SAVEPOINT one_write")
                try:
                    results.append(write.run(sql))
                except Exception as err:  # noqa: BLE001 - any failure: undo this write only
                    if self._connection_lost(err):
                        raise
                    sql.run("ROLLBACK TO SAVEPOINT one_write")
                    results.append(_refusal(err))
                sql.run("RELEASE SAVEPOINT one_write")
            sql.run("COMMIT")
        except self._database_errors as err:
            self._rollback()
            return [self._failed(err)] * len(writes)
        except BaseException:
            self._rollback()  # whatever went wrong, the next batch must find no transaction
            raise
        return results

    def write(self, one: Write[T]) -> T:
        """Store one write now (tests, tools); its result, or ``StoreError`` raised."""
        (result,) = self.write_many([one])
        if isinstance(result, StoreError):
            raise result
        return cast(T, result)  # what ``one.run`` returned

    def create_game(
        self,
        game_id: str,
        type_name: str,
        options: dict[str, Any],
        seed: int,
        seats: Sequence[Seat],
        seed_chosen: bool = False,
        creator: int | None = None,
    ) -> None:
        """``CreateGame``, now."""
        self.write(CreateGame(game_id, type_name, options, seed, seats, seed_chosen, creator))

    def append_action(
        self,
        game_id: str,
        ply: int,
        seat: int,
        action: str,
        reveals: bool,
        over: bool,
        by: str | None = None,
        rated: RatedEnd | None = None,
        ranks: tuple[int, ...] | None = None,
        expected_seq: int | None = None,
    ) -> str:
        """``AppendAction``, now; the time stored with it."""
        return self.write(
            AppendAction(game_id, ply, seat, action, reveals, over, by, rated, ranks, expected_seq)
        )

    def truncate(self, game_id: str, ply: int, expected_seq: int | None = None) -> None:
        """``Truncate``, now."""
        self.write(Truncate(game_id, ply, expected_seq))

    # -- games ------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow | None:
        row = self._read(
            lambda sql: sql.row(
                "SELECT id, type, options, seed, created, updated, over, seed_chosen, creator, "
                f"undone, abandoned, started, {self._seq_column}, hinted, timed_out, clock_from, "
                "resigned FROM games WHERE id = ?",
                (game_id,),
            )
        )
        if row is None:
            return None
        id_, type_, options, seed, created, updated, over, chosen, creator, *rest = row
        undone, abandoned, started, seq, hinted, timed_out, clock_from, resigned = rest
        return GameRow(
            *(id_, type_, json.loads(options), seed, created, updated, bool(over)),
            *(bool(chosen), creator, bool(undone), bool(abandoned), started, seq),
            hinted=bool(hinted),
            timed_out=seat_list(timed_out),
            clock_from=clock_from,
            resigned=bool(resigned),
        )

    def seats(self, game_id: str) -> list[Seat]:
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT seat, name, kind, bot, account_id, open, rank, invited FROM seats "
                "WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
        )
        return [
            Seat(seat, name, kind, bot, None, account_id, bool(open_), rank, invited)
            for seat, name, kind, bot, account_id, open_, rank, invited in rows
        ]

    def actions(self, game_id: str) -> list[ActionRow]:
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT ply, seat, action, reveals, at, by FROM actions "
                "WHERE game_id = ? ORDER BY ply",
                (game_id,),
            )
        )
        return [action_row(row) for row in rows]

    def seat_for_token(self, game_id: str, token: str) -> int | None:
        row = self._read(
            lambda sql: sql.row(
                "SELECT seat FROM seats WHERE game_id = ? AND token_hash = ?",
                (game_id, hash_token(token)),
            )
        )
        return None if row is None else int(row[0])

    def unfinished_games(self) -> list[str]:
        rows = self._read(
            lambda sql: sql.rows("SELECT id FROM games WHERE NOT over ORDER BY created")
        )
        return [row[0] for row in rows]

    def analysis(self, game_id: str) -> AnalysisRow | None:
        """A game's analysis, if one was asked for."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT game_id, budget, requested, done, total, finished, result, error "
                "FROM analyses WHERE game_id = ?",
                (game_id,),
            )
        )
        if row is None:
            return None
        game, budget, requested, done, total, finished, result, error = row
        shown = json.loads(result) if result else None
        return AnalysisRow(game, budget, requested, done, total, finished, shown, error)

    def unfinished_analyses(self) -> list[str]:
        """Games whose analysis was asked for and is not finished, oldest first."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT game_id FROM analyses WHERE finished IS NULL ORDER BY requested"
            )
        )
        return [row[0] for row in rows]

    def coach_notes(self, game_id: str) -> list[tuple[int, str, dict[str, Any]]]:
        """The coach's judged moves of a game (``coaching``): ``(ply, played, note)``
        by ply."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT ply, played, note FROM coach_notes WHERE game_id = ? ORDER BY ply",
                (game_id,),
            )
        )
        return [(int(ply), played, json.loads(note)) for ply, played, note in rows]

    # -- daily challenges -----------------------------------------------------------

    def daily_game(self, game_type: str, day: str, account_id: int) -> str | None:
        """The game of an account's counted attempt at a day's challenge, if any."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT game_id FROM daily_attempts WHERE type = ? AND day = ? AND account_id = ?",
                (game_type, day, account_id),
            )
        )
        return None if row is None else str(row[0])

    def daily_attempts(self, game_type: str, day: str) -> list[DailyAttempt]:
        """Every counted attempt at a day's challenge, oldest first."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT d.account_id, a.name, d.game_id, g.over, g.abandoned, "
                "g.undone OR g.hinted OR EXISTS (SELECT 1 FROM actions x "
                "WHERE x.game_id = d.game_id AND x.action = ?) "
                "FROM daily_attempts d JOIN accounts a ON a.id = d.account_id "
                "JOIN games g ON g.id = d.game_id WHERE d.type = ? AND d.day = ? "
                "ORDER BY d.created, d.account_id",
                (TAKE_BACK, game_type, day),
            )
        )
        return [
            DailyAttempt(account, name, game, bool(over), bool(abandoned), bool(helped))
            for account, name, game, over, abandoned, helped in rows
        ]

    def open_games(self, limit: int = 100, invited: bool = False) -> list[str]:
        """Unfinished games with a seat open to any account (``invited``: or kept for
        an invited one), newest first."""
        listed = "" if invited else " AND s.invited IS NULL"
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT g.id FROM games g WHERE NOT g.over AND EXISTS "
                f"(SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.open{listed}) "
                "ORDER BY g.created DESC LIMIT ?",
                (limit,),
            )
        )
        return [row[0] for row in rows]

    def invitations_of(self, account_id: int) -> list[AccountGame]:
        """The unfinished games with a seat kept for ``account_id``, newest first."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT g.id, g.type, s.seat, g.updated FROM seats s "
                "JOIN games g ON g.id = s.game_id "
                "WHERE s.invited = ? AND s.open AND NOT g.over ORDER BY g.created DESC",
                (account_id,),
            )
        )
        return [AccountGame(id_, type_, seat, False, False, at) for id_, type_, seat, at in rows]


def seat_list(text: str | None) -> tuple[int, ...]:
    """Seats stored as ``"0,2"`` (``games.timed_out``); none for ``NULL``."""
    return tuple(int(part) for part in text.split(",")) if text else ()


def action_row(row: Sequence[Any]) -> ActionRow:
    """An ``ActionRow`` from ``ply, seat, action, reveals, at, by`` as either database
    returns them (SQLite keeps flags as 0 and 1)."""
    ply, seat, action, reveals, at, by = row
    return ActionRow(ply, seat, action, bool(reveals), at, by)


def _refusal(err: Exception) -> StoreError:
    """What a failed write says: its own ``StoreError`` (say a ``StoreConflict``) as it
    is, any other failure as the database's refusal."""
    if isinstance(err, StoreError):
        return err
    return StoreError(f"the game database refused the write: {err}")
