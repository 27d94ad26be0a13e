"""Ratings that mean something (issue 29), over the HTTP API of a real server: running
out of time loses a rated game, a hint makes a game unrated, the games of one pair of
accounts count less and less and new accounts are provisional, and the leaderboard
pages and tells a signed-in player where they stand."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from account_support import play_out
from tabletop.server.ratings import PROVISIONAL_OPPONENTS

from clock_support import HOUR, TEST_CLOCK, advance_clock
from server_support import ServerProcess, new_db

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def server(
    storage: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """conftest's ``server``, its clock moved on by the tests (to see a time run out:
    by hours, far from the times of the other tests' games)."""
    folder = tmp_path_factory.mktemp("server")
    db = new_db(storage, request, folder)
    proc = ServerProcess(db, log=folder / "server.log", options=TEST_CLOCK).start()
    yield proc
    proc.stop()


def register(server: ServerProcess, prefix: str) -> httpx.Client:
    """A client signed in to a new account named ``prefix`` and a unique number."""
    c = httpx.Client(base_url=server.url, timeout=30)
    name = f"{prefix}{time.monotonic_ns() % 10**9}"
    r = c.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c


def name_of(player: httpx.Client) -> str:
    return str(player.get("/api/account").json()["account"]["name"])


def create(creator: httpx.Client, game: str, seats: list[dict[str, Any]], **extra: Any) -> str:
    r = creator.post("/api/games", json={"type": game, "seats": seats, **extra})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def wait(player: httpx.Client, game_id: str, until: Any) -> dict[str, Any]:
    """The game's state once ``until(state)`` holds (polled: the server moves by itself;
    the deadline only bounds a hang)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = player.get(f"/api/games/{game_id}").json()
        if until(state):
            return state
        time.sleep(0.02)
    raise AssertionError("the game never got there")


def my_game(player: httpx.Client, game_id: str) -> dict[str, Any]:
    games = player.get("/api/account").json()["games"]
    return next(g for g in games if g["id"] == game_id)


ME_AND_RANDOM = [{"kind": "human", "me": True}, {"kind": "bot", "bot": "random"}]


# -- running out of time ---------------------------------------------------------------


def test_running_out_of_time_loses_a_rated_game(server: ServerProcess) -> None:
    ann = register(server, "Tim")
    game_id = create(ann, "nova-luna", ME_AND_RANDOM, time_limit=HOUR, on_timeout="abandon")
    state = wait(ann, game_id, lambda s: s["acting"] is not None)
    assert state["unrated"] is None and state["timed_out"] == []
    advance_clock(server, HOUR + 1)  # Ann never moves
    state = wait(ann, game_id, lambda s: s["over"])
    assert state["abandoned"] and state["timed_out"] == [0]
    mine, bot = state["ratings"]
    assert mine["after"] < mine["before"]
    # Tim is new (provisional): beating him lifts nobody, not even a bot (ratings.trust)
    assert bot["after"] == bot["before"]
    game = my_game(ann, game_id)
    assert game["rated"] and game["rank"] == 2  # last: the bot, still playing, is first
    again = ann.post(f"/api/games/{game_id}/actions", json={"action": "x", "ply": 0})
    assert again.status_code == 409


def test_running_out_of_time_ends_an_unrated_game_saying_whose_time_it_was(
    server: ServerProcess,
) -> None:
    ann = register(server, "Una")
    # a seat link without an account: the game cannot count for the ratings
    seats = [{"kind": "human", "name": "Guest"}, *ME_AND_RANDOM]
    game_id = create(ann, "nova-luna", seats, time_limit=HOUR, on_timeout="abandon")
    wait(ann, game_id, lambda s: {0, 1} & set(s["active"]))  # a person's turn (bots never wait)
    advance_clock(server, HOUR + 1)
    state = wait(ann, game_id, lambda s: s["over"])
    assert state["unrated"] == "players" and state["abandoned"]
    assert state["timed_out"] and set(state["timed_out"]) <= {0, 1}
    assert state["ratings"] is None and not my_game(ann, game_id)["rated"]


# -- hints -----------------------------------------------------------------------------


def test_a_rated_game_refuses_hints_and_an_unrated_one_allows_them(server: ServerProcess) -> None:
    ann = register(server, "Hin")
    game_id = create(ann, "nova-luna", ME_AND_RANDOM)
    state = wait(ann, game_id, lambda s: s["acting"] is not None)
    assert state["unrated"] is None
    # a hint in the last round used to make the game unrated: a loss dodged (issue 42)
    hint = ann.post(f"/api/games/{game_id}/hint", json={"ply": state["ply"]})
    assert hint.status_code == 409 and "rated" in hint.json()["error"]
    assert ann.get(f"/api/games/{game_id}").json()["unrated"] is None
    casual = create(ann, "nova-luna", ME_AND_RANDOM, rated=False)
    state = wait(ann, casual, lambda s: s["acting"] is not None)
    assert state["unrated"] == "casual" and state["game"]["time_limit"] is None
    hint = ann.post(f"/api/games/{casual}/hint", json={"ply": state["ply"]})
    assert hint.status_code == 200, hint.text
    state = play_out(casual, [ann])
    assert state["ratings"] is None and state["unrated"] == "casual"
    assert not my_game(ann, casual)["rated"]
    board = ann.get("/api/leaderboard/nova-luna").json()
    assert board["you"]["player"] is None  # never rated


def test_a_rated_game_refuses_an_undo_and_an_unrated_one_allows_it(server: ServerProcess) -> None:
    ann = register(server, "Und")
    for rated in (True, False):
        game_id = create(ann, "nova-luna", ME_AND_RANDOM, rated=rated)
        state = wait(ann, game_id, lambda s: s["acting"] is not None)
        move = {"action": state["choices"][0]["action"], "ply": state["ply"]}
        ann.post(f"/api/games/{game_id}/actions", json=move)
        state = wait(ann, game_id, lambda s: s["acting"] is not None)
        assert state["undo"] is not rated
        undone = ann.post(f"/api/games/{game_id}/undo", json={"ply": state["ply"]})
        assert undone.status_code == (409 if rated else 200), undone.text
        assert ann.get(f"/api/games/{game_id}").json()["unrated"] == (None if rated else "casual")


def test_an_nmbr9_take_back_stays_allowed_in_a_rated_game_but_no_undo(
    server: ServerProcess,
) -> None:
    ann = register(server, "Nun")
    game_id = create(ann, "nmbr9", ME_AND_RANDOM, options={"remove": 17})  # 3 rounds
    state = wait(ann, game_id, lambda s: s["active"] == [0])  # the bot has placed
    move = {"action": state["choices"][0]["action"], "ply": state["ply"]}
    resolved = ann.post(f"/api/games/{game_id}/actions", json=move).json()
    assert resolved["view"]["round"] == 1 and resolved["unrated"] is None
    assert not resolved["undo"]  # the resolved round cannot be undone: the game is rated
    undone = ann.post(f"/api/games/{game_id}/undo", json={"ply": resolved["ply"]})
    assert undone.status_code == 409 and "rated" in undone.json()["error"]
    state = play_out(game_id, [ann])
    assert state["ratings"] is not None and state["unrated"] is None
    assert my_game(ann, game_id)["rated"]


# -- farming ---------------------------------------------------------------------------


def test_games_of_one_pair_count_less_and_new_accounts_are_provisional(
    server: ServerProcess,
) -> None:
    ann, ben = register(server, "Far"), register(server, "Mer")
    for player in (ann, ben):  # tested against three bot strengths: no longer provisional
        for bot in ("random", "greedy", "planner:fast"):
            game_id = create(player, "nmbr9", [ME_AND_RANDOM[0], {"kind": "bot", "bot": bot}])
            assert player.post(f"/api/games/{game_id}/resign", json={}).status_code == 200
    seats = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
    weights = []
    for _ in range(3):
        game_id = create(ann, "nmbr9", seats)
        assert ben.post(f"/api/games/{game_id}/join", json={}).status_code == 200
        play_out(game_id, [ann, ben])
        game = my_game(ann, game_id)
        assert game["rated"]
        weights.append(game["rating"]["weight"])
    # the k-th game of the pair counts 1/k, times what is known of the other's rating
    # (ratings.certainty: it grows a little with each game, never by half)
    assert 1 > weights[0] > weights[1] > weights[2] > 0
    assert weights[1] < weights[0] * 3 / 4 and weights[2] < weights[0] / 2
    board = ann.get("/api/leaderboard/nmbr9?limit=100").json()
    players = {p["name"]: p for p in board["players"]}
    mine = players[name_of(ann)]
    assert not mine["provisional"] and mine["opponents"] == PROVISIONAL_OPPONENTS + 1
    # listed after every established player (the bots among them), whatever the numbers
    first_provisional = next(
        (i for i, p in enumerate(board["players"]) if p["provisional"]), len(board["players"])
    )
    assert all(p["provisional"] for p in board["players"][first_provisional:])
    greedy = players["Greedy"]
    assert greedy["rank"] is not None and not greedy["provisional"]
    you = board["you"]
    assert you["player"]["name"] == name_of(ann) and you["opponents_needed"] == 0


# -- the leaderboard's pages -----------------------------------------------------------


def test_the_leaderboard_pages(server: ServerProcess) -> None:
    c = httpx.Client(base_url=server.url, timeout=30)
    whole = c.get("/api/leaderboard/nmbr9?limit=100").json()
    assert whole["total"] == len(whole["players"]) >= 5 and whole["you"] is None
    first = c.get("/api/leaderboard/nmbr9?limit=2").json()
    assert len(first["players"]) == 2 and first["next"] == 2 and first["previous"] is None
    pages, offset = [], 0
    while offset is not None:
        page = c.get(f"/api/leaderboard/nmbr9?limit=2&offset={offset}").json()
        pages += page["players"]
        offset = page["next"]
    assert pages == whole["players"]
    assert page["previous"] == page["offset"] - 2
    established = [p for p in whole["players"] if not p["provisional"]]
    assert [p["rank"] for p in established] == list(range(1, len(established) + 1))


@pytest.mark.parametrize(
    "query", ["limit=0", "limit=101", "limit=abc", "offset=-1", "offset=1.5", "limit=%EF%BC%95"]
)
def test_the_leaderboard_refuses_bad_pages(server: ServerProcess, query: str) -> None:
    r = httpx.get(f"{server.url}/api/leaderboard/nmbr9?{query}", timeout=30)
    assert r.status_code == 400, r.text
    assert "must be a whole number" in r.json()["error"]


def test_an_unrated_player_is_told_how_to_get_ranked(server: ServerProcess) -> None:
    new = register(server, "New")
    you = new.get("/api/leaderboard/nova-luna").json()["you"]
    assert you == {"player": None, "opponents_needed": PROVISIONAL_OPPONENTS}
