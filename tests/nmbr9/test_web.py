"""NMBR 9 on the web server: simultaneous, hidden placement over HTTP and WebSocket,
against a real server process."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tabletop.games.nmbr9.records import replay

from clock_support import HOUR, TEST_CLOCK, advance_clock
from server_support import Api, ServerProcess, assert_strangers_are_refused, open_socket, receive

HUMAN = {"kind": "human"}
GREEDY = {"kind": "bot", "bot": "greedy"}


def create(
    api: Api, seats: list[dict[str, Any]], seed: int = 1, **options: Any
) -> tuple[str, list[str]]:
    named = [{**s, "name": f"P{i + 1}"} for i, s in enumerate(seats)]
    created = api.create(named, type="nmbr9", seed=seed, options=options)
    return created["id"], [s.get("token", "") for s in created["seats"]]


def place(api: Api, game_id: str, token: str, pick: int = 0) -> tuple[str, dict]:
    """Place the seat's ``pick``-th legal placement; return it and the answer."""
    state = api.state(game_id, token)
    action = state["choices"][pick]["action"]
    response = api.act(game_id, token, action, state["ply"])
    assert response.status_code == 200, response.text
    return action, response.json()


def undo(api: Api, game_id: str, token: str, ply: int) -> httpx.Response:
    return api.request("POST", f"/api/games/{game_id}/undo", token, json={"ply": ply})


def play_round(api: Api, game_id: str, tokens: list[str]) -> None:
    for token in tokens:
        place(api, game_id, token)


def shown(state: dict) -> str:
    """A state as text, without the seat's own legal placements (which may well
    coincide with another seat's placement)."""
    return json.dumps({k: v for k, v in state.items() if k != "choices"})


def unseen_action(state: dict, others: list[str]) -> str:
    """A legal placement whose notation appears in none of ``others`` (texts)."""
    return next(
        c["action"] for c in state["choices"] if not any(c["action"] in text for text in others)
    )


def as_placement(action: str) -> dict[str, int]:
    rotation, _, where = action[1:].partition("@")
    x, y = where.split(",")
    return {"rotation": int(rotation), "x": int(x), "y": int(y)}


# -- simultaneous rounds ------------------------------------------------------------------------


def test_seats_place_in_any_order_and_the_last_placement_resolves_the_round(api: Api) -> None:
    game_id, tokens = create(api, [HUMAN, HUMAN, HUMAN])
    start = api.state(game_id)
    assert start["active"] == [0, 1, 2] and start["to_move"] is None
    assert start["game"]["dynamics"] == "simultaneous"
    seen = {seat: api.state(game_id, tokens[seat]) for seat in range(3)}  # all at ply 0
    placed = {}
    for n, seat in enumerate((2, 0, 1)):  # any order, each with the state it saw (ply 0)
        action = seen[seat]["choices"][seat]["action"]
        response = api.act(game_id, tokens[seat], action, seen[seat]["ply"])
        assert response.status_code == 200, response.text
        placed[seat] = action
        after = response.json()
        assert after["ply"] == n + 1
        assert (after["view"]["pending"] is None) == (n == 2)  # the last one resolves
    final = api.state(game_id)
    assert final["active"] == [0, 1, 2] and final["view"]["round"] == 1
    resolved = final["log"][-1]["resolved"]
    assert resolved["round"] == 0 and resolved["card"] == start["view"]["card"]
    for seat, action in placed.items():
        shown = resolved["placements"][seat]
        assert {k: shown[k] for k in ("rotation", "x", "y")} == as_placement(action)
        tile = final["view"]["boards"][seat]["tiles"][0]
        assert {k: tile[k] for k in ("rotation", "x", "y")} == as_placement(action)
    assert [e["seat"] for e in final["log"]] == [2, 0, 1]


def test_a_seat_acts_once_a_round_however_often_it_submits(api: Api, server: ServerProcess) -> None:
    game_id, tokens = create(api, [HUMAN, HUMAN])
    state = api.state(game_id, tokens[0])
    action = state["choices"][0]["action"]
    statuses: list[int] = []
    barrier = threading.Barrier(5)

    def submit(token: str) -> None:
        with httpx.Client(base_url=server.url) as client:
            barrier.wait()
            response = client.post(
                f"/api/games/{game_id}/actions",
                json={"action": action, "ply": 0},
                headers={"Authorization": f"Bearer {token}"},
            )
            statuses.append(response.status_code)

    threads = [threading.Thread(target=submit, args=(tokens[0],)) for _ in range(4)]
    threads.append(threading.Thread(target=submit, args=(tokens[1],)))  # the other seat
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200, 200, 409, 409, 409]
    after = api.state(game_id)
    assert after["ply"] == 2 and after["view"]["round"] == 1


def test_a_pending_placement_is_seen_by_its_seat_only(api: Api, server: ServerProcess) -> None:
    game_id, tokens = create(api, [HUMAN, HUMAN, HUMAN], seed=4)
    play_round(api, game_id, tokens)  # a first round, so placements spread out
    other = open_socket(server, game_id, [tokens[1]])
    watcher = open_socket(server, game_id, [])
    for ws in (other, watcher):
        receive(ws, lambda m: m["type"] == "state" and m["ply"] == 3)
    before = [api.state(game_id, token) for token in (tokens[1], tokens[2], None)]
    mine = api.state(game_id, tokens[0])
    texts = [shown(s) for s in before]
    action = unseen_action(mine, texts)
    response = api.act(game_id, tokens[0], action, mine["ply"])
    assert response.status_code == 200
    own = response.json()["view"]
    assert {k: own["pending"][k] for k in ("rotation", "x", "y")} == as_placement(action)
    assert len(own["boards"][0]["tiles"]) == 2
    pushed = [
        receive(ws, lambda m: m["type"] == "state" and m["ply"] == 4) for ws in (other, watcher)
    ]
    polled = [api.state(game_id, tokens[1]), api.state(game_id), api.state(game_id, tokens[2])]
    for state in pushed + polled:
        view = state["view"]
        assert view["has_placed"] == [True, False, False]
        assert len(view["boards"][0]["tiles"]) == 1  # the first round's tile only
        assert view["boards"][0] == before[2]["view"]["boards"][0]
        assert view["pending"] is None
        assert action not in shown(state)
        entry = state["log"][-1] if state["log"] else None
        if entry is not None and entry["ply"] == 3:
            keys = {"seat", "kind", "round", "card", "text", "parts", "ply", "at"}
            assert set(entry) == keys
            placed = {"key": "placed their {card}", "args": {"card": entry["card"]}}
            assert entry["parts"] == [placed]  # nothing of where it lies
    for ws in (other, watcher):
        ws.close()
    place(api, game_id, tokens[1])
    _, last = place(api, game_id, tokens[2])  # the round resolves: now everyone sees it
    resolved = last["log"][-1]["resolved"]["placements"][0]
    assert {k: resolved[k] for k in ("rotation", "x", "y")} == as_placement(action)
    assert len(api.state(game_id)["view"]["boards"][0]["tiles"]) == 2


def test_a_seat_takes_back_its_placement_until_the_round_resolves(api: Api) -> None:
    game_id, tokens = create(api, [HUMAN, HUMAN], seed=2)
    start = api.state(game_id, tokens[0])
    assert start["undo"] is False
    assert undo(api, game_id, tokens[0], 0).status_code == 409  # nothing placed yet
    first, answer = place(api, game_id, tokens[0], pick=0)
    assert answer["undo"] is True and answer["active"] == [1]
    taken = undo(api, game_id, tokens[0], answer["ply"])
    assert taken.status_code == 200, taken.text
    after = taken.json()
    assert after["active"] == [0, 1] and after["view"]["pending"] is None
    assert after["log"][-1]["kind"] == "take-back" and after["undo"] is False
    assert api.state(game_id, tokens[1])["view"]["has_placed"] == [False, False]
    # a take-back over the action endpoint too, and a stale one is refused
    second, answer = place(api, game_id, tokens[0], pick=1)
    stale = api.act(game_id, tokens[0], "take-back", answer["ply"] - 1)
    assert stale.status_code == 409 and "moved on" in stale.json()["error"]
    assert api.act(game_id, tokens[0], "take-back", answer["ply"]).status_code == 200
    third, _ = place(api, game_id, tokens[0], pick=2)
    _, resolved = place(api, game_id, tokens[1])
    placements = resolved["log"][-1]["resolved"]["placements"]
    assert {k: placements[0][k] for k in ("rotation", "x", "y")} == as_placement(third)
    # the round has resolved: nothing moves any more
    late = undo(api, game_id, tokens[0], resolved["ply"])  # another human saw it: refused
    assert late.status_code == 409 and "with other human players" in late.json()["error"]
    assert resolved["undo"] is False
    assert api.act(game_id, tokens[0], "take-back", resolved["ply"]).status_code == 409
    assert api.state(game_id)["view"]["round"] == 1


def placed_at(placement: dict) -> dict:
    return {k: placement[k] for k in ("rotation", "x", "y", "level")}


def test_against_bots_an_undo_takes_back_a_resolved_round_and_the_bots_placements_stay(
    api: Api,
) -> None:
    game_id, tokens = create(api, [HUMAN, GREEDY], seed=3, remove=17)  # 3 rounds
    mine = lambda s: s["active"] == [0]  # noqa: E731 - the bot has placed: my turn
    api.wait(game_id, tokens[0], mine)
    place(api, game_id, tokens[0])
    before = api.wait(game_id, tokens[0], mine)
    assert before["view"]["round"] == 1 and before["undo"] is True
    _, resolved = place(api, game_id, tokens[0])
    bots = placed_at(resolved["log"][-1]["resolved"]["placements"][1])
    assert resolved["view"]["round"] == 2 and resolved["undo"] and resolved["undo_unrates"]
    answer = undo(api, game_id, tokens[0], resolved["ply"])
    assert answer.status_code == 200, answer.text
    after = answer.json()
    # the round is open again: the bot has placed (hidden), the next card is not turned
    keys = ("round", "card", "turned", "unturned", "boards", "has_placed", "pending")
    assert {k: after["view"][k] for k in keys} == {k: before["view"][k] for k in keys}
    assert after["active"] == [0] and after["undo"] is True  # round 1's placement too
    assert after["log"][-1]["kind"] == "place" and "resolved" not in after["log"][-1]
    watched = api.state(game_id)
    assert [len(b["tiles"]) for b in watched["view"]["boards"]] == [1, 1]
    assert watched["undo"] is False and watched["view"]["has_placed"] == [False, True]
    # placing again resolves the round with the bot's placement as it was
    again, replaced = place(api, game_id, tokens[0], pick=-1)
    placements = replaced["log"][-1]["resolved"]["placements"]
    assert placed_at(placements[1]) == bots
    assert {k: placements[0][k] for k in ("rotation", "x", "y")} == as_placement(again)
    api.wait(game_id, tokens[0], mine)
    place(api, game_id, tokens[0])
    final = api.wait(game_id, tokens[0], lambda s: s["over"])
    assert final["undo"] is False
    record = api.request("GET", final["record"]).json()
    assert placed_at(record["rounds"][1]["placements"][1]) == bots
    assert replay(record).state.is_over and len(record["rounds"]) == 3
    frames = api.request("GET", f"/api/games/{game_id}/replay").json()["frames"]
    assert [len(b["tiles"]) for b in frames[-1]["view"]["boards"]] == [3, 3]


def test_an_undo_before_any_round_resolved_is_refused_and_changes_nothing(api: Api) -> None:
    game_id, tokens = create(api, [HUMAN, GREEDY], seed=3)
    start = api.wait(game_id, tokens[0], lambda s: s["active"] == [0])
    refused = undo(api, game_id, tokens[0], start["ply"])
    assert refused.status_code == 409 and "no placement" in refused.json()["error"]
    assert start["undo"] is False and api.state(game_id, tokens[0])["ply"] == start["ply"]
    bad = undo(api, game_id, tokens[0], "one")
    assert bad.status_code == 400 and "'ply'" in bad.json()["error"]


def test_a_seat_that_has_placed_waits_and_others_cannot_act_for_it(api: Api) -> None:
    game_id, tokens = create(api, [HUMAN, HUMAN])
    action, answer = place(api, game_id, tokens[0])
    again = api.act(game_id, tokens[0], action, answer["ply"])
    assert again.status_code == 409 and "waiting for P2" in again.json()["error"]
    other = api.request(
        "POST",
        f"/api/games/{game_id}/actions",
        tokens[1],
        json={"action": action, "ply": 1, "seat": 0},
    )
    assert other.status_code == 400 and "'seat'" in other.json()["error"]
    bad = api.act(game_id, tokens[1], "r9@0,0", 1)
    assert bad.status_code == 422
    # the engine's refusal goes out as msgid and arguments, for the page to translate
    assert bad.json()["key"] == "{text}: the rotation is 0, 1, 2 or 3 (quarter turns clockwise)"
    assert bad.json()["args"] == {"text": "'r9@0,0'"}
    gone = undo(api, game_id, tokens[1], 1)  # P2 has nothing to take back
    assert gone.status_code == 409 and gone.json()["key"], gone.text


def test_a_hot_seat_socket_places_for_each_seat_it_holds(api: Api, server: ServerProcess) -> None:
    game_id, tokens = create(api, [HUMAN, HUMAN])
    ws = open_socket(server, game_id, tokens)
    state = receive(ws, lambda m: m["type"] == "state")
    assert state["you"] == [0, 1] and state["acting"] == 0
    choice = state["choices"][0]["action"]
    ws.send(json.dumps({"type": "act", "action": choice, "ply": 0, "seat": 1, "id": 7}))
    state = receive(ws, lambda m: m["type"] == "state" and m["ply"] == 1)  # before the ack
    assert receive(ws, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
    assert state["acting"] == 0 and state["active"] == [0]
    assert state["choices"] is None  # seat 0's placements are those the socket already has
    ws.send(json.dumps({"type": "act", "action": choice, "ply": 1}))
    state = receive(ws, lambda m: m["type"] == "state" and m["ply"] == 2)
    assert state["view"]["round"] == 1 and state["active"] == [0, 1]
    ws.close()


def test_spectators_get_401_and_forged_links_403(api: Api, server: ServerProcess) -> None:
    game_id, tokens = create(api, [HUMAN, HUMAN])
    posts = [
        ("actions", {"action": "r0@0,0", "ply": 0}),
        ("actions", {"action": "take-back", "ply": 0}),
        ("undo", {"ply": 0}),
        ("hint", {"ply": 0}),
    ]
    assert_strangers_are_refused(api, server, game_id, posts, act="r0@0,0")
    assert api.state(game_id)["ply"] == 0


@pytest.mark.parametrize(
    ("options", "seats", "words"),
    [
        ({"clock": -1}, 2, "'time_limit'"),
        ({"time_limit": "fast"}, 2, "'time_limit'"),
        ({"time_limit": 10**6}, 2, "'time_limit'"),
        ({"time_limit": 30, "clock": 60}, 2, "'clock' is the old name"),
        ({"remove": 20}, 2, "'remove'"),
        ({"remove": "some"}, 2, "'remove'"),
        ({"speed": 1}, 2, "unknown option"),
        ({}, 5, "1 to 4 seats"),
    ],
)
def test_bad_nmbr9_setups_are_refused(api: Api, options: dict, seats: int, words: str) -> None:
    body = {"type": "nmbr9", "seats": [HUMAN] * seats, "options": options}
    response = api.request("POST", "/api/games", json=body)
    assert response.status_code == 400 and words in response.json()["error"]
    bot = {"type": "nmbr9", "seats": [HUMAN, {"kind": "bot", "bot": "planner:huge"}]}
    assert "planner" in api.request("POST", "/api/games", json=bot).json()["error"]


def test_types_describe_nmbr9(api: Api) -> None:
    types = {t["name"]: t for t in api.request("GET", "/api/types").json()["types"]}
    nmbr9 = types["nmbr9"]
    assert nmbr9["dynamics"] == "simultaneous" and nmbr9["seats"] == [1, 4]
    assert {b["spec"] for b in nmbr9["bots"]["standard"]} >= {"random", "greedy", "planner:strong"}
    assert {o["name"] for o in nmbr9["options"]} == {"remove", "time_limit"}
    assert sorted(nmbr9["tiles"]) == [str(d) for d in range(10)]
    assert types["nova-luna"]["dynamics"] == "sequential"


# -- bots ----------------------------------------------------------------------------------------


def test_bots_place_in_parallel_while_a_human_thinks(api: Api) -> None:
    game_id, tokens = create(api, [HUMAN, GREEDY, {"kind": "bot", "bot": "random"}], seed=6)
    waiting = api.wait(game_id, tokens[0], lambda s: s["active"] == [0], timeout=30)
    assert waiting["view"]["has_placed"] == [False, True, True]
    assert waiting["view"]["boards"][1]["tiles"] == []  # bots' placements are hidden too
    assert waiting["ply"] == 2 and waiting["thinking_seats"] == []
    _, answer = place(api, game_id, tokens[0])
    assert answer["view"]["round"] == 1
    later = api.wait(game_id, tokens[0], lambda s: s["active"] == [0] and s["ply"] == 5)
    assert len(later["view"]["boards"][2]["tiles"]) == 1


def test_a_hint_names_a_legal_placement_with_a_reason(api: Api) -> None:
    game_id, tokens = create(api, [HUMAN, HUMAN], seed=8)
    place(api, game_id, tokens[1])  # another seat's placement does not make a hint stale
    state = api.state(game_id, tokens[0])
    response = api.request("POST", f"/api/games/{game_id}/hint", tokens[0], json={"ply": 0})
    assert response.status_code == 200, response.text
    hint = response.json()
    assert hint["action"] in {c["action"] for c in state["choices"]} and hint["reason"]


# -- records, replays, restarts, clocks --------------------------------------------------------


def test_a_finished_game_gives_its_record_and_replay(api: Api) -> None:
    game_id, tokens = create(api, [HUMAN, GREEDY], seed=12, remove=15)  # 5 rounds
    assert api.request("GET", f"/api/games/{game_id}/record").status_code == 409
    for _ in range(5):
        api.wait(game_id, tokens[0], lambda s: 0 in s["active"] or s["over"])
        place(api, game_id, tokens[0], pick=-1)
    final = api.wait(game_id, tokens[0], lambda s: s["over"])
    assert final["active"] == [] and final["result"]["ranking"] in ([0, 1], [1, 0])
    response = api.request("GET", final["record"])
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    record = response.json()
    assert record["game"] == "nmbr9" and record["players"] == ["P1", "P2"]
    rebuilt = replay(record)
    assert (
        rebuilt.state.is_over and list(rebuilt.state.result().scores) == final["result"]["scores"]
    )
    frames = api.request("GET", f"/api/games/{game_id}/replay").json()["frames"]
    assert len(frames) == len(record["rounds"]) + 1 == 6
    assert frames[0]["log"] == [] and frames[-1]["view"]["over"]
    assert [len(b["tiles"]) for b in frames[-1]["view"]["boards"]] == [5, 5]
    assert frames[-1]["log"][-1]["placements"] == final["log"][-1]["resolved"]["placements"]
    assert api.request("POST", "/api/replay", json=record).json()["frames"] == frames
    record["rounds"][2]["placements"][0]["x"] += 40
    bad = api.request("POST", "/api/replay", json=record)
    assert bad.status_code == 422 and "round 3" in bad.json()["error"]


def test_kill_9_between_two_placements_keeps_the_pending_ones_hidden_and_intact(
    database: Callable[[str], Path | str], tmp_path: Path
) -> None:
    server = ServerProcess(database("crash.sqlite3"), log=tmp_path / "crash.log").start()
    api = Api(server)
    try:
        game_id, tokens = create(api, [HUMAN, HUMAN, HUMAN], seed=9)
        play_round(api, game_id, tokens)
        first, _ = place(api, game_id, tokens[0], pick=3)
        mine = api.state(game_id, tokens[0])["view"]
        theirs = api.state(game_id, tokens[2])["view"]
        server.kill9()  # between seat 0's placement and seat 1's
        server.start()
        assert api.state(game_id, tokens[0])["view"] == mine  # still pending, still its own
        again = api.state(game_id, tokens[2])["view"]
        assert again == theirs and again["has_placed"] == [True, False, False]
        assert first not in shown(api.state(game_id))
        second, _ = place(api, game_id, tokens[1], pick=2)
        server.kill9()  # and again between seat 1's and seat 2's
        server.start()
        assert api.state(game_id, tokens[2])["view"]["has_placed"] == [True, True, False]
        _, resolved = place(api, game_id, tokens[2])
        placements = resolved["log"][-1]["resolved"]["placements"]
        assert {k: placements[0][k] for k in ("rotation", "x", "y")} == as_placement(first)
        assert {k: placements[1][k] for k in ("rotation", "x", "y")} == as_placement(second)
    finally:
        api.http.close()
        server.stop()


def test_the_clock_places_for_a_seat_that_runs_out_even_across_a_restart(
    database: Callable[[str], Path | str], tmp_path: Path
) -> None:
    db, log = database("clock.sqlite3"), tmp_path / "clock.log"
    server = ServerProcess(db, log=log, options=TEST_CLOCK).start()
    api = Api(server)
    try:
        game_id, tokens = create(api, [HUMAN, HUMAN], seed=3, clock=HOUR)  # the old name
        state = api.state(game_id, tokens[0])
        assert state["time_left"]["seconds"] == HOUR and state["time_left"]["deadline"]
        assert state["clock"] == state["time_left"]  # under its old name too
        place(api, game_id, tokens[0])
        advance_clock(server, HOUR + 1)  # seat 1 has not placed in its hour
        resolved = api.wait(game_id, None, lambda s: s["view"]["round"] == 1)
        entry = resolved["log"][1]
        assert entry["seat"] == 1 and entry["by"] == "clock"
        assert "ran out of time" in entry["text"] and "resolved" in entry
        assert "by" not in resolved["log"][0]
        # round 2: nobody places; the server dies and comes back after the deadline
        server.kill9()
        server.start()
        # back on real time: the hour moved on before the restart, and round 2's hour
        advance_clock(server, 2 * HOUR + 1)
        later = api.wait(game_id, None, lambda s: s["view"]["round"] == 2)
        assert [e.get("by") for e in later["log"][2:4]] == ["clock", "clock"]
    finally:
        api.http.close()
        server.stop()


def test_the_servers_views_are_the_engines_views() -> None:
    """``Nmbr9Match.view`` is built straight from the state for speed: it must say
    exactly what ``View`` (the engine's account of what a seat may know) says."""
    import random

    from tabletop.core.web import get_web_game
    from tabletop.games.nmbr9.records import placement_json, result_json

    web = get_web_game("nmbr9")
    match = web.new_match(3, web.check_setup([HUMAN] * 3, {"remove": 14}), seed=8)
    rng = random.Random(2)
    while not match.is_over():
        for seat in sorted(match.active_seats())[: rng.randint(1, 3)]:
            match.apply(seat, rng.choice(match.choices(seat))["action"])
            for viewer in (None, 0, 1, 2):
                view = match.state.view(viewer)
                expected = view.to_json()
                pending = view.pending
                expected["pending"] = None if pending is None else placement_json(pending)
                if view.is_over:
                    expected["result"] = result_json(match.state)
                assert match.view(viewer) == expected


def test_a_bots_placement_is_stored_before_anyone_hears_of_it(
    database: Callable[[str], Path | str], tmp_path: Path
) -> None:
    """Once a state says a bot has placed, a crash cannot take it back: after a
    restart the bot's entry is there, unchanged, and it is not placed again."""
    server = ServerProcess(database("bots.sqlite3"), log=tmp_path / "bots.log").start()
    api = Api(server)
    try:
        game_id, tokens = create(api, [HUMAN, GREEDY, {"kind": "bot", "bot": "planner:fast"}])
        seen = api.wait(game_id, tokens[0], lambda s: s["active"] == [0], timeout=30)
        server.kill9()
        server.start()
        again = api.state(game_id, tokens[0])
        assert again["log"] == seen["log"] and again["active"] == [0]
        assert again["view"] == seen["view"]
        _, resolved = place(api, game_id, tokens[0])
        assert [p is not None for p in resolved["log"][-1]["resolved"]["placements"]] == [
            True,
            True,
            True,
        ]
    finally:
        api.http.close()
        server.stop()


# -- secrecy over a whole game -----------------------------------------------------------------


class Listener:
    """Every message one WebSocket receives, read on a thread until it closes."""

    def __init__(self, server: ServerProcess, game_id: str, viewer: int | None, tokens: list[str]):
        self.viewer = viewer
        self.messages: list[dict] = []
        self.ws = open_socket(server, game_id, tokens)
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self) -> None:
        try:
            while True:
                self.messages.append(json.loads(self.ws.recv()))
        except Exception:  # closed: the test is done with it
            return

    def close(self) -> None:
        self.ws.close()
        self.thread.join(10)


def placement_paths(value: Any, path: str = "") -> list[str]:
    """Where in ``value`` a placement-shaped object (one with ``x`` and ``y``) lies,
    with list indices written as ``[]``: e.g. ``view.boards[].tiles[]``."""
    found: list[str] = []
    if isinstance(value, dict):
        if "x" in value and "y" in value:
            found.append(path)
        for key, item in value.items():
            found += placement_paths(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for item in value:
            found += placement_paths(item, f"{path}[]")
    return found


#: Where a state may carry placements: boards, the viewer's own pending one, resolved
#: rounds in the log, the viewer's own legal placements, the end's result.
ALLOWED_PLACEMENTS = {
    "view.boards[].tiles[]",
    "view.pending",
    "log[].resolved.placements[]",
    "choices[]",
}


def assert_hides_pending(state: dict, viewer: int | None, resolved: list[dict]) -> None:
    """``state`` (as ``viewer`` got it) shows every other seat's board exactly as the
    replay's frame of the last resolved round, and no placement anywhere else."""
    view = state["view"]
    frame = resolved[view["round"]]["view"]
    for seat, board in enumerate(view["boards"]):
        expected = frame["boards"][seat]
        if seat == viewer and view["pending"] is not None:
            assert board["tiles"][:-1] == expected["tiles"]
            assert {k: board["tiles"][-1][k] for k in ("rotation", "x", "y")} == {
                k: view["pending"][k] for k in ("rotation", "x", "y")
            }
        else:
            assert board == expected, f"seat {seat}'s board leaks to viewer {viewer}"
    if viewer is None:
        assert view["pending"] is None
    else:
        assert view["has_placed"][viewer] == (view["pending"] is not None)
    for entry in state["log"]:
        if "resolved" in entry:
            assert entry["resolved"]["round"] < view["round"]
    if viewer is None:
        assert not state.get("choices")
    assert set(placement_paths(state)) <= ALLOWED_PLACEMENTS, placement_paths(state)


def test_no_pending_placement_ever_leaves_the_server_to_another_seat_or_a_spectator(
    api: Api, server: ServerProcess
) -> None:
    """A whole game, two humans over seat links and a bot, with a spectator: every HTTP
    answer and every WebSocket message shows the other seats' boards as of the last
    resolved round, whoever has placed (the bot first, then one human), and carries no
    placement anywhere but where a seat's own or a resolved one belongs."""
    game_id, tokens = create(api, [HUMAN, HUMAN, GREEDY], seed=21)
    listeners = [
        Listener(server, game_id, 0, [tokens[0]]),
        Listener(server, game_id, 1, [tokens[1]]),
        Listener(server, game_id, None, []),
    ]
    answers: list[tuple[int | None, dict]] = []  # (viewer, state) of every HTTP answer

    def look(viewer: int | None) -> dict:
        state = api.state(game_id, None if viewer is None else tokens[viewer])
        answers.append((viewer, state))
        return state

    def act(seat: int, action: str, ply: int) -> dict:
        response = api.act(game_id, tokens[seat], action, ply)
        assert response.status_code == 200, response.text
        answers.append((seat, response.json()))
        return response.json()

    rounds = look(None)["view"]["rounds"]
    for number in range(rounds):
        first, last = (0, 1) if number % 2 == 0 else (1, 0)
        waited = api.wait(game_id, None, lambda s: s["view"]["has_placed"][2], timeout=30)
        assert waited["view"]["round"] == number  # the bot has placed: the round waits
        mine = look(first)
        after = act(first, mine["choices"][number % len(mine["choices"])]["action"], mine["ply"])
        if number == 3:  # a take-back and another placement, as hidden as the first
            after = act(first, "take-back", after["ply"])
            after = act(first, look(first)["choices"][-1]["action"], after["ply"])
        for viewer in (last, None, first):
            seen = look(viewer)
            assert seen["view"]["round"] == number and seen["view"]["has_placed"][first]
        theirs = look(last)
        act(last, theirs["choices"][0]["action"], theirs["ply"])
    final = api.wait(game_id, None, lambda s: s["over"])
    answers.append((None, final))
    for listener in listeners:  # the last state reaches every socket before it closes
        deadline = time.monotonic() + 10
        while not any(m.get("view", {}).get("over") for m in listener.messages):
            assert time.monotonic() < deadline, "the end never reached a socket"
            time.sleep(0.05)
        listener.close()
    frames = api.request("GET", f"/api/games/{game_id}/replay").json()["frames"]
    assert len(frames) == rounds + 1
    pushed = [(lis.viewer, m) for lis in listeners for m in lis.messages if "view" in m]
    for lis in listeners:  # a seat hears every placement; a spectator's states are
        # coalesced (moves close together reach it as one), checked below for what it saw
        heard = sum(1 for m in lis.messages if "view" in m)
        assert heard >= (3 * rounds if lis.viewer is not None else 2), (lis.viewer, heard)
    for viewer, state in answers + pushed:
        assert_hides_pending(state, viewer, frames)
    # the checks saw pending placements: the bot's (to all three) and a human's
    hidden = [(viewer, s) for viewer, s in pushed if any(s["view"]["has_placed"]) and not s["over"]]
    assert any(viewer is None and s["view"]["has_placed"][2] for viewer, s in hidden)
    assert any(viewer == 1 and s["view"]["has_placed"][0] for viewer, s in hidden)
    assert any(viewer == 0 and s["view"]["has_placed"][1] for viewer, s in hidden)
