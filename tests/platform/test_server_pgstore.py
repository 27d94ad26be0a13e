"""The PostgreSQL store: migrations run once, moves are compare-and-set on the game's
seq, leases go to one process at a time, and `novaluna db copy` brings SQLite games over."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from pg_support import PgCluster
from tabletop.server.pgstore import LATEST, PgStore, migrate
from tabletop.server.storage import StoreConflict, open_store
from tabletop.server.store import Seat, Store, StoreError, Write

from server_support import free_port

ANN = [Seat(0, "Ann", "human", None, "t"), Seat(1, "Bot", "bot", "random")]


@pytest.fixture
def url(pg_cluster: PgCluster) -> str:
    return pg_cluster.database()


def test_migrations_run_once_and_a_store_refuses_an_old_schema(url: str) -> None:
    with pytest.raises(StoreError, match="db migrate"):
        PgStore(url)
    assert migrate(url) == LATEST
    assert migrate(url) == 0  # again: nothing to do
    store = open_store(url)
    assert isinstance(store, PgStore) and store.shared
    store.close()


def test_a_move_is_a_compare_and_set_on_the_games_seq(url: str) -> None:
    migrate(url)
    store = PgStore(url)
    store.create_game("g", "nova-luna", {"first_game": True}, 2**63 - 1, ANN)
    assert store.game("g").seq == 0 and store.game("g").seed == 2**63 - 1
    results = store.write_many(
        [
            Write("append_action", ("g", 0, 0, "1@0,0", False, False, None, 0)),
            Write("append_action", ("g", 0, 0, "2@0,0", False, False, None, 0)),  # seq 0 again
            Write("append_action", ("g", 1, 1, "2@1,0", True, False, None, 1)),
        ]
    )
    assert isinstance(results[1], StoreConflict) and "first" in str(results[1])
    assert all(isinstance(r, str) for r in (results[0], results[2]))
    assert store.seqs(["g", "nothing"]) == {"g": 2}
    with pytest.raises(StoreConflict):
        store.truncate("g", 1, 1)  # stale: the game is at seq 2
    store.truncate("g", 1, 2)
    assert [a.ply for a in store.actions("g")] == [0] and store.game("g").seq == 3
    assert store.seat_for_token("g", "t") == 0 and store.unfinished_games() == ["g"]
    assert store.seats("g") == [Seat(0, "Ann", "human", None), Seat(1, "Bot", "bot", "random")]
    store.close()


def test_a_lease_has_one_holder_until_it_runs_out_or_is_done(url: str) -> None:
    migrate(url)
    store = PgStore(url)
    store.create_game("g", "nova-luna", {}, 1, ANN)
    assert store.claim("g", "bot 1 0 0", "a", 0.3)
    assert not store.claim("g", "bot 1 0 0", "b", 0.3)
    assert store.claim("g", "bot 1 0 0", "a", 0.3)  # renewed by its holder
    assert store.orphaned() == []
    time.sleep(0.4)  # a dies
    assert store.orphaned() == ["g"]  # taken off the table for someone to reload
    assert store.claim("g", "bot 1 0 0", "b", 5)
    store.finish("g", "bot 1 0 0", "b")
    assert not store.claim("g", "bot 1 0 0", "a", 5)  # done: never again
    store.close()


def test_reads_and_writes_say_503_worthy_errors_while_postgresql_is_down(
    pg_cluster: PgCluster, url: str
) -> None:
    migrate(url)
    store = PgStore(url)
    store.create_game("g", "nova-luna", {}, 1, ANN)
    pg_cluster.down()
    try:
        with pytest.raises(StoreError, match="unavailable"):
            store.game("g")
        (result,) = store.write_many([Write("truncate", ("g", 0, 0))])
        assert isinstance(result, StoreError) and "unavailable" in str(result)
    finally:
        pg_cluster.up()
    assert store.game("g").seq == 0  # reconnected by itself; nothing half-applied
    store.truncate("g", 0, 0)
    store.close()


def test_db_copy_brings_every_sqlite_game_over_once(tmp_path: Path, url: str) -> None:
    path = tmp_path / "games.sqlite3"
    old = Store(path)
    old.create_game("g1", "nova-luna", {"first_game": True}, 7, ANN, seed_chosen=True)
    old.append_action("g1", 0, 0, "1@0,0", False, False)
    old.append_action("g1", 1, 1, "2@0,0", True, True, "clock")
    old.create_game("g2", "nmbr9", {}, 8, [Seat(0, "Bo", "human", None, "u")])
    old.close()
    command = [sys.executable, "-m", "tabletop.cli", "novaluna", "db", "copy", str(path), url]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    assert "copied 2 game(s); 0 already there" in done.stdout
    again = subprocess.run(command, capture_output=True, text=True, check=True)
    assert "copied 0 game(s); 2 already there" in again.stdout
    store = PgStore(url)
    first = store.game("g1")
    assert (first.options, first.seed, first.seed_chosen, first.over) == (
        {"first_game": True},
        7,
        True,
        True,
    )
    assert [(a.ply, a.action, a.reveals, a.by) for a in store.actions("g1")] == [
        (0, "1@0,0", False, None),
        (1, "2@0,0", True, "clock"),
    ]
    assert store.seat_for_token("g2", "u") == 0 and store.unfinished_games() == ["g2"]
    assert store.seqs(["g1"]) == {"g1": 2}  # the next move's compare-and-set starts there
    store.close()


def test_db_commands_refuse_what_they_cannot_use(tmp_path: Path, url: str) -> None:
    def db(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "tabletop.cli", "novaluna", "db", *args]
        return subprocess.run(command, capture_output=True, text=True)

    missing = db("copy", str(tmp_path / "none.sqlite3"), url)
    assert missing.returncode and "no SQLite file" in missing.stderr
    assert "not a postgresql://" in db("copy", str(tmp_path), "games.db").stderr
    down = db("migrate", "postgresql://postgres@/x?host=/nonexistent")
    assert down.returncode and "Traceback" not in down.stderr
    assert "1 migration(s) applied" in db("migrate", url).stdout
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT max(version) FROM schema_version").fetchone() == (LATEST,)


def test_serve_refuses_several_workers_on_sqlite(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "tabletop.cli", "novaluna", "serve", "--workers", "2"]
    command += ["--port", str(free_port()), "--db", str(tmp_path / "games.sqlite3")]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode and "needs a database the processes can share" in done.stderr
