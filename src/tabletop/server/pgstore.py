"""Games in PostgreSQL, shared by several server processes (``--db postgresql://...``).

The same tables, writes and reads as the SQLite store (``sql``, ``writes``,
``sqlstore``), plus what sharing needs:

* ``games.seq`` counts the game's changes. A move or undo is a compare-and-set
  on it (``UPDATE games SET seq = seq + 1 WHERE id = ... AND seq = expected``), so
  two processes can never both apply a change at one position: the second gets
  ``StoreConflict`` and reloads the game.
* Each change sends ``NOTIFY tabletop, '<game> <seq> <account ids>'`` in its own transaction, so
  the notice goes out exactly when the change is visible; every process LISTENs
  and reloads the games it holds (``Hub.listen``). A lost notice only delays: the
  seq is checked again whenever a game is changed or a client connects.
* ``leases``: a pending bot move or an expired clock is worked on by the one
  process holding its lease (``claim``); a dead process's lease runs out and
  another takes over.

psycopg 3's synchronous connections serve the ``GameStore`` interface (writes on
the committer's thread, short reads by primary key on the event loop, as with
SQLite); the listener uses its async connection.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import psycopg
from psycopg.rows import TupleRow

from .friend_reads import SharedPresence
from .rows import ActionRow, StoreConflict, StoreError
from .sql import (
    ACCOUNT_TABLES,
    ANALYSIS_TABLES,
    BOT_TABLES,
    CHAT_TABLES,
    COACH_TABLES,
    CORRESPONDENCE_TABLES,
    DAILY_TABLES,
    FAIR_PLAY_TABLES,
    FRIEND_TABLES,
    GAME_TABLES,
    INVITATION_TABLES,
    LOGIN_TABLES,
    MAIL_LIMIT_TABLES,
    MAIL_TABLES,
    MODERATION_TABLES,
    POSTGRES,
    PRESENCE_TABLES,
    RATING_RULES_TABLES,
    SESSION_TABLES,
    Sql,
    ddl,
)
from .sqlstore import SqlStore, action_row
from .tournament_reads import TOURNAMENT_TABLES, SharedPresenceReads

T = TypeVar("T")
CHANNEL = "tabletop"
#: a notice's first word when an account's sessions or tokens ended (no game id: too short)
CHAT_NOTICE = "chat"  # a notice's first word: a chat message was stored (chat.py)
SESSIONS_NOTICE = "sessions"
CONNECT_TIMEOUT = 3  # seconds: a database that is down answers 503 quickly

#: what only a shared database has, from its first version on
SHARED_TABLES = """
ALTER TABLE games ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
CREATE INDEX games_unfinished ON games (created) WHERE NOT over;
CREATE TABLE leases (
    game_id TEXT NOT NULL,
    task TEXT NOT NULL,
    owner TEXT NOT NULL,
    expires TIMESTAMPTZ NOT NULL,
    done BOOLEAN NOT NULL DEFAULT false,
    PRIMARY KEY (game_id, task)
);
CREATE INDEX leases_open ON leases (expires) WHERE NOT done;
"""

#: version -> SQL; each runs once, in order, in one transaction with its version row
MIGRATIONS: dict[int, str] = {
    1: ddl(GAME_TABLES, POSTGRES) + SHARED_TABLES,
    # 2: what store.MIGRATIONS[0] adds to SQLite
    2: ddl(ACCOUNT_TABLES, POSTGRES),
    # 3: what store.MIGRATIONS[1] adds to SQLite
    3: ddl(ANALYSIS_TABLES, POSTGRES),
    # 4: what store.MIGRATIONS[2] adds to SQLite
    4: ddl(DAILY_TABLES, POSTGRES),
    # 5: what store.MIGRATIONS[3] adds to SQLite
    5: ddl(RATING_RULES_TABLES, POSTGRES),
    6: ddl(MAIL_TABLES, POSTGRES),
    7: ddl(SESSION_TABLES, POSTGRES),
    8: ddl(INVITATION_TABLES, POSTGRES),
    9: ddl(BOT_TABLES, POSTGRES),
    10: ddl(MAIL_LIMIT_TABLES, POSTGRES),
    11: ddl(FAIR_PLAY_TABLES, POSTGRES),
    12: ddl(LOGIN_TABLES, POSTGRES),
    13: ddl(COACH_TABLES, POSTGRES),
    14: ddl(CHAT_TABLES, POSTGRES),
    15: ddl(MODERATION_TABLES, POSTGRES),
    16: ddl(FRIEND_TABLES, POSTGRES) + PRESENCE_TABLES,
    18: ddl(CORRESPONDENCE_TABLES, POSTGRES),
    19: ddl(TOURNAMENT_TABLES, POSTGRES),
}
LATEST = max(MIGRATIONS)
_MIGRATION_LOCK = 0x7AB1E  # pg_advisory_xact_lock key: one migrator at a time
_RATINGS_LOCK = 0x7AB1F  # pg_advisory_xact_lock key: one rated game's end at a time
_MAIL_LIMITS_LOCK = 0x7AB20  # pg_advisory_xact_lock key: one confirmation mail's count


def connect(url: str) -> psycopg.Connection[TupleRow]:
    return psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)


def migrate(url: str) -> int:
    """Bring the database at ``url`` up to ``LATEST``; returns how many migrations ran.
    Safe to run from several processes at once (an advisory lock serialises them)."""
    with connect(url) as db, db.transaction():
        db.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY)")
        done = {row[0] for row in db.execute("SELECT version FROM schema_version")}
        todo = [v for v in sorted(MIGRATIONS) if v not in done]
        for version in todo:
            db.execute(MIGRATIONS[version])
            db.execute("INSERT INTO schema_version VALUES (%s)", (version,))
    return len(todo)


def schema_version(db: psycopg.Connection[TupleRow]) -> int:
    row = db.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    if not row or not row[0]:
        return 0
    row = db.execute("SELECT max(version) FROM schema_version").fetchone()
    return (row[0] if row else None) or 0


class SharedSql(Sql):
    """Statements on a shared database: every change of a game is counted and announced."""

    def __init__(self, connection: psycopg.Connection[TupleRow]) -> None:
        super().__init__(connection, POSTGRES)

    def change_game(self, game_id: str, expected_seq: int | None, **columns: object) -> None:
        """The compare-and-set: move the game's ``seq`` on from ``expected_seq`` (any if
        ``None``), set ``columns`` and announce it; ``StoreConflict`` if it had moved.
        The update also locks the game's row until the transaction ends."""
        sets = ", ".join(["seq = seq + 1", *(f"{name} = ?" for name in columns)])
        guard = "" if expected_seq is None else " AND seq = ?"
        expected = () if expected_seq is None else (expected_seq,)
        row = self.row(
            f"UPDATE games SET {sets} WHERE id = ?{guard} RETURNING seq",
            (*columns.values(), game_id, *expected),
        )
        if row is None:
            raise StoreConflict("another server process changed this game first; look again")
        self.announce(game_id)

    def announce(self, game_id: str) -> None:
        """``NOTIFY`` the change: ``'<game> <seq> <account ids, comma-separated>'``;
        the accounts seated in it (or invited to a seat) let a process with their account
        sockets follow a game it does not hold (``sync.Follower``). Sent when the
        transaction commits."""
        self.run(
            "SELECT pg_notify(?, id || ' ' || seq || ' ' || coalesce((SELECT "
            "string_agg(coalesce(account_id, invited)::text, ',') FROM seats "
            "WHERE game_id = games.id), '')) "
            "FROM games WHERE id = ?",
            (CHANNEL, game_id),
        )

    def announce_account(self, account_id: int) -> None:
        """``NOTIFY`` ``'sessions <account id>'``: some of the account's sessions or API
        tokens ended, so the processes with its channels open look them up again
        (``sync.Follower``). Sent when the transaction commits."""
        self.run("SELECT pg_notify(?, ?)", (CHANNEL, f"{SESSIONS_NOTICE} {account_id}"))

    def announce_chat(self, game_id: str, message_id: int) -> None:
        """``NOTIFY`` ``'chat <game> <message id>'``: the processes holding the game send
        the message to their sockets (``chat.ChatRelay``). Sent when the transaction
        commits."""
        self.run("SELECT pg_notify(?, ?)", (CHANNEL, f"{CHAT_NOTICE} {game_id} {message_id}"))

    def lock_ratings(self) -> None:
        """Games ending at once in two processes would otherwise both read a player's
        old rating, and one update would be lost."""
        self.run("SELECT pg_advisory_xact_lock(?)", (_RATINGS_LOCK,))

    def lock_mail_limits(self) -> None:
        """Two processes counting an address's confirmation mails at once would both
        see room for one more (read committed: the count after the lock sees the
        other's row)."""
        self.run("SELECT pg_advisory_xact_lock(?)", (_MAIL_LIMITS_LOCK,))


class PgStore(SharedPresence, SharedPresenceReads, SqlStore):
    """All games in one PostgreSQL database; see ``sqlstore.SqlStore`` for the methods."""

    shared = True
    _seq_column = "seq"
    _database_errors = (psycopg.Error,)

    def __init__(self, url: str) -> None:
        self.path = url
        self._writer: psycopg.Connection[TupleRow] | None = None  # the committer's thread only
        self._reader: psycopg.Connection[TupleRow] | None = None  # the event loop only
        version = self._connected(schema_version)
        if version != LATEST:
            raise StoreError(
                f"the database's schema is at version {version}, not {LATEST}: "
                "run `<game> db migrate URL` with any game's command (`<game> serve` does it "
                "when it starts)"
            )

    # -- connections --------------------------------------------------------------

    def _connected(self, query: Callable[[psycopg.Connection[TupleRow]], T]) -> T:
        """``query(connection)``; once more on a fresh connection if the old one had
        broken (say PostgreSQL restarted); ``StoreError`` if the database is down."""
        for attempt in (1, 2):
            try:
                if self._reader is None or self._reader.closed:
                    self._reader = connect(self.path)
                return query(self._reader)
            except psycopg.OperationalError as err:
                self._drop_reader()
                if attempt == 2:
                    down = f"the game database is unavailable: {_first_line(err)}"
                    raise StoreError(down) from None
            except psycopg.Error as err:
                raise StoreError(f"the game database failed: {_first_line(err)}") from None
        raise AssertionError("unreachable")

    def _read(self, query: Callable[[Sql], T]) -> T:
        return self._connected(lambda db: query(SharedSql(db)))

    def _drop_reader(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def _begin(self) -> Sql:
        """The writer in a new transaction; reconnected if broken (nothing was sent
        yet, so retrying ``BEGIN`` cannot apply anything twice)."""
        for attempt in (1, 2):
            try:
                if self._writer is None or self._writer.closed:
                    self._writer = connect(self.path)
                self._writer.execute("BEGIN")
                return SharedSql(self._writer)
            except psycopg.OperationalError:
                if self._writer is not None:
                    self._writer.close()
                self._writer = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _rollback(self) -> None:
        """Roll back if the connection still works, else drop it (the next batch
        reconnects)."""
        db = self._writer
        if db is None:
            return
        try:
            db.execute("ROLLBACK")
        except psycopg.Error:
            db.close()
            self._writer = None

    def _connection_lost(self, err: Exception) -> bool:
        return isinstance(err, psycopg.OperationalError)

    def _failed(self, err: Exception) -> StoreError:
        return StoreError(f"the game database is unavailable: {_first_line(err)}")

    def checkpoint_separately(self) -> None:
        """Nothing to do: PostgreSQL checkpoints by itself."""

    def checkpoint(self) -> None:
        """Nothing to do: PostgreSQL checkpoints by itself."""

    def close(self) -> None:
        for db in (self._writer, self._reader):
            if db is not None:
                db.close()
        self._writer = self._reader = None

    # -- the change counter -------------------------------------------------------

    def seqs(self, game_ids: list[str]) -> dict[str, int]:
        """The current ``seq`` of each of these games (those that exist)."""
        rows = self._read(
            lambda sql: sql.rows("SELECT id, seq FROM games WHERE id = ANY(?)", (game_ids,))
        )
        return {row[0]: row[1] for row in rows}

    def changes_since(self, game_id: str, ply: int) -> tuple[int, list[ActionRow]] | None:
        """The game's ``seq`` and its actions from ``ply`` on, read together (one
        statement: one snapshot); ``None`` if there is no such game."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT g.seq, a.ply, a.seat, a.action, a.reveals, a.at, a.by FROM games g "
                "LEFT JOIN actions a ON a.game_id = g.id AND a.ply >= ? "
                "WHERE g.id = ? ORDER BY a.ply",
                (ply, game_id),
            )
        )
        if not rows:
            return None
        return rows[0][0], [action_row(row[1:]) for row in rows if row[1] is not None]

    # -- leases -----------------------------------------------------------------

    def claim(self, game_id: str, task: str, owner: str, seconds: float) -> bool:
        """Take (or renew) the lease on ``task`` of a game for ``seconds``: True if
        ``owner`` holds it now. A lease whose holder stopped renewing it runs out,
        and whoever claims next takes over; a finished task is never claimed again.
        One atomic upsert: of two claimers the row lock makes one wait and then see
        the other's lease."""
        row = self._read(
            lambda sql: sql.row(
                "INSERT INTO leases (game_id, task, owner, expires) "
                "VALUES (?, ?, ?, now() + make_interval(secs => ?)) "
                "ON CONFLICT (game_id, task) DO UPDATE "
                "SET owner = EXCLUDED.owner, expires = EXCLUDED.expires "
                "WHERE NOT leases.done "
                "AND (leases.expires < now() OR leases.owner = EXCLUDED.owner) "
                "RETURNING owner",
                (game_id, task, owner, seconds),
            )
        )
        return row is not None

    def finish(self, game_id: str, task: str, owner: str) -> None:
        """Mark ``task`` done (its move is stored or no longer needed)."""
        self._read(
            lambda sql: sql.run(
                "UPDATE leases SET done = true WHERE game_id = ? AND task = ? AND owner = ?",
                (game_id, task, owner),
            )
        )

    def orphaned(self, limit: int = 20) -> list[tuple[str, str]]:
        """Take the unfinished tasks whose lease ran out (their process died) off the
        table and return them as ``(game, task)``, to be taken up here so that they
        are claimed anew. Rows another process's sweep holds right now are skipped;
        old finished leases are dropped on the way."""

        def sweep(db: psycopg.Connection[TupleRow]) -> list[tuple[str, str]]:
            with db.transaction():
                sql = SharedSql(db)
                sql.run("DELETE FROM leases WHERE done AND expires < now() - interval '1 hour'")
                rows = sql.rows(
                    "DELETE FROM leases WHERE (game_id, task) IN ("
                    " SELECT game_id, task FROM leases WHERE NOT done AND expires < now()"
                    " ORDER BY expires LIMIT ? FOR UPDATE SKIP LOCKED) RETURNING game_id, task",
                    (limit,),
                )
            return sorted({(row[0], row[1]) for row in rows})

        return self._connected(sweep)


def _first_line(err: Exception) -> str:
    return (str(err).strip().splitlines() or [type(err).__name__])[0]
