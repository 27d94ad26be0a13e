"""The web server's HTTP and WebSocket API, against a real ``novaluna serve`` process."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tabletop.games.novaluna.records import replay
from tabletop.games.novaluna.rules import Game
from tabletop.i18n import catalogue, fill
from tabletop.server.jsontext import js_safe

from server_support import Api, ServerProcess, assert_strangers_are_refused, open_socket, receive

HUMAN = {"kind": "human", "name": "Ann"}
GREEDY = {"kind": "bot", "bot": "greedy"}


def two_humans(api: Api, seed: int = 1) -> tuple[str, list[str], dict]:
    created = api.create([HUMAN, {"kind": "human", "name": "Bob"}], seed=seed)
    tokens = [s["token"] for s in created["seats"]]
    return created["id"], tokens, api.state(created["id"])


def token_to_move(state: dict, tokens: list[str]) -> str:
    return tokens[state["to_move"]]


def first_take(api: Api, game_id: str, token: str) -> tuple[dict, str]:
    state = api.state(game_id, token)
    places = [c for c in state["choices"] if "space" in c]
    return state, places[0]["action"]


# -- creating -------------------------------------------------------------------------


def test_every_seat_and_spectator_sees_a_seed_the_creator_chose(api: Api) -> None:
    """Whoever fixes the seed can know the pile: the others must be told, from ply 0."""
    fixed = api.create([HUMAN, {"kind": "human", "name": "Bob"}], seed=42)
    for token in [s["token"] for s in fixed["seats"]] + [None]:
        assert api.state(fixed["id"], token)["game"]["fixed_seed"] == 42
    drawn = api.create([HUMAN, GREEDY])
    assert api.state(drawn["id"], drawn["seats"][0]["token"])["game"]["fixed_seed"] is None


def test_create_gives_secret_links_to_human_seats_only(api: Api) -> None:
    created = api.create([HUMAN, GREEDY, {"kind": "bot", "bot": "mcts:easy", "name": "Max"}])
    seats = created["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "bot"]
    assert seats[0]["link"] == f"/g/{created['id']}#seat={seats[0]['token']}"
    assert len(seats[0]["token"]) >= 32  # 24 random bytes
    assert "token" not in seats[1] and "token" not in seats[2]
    assert seats[2]["name"] == "Max"


def test_types_describe_bots_options_and_tiles(api: Api) -> None:
    types = api.request("GET", "/api/types").json()["types"]
    nova = next(t for t in types if t["name"] == "nova-luna")
    assert len(nova["tiles"]) == 68
    assert {b["spec"] for b in nova["bots"]["standard"]} >= {"greedy", "mcts:normal"}
    assert {b["spec"] for b in nova["bots"]["solo"]} >= {"solo:normal"}


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ("{not json", 400, "not valid JSON"),
        ("[1, 2]", 400, "JSON object"),
        (json.dumps({"seats": "two"}), 400, "'seats' must be a list"),
        (json.dumps({"seats": [HUMAN] * 5}), 400, "1 to 4 seats"),
        (json.dumps({"seats": []}), 400, "1 to 4 seats"),
        (json.dumps({"seats": [{"kind": "alien"}, HUMAN]}), 400, "'kind' must be"),
        (json.dumps({"seats": [HUMAN, {"kind": "bot", "bot": "nobody"}]}), 400, "unknown bot"),
        (json.dumps({"seats": [HUMAN, {"kind": "bot", "bot": "solo"}]}), 400, "only the solo"),
        (json.dumps({"seats": [HUMAN, {"kind": "bot", "bot": "mcts:x"}]}), 400, "mcts"),
        (json.dumps({"seats": [HUMAN], "options": {"first_game": True}}), 400, "2 seats or more"),
        (json.dumps({"seats": [HUMAN, HUMAN], "options": {"speed": 1}}), 400, "unknown option"),
        (json.dumps({"seats": [HUMAN, HUMAN], "seed": "x"}), 400, "'seed'"),
        (json.dumps({"seats": [HUMAN, HUMAN], "type": "chess"}), 400, "unknown game"),
        (json.dumps({"seats": [HUMAN, HUMAN], "junk": "x" * 70_000}), 413, "too large"),
        (json.dumps({"seats": [{"kind": "human", "name": "\ud800"}]}), 400, "lone surrogate"),
        (json.dumps({"seats": [{"kind": "human", "name": "A\u200bB"}]}), 400, "U+200B"),
        (json.dumps({"seats": [{"kind": "human", "name": "A\u202eB"}]}), 400, "formatting"),
        (json.dumps({"seats": [{"kind": "human", "name": "Ann\u0007"}]}), 400, "control"),
        (json.dumps({"seats": [{"kind": "human", "name": "x" * 41}]}), 400, "at most 40"),
        (json.dumps({"seats": [HUMAN, {"kind": "bot", "bot": "mcts:\u00b2"}]}), 400, "mcts"),
        (json.dumps({"seats": [HUMAN], "type": []}), 400, "unknown game"),
        (
            json.dumps({"seats": [HUMAN, {"kind": "bot", "bot": "mcts:2000000000"}]}),
            400,
            "at most 20000 iterations",
        ),
        (json.dumps({"seats": [HUMAN], "type": {"a": 1}}), 400, "unknown game"),
        ('{"seats": [' + "9" * 5000 + "]}", 400, "too many digits"),
        ("[" * 30_000 + "]" * 30_000, 400, "deep"),
    ],
)
def test_bad_game_setups_are_refused_with_a_message(
    api: Api, body: str, status: int, words: str
) -> None:
    response = api.request(
        "POST", "/api/games", content=body, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == status
    assert words in response.json()["error"]


def test_a_body_without_length_is_still_capped(api: Api) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"seats": [{"kind": "human"}], "pad": "'
        for _ in range(100):
            yield b"x" * 1024
        yield b'"}'

    response = api.request("POST", "/api/games", content=chunks())
    assert response.status_code == 413


# -- acting and bad input -----------------------------------------------------------------


def test_bad_actions_get_4xx_and_change_nothing(api: Api) -> None:
    game_id, tokens, state = two_humans(api)
    mover, waiter = token_to_move(state, tokens), tokens[1 - state["to_move"]]
    before = api.state(game_id)
    path = f"/api/games/{game_id}/actions"
    cases = [
        (api.request("POST", path, mover, content="{oops"), 400, "not valid JSON"),
        (api.request("POST", path, mover, json=["3@0,0"]), 400, "JSON object"),
        (api.request("POST", path, mover, json={"ply": 0}), 400, "'action'"),
        (api.request("POST", path, mover, json={"action": "1@0,0"}), 400, "'ply'"),
        (api.request("POST", path, json={"action": "1@0,0", "ply": 0}), 401, "seat link"),
        (api.request("POST", path, "not-a-token", json={"action": "1@0,0", "ply": 0}), 403, ""),
        (
            api.request(
                "POST",
                path,
                None,
                json={"action": "1@0,0", "ply": 0},
                headers={"Authorization": "Basic abc"},
            ),
            401,
            "Bearer",
        ),
        (api.act(game_id, waiter, "1@0,0", 0), 409, "not your turn"),
        (api.act(game_id, mover, "1@0,0", 5), 409, "moved on"),
        (api.act(game_id, mover, "9@0,0", 0), 422, "not one of the next three"),
        (api.act(game_id, mover, "1@3,3", 0), 422, "first tile goes on cell 0,0"),
        (api.act(game_id, mover, "refill", 0), 422, "refill"),
        (api.act(game_id, mover, "take the blue one", 0), 422, "is not an action"),
        (api.act(game_id, mover, "x" * 5000, 0), 422, "not an action"),
        (api.request("POST", "/api/games/nope/actions", mover, json={"ply": 0}), 404, "no game"),
        (api.request("POST", path, mover, content="x" * 70_000), 413, "too large"),
        (api.request("POST", path, mover, content='{"ply": ' + "9" * 5000 + "}"), 400, "digits"),
        (api.request("POST", path, mover, content="[" * 30_000 + "]" * 30_000), 400, "deep"),
    ]
    for response, status, words in cases:
        assert response.status_code == status, response.text
        assert words in response.json()["error"]
    assert api.state(game_id) == before
    stale = api.act(game_id, mover, "1@0,0", 5).json()  # a lost race: the fresh state too
    assert stale["state"]["ply"] == before["ply"] and stale["state"]["choices"]


def test_a_rules_refusal_is_sent_as_msgid_and_args_the_page_translates(api: Api) -> None:
    """The engine's own refusals travel like every other error: the English text, and
    the msgid and arguments the page's catalogues translate (tabletop.i18n)."""
    game_id, tokens, state = two_humans(api)
    mover = token_to_move(state, tokens)
    german = catalogue("de")["messages"]
    cases = [
        ("9@0,0", "{action}: space {space} is not one of the next three tiles; "
                  "you may take from space {allowed}", {"action": "9@0,0", "space": 9}),
        ("1@3,3", "{action}: the first tile goes on cell 0,0", {"action": "1@3,3"}),
        ("12@0,0", "{text}: wheel spaces are numbered 0 to 11", {"text": "'12@0,0'"}),
    ]  # fmt: skip
    for action, key, args in cases:
        body = api.act(game_id, mover, action, 0).json()
        assert body["key"] == key and args.items() <= body["args"].items(), body
        assert body["error"] == fill(key, body["args"])
        assert key in german and "{action}" not in fill(german[key], body["args"])


def test_unknown_games_and_addresses(api: Api) -> None:
    for path in ("/api/games/doesnotexist", "/api/games/../../etc", "/api/nothing"):
        response = api.request("GET", path)
        assert response.status_code == 404
        assert response.json()["error"]
    assert api.request("DELETE", "/api/games").status_code == 405


def test_a_legal_action_is_applied_and_logged(api: Api) -> None:
    game_id, tokens, state = two_humans(api)
    token = token_to_move(state, tokens)
    state, action = first_take(api, game_id, token)
    response = api.act(game_id, token, action, 0)
    assert response.status_code == 200, response.text
    after = response.json()
    assert after["ply"] == 1
    assert after["log"][0]["action"] == action
    assert "took a" in after["log"][0]["text"]


def test_concurrent_submissions_for_one_seat_apply_exactly_once(
    api: Api, server: ServerProcess
) -> None:
    game_id, tokens, state = two_humans(api)
    token = token_to_move(state, tokens)
    _, action = first_take(api, game_id, token)
    statuses: list[int] = []
    sockets = [open_socket(server, game_id, [token]) for _ in range(4)]
    for ws in sockets:
        receive(ws, lambda m: m["type"] == "state")
    barrier = threading.Barrier(8)

    def over_http() -> None:
        with httpx.Client(base_url=server.url) as client:
            barrier.wait()
            response = client.post(
                f"/api/games/{game_id}/actions",
                json={"action": action, "ply": 0},
                headers={"Authorization": f"Bearer {token}"},
            )
            statuses.append(response.status_code)

    def over_socket(ws) -> None:  # type: ignore[no-untyped-def]
        barrier.wait()
        ws.send(json.dumps({"type": "act", "action": action, "ply": 0, "id": 1}))
        answer = receive(ws, lambda m: m["type"] in ("ack", "error"))
        statuses.append(200 if answer["type"] == "ack" else answer["status"])

    threads = [threading.Thread(target=over_http) for _ in range(4)]
    threads += [threading.Thread(target=over_socket, args=(ws,)) for ws in sockets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for ws in sockets:
        ws.close()
    assert sorted(statuses) == [200] + [409] * 7
    assert api.state(game_id)["ply"] == 1


# -- secrets -------------------------------------------------------------------------------


def test_nothing_reveals_the_pile_order_or_tokens(api: Api, server: ServerProcess) -> None:
    created = api.create([HUMAN, {"kind": "human", "name": "Bob"}, GREEDY])  # a secret seed
    game_id = created["id"]
    (seed,) = server.query_one("SELECT seed FROM games WHERE id = ?", game_id)
    tokens = [s["token"] for s in created["seats"][:2]]
    pile = Game(players=3).new_state(seed).pile_order()
    spectator = open_socket(server, game_id, [])
    messages = []
    for _ in range(12):  # a few rounds, including the bot's moves
        state = api.wait(game_id, None, lambda s: s["to_move"] != 2)
        token = tokens[state["to_move"]]
        _, action = first_take(api, game_id, token)
        assert api.act(game_id, token, action, state["ply"]).status_code == 200
    api.wait(game_id, None, lambda s: s["to_move"] != 2)
    for token in tokens:
        api.state(game_id, token)
    while True:
        try:
            messages.append(spectator.recv(timeout=0.5))
        except TimeoutError:
            break
    spectator.close()
    assert api.request("GET", f"/api/games/{game_id}/record").status_code == 409
    for text in api.seen[-40:] + messages:
        body = json.loads(text)
        assert "pile" not in _keys(body)
        assert str(seed) not in text
        for token in tokens:
            assert token not in text
        view = body.get("view")
        if view:
            unseen = view["unseen_tiles"]
            assert unseen == sorted(unseen)
            drawn = len(pile) - view["pile_count"]
            assert sorted(pile[drawn:]) == unseen  # which tiles, never their order


def _keys(value: object) -> set[str]:
    if isinstance(value, dict):
        return set(value) | set().union(*(_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(set(), *(_keys(v) for v in value))
    return set()


# -- WebSocket -------------------------------------------------------------------------------


def test_socket_pushes_moves_to_the_other_player_and_spectators(
    api: Api, server: ServerProcess
) -> None:
    game_id, tokens, state = two_humans(api)
    mover = state["to_move"]
    other = open_socket(server, game_id, [tokens[1 - mover]])
    watcher = open_socket(server, game_id, [])
    me = open_socket(server, game_id, [tokens[mover]])
    mine = receive(me, lambda m: m["type"] == "state")
    assert mine["acting"] == mover and mine["choices"]
    for ws in (other, watcher):
        first = receive(ws, lambda m: m["type"] == "state")
        assert first["choices"] == [] and first["acting"] is None
    action = next(c["action"] for c in mine["choices"] if "space" in c)
    me.send(json.dumps({"type": "act", "action": action, "ply": 0, "id": "a1"}))
    assert receive(me, lambda m: m["type"] == "ack")["id"] == "a1"
    for ws in (other, watcher):
        pushed = receive(ws, lambda m: m["type"] == "state" and m["ply"] == 1)
        assert pushed["log"][-1]["action"] == action
    for ws in (other, watcher, me):
        ws.close()


def test_every_response_carries_the_security_headers(api: Api) -> None:
    for path in ["/", "/static/shell/main.js", "/api/types", "/api/games/nope"]:
        headers = api.request("GET", path).headers
        policy = headers["content-security-policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "unsafe-inline" not in policy
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"


def test_spectators_get_401_and_forged_links_403_before_anything_else(
    api: Api, server: ServerProcess
) -> None:
    game_id, tokens, state = two_humans(api)
    posts = [
        ("undo", {"ply": 0}),
        ("undo", {"ply": 7}),
        ("actions", {"action": "1@0,0", "ply": 3}),
        ("hint", {"ply": 9}),
    ]
    assert_strangers_are_refused(api, server, game_id, posts, act="1@0,0")
    assert api.state(game_id) == state


def test_socket_bad_input_gets_error_messages(api: Api, server: ServerProcess) -> None:
    game_id, tokens, state = two_humans(api)
    ws = open_socket(server, game_id, [tokens[state["to_move"]]])
    receive(ws, lambda m: m["type"] == "state")
    for message, status in [
        ("{nope", 400),
        ("[]", 400),
        (json.dumps({"type": "dance"}), 400),
        (json.dumps({"type": "act", "action": "1@0,0"}), 400),
        (json.dumps({"type": "act", "action": "1@5,5", "ply": 0}), 422),
        (json.dumps({"type": "act", "action": "1@0,0", "ply": 3}), 409),
        (json.dumps({"type": "undo", "ply": 0}), 409),
        ("x" * 70_000, 413),
        (b"\xff\xfe binary", 400),
        ('{"type": "act", "action": "1@0,0", "ply": ' + "9" * 5000 + "}", 400),
        ("[" * 30_000 + "]" * 30_000, 400),
        ('{"type": ["act"]}', 400),
    ]:
        ws.send(message)
        error = receive(ws, lambda m: m["type"] == "error")
        assert error["status"] == status and error["message"]
    ws.close()
    assert api.state(game_id)["ply"] == 0


def test_socket_with_a_wrong_token_is_refused(api: Api, server: ServerProcess) -> None:
    game_id, _, _ = two_humans(api)
    ws = open_socket(server, game_id, ["forged"])
    error = receive(ws, lambda m: m["type"] == "error")
    assert error["status"] == 403
    with pytest.raises(Exception):  # noqa: B017 - the server closes the socket
        receive(ws, lambda m: True, timeout=5)


def test_socket_to_an_unknown_game_is_refused(server: ServerProcess) -> None:
    ws = open_socket(server, "no-such-game", [])  # told after the hello
    assert receive(ws, lambda m: m["type"] == "error")["status"] == 404
    ws.close()


def test_hot_seat_socket_plays_every_seat_it_holds(api: Api, server: ServerProcess) -> None:
    game_id, tokens, _ = two_humans(api)
    ws = open_socket(server, game_id, tokens)
    for ply in range(4):
        state = receive(ws, lambda m, p=ply: m["type"] == "state" and m["ply"] == p)
        assert state["you"] == [0, 1] and state["acting"] == state["to_move"]
        action = next(c["action"] for c in state["choices"] if "space" in c)
        ws.send(json.dumps({"type": "act", "action": action, "ply": ply}))
    receive(ws, lambda m: m["type"] == "state" and m["ply"] == 4)
    ws.close()


# -- bots, hints, undo, records ----------------------------------------------------------------


def play_to_the_end(api: Api, game_id: str, token: str, seat: int = 0) -> dict:
    """Play ``seat`` with the first legal take each turn until the game is over."""
    while True:
        state = api.wait(game_id, token, lambda s: s["over"] or s["acting"] == seat)
        if state["over"]:
            return state
        action = next(c["action"] for c in state["choices"] if "space" in c)
        response = api.act(game_id, token, action, state["ply"])
        assert response.status_code == 200, response.text


def test_a_full_game_against_a_bot_then_record_and_replay(api: Api) -> None:
    created = api.create([HUMAN, GREEDY], seed=7, options={"first_game": True})
    game_id, token = created["id"], created["seats"][0]["token"]
    final = play_to_the_end(api, game_id, token)
    assert final["result"]["ranking"] in ([0, 1], [1, 0])
    assert final["record"] == f"/api/games/{game_id}/record"
    response = api.request("GET", final["record"])
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    record = response.json()
    assert record["players"] == ["Ann", "Greedy"] and record["seed"] == 7
    rebuilt = replay(record)
    assert rebuilt.state.is_over
    frames = api.request("GET", f"/api/games/{game_id}/replay").json()["frames"]
    assert len(frames) == len(record["turns"]) + 1
    assert frames[-1]["view"]["over"] and frames[0]["log"] == []
    uploaded = api.request("POST", "/api/replay", json=record).json()["frames"]
    assert uploaded == frames


def test_uploaded_bad_records_are_refused_with_the_reason(api: Api) -> None:
    created = api.create([HUMAN, GREEDY], seed=3, options={"first_game": True})
    final = play_to_the_end(api, created["id"], created["seats"][0]["token"])
    record = api.request("GET", final["record"]).json()
    record["turns"][4]["cell"] = [40, 40]
    response = api.request("POST", "/api/replay", json=record)
    assert response.status_code == 422
    assert "turn 5" in response.json()["error"]
    assert api.request("POST", "/api/replay", json={"game": "go"}).status_code == 422
    assert api.request("POST", "/api/replay", content="nope").status_code == 400


def test_hint_names_a_legal_action_with_a_reason(api: Api) -> None:
    created = api.create([HUMAN, GREEDY], seed=11)
    game_id, token = created["id"], created["seats"][0]["token"]
    state = api.wait(game_id, token, lambda s: s["acting"] == 0)
    response = api.request("POST", f"/api/games/{game_id}/hint", token, json={"ply": state["ply"]})
    assert response.status_code == 200, response.text
    hint = response.json()
    assert hint["action"] in {c["action"] for c in state["choices"]}
    assert hint["reason"]
    spectator = api.request("POST", f"/api/games/{game_id}/hint", json={"ply": state["ply"]})
    assert spectator.status_code == 401


def test_undo_takes_back_my_move_and_the_bots_reply(api: Api) -> None:
    created = api.create([HUMAN, GREEDY], seed=21)
    game_id, token = created["id"], created["seats"][0]["token"]
    state = api.wait(game_id, token, lambda s: s["acting"] == 0)
    assert state["undo"] is (state["ply"] > 0)
    start = state["ply"]
    action = next(c["action"] for c in state["choices"] if "space" in c)
    assert api.act(game_id, token, action, start).status_code == 200
    later = api.wait(game_id, token, lambda s: s["acting"] == 0)
    assert later["undo"]
    response = api.request("POST", f"/api/games/{game_id}/undo", token, json={"ply": later["ply"]})
    assert response.status_code == 200, response.text
    assert response.json()["ply"] == start
    again = api.state(game_id, token)
    assert again["view"] == state["view"] and again["acting"] == 0


def test_socket_states_bring_only_the_log_entries_the_client_lacks(
    api: Api, server: ServerProcess
) -> None:
    created = api.create([HUMAN, GREEDY], seed=21)
    game_id, token = created["id"], created["seats"][0]["token"]
    ws = open_socket(server, game_id, [token])
    log: list[dict] = []

    def my_turn(after: int) -> dict:
        nonlocal log
        while True:
            state = receive(ws, lambda m: m["type"] == "state")
            log = log[: state["log_start"]] + state["log"]
            assert len(log) == state["ply"]
            if state["acting"] == 0 and state["ply"] > after:
                return state

    def play(state: dict) -> None:
        action = next(c["action"] for c in state["choices"] if "space" in c)
        ws.send(json.dumps({"type": "act", "action": action, "ply": state["ply"]}))

    state = my_turn(-1)
    for _ in range(3):
        play(state)
        state = my_turn(state["ply"])
    assert state["log_start"] > 0 and len(state["log"]) < state["ply"]
    assert log == api.state(game_id, token)["log"]
    ws.send(json.dumps({"type": "undo", "ply": state["ply"]}))
    state = my_turn(-1)  # the log was cut: the state after the undo brings it whole
    assert log == api.state(game_id, token)["log"]
    play(state)
    state = my_turn(state["ply"])
    assert log == api.state(game_id, token)["log"]
    ws.close()


def test_undo_never_crosses_a_refill(api: Api) -> None:
    created = api.create([HUMAN, GREEDY], seed=5)
    game_id, token = created["id"], created["seats"][0]["token"]
    while True:  # play until one of my moves empties the wheel (and so reveals new tiles)
        state = api.wait(game_id, token, lambda s: s["acting"] == 0)
        action = next(c["action"] for c in state["choices"] if "space" in c)
        after = api.act(game_id, token, action, state["ply"]).json()
        if after["log"][-1]["drawn"]:
            break
    state = api.wait(game_id, token, lambda s: s["acting"] == 0 or s["over"])
    response = api.request("POST", f"/api/games/{game_id}/undo", token, json={"ply": state["ply"]})
    assert response.status_code == 409
    assert "refill" in response.json()["error"]
    assert state["undo"] is False


def test_undo_is_not_offered_with_other_humans(api: Api) -> None:
    game_id, tokens, state = two_humans(api)
    token = token_to_move(state, tokens)
    _, action = first_take(api, game_id, token)
    api.act(game_id, token, action, 0)
    response = api.request("POST", f"/api/games/{game_id}/undo", token, json={"ply": 1})
    assert response.status_code == 409
    assert "other human" in response.json()["error"]


def test_a_solo_game_plays_to_a_score(api: Api) -> None:
    created = api.create([{"kind": "human", "name": "Sol"}], seed=4)
    final = play_to_the_end(api, created["id"], created["seats"][0]["token"])
    result = final["result"]
    assert result["total"] == result["phase1"] + result["phase2"]
    assert final["view"]["solo"]["phase1_score"] == result["phase1"]


def test_the_server_answers_while_a_bot_thinks(api: Api) -> None:
    # mcts:hard thinks for about 3 s per move in a worker process.
    hard = {"kind": "bot", "bot": "mcts:hard"}
    game_id = api.create([hard, hard], seed=2)["id"]
    thinking = api.wait(game_id, None, lambda s: s["thinking"] is not None)
    assert thinking["ply"] == 0
    other = api.create([HUMAN, HUMAN])  # created and answered meanwhile
    assert api.state(other["id"])["ply"] == 0
    still = api.state(game_id)
    assert still["ply"] == 0 and still["thinking"] == thinking["thinking"]


# -- restart ----------------------------------------------------------------------------------


def test_games_survive_kill_9_and_continue(
    database: Callable[[str], Path | str], tmp_path: Path
) -> None:
    db = database("crash.sqlite3")
    server = ServerProcess(db, bot_pause=0.2, log=tmp_path / "crash.log").start()
    api = Api(server)
    try:
        created = api.create([HUMAN, GREEDY, {"kind": "bot", "bot": "random"}], seed=99)
        game_id, token = created["id"], created["seats"][0]["token"]
        for _ in range(5):
            state = api.wait(game_id, token, lambda s: s["acting"] == 0)
            action = next(c["action"] for c in state["choices"] if "space" in c)
            assert api.act(game_id, token, action, state["ply"]).status_code == 200
        before = api.state(game_id, token)  # bots may be about to move
        server.kill9()
        server.start()  # same database, new process
        after = api.state(game_id, token)
        assert after["ply"] >= before["ply"]
        assert after["log"][: before["ply"]] == before["log"]
        final = play_to_the_end(api, game_id, token)  # the bots resumed by themselves
        assert final["over"]
        record = api.request("GET", final["record"]).json()
        replay(record)
        assert record["created"] == final["game"]["created"]  # stored, not loaded
    finally:
        api.http.close()
        server.stop()


# -- starting the server -----------------------------------------------------------------------


def test_serve_refuses_a_bad_port_a_busy_port_and_a_broken_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tabletop.cli import novaluna as main

    from server_support import free_port

    with pytest.raises(SystemExit) as bad_port:
        main(["serve", "--port", "99999", "--db", str(tmp_path / "a.db")])
    assert bad_port.value.code == 2
    assert "65535" in capsys.readouterr().err
    port = free_port()
    with socket.create_server(("127.0.0.1", port)), pytest.raises(SystemExit) as busy:
        main(["serve", "--port", str(port), "--db", str(tmp_path / "a.db")])
    assert "in use" in str(busy.value.code)
    broken = tmp_path / "broken.db"
    broken.write_text("not a database at all " * 100)
    with pytest.raises(SystemExit) as bad_db:
        main(["serve", "--port", str(free_port()), "--db", str(broken)])
    assert "cannot open the game database" in str(bad_db.value.code)
    assert broken.read_text().startswith("not a database")  # left as it was


def test_any_json_id_is_echoed_back_as_sent(api: Api, server: ServerProcess) -> None:
    """A client's ``id`` comes back unchanged, even where the server's fast JSON
    encoder gives up (integers beyond 64 bits, deep nesting); an integer beyond 2^53 - 1
    as its decimal string, as every integer the server sends (a browser would round it)."""
    game_id, tokens, state = two_humans(api)
    token = token_to_move(state, tokens)
    ws = open_socket(server, game_id, [token])
    receive(ws, lambda m: m["type"] == "state")
    nested: Any = "x"
    for _ in range(300):
        nested = [nested]
    for ref in (10**30, -(2**70), nested, "ok", 3.5):
        ws.send(json.dumps({"type": "undo", "ply": 0, "id": ref}))
        answer = receive(ws, lambda m: m["type"] in ("ack", "error"))
        assert answer["type"] == "error" and answer["id"] == js_safe(ref)
    ws.close()
    assert "Traceback" not in server.log.read_text(errors="replace")
