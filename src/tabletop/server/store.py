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

from . import ratings
from .ratings import RatedEnd

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

#: Versioned migrations (``PRAGMA user_version``): step ``n`` brings a database from
#: version ``n`` to ``n + 1``, in one transaction, so an old file upgrades in place.
MIGRATIONS = [
    # 1: accounts and their sessions, seats claimed by accounts or open in the lobby,
    # turn-based games that end abandoned, ratings
    """
    CREATE TABLE accounts (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created TEXT NOT NULL
    );
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        created TEXT NOT NULL
    );
    CREATE INDEX sessions_account ON sessions(account_id);
    ALTER TABLE seats ADD COLUMN account_id INTEGER REFERENCES accounts(id);
    ALTER TABLE seats ADD COLUMN open INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN rank INTEGER;
    CREATE INDEX seats_account ON seats(account_id);
    CREATE INDEX seats_open ON seats(open) WHERE open = 1;
    ALTER TABLE games ADD COLUMN creator INTEGER REFERENCES accounts(id);
    ALTER TABLE games ADD COLUMN undone INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN started TEXT;
    CREATE TABLE ratings (
        type TEXT NOT NULL,
        player TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        PRIMARY KEY (type, player)
    );
    CREATE TABLE rating_changes (
        game_id TEXT NOT NULL REFERENCES games(id),
        player TEXT NOT NULL,
        rank INTEGER NOT NULL,
        before REAL NOT NULL,
        after REAL NOT NULL,
        PRIMARY KEY (game_id, player)
    );
    """,
]


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
    account_id: int | None = None  # the account that claimed the seat
    open: bool = False  # listed in the lobby until an account takes it
    rank: int | None = None  # once the game is over (1 best; ties share)


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
    creator: int | None = None  # the account that created it, if signed in
    undone: bool = False  # an undo was used: unrated
    abandoned: bool = False  # a move's time limit ran out with "abandon" chosen
    started: str | None = None  # when its last open seat was taken (else: created)
    seq: int = 0  # changes so far; only a shared store (PostgreSQL) counts them


@dataclass(frozen=True)
class Account:
    id: int
    name: str


@dataclass(frozen=True)
class AccountGame:
    """One of an account's games, for "my games"."""

    id: str
    type: str
    seat: int
    over: bool
    abandoned: bool
    updated: str


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
        """Bring a database made by an older version up to ``SCHEMA`` and ``MIGRATIONS``."""
        self._migrate_unversioned()
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        for number in range(version, len(MIGRATIONS)):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
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
        creator: int | None = None,
    ) -> None:
        """Store a new game; ``seed_chosen``: the creator fixed the seed."""
        self._one("create_game", game_id, type_name, options, seed, seats, seed_chosen, creator)

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
    ) -> str:
        """Store action number ``ply`` (0-based); return its time. Fails if the ply is taken.
        ``by``: who acted when not the seat itself (``"clock"``); ``rated``: the game
        ends with it and is rated (in the same transaction); ``ranks``: each seat's
        rank when it ends."""
        return self._one(
            "append_action", game_id, ply, seat, action, reveals, over, by, rated, ranks
        )

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
        creator: int | None = None,
    ) -> None:
        now = _now()
        db.execute(
            "INSERT INTO games (id, type, options, seed, seed_chosen, created, updated, creator) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, type_name, json.dumps(options), seed, int(seed_chosen), now, now, creator),
        )
        db.executemany(
            "INSERT INTO seats (game_id, seat, name, kind, bot, token_hash, account_id, open) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    *(s.seat, s.name, s.kind, s.bot, s.token and hash_token(s.token)),
                    *(s.account_id, int(s.open)),
                )
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
        rated: RatedEnd | None = None,
        ranks: tuple[int, ...] | None = None,
        expected_seq: int | None = None,  # for a shared store; one process needs none
    ) -> str:
        now = _now()
        db.execute(
            "INSERT INTO actions (game_id, ply, seat, action, reveals, at, by) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, ply, seat, action, int(reveals), now, by),
        )
        db.execute("UPDATE games SET updated = ?, over = ? WHERE id = ?", (now, int(over), game_id))
        if over and ranks is not None:  # "my games" shows results without replaying
            db.executemany(
                "UPDATE seats SET rank = ? WHERE game_id = ? AND seat = ?",
                [(rank, game_id, number) for number, rank in enumerate(ranks)],
            )
        if over and rated is not None:
            ratings.apply(db, game_id, rated)
        return now

    @staticmethod
    def _truncate(
        db: sqlite3.Connection, game_id: str, ply: int, expected_seq: int | None = None
    ) -> None:
        db.execute("DELETE FROM actions WHERE game_id = ? AND ply >= ?", (game_id, ply))
        db.execute("UPDATE seats SET rank = NULL WHERE game_id = ?", (game_id,))
        db.execute(
            "UPDATE games SET updated = ?, over = 0, undone = 1 WHERE id = ?", (_now(), game_id)
        )

    @staticmethod
    def _abandon(db: sqlite3.Connection, game_id: str, expected_seq: int | None = None) -> None:
        db.execute(
            "UPDATE games SET updated = ?, over = 1, abandoned = 1 WHERE id = ?", (_now(), game_id)
        )

    @staticmethod
    def _claim_seat(
        db: sqlite3.Connection,
        game_id: str,
        seat: int,
        account_id: int,
        name: str,
        expected_seq: int | None = None,  # for a shared store
    ) -> bool:
        """Give an unclaimed human seat to an account (its name becomes the seat's);
        false if someone claimed it first."""
        was_open = db.execute(
            "SELECT open FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)
        ).fetchone()
        cursor = db.execute(
            "UPDATE seats SET account_id = ?, name = ?, open = 0 WHERE game_id = ? AND seat = ? "
            "AND kind = 'human' AND account_id IS NULL",
            (account_id, name, game_id, seat),
        )
        if was_open and was_open[0]:  # the game starts when its last open seat is taken
            db.execute(
                "UPDATE games SET started = ? WHERE id = ? AND NOT EXISTS "
                "(SELECT 1 FROM seats WHERE game_id = ? AND open = 1)",
                (_now(), game_id, game_id),
            )
        return cursor.rowcount == 1

    @staticmethod
    def _create_account(db: sqlite3.Connection, name: str, key: str, password_hash: str) -> int:
        cursor = db.execute(
            "INSERT INTO accounts (name, name_key, password_hash, created) VALUES (?, ?, ?, ?)",
            (name, key, password_hash, _now()),
        )
        return int(cursor.lastrowid or 0)

    @staticmethod
    def _create_session(db: sqlite3.Connection, token_hash: str, account_id: int) -> None:
        db.execute(
            "INSERT INTO sessions (token_hash, account_id, created) VALUES (?, ?, ?)",
            (token_hash, account_id, _now()),
        )

    @staticmethod
    def _end_session(db: sqlite3.Connection, token_hash: str) -> None:
        db.execute("DELETE FROM sessions WHERE token_hash = ?", (token_hash,))

    @staticmethod
    def _end_sessions(db: sqlite3.Connection, account_id: int) -> int:
        return db.execute("DELETE FROM sessions WHERE account_id = ?", (account_id,)).rowcount

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
            row["creator"],
            bool(row["undone"]),
            bool(row["abandoned"]),
            row["started"],
        )

    def seats(self, game_id: str) -> list[Seat]:
        rows = self._reader.execute(
            "SELECT seat, name, kind, bot, account_id, open, rank FROM seats WHERE game_id = ? "
            "ORDER BY seat",
            (game_id,),
        )
        return [
            Seat(
                *(r["seat"], r["name"], r["kind"], r["bot"], None),
                *(r["account_id"], bool(r["open"]), r["rank"]),
            )
            for r in rows
        ]

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

    def open_games(self, limit: int = 100) -> list[str]:
        """Unfinished games with a seat open to any account, newest first."""
        rows = self._reader.execute(
            "SELECT DISTINCT g.id, g.created FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE s.open = 1 AND g.over = 0 ORDER BY g.created DESC LIMIT ?",
            (limit,),
        )
        return [r["id"] for r in rows]

    # -- accounts ----------------------------------------------------------------

    def account_login(self, key: str) -> tuple[Account, str] | None:
        """The account of a (case-folded) name and its password hash."""
        row = self._reader.execute(
            "SELECT id, name, password_hash FROM accounts WHERE name_key = ?", (key,)
        ).fetchone()
        return None if row is None else (Account(row["id"], row["name"]), row["password_hash"])

    def account_named(self, key: str) -> Account | None:
        found = self.account_login(key)
        return None if found is None else found[0]

    def account_for_session(self, token: str) -> Account | None:
        row = self._reader.execute(
            "SELECT a.id, a.name FROM sessions s JOIN accounts a ON a.id = s.account_id "
            "WHERE s.token_hash = ?",
            (hash_token(token),),
        ).fetchone()
        return None if row is None else Account(row["id"], row["name"])

    def sessions_of(self, account_id: int) -> int:
        row = self._reader.execute(
            "SELECT COUNT(*) FROM sessions WHERE account_id = ?", (account_id,)
        ).fetchone()
        return int(row[0])

    def games_of(self, account_id: int, limit: int = 200) -> list[AccountGame]:
        rows = self._reader.execute(
            "SELECT g.id, g.type, s.seat, g.over, g.abandoned, g.updated FROM seats s "
            "JOIN games g ON g.id = s.game_id WHERE s.account_id = ? "
            "ORDER BY g.updated DESC LIMIT ?",
            (account_id, limit),
        )
        return [
            AccountGame(
                r["id"], r["type"], r["seat"], bool(r["over"]), bool(r["abandoned"]), r["updated"]
            )
            for r in rows
        ]

    # -- ratings -----------------------------------------------------------------

    def rating(self, game_type: str, player: str) -> tuple[float, float, int]:
        """``(mu, sigma, rated games)`` of a player in ``game_type``."""
        row = self._reader.execute(
            "SELECT mu, sigma, games FROM ratings WHERE type = ? AND player = ?",
            (game_type, player),
        ).fetchone()
        if row is None:
            start = ratings.initial(game_type, player)
            return start.mu, start.sigma, 0
        return row["mu"], row["sigma"], row["games"]

    def ratings(self, game_type: str) -> list[tuple[str, float, float, int]]:
        """Every rated player of ``game_type``: ``(player, mu, sigma, games)``."""
        rows = self._reader.execute(
            "SELECT player, mu, sigma, games FROM ratings WHERE type = ?", (game_type,)
        )
        return [(r["player"], r["mu"], r["sigma"], r["games"]) for r in rows]

    def rating_changes(self, game_id: str) -> dict[str, tuple[int, float, float]]:
        """A rated game's ``{player: (rank, ordinal before, ordinal after)}``."""
        rows = self._reader.execute(
            "SELECT player, rank, before, after FROM rating_changes WHERE game_id = ?", (game_id,)
        )
        return {r["player"]: (r["rank"], r["before"], r["after"]) for r in rows}

    def account_names(self, ids: list[int]) -> dict[int, str]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self._reader.execute(f"SELECT id, name FROM accounts WHERE id IN ({marks})", ids)
        return {r["id"]: r["name"] for r in rows}
