"""The tutorials' HTTP API (``server/tutorial_api.py``): the script, a position, a try —
checked by the rules on the server, stateless (the same request gives the same answer)
and refusing bad input with a 4xx that says why. One SQLite server for the module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server_support import ServerProcess

BASE = "/api/tutorials/nmbr9"


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    folder: Path = tmp_path_factory.mktemp("tutorial-api")
    server = ServerProcess(folder / "games.sqlite3").start()
    with httpx.Client(base_url=server.url, timeout=60) as client:
        yield client
    server.stop()


def _post(http: httpx.Client, path: str, body: Any) -> httpx.Response:
    return http.post(BASE + path, json=body)


def test_the_types_say_which_games_teach_themselves(http: httpx.Client) -> None:
    types = {t["name"]: t for t in http.get("/api/types").json()["types"]}
    assert types["nmbr9"]["tutorial"] is True


def test_the_script_lists_each_step_with_its_text_move_and_highlight(http: httpx.Client) -> None:
    script = http.get(BASE).json()
    assert script["game"] == "nmbr9" and script["seat"] == 0
    first = script["steps"][1]
    assert first["key"] == "first" and first["ask"] == "r0@0,0"
    assert first["say"]["args"] == {"card": 9}
    assert first["highlight"] == {"target": "placement"}
    assert script["steps"][0]["ask"] is None  # an info step


def test_a_right_try_moves_on_and_a_wrong_one_is_explained(http: httpx.Client) -> None:
    right = _post(http, "/try", {"step": 1, "played": [], "action": "r0@ 0,0"}).json()
    assert right["correct"] is True and right["step"] == 2 and right["played"] == ["r0@0,0"]
    assert right["state"]["acting"] is None  # step 2 is read, not played
    assert right["state"]["tutorial"]["highlight"] == {"target": "players"}
    assert [len(b["tiles"]) for b in right["state"]["view"]["boards"]] == [1, 1]
    played = ["r0@0,0", "r0@3,-1"]
    wrong = _post(http, "/try", {"step": 5, "played": played, "action": "r0@0,0"}).json()
    assert wrong["correct"] is False and wrong["kind"] == "alone"
    assert "at least two tiles" in wrong["explanation"]["key"]
    again = _post(http, "/try", {"step": 5, "played": played, "action": "r0@0,0"}).json()
    assert again == wrong  # nothing was kept: the same try, the same answer


def test_a_position_is_the_lesson_replayed_to_its_step(http: httpx.Client) -> None:
    answer = _post(http, "/position", {"step": 5, "played": ["r0@0,0", "r0@3,-1"]}).json()
    state = answer["state"]
    assert answer["step"] == 5 and state["acting"] == 0
    assert state["tutorial"] == {"step": 5, "highlight": {"target": "placement"}, "ask": "r1@1,0"}
    assert {c["action"] for c in state["choices"]} >= {"r1@1,0"}
    assert state["view"]["card"] == 8 and state["log"]  # the rounds so far, as a game logs them


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        ("/position", None, 400),
        ("/position", [], 400),
        ("/position", {"step": 0}, 400),
        ("/position", {"step": 0, "played": [], "extra": 1}, 400),
        ("/position", {"step": -1, "played": []}, 422),
        ("/position", {"step": 9, "played": []}, 422),
        ("/position", {"step": "1", "played": []}, 422),
        ("/position", {"step": 2, "played": []}, 422),
        ("/position", {"step": 2, "played": ["r0@9,9"]}, 422),
        ("/position", {"step": 2, "played": [17]}, 422),
        ("/try", {"step": 0, "played": [], "action": "r0@0,0"}, 422),  # an info step
        ("/try", {"step": 1, "played": [], "action": "nonsense"}, 422),
        ("/try", {"step": 1, "played": [], "action": "r0@0,0" + " " * 40}, 422),
        ("/try", {"step": 1, "played": [], "action": None}, 422),
        ("/try", {"step": 1, "played": []}, 400),
    ],
)
def test_bad_input_is_refused_with_a_reason(
    http: httpx.Client, path: str, body: Any, status: int
) -> None:
    answer = _post(http, path, body)
    assert answer.status_code == status, answer.text
    assert answer.json()["key"]  # a msgid the page translates


def test_a_game_without_a_tutorial_is_404(http: httpx.Client) -> None:
    for answer in (http.get("/api/tutorials/chess"), http.get("/api/tutorials/nova-luna")):
        if answer.status_code == 200:  # Nova Luna teaches itself once its steps are merged
            continue
        assert answer.status_code == 404 and "nmbr9" in answer.json()["error"]


def test_the_tutorial_page_is_served(http: httpx.Client) -> None:
    answer = http.get("/learn/nmbr9")
    assert answer.status_code == 200 and "text/html" in answer.headers["content-type"]
