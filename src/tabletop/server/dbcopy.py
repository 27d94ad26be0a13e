"""``novaluna db copy``: every game of a SQLite file into PostgreSQL, with its accounts,
sessions, ratings, daily attempts, analyses, coach notes and e-mail settings, so that a server can
move to ``--db postgresql://...``.

The rows go over as they are stored (token hashes, ids, times); what an older
SQLite file lacks takes the column's default, and each game's ``seq`` starts at
its number of actions.
"""

from __future__ import annotations

import sqlite3

import psycopg
from psycopg.rows import TupleRow

from .pgstore import connect, migrate

ANALYSIS_COLUMNS = "game_id, budget, requested, done, total, finished, result, error"
MAIL_COLUMNS = "account_id, address, verified, mode, lang, updated"


def copy_sqlite(source: str, url: str) -> tuple[int, int]:
    """Copy every game of the SQLite database ``source`` into PostgreSQL at ``url``
    (migrated first), with its accounts, sessions and ratings; games (and accounts,
    sessions, ratings) already there are left alone. Returns (copied, skipped)."""
    migrate(url)
    old = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    old.row_factory = sqlite3.Row
    copied = skipped = 0
    try:
        with connect(url) as db, db.transaction():
            _copy_accounts(old, db)  # first: games and seats refer to them
            for game in old.execute("SELECT * FROM games ORDER BY created").fetchall():
                if _copy_game(old, db, game):
                    copied += 1
                else:
                    skipped += 1
            # after the games and accounts they name
            _copy_table(old, db, "ratings", "type, player, mu, sigma, games")
            _copy_table(old, db, "rating_changes", _rating_change_columns(old))
            _copy_table(old, db, "daily_attempts", "type, day, account_id, game_id, created")
            _copy_table(old, db, "analyses", ANALYSIS_COLUMNS)
            _copy_table(old, db, "coach_notes", "game_id, ply, seat, played, note, created")
            _copy_table(old, db, "mail_settings", MAIL_COLUMNS, flags=("verified",))
            _copy_table(old, db, "mails_sent", "key, account_id, created")
            _copy_table(old, db, "server_secrets", "name, value")
            _copy_table(old, db, "blocks", "account_id, blocked, created")
            _copy_table(old, db, "follows", "account_id, follows, at")
            # moderation: the roles and what holds on accounts (reports and the log stay)
            _copy_table(old, db, "moderators", "account_id, created")
            _copy_table(old, db, "closed_accounts", "account_id, at")
            _copy_table(old, db, "chat_mutes", "account_id, until")
    finally:
        old.close()
    return copied, skipped


def _tables(old: sqlite3.Connection) -> set[str]:
    return {r[0] for r in old.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _rating_change_columns(old: sqlite3.Connection) -> str:
    """The columns of ``rating_changes`` to copy: a file from before ratings had rules
    (issue 29) has no ``weight`` (each of its games counted in full: the default)."""
    names = {row[1] for row in old.execute("PRAGMA table_info(rating_changes)")}
    return "game_id, player, rank, before, after" + (", weight" if "weight" in names else "")


def _columns(old: sqlite3.Connection, table: str) -> set[str]:
    return {r[1] for r in old.execute(f"PRAGMA table_info({table})")}


def _copy_accounts(old: sqlite3.Connection, db: psycopg.Connection[TupleRow]) -> None:
    """Accounts keep their ids (seats, games and ratings name them); the id sequence
    then continues after the highest."""
    if "accounts" not in _tables(old):  # a database from before accounts
        return
    with db.cursor() as cur:
        cur.executemany(
            "INSERT INTO accounts (id, name, name_key, password_hash, created) "
            "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING",
            [
                tuple(r)
                for r in old.execute(
                    "SELECT id, name, name_key, password_hash, created FROM accounts"
                )
            ],
        )
    session_columns = "token_hash, account_id, created"
    if "last_used" in _columns(old, "sessions"):  # a file from before sessions expired lacks it
        session_columns += ", last_used"
    _copy_table(old, db, "sessions", session_columns)
    db.execute(
        "SELECT setval(pg_get_serial_sequence('accounts', 'id'), "
        "(SELECT COALESCE(max(id), 0) + 1 FROM accounts), false)"
    )


def _copy_table(
    old: sqlite3.Connection,
    db: psycopg.Connection[TupleRow],
    table: str,
    columns: str,
    flags: tuple[str, ...] = (),
) -> None:
    """Copy ``columns`` of every row of ``table`` (if the file has it: an older one may
    not); rows whose key is there already are left alone. ``flags`` name the boolean
    columns (SQLite keeps 0 and 1, which PostgreSQL's booleans refuse). ``table`` and
    ``columns`` come from this module, never from input."""
    if table not in _tables(old):
        return
    names = [name.strip() for name in columns.split(",")]
    marks = ", ".join(["%s"] * len(names))
    rows = [
        tuple(bool(v) if name in flags else v for name, v in zip(names, r, strict=True))
        for r in old.execute(f"SELECT {columns} FROM {table}")
    ]
    with db.cursor() as cur:
        cur.executemany(
            f"INSERT INTO {table} ({columns}) VALUES ({marks}) ON CONFLICT DO NOTHING", rows
        )


def _copy_game(
    old: sqlite3.Connection, db: psycopg.Connection[TupleRow], game: sqlite3.Row
) -> bool:
    """Copy one game with its seats and actions; False if it was there already."""
    actions = old.execute(
        "SELECT * FROM actions WHERE game_id = ? ORDER BY ply", (game["id"],)
    ).fetchall()
    row = dict(game)  # columns an older file lacks take their defaults
    inserted = db.execute(
        "INSERT INTO games (id, type, options, seed, seed_chosen, created, updated, "
        "over, seq, creator, undone, abandoned, started, hinted, timed_out, clock_from) "
        "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
        "ON CONFLICT (id) DO NOTHING RETURNING id",
        (
            *(row["id"], row["type"], row["options"], row["seed"]),
            bool(row.get("seed_chosen", False)),
            *(row["created"], row["updated"], bool(row["over"]), len(actions)),
            row.get("creator"),
            bool(row.get("undone", False)),
            bool(row.get("abandoned", False)),
            row.get("started"),
            bool(row.get("hinted", False)),
            row.get("timed_out"),
            row.get("clock_from"),
        ),
    ).fetchone()
    if inserted is None:
        return False
    _copy_rows(old, db, row["id"], actions)
    return True


def _copy_rows(
    old: sqlite3.Connection,
    db: psycopg.Connection[TupleRow],
    game_id: str,
    actions: list[sqlite3.Row],
) -> None:
    with db.cursor() as cur:
        seats = [dict(s) for s in old.execute("SELECT * FROM seats WHERE game_id = ?", (game_id,))]
        cur.executemany(
            "INSERT INTO seats (game_id, seat, name, kind, bot, token_hash, account_id, open, "
            "rank, invited) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            [
                (
                    *(game_id, s["seat"], s["name"], s["kind"], s["bot"], s["token_hash"]),
                    *(s.get("account_id"), bool(s.get("open", False)), s.get("rank")),
                    s.get("invited"),
                )
                for s in seats
            ],
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
