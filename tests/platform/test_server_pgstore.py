"""The PostgreSQL store: migrations run once, moves are compare-and-set on the game's
seq, leases go to one process at a time, and `novaluna db copy` brings SQLite games over."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from pg_support import PgCluster
from tabletop.server.pgstore import LATEST, MIGRATIONS, PgStore, migrate
from tabletop.server.ratings import RatedEnd
from tabletop.server.storage import Account, MailRow, Seat, StoreConflict, StoreError, open_store
from tabletop.server.store import Store
from tabletop.server.writes import (
    AppendAction,
    ClaimMail,
    ClaimSeat,
    CreateAccount,
    CreateSession,
    EndSessions,
    FinishAnalysis,
    RequestAnalysis,
    SaveMailSettings,
    ServerSecret,
    Truncate,
)

from server_support import free_port

ANN = [Seat(0, "Ann", "human", None, "t"), Seat(1, "Bot", "bot", "random")]


@pytest.fixture
def url(pg_cluster: PgCluster) -> str:
    return pg_cluster.database()


def test_migrations_run_once_and_a_store_refuses_an_old_schema(url: str) -> None:
    with pytest.raises(StoreError, match="db migrate"):
        PgStore(url)
    assert migrate(url) == len(MIGRATIONS)  # each once (numbers are kept per branch: gaps)
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
            AppendAction("g", 0, 0, "1@0,0", False, False, expected_seq=0),
            AppendAction("g", 0, 0, "2@0,0", False, False, expected_seq=0),  # seq 0 again
            AppendAction("g", 1, 1, "2@1,0", True, False, expected_seq=1),
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
    assert store.claim("g", "bot 1 0 0", "a", 3600)
    assert not store.claim("g", "bot 1 0 0", "b", 3600)
    assert store.orphaned() == []
    # renewed by its holder, for no time: it runs out at once, as when ``a`` dies
    assert store.claim("g", "bot 1 0 0", "a", 0)
    assert store.orphaned() == [("g", "bot 1 0 0")]  # taken off the table for someone to reload
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
        (result,) = store.write_many([Truncate("g", 0, 0)])
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
    old.write(RequestAnalysis("g1", 50))
    old.write(FinishAnalysis("g1", {"game": "nova-luna", "seats": []}))
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
    analysis = store.analysis("g1")  # kept: nobody has to wait for it again
    assert analysis is not None and analysis.budget == 50 and analysis.finished
    assert analysis.result == {"game": "nova-luna", "seats": []}
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
    assert f"{len(MIGRATIONS)} migration(s) applied" in db("migrate", url).stdout
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT max(version) FROM schema_version").fetchone() == (LATEST,)


def test_serve_refuses_several_workers_on_sqlite(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "tabletop.cli", "novaluna", "serve", "--workers", "2"]
    command += ["--port", str(free_port()), "--db", str(tmp_path / "games.sqlite3")]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode and "needs a database the processes can share" in done.stderr


# -- accounts, sessions and ratings (migration 2) ----------------------------------------

ENDED = RatedEnd("nova-luna", ("a:1", "b:random"), (1, 2))


def _version_1(url: str) -> None:
    """A database as the PostgreSQL store made it before accounts, with one game."""
    with psycopg.connect(url) as db:
        db.execute(MIGRATIONS[1])
        db.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY)")
        db.execute("INSERT INTO schema_version VALUES (1)")
        db.execute(
            "INSERT INTO games (id, type, options, seed, created, updated) "
            "VALUES ('old', 'nova-luna', '{}', 1, 'c', 'u')"
        )


def test_a_database_from_before_accounts_upgrades_in_place(url: str) -> None:
    _version_1(url)
    assert migrate(url) == len(MIGRATIONS) - 1
    store = PgStore(url)
    old = store.game("old")
    assert old is not None and (old.creator, old.undone, old.abandoned) == (None, False, False)
    assert store.account_named("ann") is None and store.open_games() == []
    store.close()


def test_accounts_sessions_and_claims(url: str) -> None:
    migrate(url)
    store = PgStore(url)
    ann = store.write(CreateAccount("Ann", "ann", "hash"))
    (dup,) = store.write_many([CreateAccount("ANN", "ann", "h")])
    assert isinstance(dup, StoreError)  # the name is unique whatever its case
    store.write(CreateSession("tokenhash", ann))
    assert store.account_login("ann") == (Account(ann, "Ann"), "hash")
    assert store.sessions_of(ann) == 1 and store.account_names([ann, 99]) == {ann: "Ann"}
    seats = [
        Seat(0, "Ann", "human", None, None, ann),
        Seat(1, "Open", "human", None, "o", None, True),
    ]
    store.create_game("g", "nova-luna", {}, 1, seats, creator=ann)
    assert store.open_games() == ["g"] and store.game("g").started is None
    ben = store.write(CreateAccount("Ben", "ben", "hash"))
    assert store.write(ClaimSeat("g", 1, ben, "Ben", 0))
    with pytest.raises(StoreConflict):  # stale seq: another process changed the game
        store.write(ClaimSeat("g", 1, ann, "Ann", 0))
    assert not store.write(ClaimSeat("g", 1, ann, "Ann", 1))  # taken
    game = store.game("g")
    assert game.seq == 2 and game.started is not None and store.open_games() == []
    assert [s.account_id for s in store.seats("g")] == [ann, ben]
    assert [g.id for g in store.games_of(ben)] == ["g"]
    assert store.write(EndSessions(ann)) == 1 and store.sessions_of(ann) == 0
    store.close()


def test_a_rated_end_is_stored_with_the_last_action_exactly_once(url: str) -> None:
    migrate(url)
    store = PgStore(url)
    ann = store.write(CreateAccount("Ann", "ann", "hash"))
    assert ann == 1
    store.create_game("g", "nova-luna", {}, 1, ANN)
    end = AppendAction("g", 0, 0, "1@0,0", False, True, None, ENDED, (1, 2), expected_seq=0)
    writes = [end, end]
    first, second = store.write_many(writes)
    assert isinstance(first, str) and isinstance(second, StoreConflict)
    assert store.rating("nova-luna", "a:1")[2] == 1  # the losing write rated nothing
    assert set(store.rating_changes("g")) == {"a:1", "b:random"}
    assert [s.rank for s in store.seats("g")] == [1, 2]
    assert store.rating("nova-luna", "a:1")[0] > 25  # won: up from openskill's 25
    store.truncate("g", 0, 1)  # an undo after the end leaves the game unrated
    assert store.game("g").undone and [s.rank for s in store.seats("g")] == [None, None]
    store.close()


def test_db_copy_brings_accounts_sessions_and_ratings(tmp_path: Path, url: str) -> None:
    path = tmp_path / "games.sqlite3"
    old = Store(path)
    ann = old.write(CreateAccount("Ann", "ann", "hash"))
    old.write(CreateSession("tokenhash", ann))
    seats = [Seat(0, "Ann", "human", None, "t", ann), Seat(1, "Bot", "bot", "random")]
    old.create_game("g", "nova-luna", {}, 1, seats, creator=ann)
    old.append_action("g", 0, 0, "1@0,0", False, True, None, ENDED, (1, 2))
    old.close()
    command = [sys.executable, "-m", "tabletop.cli", "novaluna", "db", "copy", str(path), url]
    subprocess.run(command, capture_output=True, text=True, check=True)
    store = PgStore(url)
    assert store.account_for_session("nothing") is None
    assert store.account_login("ann") == (Account(ann, "Ann"), "hash")
    assert store.sessions_of(ann) == 1 and store.game("g").creator == ann
    assert [(s.account_id, s.rank) for s in store.seats("g")] == [(ann, 1), (None, 2)]
    assert store.rating("nova-luna", "a:1")[2] == 1 and len(store.rating_changes("g")) == 2
    ben = store.write(CreateAccount("Ben", "ben", "hash"))
    assert ben > ann  # the id sequence goes on after the copied accounts
    store.close()


def test_db_copy_brings_e_mail_settings_sent_mails_and_the_link_key(
    tmp_path: Path, url: str
) -> None:
    path = tmp_path / "games.sqlite3"
    old = Store(path)
    ann = old.write(CreateAccount("Ann", "ann", "hash"))
    old.write(SaveMailSettings(ann, "ann@example.org", True, "turn", "de"))
    assert old.write(ClaimMail("turn:g:1:0", ann))
    key = old.write(ServerSecret("mail-links", "secret"))
    old.close()
    command = [sys.executable, "-m", "tabletop.cli", "novaluna", "db", "copy", str(path), url]
    subprocess.run(command, capture_output=True, text=True, check=True)
    store = PgStore(url)
    assert store.mail_settings(ann) == MailRow(ann, "Ann", "ann@example.org", True, "turn", "de")
    assert not store.write(ClaimMail("turn:g:1:0", ann))  # sent already: not again
    assert store.write(ServerSecret("mail-links", "another")) == key  # old links still work
    store.close()
