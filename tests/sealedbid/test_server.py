"""Sealed Bids on the web server: a server that hosts it (``TABLETOP_GAMES``) describes
it and serves its page files; a seat's pending bid reaches no other seat's state, is
taken back over the action and undo endpoints, and comes to light when the round
resolves; against a bot an undo takes back a resolved round; a finished game's record
replays."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from sealedbid.support import hosting
from tabletop.core.game import get_game

from server_support import Api, ServerProcess

HUMAN = {"kind": "human"}
GREEDY = {"kind": "bot", "bot": "greedy", "name": "Greedy"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server hosting Sealed Bids too (its bot workers inherit the variables)."""
    folder = tmp_path_factory.mktemp("sealed-server")
    with hosting():
        proc = ServerProcess(folder / "games.sqlite3").start()
    yield proc
    proc.stop()


def create(api: Api, seats: list[dict[str, Any]], seed: int) -> tuple[str, list[str]]:
    created = api.create(seats, type="sealed-bids", seed=seed)
    return created["id"], [seat.get("token") for seat in created["seats"]]


def bid(api: Api, game_id: str, token: str, action: str, ply: int) -> dict[str, Any]:
    response = api.act(game_id, token, action, ply)
    assert response.status_code == 200, response.text
    return dict(response.json())


def undo(api: Api, game_id: str, token: str, ply: int) -> httpx.Response:
    return api.request("POST", f"/api/games/{game_id}/undo", token, json={"ply": ply})


def test_the_server_describes_sealed_bids_and_serves_its_page_files(api: Api) -> None:
    types = {t["name"]: t for t in api.request("GET", "/api/types").json()["types"]}
    sealed = types["sealed-bids"]
    assert sealed["seats"] == [2, 3] and sealed["dynamics"] == "simultaneous"
    assert sealed["take_back"] == "take-back"
    page = api.request("GET", "/").text
    version = page.split('"/static/')[1].split("/")[0]
    for path in ("intro.js", "index.js", "sealed.css"):
        response = api.request("GET", f"/static/{version}/games/sealed-bids/{path}")
        assert response.status_code == 200


def test_a_pending_bid_stays_with_its_seat_until_the_round_resolves(api: Api) -> None:
    game_id, tokens = create(api, [HUMAN, HUMAN], seed=2)
    mine = bid(api, game_id, tokens[0], "bid 5", 0)
    assert mine["view"]["pending"] == 5 and mine["active"] == [1]
    theirs = api.state(game_id, tokens[1])
    assert theirs["view"]["pending"] is None and theirs["view"]["acted"] == [True, False]
    assert set(theirs["log"][-1]) == {
        "seat",
        "kind",
        "round",
        "prize",
        "parts",
        "text",
        "ply",
        "at",
    }
    assert "prizes" not in theirs["view"]  # nor the prizes' order
    # take it back (undo while pending), bid again, take that back over the action route
    taken = undo(api, game_id, tokens[0], mine["ply"])
    assert taken.status_code == 200, taken.text
    assert taken.json()["log"][-1]["kind"] == "take-back" and taken.json()["active"] == [0, 1]
    again = bid(api, game_id, tokens[0], "bid 4", taken.json()["ply"])
    stale = api.act(game_id, tokens[0], "take-back", again["ply"] - 1)
    assert stale.status_code == 409
    assert api.act(game_id, tokens[0], "take-back", again["ply"]).status_code == 200
    last = bid(api, game_id, tokens[0], "bid 6", again["ply"] + 1)
    resolved = bid(api, game_id, tokens[1], "bid 1", last["ply"])
    assert resolved["log"][-1]["resolved"]["bids"] == [6, 1]
    assert resolved["view"]["round"] == 1
    late = api.act(game_id, tokens[0], "take-back", resolved["ply"])
    assert late.status_code == 409  # the round has resolved: nothing moves any more


def test_against_a_bot_an_undo_takes_back_a_resolved_round_and_the_game_replays(
    api: Api,
) -> None:
    game_id, tokens = create(api, [HUMAN, GREEDY], seed=3)
    mine = lambda s: s["active"] == [0]  # noqa: E731 - the bot has bid: my turn
    before = api.wait(game_id, tokens[0], mine)
    resolved = bid(api, game_id, tokens[0], "bid 1", before["ply"])
    assert resolved["view"]["round"] == 1
    answer = undo(api, game_id, tokens[0], api.wait(game_id, tokens[0], mine)["ply"])
    assert answer.status_code == 200, answer.text
    after = answer.json()
    assert after["view"]["round"] == 0 and after["view"]["acted"] == [False, True]
    assert after["view"]["cards"] == before["view"]["cards"]
    state = after
    while not state["over"]:
        state = api.wait(game_id, tokens[0], lambda s: s["over"] or s["active"] == [0])
        if not state["over"]:
            state = bid(api, game_id, tokens[0], state["choices"][-1]["action"], state["ply"])
    record = api.request("GET", f"/api/games/{game_id}/record").json()
    game = get_game("sealed-bids")
    assert game.verify(record).endswith("6 rounds") and record["rounds"][0]["bids"][0] != 1
    frames = api.request("GET", f"/api/games/{game_id}/replay").json()["frames"]
    assert len(frames) == 7 and frames[-1]["view"]["over"]
