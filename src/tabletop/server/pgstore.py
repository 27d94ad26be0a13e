"""Games in PostgreSQL, shared by several server processes (``--db postgresql://...``).

The same tables as the SQLite store, plus what sharing needs:

* ``games.seq`` counts the game's changes. A move or undo is a compare-and-set
  on it (``UPDATE games SET seq = seq + 1 WHERE id = ... AND seq = expected``), so
  two processes can never both apply a change at one position: the second gets
  ``StoreConflict`` and reloads the game.
* Each change sends ``NOTIFY tabletop, '<game> <seq>'`` in its own transaction, so
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

import json
import sqlite3
from collections.abc import Callable
from typing import Any, TypeVar

import psycopg

from .storage import StoreConflict
from .store import ActionRow, GameRow, Seat, StoreError, Write, _now, hash_token

T = TypeVar("T")
CHANNEL = "tabletop"
CONNECT_TIMEOUT = 3  # seconds: a database that is down answers 503 quickly

#: version -> SQL; each runs once, in order, in one transaction with its version row
MIGRATIONS: dict[int, str] = {
    1: """
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    options TEXT NOT NULL,
    seed BIGINT NOT NULL,
    seed_chosen BOOLEAN NOT NULL DEFAULT false,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    over BOOLEAN NOT NULL DEFAULT false,
    seq BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX games_unfinished ON games (created) WHERE NOT over;
CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('human', 'bot')),
    bot TEXT,
    token_hash TEXT UNIQUE,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    reveals BOOLEAN NOT NULL,
    at TEXT NOT NULL,
    by TEXT,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE leases (
    game_id TEXT NOT NULL,
    task TEXT NOT NULL,
    owner TEXT NOT NULL,
    expires TIMESTAMPTZ NOT NULL,
    done BOOLEAN NOT NULL DEFAULT false,
    PRIMARY KEY (game_id, task)
);
CREATE INDEX leases_open ON leases (expires) WHERE NOT done;
""",
}
LATEST = max(MIGRATIONS)
_MIGRATION_LOCK = 0x7AB1E  # pg_advisory_xact_lock key: one migrator at a time


def connect(url: str) -> psycopg.Connection[Any]:
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


def schema_version(db: psycopg.Connection[Any]) -> int:
    row = db.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    if not row or not row[0]:
        return 0
    row = db.execute("SELECT max(version) FROM schema_version").fetchone()
    return (row[0] if row else None) or 0


class PgStore:
    """All games in one PostgreSQL database; see ``store.Store`` for the methods."""

    shared = True

    def __init__(self, url: str) -> None:
        self.path = url
        self._writer: psycopg.Connection[Any] | None = None  # the committer's thread only
        self._reader: psycopg.Connection[Any] | None = None  # the event loop only
        version = self._read(schema_version)
        if version != LATEST:
            raise StoreError(
                f"the database's schema is at version {version}, not {LATEST}: "
                "run `novaluna db migrate URL` (`novaluna serve` does it when it starts)"
            )

    # -- connections --------------------------------------------------------------

    def _read(self, query: Callable[[psycopg.Connection[Any]], T]) -> T:
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

    def _drop_reader(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def _begin(self) -> psycopg.Connection[Any]:
        """The writer in a new transaction; reconnected if broken (nothing was sent
        yet, so retrying ``BEGIN`` cannot apply anything twice)."""
        for attempt in (1, 2):
            try:
                if self._writer is None or self._writer.closed:
                    self._writer = connect(self.path)
                self._writer.execute("BEGIN")
                return self._writer
            except psycopg.OperationalError:
                if self._writer is not None:
                    self._writer.close()
                self._writer = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def checkpoint_separately(self) -> None:
        """Nothing to do: PostgreSQL checkpoints by itself."""

    def checkpoint(self) -> None:
        """Nothing to do: PostgreSQL checkpoints by itself."""

    def close(self) -> None:
        for db in (self._writer, self._reader):
            if db is not None:
                db.close()
        self._writer = self._reader = None

    # -- writes -----------------------------------------------------------------

    def write_many(self, writes: list[Write]) -> list[Any]:
        """Apply several writes in one transaction (one commit, see ``Committer``);
        each result is the write's value or a ``StoreError`` (a write that fails
        leaves the others in)."""
        results: list[Any] = []
        try:
            db = self._begin()
            for write in writes:
                db.execute("SAVEPOINT one_write")
                try:
                    results.append(getattr(self, "_" + write.name)(db, *write.args))
                    db.execute("RELEASE SAVEPOINT one_write")
                except StoreConflict as err:
                    db.execute("ROLLBACK TO SAVEPOINT one_write")
                    results.append(err)
                except psycopg.OperationalError:
                    raise  # the connection is gone: the whole batch failed
                except psycopg.Error as err:
                    db.execute("ROLLBACK TO SAVEPOINT one_write")
                    results.append(StoreError(f"the game database refused the write: {err}"))
            db.execute("COMMIT")
        except psycopg.Error as err:
            self._abandon_writer()
            failed = StoreError(f"the game database is unavailable: {_first_line(err)}")
            return [failed] * len(writes)
        return results

    def _abandon_writer(self) -> None:
        """After a failure mid-transaction: roll back if the connection still works,
        else drop it (the next batch reconnects)."""
        db = self._writer
        if db is None:
            return
        try:
            db.execute("ROLLBACK")
        except psycopg.Error:
            db.close()
            self._writer = None

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
        self._one("create_game", game_id, type_name, options, seed, seats, seed_chosen)

    def append_action(self, game_id: str, ply: int, seat: int, action: str, *rest: Any) -> str:
        """As ``Store.append_action``; after ``by``, the game's expected ``seq``."""
        return self._one("append_action", game_id, ply, seat, action, *rest)

    def truncate(self, game_id: str, ply: int, expected_seq: int | None = None) -> None:
        self._one("truncate", game_id, ply, expected_seq)

    @staticmethod
    def _create_game(
        db: psycopg.Connection[Any],
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
            "VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (game_id, type_name, json.dumps(options), seed, seed_chosen, now, now),
        )
        with db.cursor() as cur:
            cur.executemany(
                "INSERT INTO seats (game_id, seat, name, kind, bot, token_hash) "
                "VALUES (%s, %s, %s, %s, %s, %s)",
                [
                    (game_id, s.seat, s.name, s.kind, s.bot, s.token and hash_token(s.token))
                    for s in seats
                ],
            )

    @staticmethod
    def _next_seq(
        db: psycopg.Connection[Any], game_id: str, expected: int | None, **set_: Any
    ) -> int:
        """The compare-and-set: move the game's ``seq`` on from ``expected`` (any
        if ``None``), set ``set_`` and announce it; ``StoreConflict`` if it had moved."""
        columns = "".join(f", {name} = %({name})s" for name in set_)
        guard = "" if expected is None else " AND seq = %(expected)s"
        row = db.execute(
            f"UPDATE games SET seq = seq + 1{columns} WHERE id = %(id)s{guard} RETURNING seq",
            {**set_, "id": game_id, "expected": expected},
        ).fetchone()
        if row is None:
            raise StoreConflict("another server process changed this game first; look again")
        db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id} {row[0]}"))
        return row[0]

    @classmethod
    def _append_action(
        cls,
        db: psycopg.Connection[Any],
        game_id: str,
        ply: int,
        seat: int,
        action: str,
        reveals: bool,
        over: bool,
        by: str | None = None,
        expected_seq: int | None = None,
    ) -> str:
        now = _now()
        cls._next_seq(db, game_id, expected_seq, updated=now, over=over)
        db.execute(
            "INSERT INTO actions (game_id, ply, seat, action, reveals, at, by) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s)",
            (game_id, ply, seat, action, reveals, now, by),
        )
        return now

    @classmethod
    def _truncate(
        cls, db: psycopg.Connection[Any], game_id: str, ply: int, expected_seq: int | None = None
    ) -> None:
        cls._next_seq(db, game_id, expected_seq, updated=_now(), over=False)
        db.execute("DELETE FROM actions WHERE game_id = %s AND ply >= %s", (game_id, ply))

    # -- reads ------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow | None:
        row = self._read(
            lambda db: db.execute(
                "SELECT id, type, options, seed, created, updated, over, seed_chosen, seq "
                "FROM games WHERE id = %s",
                (game_id,),
            ).fetchone()
        )
        if row is None:
            return None
        id_, type_, options, seed, created, updated, over, chosen, seq = row
        return GameRow(id_, type_, json.loads(options), seed, created, updated, over, chosen, seq)

    def seats(self, game_id: str) -> list[Seat]:
        rows = self._read(
            lambda db: db.execute(
                "SELECT seat, name, kind, bot FROM seats WHERE game_id = %s ORDER BY seat",
                (game_id,),
            ).fetchall()
        )
        return [Seat(*row) for row in rows]

    def actions(self, game_id: str) -> list[ActionRow]:
        rows = self._read(
            lambda db: db.execute(
                "SELECT ply, seat, action, reveals, at, by FROM actions "
                "WHERE game_id = %s ORDER BY ply",
                (game_id,),
            ).fetchall()
        )
        return [ActionRow(*row) for row in rows]

    def seat_for_token(self, game_id: str, token: str) -> int | None:
        row = self._read(
            lambda db: db.execute(
                "SELECT seat FROM seats WHERE game_id = %s AND token_hash = %s",
                (game_id, hash_token(token)),
            ).fetchone()
        )
        return None if row is None else row[0]

    def unfinished_games(self) -> list[str]:
        rows = self._read(
            lambda db: db.execute("SELECT id FROM games WHERE NOT over ORDER BY created").fetchall()
        )
        return [row[0] for row in rows]

    def seqs(self, game_ids: list[str]) -> dict[str, int]:
        """The current ``seq`` of each of these games (those that exist)."""
        rows = self._read(
            lambda db: db.execute(
                "SELECT id, seq FROM games WHERE id = ANY(%s)", (game_ids,)
            ).fetchall()
        )
        return dict(rows)

    def changes_since(self, game_id: str, ply: int) -> tuple[int, list[ActionRow]] | None:
        """The game's ``seq`` and its actions from ``ply`` on, read together (one
        statement: one snapshot); ``None`` if there is no such game."""
        rows = self._read(
            lambda db: db.execute(
                "SELECT g.seq, a.ply, a.seat, a.action, a.reveals, a.at, a.by FROM games g "
                "LEFT JOIN actions a ON a.game_id = g.id AND a.ply >= %s "
                "WHERE g.id = %s ORDER BY a.ply",
                (ply, game_id),
            ).fetchall()
        )
        if not rows:
            return None
        return rows[0][0], [ActionRow(*row[1:]) for row in rows if row[1] is not None]

    # -- leases -----------------------------------------------------------------

    def claim(self, game_id: str, task: str, owner: str, seconds: float) -> bool:
        """Take (or renew) the lease on ``task`` of a game for ``seconds``: True if
        ``owner`` holds it now. A lease whose holder stopped renewing it runs out,
        and whoever claims next takes over; a finished task is never claimed again.
        One atomic upsert: of two claimers the row lock makes one wait and then see
        the other's lease."""
        row = self._read(
            lambda db: db.execute(
                "INSERT INTO leases (game_id, task, owner, expires) "
                "VALUES (%s, %s, %s, now() + make_interval(secs => %s)) "
                "ON CONFLICT (game_id, task) DO UPDATE "
                "SET owner = EXCLUDED.owner, expires = EXCLUDED.expires "
                "WHERE NOT leases.done "
                "AND (leases.expires < now() OR leases.owner = EXCLUDED.owner) "
                "RETURNING owner",
                (game_id, task, owner, seconds),
            ).fetchone()
        )
        return row is not None

    def finish(self, game_id: str, task: str, owner: str) -> None:
        """Mark ``task`` done (its move is stored or no longer needed)."""
        self._read(
            lambda db: db.execute(
                "UPDATE leases SET done = true WHERE game_id = %s AND task = %s AND owner = %s",
                (game_id, task, owner),
            )
        )

    def orphaned(self, limit: int = 20) -> list[str]:
        """Take the unfinished tasks whose lease ran out (their process died) off the
        table and return their games, to be loaded here so that their bots and clocks
        claim anew. Rows another process's sweep holds right now are skipped; old
        finished leases are dropped on the way."""

        def sweep(db: psycopg.Connection[Any]) -> list[str]:
            with db.transaction():
                db.execute("DELETE FROM leases WHERE done AND expires < now() - interval '1 hour'")
                rows = db.execute(
                    "DELETE FROM leases WHERE (game_id, task) IN ("
                    " SELECT game_id, task FROM leases WHERE NOT done AND expires < now()"
                    " ORDER BY expires LIMIT %s FOR UPDATE SKIP LOCKED) RETURNING game_id",
                    (limit,),
                ).fetchall()
            return sorted({row[0] for row in rows})

        return self._read(sweep)


def _first_line(err: Exception) -> str:
    return (str(err).strip().splitlines() or [type(err).__name__])[0]


def copy_sqlite(source: str, url: str) -> tuple[int, int]:
    """Copy every game of the SQLite database ``source`` into PostgreSQL at ``url``
    (migrated first); games already there are left alone. Returns (copied, skipped)."""
    migrate(url)
    old = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    old.row_factory = sqlite3.Row
    copied = skipped = 0
    with connect(url) as db, db.transaction():
        for game in old.execute("SELECT * FROM games ORDER BY created").fetchall():
            actions = old.execute(
                "SELECT * FROM actions WHERE game_id = ? ORDER BY ply", (game["id"],)
            ).fetchall()
            keys = set(game.keys())
            inserted = db.execute(
                "INSERT INTO games (id, type, options, seed, seed_chosen, created, updated, "
                "over, seq) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) "
                "ON CONFLICT (id) DO NOTHING RETURNING id",
                (
                    game["id"],
                    game["type"],
                    game["options"],
                    game["seed"],
                    bool(game["seed_chosen"]) if "seed_chosen" in keys else False,
                    game["created"],
                    game["updated"],
                    bool(game["over"]),
                    len(actions),
                ),
            ).fetchone()
            if inserted is None:
                skipped += 1
                continue
            _copy_rows(old, db, game["id"], actions)
            copied += 1
    old.close()
    return copied, skipped


def _copy_rows(
    old: sqlite3.Connection, db: psycopg.Connection[Any], game_id: str, actions: list[Any]
) -> None:
    with db.cursor() as cur:
        seats = old.execute("SELECT * FROM seats WHERE game_id = ?", (game_id,)).fetchall()
        cur.executemany(
            "INSERT INTO seats (game_id, seat, name, kind, bot, token_hash) "
            "VALUES (%s, %s, %s, %s, %s, %s)",
            [(game_id, s["seat"], s["name"], s["kind"], s["bot"], s["token_hash"]) for s in seats],
        )
        cur.executemany(
            "INSERT INTO actions (game_id, ply, seat, action, reveals, at, by) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s)",
            [
                (
                    game_id,
                    a["ply"],
                    a["seat"],
                    a["action"],
                    bool(a["reveals"]),
                    a["at"],
                    dict(a).get("by"),  # None before move clocks
                )
                for a in actions
            ],
        )
