"""Post-game analysis through every front end, proven on Toy Draft: the command line
(tables, --json, files of records, --jobs) and the server (asked for once per
finished game, worked out in the background, stored, refused for unfinished games)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tabletop.analysis import analyse
from tabletop.core.game import get_game
from tabletop.harness.selfplay import play_game
from toygame.support import hosting, hosting_env

from gate_support import SearchGate
from server_support import Api, ServerProcess


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tabletop.cli", "toy", *args],
        capture_output=True,
        text=True,
        env={**hosting_env(), "PATH": "/usr/bin:/bin"},
        timeout=120,
    )


def test_a_greedy_game_has_no_loss_and_a_random_one_is_marked() -> None:
    toy = get_game("toy")
    record = play_game(toy, ["greedy", "random"], seed=5)
    report = analyse(toy, record, budget=40)
    greedy, random_seat = report.seats
    assert all(m.loss == 0 and m.mark is None for m in greedy.moves)
    assert greedy.accuracy == 100.0
    assert random_seat.average_loss > 0 and random_seat.accuracy < 100.0
    assert any(m.mark for m in random_seat.moves)
    assert report.to_json() == analyse(toy, record, budget=40).to_json()  # deterministic


def test_the_command_prints_tables_and_json_for_a_file_of_records(tmp_path: Path) -> None:
    toy = get_game("toy")
    records = [play_game(toy, ["greedy", "random"], seed=s) for s in (1, 2)]
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    tables = _cli("analyse", str(path), "--budget", "10")
    assert tables.returncode == 0, tables.stderr
    assert "value played" in tables.stdout and "accuracy" in tables.stdout
    one, two = (_cli("analyse", str(path), "--budget", "10", "--json", "--jobs", j) for j in "12")
    assert one.returncode == two.returncode == 0 and one.stdout == two.stdout
    lines = [json.loads(line) for line in one.stdout.splitlines()]
    assert len(lines) == 2
    seat = lines[0]["seats"][1]
    assert {"name", "accuracy", "average_loss", "moves"} <= set(seat)
    move = seat["moves"][0]
    keys = {"index", "played", "best", "value_played", "value_best", "loss", "mark"}
    assert keys <= set(move)


def test_the_command_refuses_unfinished_and_broken_records(tmp_path: Path) -> None:
    toy = get_game("toy")
    record = play_game(toy, ["greedy", "random"], seed=1)
    unfinished = {**record, "turns": record["turns"][:3], "over": False}
    del unfinished["result"]
    path = tmp_path / "part.json"
    path.write_text(json.dumps(unfinished))
    done = _cli("analyse", str(path))
    assert done.returncode == 1 and "only a finished game can be analysed" in done.stderr
    assert "Traceback" not in done.stderr
    path.write_text("{not json")
    broken = _cli("analyse", str(path))
    assert broken.returncode == 2 and "Traceback" not in broken.stderr
    missing = _cli("analyse", str(tmp_path / "nothing.json"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("toy-analysis")
    with hosting():
        proc = ServerProcess(folder / "games.sqlite3").start()
    yield proc
    proc.stop()


def _finished_bot_game(api: Api) -> str:
    bots = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    game_id: str = api.create(bots, type="toy", seed=3)["id"]
    api.wait(game_id, None, lambda s: s["over"], timeout=60)
    return game_id


def _analysed(api: Api, game_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        shown: dict[str, Any] = api.request("GET", f"/api/games/{game_id}/analysis").json()
        if shown["status"] != "running":
            return shown
        time.sleep(0.2)
    raise AssertionError("the analysis did not finish")


def test_the_server_analyses_a_finished_game_once_and_keeps_it(
    api: Api, server: ServerProcess
) -> None:
    game_id = _finished_bot_game(api)
    # nobody asked yet: an answer (the page asks before it offers Analyse), not a 404
    missing = api.request("GET", f"/api/games/{game_id}/analysis")
    assert missing.status_code == 200 and missing.json() == {"game": game_id, "status": "none"}
    no_boards = api.request("GET", f"/api/games/{game_id}/analysis/0")
    assert no_boards.status_code == 404 and "POST" in no_boards.json()["error"]
    asked = api.request("POST", f"/api/games/{game_id}/analysis")
    assert asked.status_code in (200, 202) and asked.json()["status"] in ("running", "done")
    shown = _analysed(api, game_id)
    assert shown["status"] == "done" and shown["done"] == shown["total"] == 8
    analysis = shown["analysis"]
    record = api.request("GET", f"/api/games/{game_id}/record").json()
    assert analysis["game"] == "toy"
    assert [s["name"] for s in analysis["seats"]] == record["players"]
    assert sum(len(s["moves"]) for s in analysis["seats"]) == 8
    boards = api.request("GET", f"/api/games/{game_id}/analysis/1").json()
    assert boards["seat"] == 1 and {"action", "view"} <= set(boards["best"])
    assert boards["played"]["view"]["hands"][1] and "pile" not in boards["best"]["view"]
    bad = {"999": 404, "x1": 400, "-1": 400, "99999999999": 400}
    for index, status in bad.items():
        answer = api.request("GET", f"/api/games/{game_id}/analysis/{index}")
        assert answer.status_code == status and answer.json()["error"]
    again = api.request("POST", f"/api/games/{game_id}/analysis")
    assert again.status_code == 200 and again.json()["analysis"] == analysis
    # kept across a restart
    server.stop()
    with hosting():
        server.start()
    assert api.request("GET", f"/api/games/{game_id}/analysis").json()["analysis"] == analysis


def test_the_server_refuses_analyses_of_unfinished_and_unknown_games(api: Api) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]
    game_id = api.create(seats, type="toy", seed=4)["id"]
    early = api.request("POST", f"/api/games/{game_id}/analysis")
    assert early.status_code == 409 and "once it is over" in early.json()["error"]
    unknown = api.request("POST", "/api/games/nosuchgame/analysis")
    assert unknown.status_code == 404
    assert api.request("GET", "/api/games/nosuchgame/analysis").status_code == 404
    wrong = api.request("PUT", f"/api/games/{game_id}/analysis")
    assert wrong.status_code == 405


#: samples per decision: small, since the test gate (not a long search) holds the
#: analysis halfway for the kill
BUDGET = "200"


@pytest.mark.parametrize("b_asked", [True, False])
def test_an_analysis_outlives_the_process_working_on_it(
    pg_cluster: Any, tmp_path: Path, b_asked: bool
) -> None:
    """Two processes on one PostgreSQL: one works the analysis out under its lease;
    killed halfway, the other takes it over, whether it was asked too (its request
    waits for the lease) or not (its sweep for dead processes' tasks finds it). The
    test gate holds the second judgement, so the kill comes halfway on any machine."""
    url = pg_cluster.database()
    lease = 2.0  # a setting (README): the takeover waits for it to run out
    gate = SearchGate(tmp_path / "gate")
    options = ("--analysis-budget", BUDGET, "--lease-seconds", str(lease), *gate.options)
    with hosting():
        a = ServerProcess(url, log=tmp_path / "a.log", options=options).start()
        b = ServerProcess(url, log=tmp_path / "b.log", options=options).start()
    api_a, api_b = Api(a), Api(b)
    try:
        game_id = _finished_bot_game(api_a)
        gate.close(passes=2)  # the list of decisions and the first judgement; then held
        askers = (api_a, api_b) if b_asked else (api_a,)
        for api in askers:
            asked = api.request("POST", f"/api/games/{game_id}/analysis")
            assert asked.status_code in (200, 202) and asked.json()["status"] == "running"
        gate.wait_until_held()
        held = _analysis_lease(a, game_id)
        assert held is not None, "nobody holds the analysis's lease"
        holder, other = (a, api_b) if f":{a.pid}:" in held else (b, api_a)
        assert f":{holder.pid}:" in held
        left = a.query_one(
            "SELECT extract(epoch FROM expires - now()) FROM leases WHERE task = 'analysis'"
        )
        assert left is not None and 0 < float(left[0]) <= lease  # the setting, not 5 s
        assert _done(other, game_id) == 1, "one decision judged before the kill"
        holder.kill9()
        gate.open()
        shown = _analysed(other, game_id)
        assert shown["status"] == "done" and shown["done"] == shown["total"] == 8
        record = other.request("GET", f"/api/games/{game_id}/record").json()
        local = analyse(get_game("toy"), record, budget=int(BUDGET), seed=0)
        assert shown["analysis"]["seats"] == local.to_json()["seats"]  # as if never killed
    finally:
        for server in (a, b):
            server.stop()
        api_a.http.close()
        api_b.http.close()


def _analysis_lease(server: ServerProcess, game_id: str) -> str | None:
    row = server.query_one(
        "SELECT owner FROM leases WHERE game_id = ? AND task = 'analysis' AND NOT done", game_id
    )
    return None if row is None else str(row[0])


def _done(api: Api, game_id: str) -> int:
    done: int = api.request("GET", f"/api/games/{game_id}/analysis").json()["done"]
    return done
