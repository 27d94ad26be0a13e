"""The SQLite store: writes batched into one commit, failures kept apart, data kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.server.storage import Seat, StoreError
from tabletop.server.store import Store
from tabletop.server.writes import AppendAction


def test_a_batch_commits_together_and_a_failed_write_spoils_nothing_else(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    store.create_game(
        "g", "nova-luna", {"first_game": True}, 5, [Seat(0, "Ann", "human", None, "t")]
    )
    results = store.write_many(
        [
            AppendAction("g", 0, 0, "1@0,0", False, False),
            AppendAction("g", 0, 0, "2@0,0", False, False),  # ply 0 again
            AppendAction("g", 1, 0, "2@1,0", True, False),
        ]
    )
    assert isinstance(results[1], StoreError) and "refused" in str(results[1])
    assert all(isinstance(r, str) for r in (results[0], results[2]))
    store.close()
    again = Store(path)  # reopened: everything committed is there
    assert [(a.ply, a.action, a.reveals) for a in again.actions("g")] == [
        (0, "1@0,0", False),
        (1, "2@1,0", True),
    ]
    assert again.game("g").options == {"first_game": True}
    assert again.seat_for_token("g", "t") == 0 and again.seat_for_token("g", "x") is None
    with pytest.raises(StoreError):
        again.append_action("g", 1, 0, "3@2,0", False, False)
    again.truncate("g", 1)
    assert [a.ply for a in again.actions("g")] == [0]
    assert again.unfinished_games() == ["g"]


def test_a_write_that_fails_outside_sqlite_leaves_no_transaction_open(tmp_path: Path) -> None:
    """A lone surrogate cannot be encoded for SQLite: the write fails, and the next
    one (another game's move) must still go through."""
    store = Store(tmp_path / "games.sqlite3")
    with pytest.raises(StoreError, match="refused"):
        store.create_game("bad", "nova-luna", {}, 1, [Seat(0, "\ud800", "human", None, "t")])
    assert store.game("bad") is None  # nothing half-written
    store.create_game("good", "nova-luna", {}, 1, [Seat(0, "Ann", "human", None, "t")])
    assert store.append_action("good", 0, 0, "1@0,0", False, False)
    assert [a.action for a in store.actions("good")] == ["1@0,0"]


def test_a_database_from_before_fixed_seeds_were_recorded_is_upgraded(tmp_path: Path) -> None:
    """Version 0.2 databases have no ``seed_chosen``: opening one adds it, games kept."""
    import sqlite3

    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE games (id TEXT PRIMARY KEY, type TEXT NOT NULL, options TEXT NOT NULL,"
        " seed INTEGER NOT NULL, created TEXT NOT NULL, updated TEXT NOT NULL,"
        " over INTEGER NOT NULL DEFAULT 0);"
        "INSERT INTO games VALUES ('old', 'nova-luna', '{}', 9, 't', 't', 0);"
    )
    old.commit()
    old.close()
    store = Store(path)
    assert store.game("old").seed == 9 and not store.game("old").seed_chosen
    store.create_game("new", "nova-luna", {}, 3, [Seat(0, "Ann", "human", None, "t")], True)
    assert store.game("new").seed_chosen


def test_a_database_from_before_move_clocks_is_upgraded(tmp_path: Path) -> None:
    """Older actions tables have no ``by``: opening one adds it; old actions were the
    seats' own."""
    import sqlite3

    path = tmp_path / "old.sqlite3"
    Store(path).close()
    old = sqlite3.connect(path)
    old.executescript(
        "DROP TABLE actions;"
        "CREATE TABLE actions (game_id TEXT NOT NULL, ply INTEGER NOT NULL,"
        " seat INTEGER NOT NULL, action TEXT NOT NULL, reveals INTEGER NOT NULL,"
        " at TEXT NOT NULL, PRIMARY KEY (game_id, ply));"
        "INSERT INTO games (id, type, options, seed, created, updated)"
        " VALUES ('old', 'nmbr9', '{}', 9, 't', 't');"
        "INSERT INTO actions VALUES ('old', 0, 0, 'r0@0,0', 0, 't');"
    )
    old.commit()
    old.close()
    store = Store(path)
    assert [(a.action, a.by) for a in store.actions("old")] == [("r0@0,0", None)]
    store.append_action("old", 1, 1, "r1@0,0", True, False, "clock")
    assert [a.by for a in store.actions("old")] == [None, "clock"]
