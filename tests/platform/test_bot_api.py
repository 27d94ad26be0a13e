"""The bot API (issue 32) over HTTP against a real server on SQLite and PostgreSQL: a
bot account and its tokens, what a token may and may not do, the event stream,
challenges accepted, moves by notation and by action index, resigning, and revoking."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from account_support import PASSWORD, error, register, unique
from bot_support import as_bot, bot_account, challenge, name_of, read_events, token, wait_until
from tabletop.games.nmbr9 import encoding as nmbr9_encoding
from tabletop.games.nmbr9.rules import parse_action

from server_support import ServerProcess, receive


def test_a_bot_account_makes_lists_and_revokes_tokens(server: ServerProcess) -> None:
    person = register(server, unique("Ann"))
    refused = person.post("/api/account/tokens", json={"name": "x"})
    assert "bot account" in error(refused, 403)
    assert "password" in error(person.post("/api/account/bot", json={"password": "wrong one"}), 401)

    page, name = bot_account(server)
    assert page.get("/api/account").json()["account"] == {"name": name, "bot": True}
    again = page.post("/api/account/bot", json={"password": PASSWORD})
    assert "already" in error(again, 409)
    secret = token(page, name="tournament box")
    assert secret.startswith("tbt_")
    listed = page.get("/api/account/tokens").json()["tokens"]
    assert [(t["name"], t["scopes"]) for t in listed] == [("tournament box", ["play", "read"])]
    assert secret not in json.dumps(listed)  # shown once, stored hashed

    bot = as_bot(server, secret)
    assert bot.get("/api/account").json()["account"]["name"] == name
    assert "page" in error(bot.post("/api/account/tokens", json={"name": "more"}), 403)
    revoked = page.post(f"/api/account/tokens/{listed[0]['id']}/revoke")
    assert revoked.status_code == 200, revoked.text
    assert "revoked" in error(bot.get("/api/account"), 401)
    assert page.get("/api/account/tokens").json()["tokens"] == []
    assert "no API token" in error(page.post(f"/api/account/tokens/{listed[0]['id']}/revoke"), 404)


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 41}, "name"),
        ({"name": 7}, "name"),
        ({"name": "ok", "scopes": ["admin"]}, "scopes"),
        ({"name": "ok", "scopes": []}, "scopes"),
        ({"name": "ok", "scopes": "play"}, "scopes"),
    ],
)
def test_a_malformed_token_request_is_refused(
    server: ServerProcess, body: dict[str, Any], why: str
) -> None:
    page, _ = bot_account(server)
    assert why in error(page.post("/api/account/tokens", json=body), 400)
    assert page.get("/api/account/tokens").json()["tokens"] == []


def test_a_bot_account_cannot_play_as_a_person_nor_a_player_become_one(
    server: ServerProcess,
) -> None:
    page, name = bot_account(server)
    game = {"type": "nmbr9", "seats": [{"kind": "human", "me": True}]}
    assert "token" in error(page.post("/api/games", json=game), 403)
    person = register(server, unique("Cy"))
    assert person.post("/api/games", json=game).status_code == 201
    assert "played as a person" in error(
        person.post("/api/account/bot", json={"password": PASSWORD}), 409
    )


def test_a_read_token_reads_but_cannot_play(server: ServerProcess) -> None:
    page, name = bot_account(server)
    reader = as_bot(server, token(page, ["read"]))
    ann = register(server, unique("Ann"))
    game_id = challenge(ann, name)
    assert reader.get(f"/api/games/{game_id}").status_code == 200
    accept = reader.post(f"/api/games/{game_id}/invitation", json={"accept": True})
    assert "read" in error(accept, 403)
    assert ann.get(f"/api/games/{game_id}").json()["game"]["waiting"]  # nothing changed


def test_wrong_tokens_and_strangers_get_clear_refusals(server: ServerProcess) -> None:
    forged = as_bot(server, "tbt_" + "x" * 43)
    assert "unknown" in error(forged.get("/api/account"), 401)
    assert "unknown" in error(forged.post("/api/games", json={}), 401)
    page, name = bot_account(server)
    bot = as_bot(server, token(page))
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    seats = [{"kind": "human", "me": True}, {"kind": "human", "invite": name_of(ben)}]
    r = ann.post("/api/games", json={"type": "nmbr9", "seats": seats})
    game_id = r.json()["id"]
    move = bot.post(f"/api/games/{game_id}/actions", json={"action": "0@0,0", "ply": 0})
    assert move.status_code in (401, 403), move.text
    assert "resign" not in move.text
    assert bot.post(f"/api/games/{game_id}/resign", json={}).status_code in (401, 403)
    assert bot.get(f"/api/games/{game_id}/seat-record").status_code == 403
    big = bot.post(
        f"/api/games/{game_id}/actions",
        content=b'{"action": "' + b"x" * (1 << 20) + b'"}',
        headers={"Content-Type": "application/json"},
    )
    assert "too large" in error(big, 413)


def test_a_challenged_bot_accepts_plays_by_index_and_resigns(server: ServerProcess) -> None:
    page, name = bot_account(server)
    secret = token(page)
    bot = as_bot(server, secret)
    events: list[dict[str, Any]] = []
    stream = threading.Thread(target=read_events, args=(server.url, secret, events), daemon=True)
    stream.start()
    wait_until(lambda: any(e.get("type") == "games" for e in events))
    assert name in [b["name"] for b in bot.get("/api/bots").json()["bots"]]  # online

    ann = register(server, unique("Ann"))
    game_id = challenge(ann, name)
    wait_until(lambda: any(e.get("event") == "invited" for e in events))
    accepted = bot.post(f"/api/games/{game_id}/invitation", json={"accept": True})
    assert accepted.status_code == 200, accepted.text

    state = bot.get(f"/api/games/{game_id}").json()
    assert state["you"] == [1]
    choice = state["choices"][0]["action"]
    index = nmbr9_encoding.encode(parse_action(choice))
    moved = bot.post(f"/api/games/{game_id}/actions", json={"index": index, "ply": state["ply"]})
    assert moved.status_code == 200, moved.text
    garbage = bot.post(f"/api/games/{game_id}/actions", json={"action": "banana", "ply": 0})
    assert garbage.status_code in (400, 409, 422), garbage.text
    both = bot.post(f"/api/games/{game_id}/actions", json={"action": choice, "index": 1})
    assert "not both" in error(both, 400)
    huge = bot.post(f"/api/games/{game_id}/actions", json={"index": 10**12, "ply": 0})
    assert "index" in error(huge, 400)

    resigned = bot.post(f"/api/games/{game_id}/resign", json={})
    assert resigned.status_code == 200, resigned.text
    final = ann.get(f"/api/games/{game_id}").json()
    assert final["over"] and final["resigned"] and final["timed_out"] == [1]
    assert "over" in error(bot.post(f"/api/games/{game_id}/resign", json={}), 409)
    wait_until(lambda: any(e.get("event") == "over" for e in events))


def test_a_revoked_token_stops_its_streams_and_moves_at_once(server: ServerProcess) -> None:
    page, name = bot_account(server)
    secret = token(page)
    bot = as_bot(server, secret)
    ann = register(server, unique("Ann"))
    game_id = challenge(ann, name)
    bot.post(f"/api/games/{game_id}/invitation", json={"accept": True})
    url = f"{server.ws_url}/api/games/{game_id}/ws"
    headers = {"Authorization": f"Bearer {secret}"}
    with connect(url, open_timeout=10, additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": []}))
        first = receive(ws, lambda m: m["type"] == "state")
        assert first["you"] == [1]
        (token_id,) = [t["id"] for t in page.get("/api/account/tokens").json()["tokens"]]
        page.post(f"/api/account/tokens/{token_id}/revoke")
        closed = receive(ws, lambda m: m["type"] == "error")
        assert closed["status"] == 401
    state = ann.get(f"/api/games/{game_id}").json()
    refused = bot.post(f"/api/games/{game_id}/actions", json={"index": 0, "ply": state["ply"]})
    assert "revoked" in error(refused, 401)


def test_a_flood_of_bot_moves_gets_429_and_changes_nothing(tmp_path: Any) -> None:
    limited = ServerProcess(tmp_path / "rates.sqlite3", rates=True).start()
    try:
        page, name = bot_account(limited)
        bot = as_bot(limited, token(page))
        seats = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
        made = bot.post("/api/games", json={"type": "nova-luna", "seats": seats})
        assert made.status_code == 201, made.text
        game_id = made.json()["id"]
        statuses = [
            bot.post(f"/api/games/{game_id}/actions", json={"action": "x", "ply": 0}).status_code
            for _ in range(120)
        ]
        assert 429 in statuses and set(statuses) <= {409, 422, 429}, set(statuses)
        assert bot.get(f"/api/games/{game_id}").json()["ply"] == 0
        assert bot.get("/api/account").status_code == 200  # reading goes on meanwhile
    finally:
        limited.stop()


def test_event_streams_count_as_sockets_of_their_address(tmp_path: Any) -> None:
    options = ("--max-sockets-per-address", "2")
    capped = ServerProcess(tmp_path / "capped.sqlite3", options=options).start()
    try:
        page, _ = bot_account(capped)
        headers = {"Authorization": f"Bearer {token(page)}"}
        url = f"{capped.url}/api/account/events"
        refusals: list[str] = []

        def two_in_and_a_third_refused() -> bool:
            with (
                httpx.Client(timeout=10) as http,
                http.stream("GET", url, headers=headers) as one,
                http.stream("GET", url, headers=headers) as two,
                http.stream("GET", url, headers=headers) as three,
            ):
                if three.status_code == 429:
                    refusals.append(json.loads(three.read())["error"])
                codes = (one.status_code, two.status_code, three.status_code)
            return codes == (200, 200, 429)

        for _ in range(3):  # a closed stream leaves no count behind (else: 429 for ever)
            wait_until(two_in_and_a_third_refused)
        assert "too many connections" in refusals[-1]
    finally:
        capped.stop()


def test_an_overlong_token_is_refused_not_ignored(server: ServerProcess) -> None:
    forged = as_bot(server, "tbt_" + "a" * 3000)
    assert "unknown" in error(forged.get("/api/account"), 401)
    assert "unknown" in error(forged.post("/api/games", json={}), 401)


# -- loose ends (issue 42): what a program is told, and what a bot account's page sees ---

NO_SEAT = "this bot account has no seat in this game (its games: GET /api/account)"


def _someone_elses_game(server: ServerProcess) -> str:
    """A game of two people that has started: no seat of any bot account in it."""
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    seats = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
    game_id = str(ann.post("/api/games", json={"type": "nmbr9", "seats": seats}).json()["id"])
    assert ben.post(f"/api/games/{game_id}/join", json={}).status_code == 200
    return game_id


def test_a_bot_acting_in_a_game_without_its_seat_is_told_so_with_a_403(
    server: ServerProcess,
) -> None:
    """Not 401 "open your seat link (spectators cannot act)", written for a person."""
    page, _ = bot_account(server)
    secret = token(page)
    bot = as_bot(server, secret)
    game_id = _someone_elses_game(server)
    bodies = {
        "actions": {"action": "0@0,0", "ply": 0},
        "undo": {"ply": 0},
        "hint": {"ply": 0},
        "resign": {},
    }
    for verb, body in bodies.items():
        refused = bot.post(f"/api/games/{game_id}/{verb}", json=body)
        assert refused.status_code == 403, (verb, refused.text)
        assert refused.json()["key"] == NO_SEAT
    url = f"{server.ws_url}/api/games/{game_id}/ws"
    headers = {"Authorization": f"Bearer {secret}"}
    with connect(url, open_timeout=10, additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": []}))
        assert receive(ws, lambda m: m["type"] == "state")["you"] == []
        ws.send(json.dumps({"type": "act", "action": "0@0,0", "ply": 0, "id": 1}))
        answer = receive(ws, lambda m: m["type"] == "error")
        assert (answer["status"], answer["key"]) == (403, NO_SEAT)
    assert bot.get(f"/api/games/{game_id}").json()["ply"] == 0  # nothing changed


@pytest.mark.parametrize("action", [5, 0, 1.5, True, ["0@0,0"], {"index": 3}])
def test_an_action_that_is_not_a_text_gets_a_400_saying_what_an_action_is(
    server: ServerProcess, action: Any
) -> None:
    """A number under "action" was taken for an action index, and refused as one."""
    page, name = bot_account(server)
    bot = as_bot(server, token(page))
    ann = register(server, unique("Ann"))
    game_id = challenge(ann, name)
    assert bot.post(f"/api/games/{game_id}/invitation", json={"accept": True}).status_code == 200
    refused = bot.post(f"/api/games/{game_id}/actions", json={"action": action, "ply": 0})
    assert refused.status_code == 400, refused.text
    assert refused.json()["key"].startswith("'action' is a move in the game's notation")
    assert bot.get(f"/api/games/{game_id}").json()["ply"] == 0


def test_a_bot_account_signed_in_on_the_page_may_look_at_a_game(server: ServerProcess) -> None:
    """Its page session's game socket was refused (403): it may look, only not play."""
    page, _ = bot_account(server)
    game_id = _someone_elses_game(server)
    cookie = "; ".join(f"{k}={v}" for k, v in page.cookies.items())
    url = f"{server.ws_url}/api/games/{game_id}/ws"
    with connect(url, open_timeout=10, additional_headers={"Cookie": cookie}) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": []}))
        state = receive(ws, lambda m: m["type"] in ("state", "error"))
        assert state["type"] == "state" and state["you"] == [], state
        ws.send(json.dumps({"type": "act", "action": "0@0,0", "ply": 0}))
        assert receive(ws, lambda m: m["type"] == "error")["status"] == 401  # a spectator
    assert page.get(f"/api/games/{game_id}").status_code == 200
    move = page.post(f"/api/games/{game_id}/actions", json={"action": "0@0,0", "ply": 0})
    assert "token" in error(move, 403)


@pytest.mark.parametrize(
    "header", ["Bearer not-an-api-token", "Basic YW5uOnNlY3JldA==", "Bearer", "tbt_abc"]
)
def test_a_wrong_authorization_header_on_the_account_gets_a_401(
    server: ServerProcess, header: str
) -> None:
    """It was read as "signed out": ``{"account": null}``, hiding the mistake."""
    person = register(server, unique("Ann"))  # a session cookie beside it changes nothing
    for path in ("/api/account", "/api/account/events", "/api/account/tokens"):
        answer = person.get(path, headers={"Authorization": header})
        assert answer.status_code == 401, (path, answer.text)
        assert answer.json()["key"].startswith("the Authorization header holds no API token")
    assert person.get("/api/account").json()["account"] is not None  # without the header


def test_the_bot_form_is_offered_only_while_the_account_may_become_one(
    server: ServerProcess,
) -> None:
    """``may_become_bot`` tells the page whether ``POST /api/account/bot`` would refuse."""
    fresh = register(server, unique("Cy"))
    assert fresh.get("/api/account").json()["may_become_bot"] is True
    played = register(server, unique("Di"))
    game = {"type": "nmbr9", "seats": [{"kind": "human", "me": True}]}
    assert played.post("/api/games", json=game).status_code == 201
    assert played.get("/api/account").json()["may_become_bot"] is False
    refused = played.post("/api/account/bot", json={"password": PASSWORD})
    assert "played as a person" in error(refused, 409)
    invited = register(server, unique("Ed"))
    challenge(played, name_of(invited))
    assert invited.get("/api/account").json()["may_become_bot"] is False
    page, _ = bot_account(server)
    assert "may_become_bot" not in page.get("/api/account").json()


@pytest.mark.parametrize("seat", ["9" * 5000, "²", "-1", "7"])
def test_a_seat_record_for_a_seat_that_is_not_yours_gets_a_400(
    server: ServerProcess, seat: str
) -> None:
    """5,000 digits are more than int() reads: the check of the seat raised (500)."""
    page, name = bot_account(server)
    bot = as_bot(server, token(page))
    game_id = challenge(register(server, unique("Ann")), name)
    assert bot.post(f"/api/games/{game_id}/invitation", json={"accept": True}).status_code == 200
    refused = bot.get(f"/api/games/{game_id}/seat-record", params={"seat": seat})
    assert "'seat' must be one of your seats" in error(refused, 400)
