"""Durable storage of games in SQLite: setup, seats and the actions applied, in order.

A game is stored as what is needed to rebuild it exactly: its type, options,
seed and seats, and the list of accepted actions. Every write commits before
the server acknowledges anything (WAL journal, ``synchronous=FULL``), so a
crash or ``kill -9`` loses nothing that was acknowledged. Seat tokens are kept
only as SHA-256 hashes.

>>> store = Store(":memory:")
>>> store.create_game("g1", "nova-luna", {}, 7, [Seat(0, "Ann", "human", None, "tok")])
>>> at = store.append_action("g1", 0, 0, "2@0,0", reveals=False, over=False)
>>> [a.action for a in store.actions("g1")]
['2@0,0']
>>> store.seat_for_token("g1", "tok")
0
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seed_chosen INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    over INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
    bot TEXT,
    token_hash TEXT UNIQUE,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    reveals INTEGER NOT NULL,
    at TEXT NOT NULL,
    by TEXT,
    PRIMARY KEY (game_id, ply)
);
"""


class StoreError(RuntimeError):
    """The database refused a write; nothing of it was kept."""


@dataclass(frozen=True)
class Write:
    """A write waiting to be stored: a ``Store`` write method's name and arguments."""

    name: str  # "create_game", "append_action" or "truncate"
    args: tuple[Any, ...]


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    kind: str  # "human" or "bot"
    bot: str | None  # bot spec for bot seats
    token: str | None = None  # only when creating; stored hashed


@dataclass(frozen=True)
class GameRow:
    id: str
    type: str
    options: dict[str, Any]
    seed: int
    created: str
    updated: str
    over: bool
    seed_chosen: bool = False  # the creator fixed the seed, so they can know the pile
    seq: int = 0  # changes so far; only a shared store (PostgreSQL) counts them


@dataclass(frozen=True)
class ActionRow:
    ply: int
    seat: int
    action: str
    reveals: bool
    at: str
    by: str | None = None  # "clock": played for the seat when its time ran out


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Store:
    """All games in one SQLite file (``":memory:"`` for a throwaway store).

    Writes go through one connection and reads through another, so that a
    server can write (and wait for the disk) on a thread of its own while it
    reads on its event loop; WAL lets the reads go on meanwhile.
    """

    shared = False  # one process only: no compare-and-set or leases needed (see pgstore)

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
        self._checkpointer: sqlite3.Connection | None = None

    def _migrate(self) -> None:
        """Bring a database made by an older version up to ``SCHEMA``."""
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
        db.row_factory = sqlite3.Row
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

    # -- writes -----------------------------------------------------------------

    def write_many(self, writes: list[Write]) -> list[Any]:
        """Apply several writes in one transaction: one commit (one wait for the disk)
        for all. Each result is the write's return value or a ``StoreError``; a write
        that fails leaves the others in."""
        db = self._db
        results: list[Any] = []
        try:
            db.execute("BEGIN IMMEDIATE")
            for write in writes:
                db.execute("SAVEPOINT one_write")
                try:
                    results.append(getattr(self, "_" + write.name)(db, *write.args))
                    db.execute("RELEASE one_write")
                except Exception as err:  # noqa: BLE001 - any failure: undo this write only
                    db.execute("ROLLBACK TO one_write")
                    db.execute("RELEASE one_write")
                    results.append(StoreError(f"the game database refused the write: {err}"))
            db.execute("COMMIT")
        except sqlite3.Error as err:
            failed = StoreError(f"the game database refused the write: {err}")
            return [failed] * len(writes)
        finally:
            # whatever went wrong, the next write must find no transaction open
            if db.in_transaction:
                db.execute("ROLLBACK")
        return results

    def _one(self, name: str, *args: Any) -> Any:
        (result,) = self.write_many([Write(name, args)])
        if isinstance(result, StoreError):
            raise result
        return result

    def create_game(
        self,
        game_id: str,
        type_name: str,
        options: dict[str, Any],
        seed: int,
        seats: list[Seat],
        seed_chosen: bool = False,
    ) -> None:
        """Store a new game; ``seed_chosen``: the creator fixed the seed."""
        self._one("create_game", game_id, type_name, options, seed, seats, seed_chosen)

    def append_action(
        self,
        game_id: str,
        ply: int,
        seat: int,
        action: str,
        reveals: bool,
        over: bool,
        by: str | None = None,
    ) -> str:
        """Store action number ``ply`` (0-based); return its time. Fails if the ply is taken.
        ``by``: who acted when not the seat itself (``"clock"``)."""
        return self._one("append_action", game_id, ply, seat, action, reveals, over, by)

    def truncate(self, game_id: str, ply: int) -> None:
        """Drop the actions from ``ply`` on (an undo); the game is not over any more."""
        self._one("truncate", game_id, ply)

    @staticmethod
    def _create_game(
        db: sqlite3.Connection,
        game_id: str,
        type_name: str,
        options: dict[str, Any],
        seed: int,
        seats: list[Seat],
        seed_chosen: bool = False,
    ) -> None:
        now = _now()
        db.execute(
            "INSERT INTO games (id, type, options, seed, seed_chosen, created, updated) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, type_name, json.dumps(options), seed, int(seed_chosen), now, now),
        )
        db.executemany(
            "INSERT INTO seats (game_id, seat, name, kind, bot, token_hash) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (game_id, s.seat, s.name, s.kind, s.bot, s.token and hash_token(s.token))
                for s in seats
            ],
        )

    @staticmethod
    def _append_action(
        db: sqlite3.Connection,
        game_id: str,
        ply: int,
        seat: int,
        action: str,
        reveals: bool,
        over: bool,
        by: str | None = None,
        expected_seq: int | None = None,  # for a shared store; one process needs none
    ) -> str:
        now = _now()
        db.execute(
            "INSERT INTO actions (game_id, ply, seat, action, reveals, at, by) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, ply, seat, action, int(reveals), now, by),
        )
        db.execute("UPDATE games SET updated = ?, over = ? WHERE id = ?", (now, int(over), game_id))
        return now

    @staticmethod
    def _truncate(
        db: sqlite3.Connection, game_id: str, ply: int, expected_seq: int | None = None
    ) -> None:
        db.execute("DELETE FROM actions WHERE game_id = ? AND ply >= ?", (game_id, ply))
        db.execute("UPDATE games SET updated = ?, over = 0 WHERE id = ?", (_now(), game_id))

    # -- reads ------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow | None:
        row = self._reader.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        return GameRow(
            row["id"],
            row["type"],
            json.loads(row["options"]),
            row["seed"],
            row["created"],
            row["updated"],
            bool(row["over"]),
            bool(row["seed_chosen"]),
        )

    def seats(self, game_id: str) -> list[Seat]:
        rows = self._reader.execute(
            "SELECT seat, name, kind, bot FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [Seat(r["seat"], r["name"], r["kind"], r["bot"]) for r in rows]

    def actions(self, game_id: str) -> list[ActionRow]:
        rows = self._reader.execute(
            "SELECT ply, seat, action, reveals, at, by FROM actions WHERE game_id = ? ORDER BY ply",
            (game_id,),
        )
        return [
            ActionRow(r["ply"], r["seat"], r["action"], bool(r["reveals"]), r["at"], r["by"])
            for r in rows
        ]

    def seat_for_token(self, game_id: str, token: str) -> int | None:
        row = self._reader.execute(
            "SELECT seat FROM seats WHERE game_id = ? AND token_hash = ?",
            (game_id, hash_token(token)),
        ).fetchone()
        return None if row is None else row["seat"]

    def unfinished_games(self) -> list[str]:
        rows = self._reader.execute("SELECT id FROM games WHERE over = 0 ORDER BY created")
        return [r["id"] for r in rows]
