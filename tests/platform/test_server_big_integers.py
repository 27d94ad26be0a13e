"""Integers a browser would round (issue 44): seeds are 62-bit, and read as a JavaScript
number the daily's 921618756291718491 became 921618756291718500, another deck. Every
JSON answer of a game played on such a seed (HTTP, the game's and the account's
sockets, the NDJSON stream, the record and its replay, the daily, the account's data)
is read exactly here (Python keeps big integers) and fails on any integer beyond
2^53 - 1; the seed comes as its decimal string, and is taken back as a number or as
that string (creating a game, uploading a record)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator

from account_support import PASSWORD, account_socket, register, unique
from tabletop.core.errors import RecordError
from tabletop.core.web import web_games
from tabletop.daily import daily_seed, today
from tabletop.games.nmbr9.records import replay as replay_nmbr9
from tabletop.games.novaluna.records import replay as replay_luna
from tabletop.server.openapi import document
from tabletop.server.openapi_schemas import SCHEMAS

from server_support import ServerProcess, open_socket, receive

SAFE = 2**53 - 1
SEED = 921618756291718491  # the daily seed the issue saw rounded


def too_big(value: Any, where: str = "") -> list[str]:
    """Where ``value`` holds an integer beyond 2^53 - 1 (a browser would round it)."""
    if type(value) is int:
        return [f"{where} = {value}"] if abs(value) > SAFE else []
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in too_big(v, f"{where}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in too_big(v, f"{where}[{i}]")]
    return []


class Checked:
    """Every JSON body an HTTP client receives, and every socket message, read exactly
    (``json.loads`` keeps big integers), with what was found too big."""

    def __init__(self) -> None:
        self.read = 0
        self.found: list[str] = []

    def text(self, text: str, source: str) -> Any:
        value = json.loads(text)
        self.read += 1
        self.found += [f"{source}: {p}" for p in too_big(value)]
        return value

    def hook(self, response: httpx.Response) -> None:
        # application/json only: an NDJSON stream never ends (its first line: ``first_line``)
        if response.headers.get("content-type", "").startswith("application/json"):
            response.read()
            self.text(response.text, f"{response.request.method} {response.request.url.path}")


@pytest.fixture
def checked() -> Iterator[Checked]:
    found = Checked()
    yield found
    assert not found.found, "integers beyond 2^53 - 1 sent as numbers:\n" + "\n".join(found.found)


def watched(server: ServerProcess, checked: Checked) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=30, event_hooks={"response": [checked.hook]})


def signed_in(server: ServerProcess, checked: Checked, name: str) -> httpx.Client:
    register(server, name).close()
    player = watched(server, checked)
    r = player.post("/api/account/login", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return player


def first_line(client: httpx.Client, path: str, headers: dict[str, str]) -> str:
    """The first message of an NDJSON stream (its state)."""
    with client.stream("GET", path, headers=headers) as stream:
        for line in stream.iter_lines():
            if line.strip():
                return line
    raise AssertionError(f"{path} sent nothing")


def play_out(client: httpx.Client, game_id: str, headers: dict[str, str]) -> dict[str, Any]:
    """Every move the first choice; each answer checked by the client's hook."""
    state: dict[str, Any] = client.get(f"/api/games/{game_id}", headers=headers).json()
    while not state["over"]:
        move = {"action": state["choices"][0]["action"], "ply": state["ply"]}
        answer = client.post(f"/api/games/{game_id}/actions", json=move, headers=headers)
        assert answer.status_code == 200, answer.text
        state = client.get(f"/api/games/{game_id}", headers=headers).json()
    return state


def test_every_answer_of_a_game_on_a_62_bit_seed_sends_the_seed_as_a_string(
    server: ServerProcess, checked: Checked
) -> None:
    name = unique("Big")
    player = signed_in(server, checked, name)
    seats = [{"kind": "human"}]
    created = player.post("/api/games", json={"type": "nmbr9", "seats": seats, "seed": SEED})
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["seats"][0]["token"]
    seat = {"Authorization": f"Bearer {token}"}
    state = player.get(f"/api/games/{game_id}", headers=seat).json()
    assert state["game"]["fixed_seed"] == str(SEED)  # exactly, as a string
    # the same seed sent back as the string it came as: the same deal
    again = player.post("/api/games", json={"type": "nmbr9", "seats": seats, "seed": str(SEED)})
    assert again.status_code == 201, again.text
    twin_seat = {"Authorization": f"Bearer {again.json()['seats'][0]['token']}"}
    twin = player.get(f"/api/games/{again.json()['id']}", headers=twin_seat).json()
    assert twin["game"]["fixed_seed"] == str(SEED) and twin["view"] == state["view"] != {}
    for bad in ("9.2e17", "-1", "x", str(2**63), ""):
        refused = player.post("/api/games", json={"type": "nmbr9", "seats": seats, "seed": bad})
        assert refused.status_code == 400 and "seed" in refused.json()["error"], bad
    player.get(f"/api/games/{game_id}/seat-record", headers=seat)
    checked.text(first_line(player, f"/api/games/{game_id}/stream", seat), "stream")
    ws = open_socket(server, game_id, [token])
    message = checked.text(json.dumps(receive(ws, lambda m: m["type"] == "state")), "socket")
    ws.close()
    assert message["game"]["fixed_seed"] == str(SEED)
    sock = account_socket(server, player)
    checked.text(sock.recv(timeout=30), "account socket")
    sock.close()
    state = play_out(player, game_id, seat)
    record = player.get(f"/api/games/{game_id}/record").json()
    assert record["seed"] == str(SEED)
    frames = player.post("/api/replay", json=record)  # the record as downloaded, taken back
    assert frames.status_code == 200, frames.text
    assert player.get(f"/api/games/{game_id}/replay").status_code == 200
    player.post(f"/api/games/{game_id}/analysis")
    for path in ("/api/account", "/api/account/data", "/api/lobby", f"/api/players/{name}"):
        assert player.get(path).status_code == 200, path
    assert checked.read >= 12 + len(state["log"]) // 4


def test_the_daily_sends_its_seed_exactly_on_every_route(
    server: ServerProcess, checked: Checked
) -> None:
    player = signed_in(server, checked, unique("Daily"))
    seed = daily_seed("nmbr9", today())
    shown = str(seed) if seed > SAFE else seed  # nearly always beyond: 62 bits
    listed = player.get("/api/daily").json()
    assert [g["seed"] for g in listed["games"] if g["game"] == "nmbr9"] == [shown]
    started = player.post("/api/daily/nmbr9", json={}).json()
    assert started["seed"] == shown
    state = player.get(f"/api/games/{started['id']}").json()
    assert state["game"]["fixed_seed"] == shown
    assert state["game"]["daily"] == {"day": today().isoformat(), "counted": True}
    board = player.get(f"/api/daily/nmbr9/{today().isoformat()}").json()
    assert board["seed"] == shown and board["you"]["counted"]


def test_a_record_with_its_seed_as_a_string_replays_and_a_bad_seed_is_refused() -> None:
    for game, replay in (("nmbr9", replay_nmbr9), ("nova-luna", replay_luna)):
        seed = daily_seed(game, date(2026, 11, 27))
        record = web_games()[game].new_match(1, {}, seed).record(["Ann"])
        as_sent = {**record, "seed": str(seed)}
        assert replay(as_sent).seed == seed
        for bad in ("1e9", "0x10", 1.5, [seed]):
            with pytest.raises(RecordError, match="seed"):
                replay({**record, "seed": bad})


def test_the_openapi_document_describes_seeds_as_numbers_or_strings() -> None:
    doc = document()
    create = doc["paths"]["/api/games"]["post"]["requestBody"]["content"]["application/json"]
    body = Draft202012Validator(create["schema"])
    assert body.is_valid({"seats": [{"kind": "human"}], "seed": str(SEED)})
    assert body.is_valid({"seats": [{"kind": "human"}], "seed": SEED})
    assert not body.is_valid({"seats": [{"kind": "human"}], "seed": "9.2e17"})
    state = Draft202012Validator(SCHEMAS["State"])
    sent = {"game": {"fixed_seed": str(SEED)}, "ply": 0, "over": False}
    assert state.is_valid(sent)
    assert not state.is_valid({**sent, "game": {"fixed_seed": SEED}})  # rounded by a browser
    deal = Draft202012Validator(SCHEMAS["DailyDeal"])
    assert deal.is_valid({"game": "nmbr9", "day": "2026-11-28", "seed": str(SEED)})
    assert not deal.is_valid({"game": "nmbr9", "day": "2026-11-28", "seed": SEED})
    assert "decimal strings" in doc["info"]["description"]
