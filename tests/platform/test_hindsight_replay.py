"""The hindsight game and the daily bot's game as replays (issue 44): the analysis keeps
the best game with hindsight as a record of its own, which replays legally, placement by
placement, to the score the analysis states; the server serves its frames
(``GET /api/games/{id}/hindsight``), and the daily bot's game on a deal
(``GET /api/daily/{game}/{day}/bot?game=ID``) once your game of that deal is over, each
ending on the stated score; bad requests get a clear 4xx."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from tabletop.core.errors import IllegalActionError
from tabletop.core.game import get_game
from tabletop.core.web import web_games
from tabletop.games.nmbr9.analysis import hindsight, hindsight_record
from tabletop.games.nmbr9.records import replay
from tabletop.harness.selfplay import play_game
from tabletop.server.setup import bot_labels

from server_support import ServerProcess

NMBR9 = get_game("nmbr9")
OPTIONS = (
    *("--daily-bot", "nmbr9=greedy", "--daily-bot", "nova-luna=greedy"),
    *("--analysis-budget", "8"),
)


# -- the record of the hindsight game ----------------------------------------------------


@pytest.mark.parametrize("bots", [["greedy"], ["greedy", "random"]])
def test_the_hindsight_game_is_a_record_that_replays_legally_to_its_score(
    bots: list[str],
) -> None:
    played = play_game(NMBR9, bots, seed=11)
    best = hindsight(played, budget=8)
    record = best["record"]
    again = replay(record)  # every placement checked by the engine
    assert again.state.is_over and record["players"] == ["Hindsight"]
    assert again.state.boards[0].score == best["score"] == record["result"]["scores"][0]
    assert record["deck"] == played["deck"] and record["seed"] == played["seed"]
    placed = [r["placements"][0] for r in record["rounds"]]
    assert placed == [{k: r[k] for k in ("rotation", "x", "y", "level")} for r in best["rounds"]]
    frames = NMBR9.replay(record)
    assert len(frames) == 21 and frames[-1]["view"]["result"]["scores"] == [best["score"]]


def test_a_hindsight_game_with_an_illegal_placement_is_refused() -> None:
    played = play_game(NMBR9, ["greedy"], seed=5)
    rounds = hindsight(played, budget=8)["rounds"]
    rounds[3] = {**rounds[3], "x": rounds[3]["x"] + 40}  # far from every tile: not touching
    with pytest.raises(IllegalActionError):
        hindsight_record(played, rounds)
    rounds = hindsight(played, budget=8)["rounds"]
    rounds[0] = {**rounds[0], "level": 1}  # the first tile lies on the table
    with pytest.raises(RuntimeError, match="level"):
        hindsight_record(played, rounds)


# -- the server ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("hindsight")
    proc = ServerProcess(folder / "games.db", options=OPTIONS, workers=2).start()
    yield proc
    proc.stop()


def finished_game(client: httpx.Client, kind: str, bots: list[str]) -> str:
    seats = [{"kind": "bot", "bot": bot} for bot in bots]
    made = client.post("/api/games", json={"type": kind, "seats": seats, "seed": 3})
    assert made.status_code == 201, made.text
    game_id: str = made.json()["id"]
    wait(lambda: client.get(f"/api/games/{game_id}").json()["over"], "the game never ended")
    return game_id


def wait(ready: Any, what: str) -> Any:
    """Poll ``ready()`` until it gives something true (the server works in the background)."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        found = ready()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(what)


def analysed(client: httpx.Client, game_id: str) -> dict[str, Any]:
    client.post(f"/api/games/{game_id}/analysis")
    shown: dict[str, Any] = wait(
        lambda: (
            (s := client.get(f"/api/games/{game_id}/analysis").json())["status"] != "running" and s
        ),
        "the analysis never finished",
    )
    assert shown["status"] == "done", shown
    return shown


def test_the_hindsight_game_is_served_as_frames_ending_on_its_score(
    server: ServerProcess,
) -> None:
    client = httpx.Client(base_url=server.url, timeout=60)
    game_id = finished_game(client, "nmbr9", ["greedy", "random"])
    assert client.get(f"/api/games/{game_id}/hindsight").status_code == 404  # not asked for
    best = analysed(client, game_id)["analysis"]["hindsight"]
    answer = client.get(f"/api/games/{game_id}/hindsight")
    assert answer.status_code == 200, answer.text
    shown = answer.json()
    assert shown["game"] == "nmbr9" and shown["players"] == ["Hindsight"]
    assert shown["bots"] == [True] and shown["score"] == best["score"]
    frames = shown["frames"]
    assert len(frames) == 21 and frames[-1]["view"]["result"]["scores"] == [best["score"]]
    boards = [f["view"]["boards"][0] for f in frames]
    assert [len(b["tiles"]) for b in boards] == list(range(21))  # one placement a round
    assert best["score"] >= max(best["scores"])  # never below the players' own games


def test_a_game_without_hindsight_or_a_game_not_analysed_says_so(server: ServerProcess) -> None:
    client = httpx.Client(base_url=server.url, timeout=60)
    game_id = finished_game(client, "nova-luna", ["greedy", "random"])
    analysed(client, game_id)
    answer = client.get(f"/api/games/{game_id}/hindsight")
    assert answer.status_code == 404 and "no hindsight game" in answer.json()["error"]
    assert client.get("/api/games/nosuchgame/hindsight").status_code == 404


def today() -> str:
    return datetime.now(UTC).date().isoformat()


def bot_game(client: httpx.Client, kind: str, game_id: str) -> dict[str, Any]:
    def ready() -> dict[str, Any] | None:
        answer = client.get(f"/api/daily/{kind}/{today()}/bot", params={"game": game_id})
        if answer.status_code == 409 and "still playing" in answer.json()["error"]:
            return None
        assert answer.status_code == 200, answer.text
        shown: dict[str, Any] = answer.json()
        return shown

    found: dict[str, Any] = wait(ready, "the bot's daily game never finished")
    return found


def play_daily(client: httpx.Client, kind: str) -> tuple[str, str]:
    """An uncounted daily game (no account) of ``kind``, and its seat token."""
    made = client.post(f"/api/daily/{kind}")
    assert made.status_code == 201, made.text
    return made.json()["id"], made.json()["seats"][0]["token"]


def play_out(client: httpx.Client, game_id: str, token: str) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    while not (state := client.get(f"/api/games/{game_id}", headers=headers).json())["over"]:
        move = {"action": state["choices"][0]["action"], "ply": state["ply"]}
        assert client.post(f"/api/games/{game_id}/actions", json=move, headers=headers).is_success


@pytest.mark.parametrize("kind", ["nmbr9", "nova-luna"])
def test_the_daily_bots_game_is_served_once_yours_is_over_ending_on_its_score(
    server: ServerProcess, kind: str
) -> None:
    client = httpx.Client(base_url=server.url, timeout=60)
    game_id, token = play_daily(client, kind)
    path = f"/api/daily/{kind}/{today()}/bot"
    early = client.get(path, params={"game": game_id})
    assert early.status_code == 409 and "once yours is over" in early.json()["error"]
    play_out(client, game_id, token)
    shown = bot_game(client, kind, game_id)
    board = client.get(f"/api/daily/{kind}/{today()}", params={"game": game_id}).json()
    assert board["planner"]["status"] == "done"
    assert shown["score"] == board["planner"]["score"] and shown["bots"] == [True]
    label = bot_labels(web_games()[kind])["greedy"]
    assert shown["players"] == [label]  # the bot's label, not its spec: the page translates it
    last = shown["frames"][-1]["view"]
    assert last["over"]
    assert final_score(kind, last) == shown["score"]


def final_score(kind: str, view: dict[str, Any]) -> Any:
    """The score a finished solo game's last frame shows."""
    if kind == "nmbr9":
        return view["result"]["scores"][0]
    return view["result"]["total"]


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        ({}, 400, "?game=ID"),
        ({"game": "nosuchgame"}, 404, "not one of this day's challenge"),
    ],
)
def test_the_bots_game_needs_your_game_of_the_deal(
    server: ServerProcess, query: dict[str, str], status: int, words: str
) -> None:
    client = httpx.Client(base_url=server.url, timeout=60)
    answer = client.get(f"/api/daily/nmbr9/{today()}/bot", params=query)
    assert answer.status_code == status and words in answer.json()["error"], answer.text
    other = finished_game(client, "nmbr9", ["greedy"])  # a finished game of another deal
    answer = client.get(f"/api/daily/nmbr9/{today()}/bot", params={"game": other})
    assert answer.status_code == 404
