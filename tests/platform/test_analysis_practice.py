"""Learning from your mistakes on the server: a marked decision's position (the
seat's own view, with its legal moves) and the judging of a move tried there
(``analysis.practice``, ``GET .../analysis/{index}/position`` and ``POST
.../analysis/{index}/try``): the best move solves it, the move played does not, another
move is searched afresh; bad input gets a 4xx and nothing hidden is in an answer."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator

from tabletop.analysis.practice import check_try, judge_try, position
from tabletop.analysis.run import analyser_of, judge_index
from tabletop.core.errors import IllegalActionError, InvalidActionError
from tabletop.core.game import game_types, get_game
from tabletop.core.page import page_view
from tabletop.games.nmbr9.gametype import GAME as NMBR9
from tabletop.games.novaluna.gametype import GAME as NOVA_LUNA
from tabletop.harness.selfplay import play_game
from tabletop.server import openapi

from gate_support import SearchGate
from server_support import Api, ServerProcess

#: A small budget: the rules of judging, not the search's depth, are tested here.
BUDGET = 20
#: bounds a hang only
HANG_SECONDS = 120.0


def _marked(analysis: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [m for m in analysis["seats"][seat]["moves"] if m["mark"]]


@pytest.fixture(scope="module")
def nmbr9_game(analysed: tuple[Api, str, dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The served game's record and analysis, judged again here in-process."""
    api, game_id, analysis = analysed
    record: dict[str, Any] = api.request("GET", f"/api/games/{game_id}/record").json()
    return record, analysis


def test_the_position_is_the_seats_own_view_before_the_decision(
    nmbr9_game: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    record, analysis = nmbr9_game
    move = _marked(analysis, 1)[0]
    shown = position(NMBR9.name, record, move["index"])
    assert shown["seat"] == 1 and shown["index"] == move["index"]
    # what the seat's live page showed at the start of that round: the same view
    true_state = NMBR9.analyser().position(record, move["index"])  # type: ignore[union-attr]
    assert NMBR9.page is not None
    assert shown["view"] == page_view(NMBR9.page, true_state, 1)
    actions = {c["action"] for c in shown["choices"]}
    assert move["played"] in actions and move["best"] in actions


def test_the_best_move_solves_it_and_the_move_played_does_not(
    nmbr9_game: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    record, analysis = nmbr9_game
    move = _marked(analysis, 1)[0]
    args = (NMBR9.name, record, move["index"])
    best = judge_try(*args, move["best"], BUDGET, analysis["seed"], move)
    assert best["solved"] and best["loss"] == 0 and best["mark"] is None
    played = judge_try(*args, move["played"], BUDGET, analysis["seed"], move)
    assert not played["solved"]
    assert played["loss"] == move["loss"] and played["mark"] == move["mark"]
    # the answer says how good the try is, never which move is best
    assert set(played) == {
        "index",
        "action",
        "value",
        "value_best",
        "loss",
        "mark",
        "solved",
        "words",
    }


def test_another_move_is_searched_with_the_analysis_budget(
    nmbr9_game: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    record, analysis = nmbr9_game
    move = _marked(analysis, 1)[0]
    shown = position(NMBR9.name, record, move["index"])
    other = next(
        c["action"] for c in shown["choices"] if c["action"] not in (move["best"], move["played"])
    )
    judged = judge_try(NMBR9.name, record, move["index"], other, BUDGET, analysis["seed"], move)
    assert judged["action"] == other
    assert judged["loss"] == 0 if judged["solved"] else judged["loss"] > 0
    assert judged["value_best"] >= judged["value"] or judged["solved"]


def test_a_try_that_is_not_a_legal_move_there_is_refused(
    nmbr9_game: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    record, analysis = nmbr9_game
    index = _marked(analysis, 1)[0]["index"]
    with pytest.raises(InvalidActionError):
        check_try(NMBR9.name, record, index, "anywhere")
    with pytest.raises(IllegalActionError):
        check_try(NMBR9.name, record, index, "r0@500,500")  # far from every tile


def test_nova_luna_solo_and_with_players_judge_tries_too() -> None:
    for bots in (["random"], ["random", "random"]):
        record = play_game(NOVA_LUNA, bots, seed=3)
        move = judge_index(NOVA_LUNA.name, record, 2, BUDGET, 0)["move"].to_json()
        shown = position(NOVA_LUNA.name, record, 2)
        assert move["best"] in {c["action"] for c in shown["choices"]}
        judged = judge_try(NOVA_LUNA.name, record, 2, move["best"], BUDGET, 0, move)
        assert judged["solved"], judged
        words = judged["words"]["key"]
        assert words in ("the {tile}, laid {where}", "a refill of the wheel", "the end of phase 1")


ANALYSED = sorted(name for name, game in game_types().items() if game.analysis is not None)


@pytest.mark.parametrize("name", ANALYSED)
def test_every_analysed_game_can_be_practised(name: str) -> None:
    """The contract a game's analyser keeps for "learn from your mistakes" (the toy's
    too): a decision's view offers as choices exactly its legal moves, and a try of
    the best move the analysis found solves it."""
    game = get_game(name)
    if game.page is None:
        pytest.skip("not played in the browser")
    record = play_game(game, ["random"] * min(2, game.max_seats), seed=5)
    decision = next(iter(analyser_of(game).decisions(record)))
    shown = position(name, record, decision.index)
    legal = {str(action) for action in decision.view.legal_actions()}
    assert {c["action"] for c in shown["choices"]} == legal
    move = judge_index(name, record, decision.index, BUDGET, 0)["move"].to_json()
    judged = judge_try(name, record, decision.index, move["best"], BUDGET, 0, move)
    assert judged["solved"] and judged["action"] == move["best"]


# -- over HTTP ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gate(tmp_path_factory: pytest.TempPathFactory) -> SearchGate:
    return SearchGate(tmp_path_factory.mktemp("practice-gate"))  # open until a test closes it


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, gate: SearchGate) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("practice")
    options = ("--analysis-budget", str(BUDGET), *gate.options)
    proc = ServerProcess(folder / "games.sqlite3", options=options).start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def analysed(served: ServerProcess) -> tuple[Api, str, dict[str, Any]]:
    """A finished NMBR 9 game between greedy and random, analysed."""
    api = Api(served)
    bots = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    game_id: str = api.create(bots, type="nmbr9", seed=7)["id"]
    api.wait(game_id, None, lambda s: s["over"], timeout=HANG_SECONDS)
    assert api.request("GET", f"/api/games/{game_id}/analysis/0/position").status_code == 404
    api.request("POST", f"/api/games/{game_id}/analysis")
    deadline = time.monotonic() + HANG_SECONDS
    while (shown := api.request("GET", f"/api/games/{game_id}/analysis").json())[
        "status"
    ] != "done":
        assert time.monotonic() < deadline, shown
        time.sleep(0.1)
    return api, game_id, shown["analysis"]


def _conforms(answer: Any, method: str, path: str) -> None:
    document = openapi.document()
    schema = document["paths"][path][method]["responses"]["200"]["content"]["application/json"][
        "schema"
    ]
    Draft202012Validator({**document, **schema}).validate(answer)


def test_a_try_over_http_is_judged_and_conforms(analysed: tuple[Api, str, dict[str, Any]]) -> None:
    api, game_id, analysis = analysed
    move = _marked(analysis, 1)[0]
    url = f"/api/games/{game_id}/analysis/{move['index']}"
    found = api.request("GET", f"{url}/position")
    assert found.status_code == 200
    _conforms(found.json(), "get", "/api/games/{game_id}/analysis/{index}/position")
    best = api.request("POST", f"{url}/try", json={"action": move["best"]})
    assert best.status_code == 200 and best.json()["solved"]
    _conforms(best.json(), "post", "/api/games/{game_id}/analysis/{index}/try")
    played = api.request("POST", f"{url}/try", json={"action": move["played"]}).json()
    assert not played["solved"] and played["mark"] == move["mark"]


@pytest.mark.parametrize(
    ("index", "body", "status"),
    [
        ("x", {"action": "r0@0,0"}, 400),
        ("0", {"action": 3}, 400),
        ("0", {"action": ""}, 400),
        ("0", {"action": "r0@0,0", "more": 1}, 400),
        ("0", [], 400),
        ("99999", {"action": "r0@0,0"}, 404),
        ("0", {"action": "nowhere"}, 422),
        ("1", {"action": "r0@500,500"}, 422),
    ],
)
def test_bad_tries_get_a_4xx(
    analysed: tuple[Api, str, dict[str, Any]], index: str, body: Any, status: int
) -> None:
    api, game_id, _ = analysed
    answer = api.request("POST", f"/api/games/{game_id}/analysis/{index}/try", json=body)
    assert answer.status_code == status, answer.text
    assert "error" in answer.json()


def test_one_try_per_address_is_judged_at_a_time(
    analysed: tuple[Api, str, dict[str, Any]], gate: SearchGate
) -> None:
    api, game_id, analysis = analysed
    move = _marked(analysis, 1)[0]
    url = f"/api/games/{game_id}/analysis/{move['index']}"
    choices = api.request("GET", f"{url}/position").json()["choices"]
    other = next(c["action"] for c in choices if c["action"] not in (move["best"], move["played"]))
    gate.close()  # the try's search waits at the gate
    try:
        with ThreadPoolExecutor(1) as pool:
            first = pool.submit(_try_apart, api.server.url + f"{url}/try", other)
            gate.wait_until_held()
            again = api.request("POST", f"{url}/try", json={"action": other})
            assert again.status_code == 429, again.text
            gate.open()
            assert first.result().status_code == 200
    finally:
        gate.open()


def _try_apart(url: str, action: str) -> httpx.Response:
    """A try sent on a connection of its own (from another thread)."""
    return httpx.post(url, json={"action": action}, timeout=HANG_SECONDS)
