"""A running analysis shows the moves judged so far (``"partial"``), proven on Toy
Draft: the test gate (``--test-gate``) lets a given number of judgements through and
holds the next, so the test reads the analysis at a known point on any machine."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tabletop.server import openapi
from toygame.support import hosting

from gate_support import SearchGate
from server_support import Api, ServerProcess

#: samples per decision: small, the gate (not a long search) holds the analysis
BUDGET = "20"
#: bounds a hang only: with the gate open a toy analysis takes a second
HANG_SECONDS = 60.0


@pytest.fixture(scope="module")
def gate(tmp_path_factory: pytest.TempPathFactory) -> SearchGate:
    return SearchGate(tmp_path_factory.mktemp("partial-gate"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, gate: SearchGate) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("partial")
    options = ("--analysis-budget", BUDGET, *gate.options)
    with hosting():
        proc = ServerProcess(folder / "games.sqlite3", options=options).start()
    yield proc
    proc.stop()


def _finished_game(api: Api, seed: int) -> str:
    bots = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    game_id: str = api.create(bots, type="toy", seed=seed)["id"]
    api.wait(game_id, None, lambda s: s["over"], timeout=HANG_SECONDS)
    return game_id


def _read(api: Api, game_id: str) -> dict[str, Any]:
    answer = api.request("GET", f"/api/games/{game_id}/analysis")
    assert answer.status_code == 200
    shown: dict[str, Any] = answer.json()
    return shown


def _read_until(api: Api, game_id: str, until: Any) -> dict[str, Any]:
    """Poll the analysis until ``until(answer)`` holds (the gate decides when)."""
    deadline = time.monotonic() + HANG_SECONDS
    while True:
        shown = _read(api, game_id)
        if until(shown):
            return shown
        assert time.monotonic() < deadline, f"the analysis never got there: {shown}"
        time.sleep(0.05)


def _judged(analysis: dict[str, Any]) -> list[dict[str, Any]]:
    moves = [m for seat in analysis["seats"] for m in seat["moves"]]
    return sorted(moves, key=lambda m: m["index"])


def _conforms(shown: dict[str, Any]) -> None:
    schema = {**openapi.document(), "$ref": "#/components/schemas/Analysis"}
    Draft202012Validator(schema).validate(shown)


def test_a_running_analysis_shows_the_moves_judged_so_far_in_the_games_order(
    api: Api, server: ServerProcess, gate: SearchGate
) -> None:
    game_id = _finished_game(api, seed=5)
    gate.close(passes=1)  # the list of decisions; every judgement waits
    try:
        asked = api.request("POST", f"/api/games/{game_id}/analysis")
        assert asked.status_code == 202 and asked.json()["status"] == "running"
        gate.wait_until_held()
        before = _read(api, game_id)
        assert before["status"] == "running" and before["done"] == 0
        assert "partial" not in before  # nothing judged yet: nothing to show
        gate.close(passes=3)  # three judgements, then the fourth waits
        three = _read_until(api, game_id, lambda shown: shown["done"] == 3)
        assert three["status"] == "running" and three["total"] == 8
        partial = three["partial"]
        assert [m["index"] for m in _judged(partial)] == [0, 1, 2]  # the first moves first
        assert {"scale", "seats"} <= set(partial) and "hindsight" not in partial
        names = [seat["name"] for seat in partial["seats"]]
        record = api.request("GET", f"/api/games/{game_id}/record").json()
        assert names == record["players"]  # every seat, with or without a judged move
        _conforms(three)
    finally:
        gate.open()
    done = _read_until(api, game_id, lambda shown: shown["status"] != "running")
    assert done["status"] == "done" and "partial" not in done
    # the partial analysis said of those moves what the finished one says
    assert _judged(done["analysis"])[:3] == _judged(partial)
    _conforms(done)


def test_the_document_describes_the_partial_analysis() -> None:
    schema = openapi.document()["components"]["schemas"]["Analysis"]
    assert {"partial", "done", "total", "analysis"} <= set(schema["properties"])
    assert schema["properties"]["status"]["enum"] == ["none", "running", "done", "failed"]
