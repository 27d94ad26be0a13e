"""Helpers of the tournament tests (test_server_tournament_director.py, the cluster's):
events made, read and run to their end, and their standings worked out afresh from the
stored games (their records replayed by the games' rules)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from typing import Any

import httpx

from tabletop.core.game import get_game
from tabletop.tournaments import Bye, Entrant, Format, Game, standings

from clock_support import advance_clock
from server_support import ServerProcess

HOUR = 3600
HANG = 120.0  # seconds: only a hang takes this long


def until(what: Callable[[], Any], hang: float = HANG) -> Any:
    """``what()`` once it is truthy (polled; the deadline only bounds a hang)."""
    deadline = time.monotonic() + hang
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("the server never got there")


def create(who: httpx.Client, **body: Any) -> str:
    made = who.post("/api/tournaments", json={"name": "Test event", "starts_in": HOUR, **body})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def event(who: httpx.Client, event_id: str) -> dict[str, Any]:
    answer = who.get(f"/api/tournaments/{event_id}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def add_bots(who: httpx.Client, event_id: str, bots: list[str]) -> None:
    for bot in bots:
        added = who.post(f"/api/tournaments/{event_id}/bots", json={"bot": bot})
        assert added.status_code == 200, added.text


def all_games(who: httpx.Client, event_id: str, entrants: int) -> dict[str, dict[str, Any]]:
    """Every game of the event, from its entrants' lists (the event shows 50 at most)."""
    games: dict[str, dict[str, Any]] = {}
    for number in range(1, entrants + 1):
        listed = who.get(f"/api/tournaments/{event_id}/entrants/{number}/games").json()
        games.update({g["id"]: g for g in listed["games"]})
    return games


def stored_ranks(who: httpx.Client, game: dict[str, Any]) -> tuple[int, ...] | None:
    """A finished game's ranks worked out afresh: its record replayed by the game's
    rules, or (resigned, out of time) the seats that ran out last."""
    state = who.get(f"/api/games/{game['id']}").json()
    assert state["over"]
    if state["abandoned"]:
        late, seats = set(state["timed_out"]), len(game["entrants"])
        if not late or len(late) == seats:
            return None
        return tuple(seats - len(late) + 1 if s in late else 1 for s in range(seats))
    record = who.get(f"/api/games/{game['id']}/record").json()
    return tuple(get_game(record["game"]).outcome(record).ranks)


def byes_of(server: ServerProcess, event_id: str) -> list[Bye]:
    """The byes the director gave (its decisions; the results are the games')."""
    query = "SELECT entrant, round FROM tournament_byes WHERE tournament_id = ?"
    if isinstance(server.db, str) and server.db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(server.db) as pg:
            rows = pg.execute(query.replace("?", "%s"), (event_id,)).fetchall()
    else:
        with sqlite3.connect(f"file:{server.db}?mode=ro", uri=True) as db:
            rows = db.execute(query, (event_id,)).fetchall()
    return [Bye(e, r) for e, r in rows]


def recomputed(server: ServerProcess, who: httpx.Client, shown: dict[str, Any]) -> list[Any]:
    """The standings worked out here from the stored games (and the byes given)."""
    fmt = Format(shown["kind"], shown["players"], 2 if shown["players"] < 3 else
                 shown["players"] - 1, shown["rounds"], shown["minutes"])  # fmt: skip
    entrants = [Entrant(s["entrant"], 0.0, not s["withdrawn"]) for s in shown["standings"]]
    games = [
        Game(g["id"], g["round"], tuple(g["entrants"]), stored_ranks(who, g), number)
        for number, g in enumerate(all_games(who, shown["id"], len(entrants)).values())
    ]
    table = standings(fmt, entrants, games, byes_of(server, shown["id"]))
    return sorted((s.entrant, s.place, s.points, s.games, s.wins) for s in table)


def shown_standings(shown: dict[str, Any]) -> list[Any]:
    return sorted(
        (s["entrant"], s["place"], s["points"], s["games"], s["wins"]) for s in shown["standings"]
    )


def run_to_end(server: ServerProcess, who: httpx.Client, event_id: str) -> dict[str, Any]:
    """Start the event (the clock moved past its start) and wait for its end; an arena's
    end comes once it has had a few games (the clock moved past it)."""
    advance_clock(server, HOUR + 1)
    first = event(who, event_id)
    if first["kind"] == "arena":
        until(lambda: sum(g["ranks"] is not None for g in event(who, event_id)["games"]) >= 4)
        advance_clock(server, first["minutes"] * 60 + 1)
    return finished(who, event_id)


def finished(who: httpx.Client, event_id: str) -> dict[str, Any]:
    found: dict[str, Any] = until(lambda: (e := event(who, event_id))["status"] == "finished" and e)
    return found
