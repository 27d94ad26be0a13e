"""Durable storage of games in SQLite: setup, seats and the actions applied, in order.

A game is stored as what is needed to rebuild it exactly: its type, options,
seed and seats, and the list of accepted actions. Every write commits before
the server acknowledges anything (WAL journal, ``synchronous=FULL``), so a
crash or ``kill -9`` loses nothing that was acknowledged. Seat tokens are kept
only as SHA-256 hashes. The tables, writes and reads are shared with the
PostgreSQL store (``sql``, ``writes``, ``sqlstore``); here is how SQLite is
reached and how its older files are brought up to date.

>>> from tabletop.server.rows import Seat
>>> store = Store(":memory:")
>>> store.create_game("g1", "nova-luna", {}, 7, [Seat(0, "Ann", "human", None, "tok")])
>>> at = store.append_action("g1", 0, 0, "2@0,0", reveals=False, over=False)
>>> [a.action for a in store.actions("g1")]
['2@0,0']
>>> store.seat_for_token("g1", "tok")
0
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from .rows import StoreError
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
    RATING_RULES_TABLES,
    SESSION_TABLES,
    SQLITE,
    Sql,
    ddl,
    statements,
)
from .sqlstore import SqlStore
from .tournament_reads import TOURNAMENT_TABLES

T = TypeVar("T")

#: the tables as the first versions made them (each open makes any that are missing)
SCHEMA = ddl(GAME_TABLES, SQLITE)

#: Versioned migrations (``PRAGMA user_version``): step ``n`` brings a database from
#: version ``n`` to ``n + 1``, in one transaction, so an old file upgrades in place.
MIGRATIONS = [
    ddl(ACCOUNT_TABLES, SQLITE),
    ddl(ANALYSIS_TABLES, SQLITE),
    ddl(DAILY_TABLES, SQLITE),
    ddl(RATING_RULES_TABLES, SQLITE),
    ddl(MAIL_TABLES, SQLITE),
    ddl(SESSION_TABLES, SQLITE),
    ddl(INVITATION_TABLES, SQLITE),
    ddl(BOT_TABLES, SQLITE),
    ddl(MAIL_LIMIT_TABLES, SQLITE),
    ddl(FAIR_PLAY_TABLES, SQLITE),
    ddl(LOGIN_TABLES, SQLITE),
    ddl(COACH_TABLES, SQLITE),
    ddl(FRIEND_TABLES, SQLITE),
    ddl(MODERATION_TABLES, SQLITE),
    ddl(CORRESPONDENCE_TABLES, SQLITE),
    ddl(CHAT_TABLES, SQLITE),
    ddl(TOURNAMENT_TABLES, SQLITE),
]


class Store(SqlStore):
    """All games in one SQLite file (``":memory:"`` for a throwaway store).

    Writes go through one connection and reads through another, so that a
    server can write (and wait for the disk) on a thread of its own while it
    reads on its event loop; WAL lets the reads go on meanwhile.
    """

    shared = False  # one process only: no compare-and-set or leases needed (see pgstore)
    _database_errors = (sqlite3.Error,)

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        memory = self.path == ":memory:"
        if not memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = self._connect()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        self._migrate()
        self._reader = self._db if memory else self._connect()
        self._writes = Sql(self._db, SQLITE)
        self._reads = Sql(self._reader, SQLITE)
        self._checkpointer: sqlite3.Connection | None = None

    def _migrate(self) -> None:
        """Bring a database made by an older version up to ``SCHEMA`` and ``MIGRATIONS``."""
        self._migrate_unversioned()
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        for number in range(version, len(MIGRATIONS)):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for statement in statements(MIGRATIONS[number], SQLITE):
                    self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {number + 1}")
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def _migrate_unversioned(self) -> None:
        """The column additions made before databases carried a version."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        if "seed_chosen" not in columns:  # before 0.3: games did not say who chose the seed
            self._db.execute("ALTER TABLE games ADD COLUMN seed_chosen INTEGER NOT NULL DEFAULT 0")
            self._db.commit()
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(actions)")}
        if "by" not in columns:  # before move clocks: every action was the seat's own
            self._db.execute("ALTER TABLE actions ADD COLUMN by TEXT")
            self._db.commit()

    def checkpoint_separately(self) -> None:
        """Leave copying the journal into the database to ``checkpoint()`` (which a
        server runs on another thread), so that no commit waits for it."""
        if self.path != ":memory:":
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = self._connect()

    def checkpoint(self) -> None:
        """Copy committed writes from the journal into the database file."""
        db = self._checkpointer or self._db
        db.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA synchronous=FULL")  # a commit is on disk when it returns
        db.execute("PRAGMA foreign_keys=ON")
        return db

    def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.close()
            self._checkpointer = None
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()
        if self._reader is not self._db:
            self._reader.close()

    # -- the shared store's hooks -------------------------------------------------

    def _read(self, query: Callable[[Sql], T]) -> T:
        return query(self._reads)

    def _begin(self) -> Sql:
        self._writes.run("BEGIN IMMEDIATE")
        return self._writes

    def _rollback(self) -> None:
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    def _failed(self, err: Exception) -> StoreError:
        return StoreError(f"the game database refused the write: {err}")
