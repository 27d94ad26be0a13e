"""Every typed write means the same on both stores: one sequence of writes, the same
reads after each, on SQLite and on PostgreSQL (where each change also moves ``seq``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tabletop.server.ratings import RatedEnd
from tabletop.server.storage import Account, Seat, hash_token, is_postgres, open_store
from tabletop.server.writes import (
    Abandon,
    AppendAction,
    ClaimMail,
    ClaimSeat,
    CreateAccount,
    CreateGame,
    CreateSession,
    EndSession,
    EndSessions,
    PruneMails,
    Truncate,
)


def test_every_write_means_the_same_on_both_stores(
    database: Callable[[str], str | Path],
) -> None:
    db = str(database("writes.sqlite3"))
    if is_postgres(db):
        from tabletop.server.pgstore import migrate

        migrate(db)
    store = open_store(db)
    ann = store.write(CreateAccount("Ann", "ann", "hash"))
    store.write(CreateSession(hash_token("one"), ann))
    store.write(CreateSession(hash_token("two"), ann))
    assert store.account_for_session("one") == Account(ann, "Ann")
    seats = [
        Seat(0, "Ann", "human", None, "t", ann),
        Seat(1, "Open", "human", None, "o", None, True),
    ]
    store.write(CreateGame("g", "nova-luna", {"first_game": True}, 5, seats, True, ann))
    assert store.open_games() == ["g"] and store.game("g").started is None
    ben = store.write(CreateAccount("Ben", "ben", "hash"))
    assert store.write(ClaimSeat("g", 1, ben, "Ben", 0))
    assert not store.write(ClaimSeat("g", 1, ann, "Ann", 1))  # taken
    assert store.open_games() == [] and store.game("g").started is not None
    store.write(AppendAction("g", 0, 0, "1@0,0", True, False, expected_seq=2))
    ended = RatedEnd("nova-luna", (f"a:{ann}", f"a:{ben}"), (2, 1))
    store.write(AppendAction("g", 1, 1, "2@0,0", False, True, "clock", ended, (2, 1), 3))
    game = store.game("g")
    assert game is not None and (game.over, game.seed_chosen, game.creator) == (True, True, ann)
    assert game.options == {"first_game": True} and store.seat_for_token("g", "t") == 0
    assert [(a.ply, a.reveals, a.by) for a in store.actions("g")] == [
        (0, True, None),
        (1, False, "clock"),
    ]
    assert [(s.name, s.account_id, s.open, s.rank) for s in store.seats("g")] == [
        ("Ann", ann, False, 2),
        ("Ben", ben, False, 1),
    ]
    assert set(store.rating_changes("g")) == {f"a:{ann}", f"a:{ben}"}
    assert store.rating("nova-luna", f"a:{ben}")[2] == 1
    assert [(g.id, g.seat, g.over) for g in store.games_of(ben)] == [("g", 1, True)]
    store.write(Truncate("g", 1, 4))
    game = store.game("g")
    assert game is not None and not game.over and game.undone
    assert [s.rank for s in store.seats("g")] == [None, None] and len(store.actions("g")) == 1
    store.write(Abandon("g", 5))
    game = store.game("g")
    assert game is not None and game.over and game.abandoned and store.unfinished_games() == []
    assert game.seq == (6 if store.shared else 0)  # only a shared store counts changes
    store.write(EndSession(hash_token("one")))
    assert store.account_for_session("one") is None and store.sessions_of(ann) == 1
    assert store.write(EndSessions(ann)) == 1 and store.sessions_of(ann) == 0
    assert store.account_names([ann, ben, 99]) == {ann: "Ann", ben: "Ben"}
    assert store.write(ClaimMail("turn:g:1", ann)) and not store.write(ClaimMail("turn:g:1", ann))
    assert store.write(PruneMails("2000-01-01T00:00:00.000+00:00")) == 0  # none that old
    assert store.write(PruneMails("9999-01-01T00:00:00.000+00:00")) == 1  # forgotten:
    assert store.write(ClaimMail("turn:g:1", ann))  # the key can be claimed again
    store.close()
