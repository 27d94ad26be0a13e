"""The OpenAPI document (``tabletop.server.openapi``, served at ``GET /api/openapi.json``)
describes every route of the app and nothing else; its schemas are valid JSON Schema;
and schemathesis, reading it, attacks every operation of a live server with valid
and hostile inputs, signed out and with every kind of credential (a session, a bot
account's play and read tokens, a seat token, garbage) and real ids, and follows the
document's links from a new game and a new token: no answer is a 5xx (nor leaves a
traceback in the server's log), and every answer conforms to the document.

Run alone: ``pytest -m openapi``. The budget here (``FUZZ_EXAMPLES`` per operation and
mode) keeps it to a few minutes; ``make fuzz`` runs many more (``TABLETOP_FUZZ_EXAMPLES``).
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from jsonschema import Draft202012Validator
from starlette.routing import Mount, Route, WebSocketRoute

from account_support import PASSWORD
from tabletop.server import openapi
from tabletop.server.app import create_app

from mail_support import smtp_server
from server_support import ServerProcess

schemathesis = pytest.importorskip("schemathesis")
from schemathesis import GenerationMode  # noqa: E402 - after the skip
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

pytestmark = pytest.mark.openapi

FUZZ_EXAMPLES = int(os.environ.get("TABLETOP_FUZZ_EXAMPLES", "25"))
#: the budget of ``make test``: below it, the static rule of ``nothing_to_make_invalid``
#: is trusted; above it (``make fuzz``), checked against schemathesis itself
QUICK_EXAMPLES = 25
DOCUMENT = openapi.document()  # this process's: its game types include the tests' toy game
# endless answers (NDJSON streams): fuzzed only signed out or with bad credentials,
# where they end at once (a real stream is tested in test_bot_api.py)
STREAMS = {("GET", "/api/account/events"), ("GET", "/api/games/{game_id}/stream")}
# what ends the session it is sent with (signing in again ends the one in the cookie), or
# the tokens of the bot account whose page session it is sent with:
# each test of one gets a session of its own
ENDS_SESSIONS = {
    ("POST", "/api/account/logout"),
    ("POST", "/api/account/logout-everywhere"),
    ("POST", "/api/account/register"),
    ("POST", "/api/account/login"),
    ("POST", "/api/account/tokens/revoke-all"),  # ends the bot account's tokens
}


# -- the document and the app's routes ---------------------------------------------------


def _app_routes(tmp_path: Path) -> tuple[set[tuple[str, str]], set[str], set[str]]:
    """The app's HTTP routes ``(method, path)``, WebSocket paths and mounted paths."""
    app = create_app(str(tmp_path / "routes.sqlite3"))
    http: set[tuple[str, str]] = set()
    sockets: set[str] = set()
    mounts: set[str] = set()
    for route in app.routes:
        if isinstance(route, WebSocketRoute):
            sockets.add(route.path)
        elif isinstance(route, Route):
            http |= {(m, route.path) for m in route.methods or () if m != "HEAD"}
        elif isinstance(route, Mount):
            mounts.add(route.path)
        else:
            raise AssertionError(f"a route of an unknown kind: {route!r}")
    return http, sockets, mounts


def test_every_route_is_described_and_every_description_is_a_route(tmp_path: Path) -> None:
    http, sockets, mounts = _app_routes(tmp_path)
    described = set(openapi.OPERATIONS) | {("GET", page) for page in openapi.PAGES}
    assert http - described == set(), "routes the OpenAPI document does not describe"
    assert described - http == set(), "described in the OpenAPI document, but no route"
    assert sockets == set(openapi.WEBSOCKETS)
    assert all(m == openapi.STATIC or m.startswith(openapi.STATIC + "/") for m in mounts)
    paths = DOCUMENT["paths"]
    assert {(m.upper(), p) for p, item in paths.items() for m in item if m != "parameters"} == (
        described
    )


def test_the_document_is_valid_and_its_schemas_are_json_schemas() -> None:
    assert DOCUMENT["openapi"].startswith("3.1.")
    for schema in DOCUMENT["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)
    for path, item in DOCUMENT["paths"].items():
        names = [p["name"] for p in item.get("parameters", []) if p["in"] == "path"]
        for method, operation in item.items():
            if method == "parameters":
                continue
            names += [p["name"] for p in operation.get("parameters", []) if p["in"] == "path"]
            assert sorted(set(names)) == sorted(openapi._path_names(path)), (method, path)
            assert operation["responses"], (method, path)
            for entry in operation["security"]:
                assert set(entry) <= set(DOCUMENT["components"]["securitySchemes"])
    schema = schemathesis.openapi.from_dict(DOCUMENT)
    errors = [r.err() for r in schema.get_all_operations() if not hasattr(r, "ok")]
    assert errors == [], "schemathesis cannot read these operations"


# -- a live server and its credentials ------------------------------------------------------


@dataclass
class World:
    """A live server, its document, and real credentials and ids to fuzz it with."""

    server: ServerProcess
    schema: Any
    credentials: dict[str, tuple[dict[str, str], dict[str, str]]] = field(default_factory=dict)
    values: dict[str, list[str]] = field(default_factory=dict)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("openapi")
    with smtp_server() as (smtp_port, _):
        proc = ServerProcess(folder / "games.sqlite3")
        proc.options = (
            *("--smtp", f"smtp://127.0.0.1:{smtp_port}", "--public-url", proc.url),
            *("--mail-from", "games@example.org", "--mail-delay", "0"),
        )
        proc.start()
        yield proc
        proc.stop()
    assert "Traceback" not in proc.log.read_text(errors="replace")


def _register(server: ServerProcess, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=30)
    made = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return client


def _session(client: httpx.Client) -> dict[str, str]:
    return {"session": str(client.cookies["session"])}


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def schema(server: ServerProcess) -> Any:
    """The document the live server serves, as schemathesis reads it."""
    loaded = schemathesis.openapi.from_url(f"{server.url}/api/openapi.json")
    # the credentials are the test's to choose (real ones, and garbage): schemathesis
    # generates none of its own, and negates none (its "missing cookie" is no bad body)
    loaded.config.generation.update(with_security_parameters=False)
    return loaded


@pytest.fixture(scope="module")
def accounts(server: ServerProcess) -> dict[str, Any]:
    """A person (Ann, who has played) and a bot account (its page session, a play and
    a read token), registered once for the module."""
    ann = _register(server, "Ann")
    page = _register(server, "Robo")
    assert page.post("/api/account/bot", json={"password": PASSWORD}).status_code == 200
    tokens = {}
    for scope in ("play", "read"):
        made = page.post("/api/account/tokens", json={"name": scope, "scopes": [scope]})
        assert made.status_code == 201, made.text
        tokens[scope] = made.json()["token"]
    spare = page.post("/api/account/tokens", json={"name": "spare"}).json()["id"]
    finished = _finished_game(ann)
    swiss = {"kind": "swiss", "type": "nmbr9", "name": "Fuzz", "players": 2, "rounds": 1}
    event = ann.post("/api/tournaments", json={**swiss, "starts_in": 3600})
    assert event.status_code == 201, event.text
    ann.post(f"/api/tournaments/{event.json()['id']}/bots", json={"bot": "greedy"})
    return {"ann": ann, "page": page, "tokens": tokens, "spare": str(spare), "over": finished,
            "event": event.json()["id"]}  # fmt: skip


def _finished_game(ann: httpx.Client) -> str:
    """A finished NMBR 9 game of one seat (records, replays, analyses)."""
    made = ann.post("/api/games", json={"type": "nmbr9", "seats": [{"kind": "human"}],
                                         "options": {"remove": 15}})  # fmt: skip
    game_id, token = made.json()["id"], made.json()["seats"][0]["token"]
    while not (state := ann.get(f"/api/games/{game_id}", headers=_bearer(token)).json())["over"]:
        move = {"action": state["choices"][-1]["action"], "ply": state["ply"]}
        assert ann.post(f"/api/games/{game_id}/actions", json=move,
                        headers=_bearer(token)).status_code == 200  # fmt: skip
    return str(game_id)


@pytest.fixture
def world(
    server: ServerProcess, schema: Any, accounts: dict[str, Any], request: pytest.FixtureRequest
) -> World:
    """Fresh games for each test (a fuzzed resign or withdrawal ends one): a live Nova
    Luna game of two seat links, a game the bot account accepted, Ann's open game;
    and for the operations that end sessions, accounts of the test's own."""
    ann, page, tokens = accounts["ann"], accounts["page"], accounts["tokens"]
    live = ann.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    # an inviter of the test's own: invitations are capped per inviter and day, and a
    # fuzzed block by the bot account must not refuse the next test's invitation
    inviter = _register(server, f"Inviter{next(_SERIAL)}")
    seats = [{"kind": "human", "me": True}, {"kind": "human", "invite": "Robo"}]
    made = inviter.post("/api/games", json={"type": "nmbr9", "seats": seats})
    assert made.status_code == 201, made.text
    bot_game = made.json()["id"]
    bot = httpx.Client(base_url=server.url, timeout=30, headers=_bearer(tokens["play"]))
    accepted = bot.post(f"/api/games/{bot_game}/invitation", json={"accept": True})
    assert accepted.status_code == 200, accepted.text
    seats = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
    open_game = ann.post("/api/games", json={"type": "nmbr9", "seats": seats}).json()["id"]
    person, bot_page = _session(ann), _session(page)
    if request.node.callspec.params.get("operation") in ENDS_SESSIONS:
        person = bot_page = _session(_register(server, f"Ends{next(_SERIAL)}"))
    seat_token = live["seats"][0]["token"]
    credentials: dict[str, tuple[dict[str, str], dict[str, str]]] = {
        "nobody": ({}, {}),
        "person": ({}, person),
        "bot page": ({}, bot_page),
        "bot token": (_bearer(tokens["play"]), {}),
        "read token": (_bearer(tokens["read"]), {}),
        "seat token": (_bearer(seat_token), {}),
        "seat token and person": (_bearer(seat_token), person),
        "garbage": ({"Authorization": "Bearer garbage"}, {}),
    }
    values = {
        "game_id": [live["id"], bot_game, open_game, accounts["over"]],
        "token_id": [accounts["spare"]],
        "type": ["nova-luna", "nmbr9"],
        "game": ["nova-luna", "nmbr9"],
        "day": ["2026-11-27"],
        "index": ["0", "3"],
        "ply": ["0", "1"],
        "lang": ["de"],
        "name": ["Ann", "Robo"],
        "tournament_id": [accounts["event"]],
        "entrant": ["1", "2"],
    }
    return World(server, schema, credentials, values)


# -- schemathesis ---------------------------------------------------------------------------


_SERIAL = itertools.count()


def _operations() -> list[tuple[str, str]]:
    return sorted([*openapi.OPERATIONS, *(("GET", page) for page in openapi.PAGES)])


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


def nothing_to_make_invalid(method: str, path: str) -> bool:
    """Whether schemathesis can make no request of this operation invalid: no body, no
    query, header or cookie parameter, and only path parameters that any text fills (a
    path's segment is never empty). It learns that only after some 200 draws that each
    fail (a third of the module's time went on 58 such operations), so the rule says it
    at once."""
    item = DOCUMENT["paths"][path]
    operation = item[method.lower()]
    parameters = [*item.get("parameters", []), *operation.get("parameters", [])]
    return "requestBody" not in operation and all(
        p["in"] == "path" and _any_text(p.get("schema", {})) for p in parameters
    )


def _any_text(schema: dict[str, Any]) -> bool:
    return (
        schema.get("type") == "string"
        and set(schema) <= {"type", "minLength", "description"}
        and schema.get("minLength", 0) <= 1
    )


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
@pytest.mark.parametrize("operation", _operations(), ids=" ".join)
def test_schemathesis_finds_no_5xx_and_no_answer_the_document_does_not_describe(
    world: World, operation: tuple[str, str], mode: GenerationMode
) -> None:
    method, path = operation
    unsatisfiable = mode is GenerationMode.NEGATIVE and nothing_to_make_invalid(method, path)
    if unsatisfiable and FUZZ_EXAMPLES <= QUICK_EXAMPLES:
        pytest.skip("nothing of this operation can be made invalid (no body, no typed parameter)")
    api_operation = world.schema[path][method]
    names, values = list(world.credentials), world.values
    if operation in STREAMS:
        names, values = ["nobody", "garbage"], {}
    checks = [*CHECKS, negative_data_rejection] if mode is GenerationMode.NEGATIVE else CHECKS

    @settings(
        max_examples=FUZZ_EXAMPLES,
        deadline=None,
        derandomize=True,  # the same cases on every run: never flaky
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        case=api_operation.as_strategy(generation_mode=mode),
        who=st.sampled_from(names),
        real=st.fixed_dictionaries({k: st.sampled_from([None, *v]) for k, v in values.items()}),
    )
    def attack(case: Any, who: str, real: dict[str, str | None]) -> None:
        for name in list(case.path_parameters or {}):
            if real.get(name) is not None and mode is GenerationMode.POSITIVE:
                case.path_parameters[name] = real[name]
        headers, cookies = world.credentials[who]
        response = case.call(base_url=world.server.url, headers=headers, cookies=cookies,
                             timeout=30)  # fmt: skip
        case.validate_response(response, checks=checks, headers=headers)

    try:
        attack()
    except Unsatisfiable:
        if mode is GenerationMode.POSITIVE:
            raise
        pytest.skip("nothing of this operation can be made invalid (no body, no typed parameter)")
    assert not unsatisfiable, "nothing_to_make_invalid is wrong: schemathesis made one invalid"


def test_the_document_is_served(server: ServerProcess) -> None:
    """The module's document, with the game types the server hosts (the tests' own
    process has a toy game besides)."""
    served = httpx.get(f"{server.url}/api/openapi.json", timeout=30)
    assert served.status_code == 200
    assert served.headers["content-type"] == "application/json"
    hosted = httpx.get(f"{server.url}/api/types", timeout=30).json()["types"]
    create = served.json()["paths"]["/api/games"]["post"]["requestBody"]
    types = create["content"]["application/json"]["schema"]["properties"]["type"]["enum"]
    assert types == sorted(t["name"] for t in hosted)
    assert served.json()["paths"].keys() == DOCUMENT["paths"].keys()
    assert served.json()["x-websockets"] == json.loads(json.dumps(DOCUMENT["x-websockets"]))


# -- stateful: following the document's links ---------------------------------------------

# the games' operations (the links of POST /api/games lead there) and the tokens'
# (POST /api/account/tokens links to revoking the new one); not the stream (endless)
STATEFUL = sorted(
    {openapi.operation_id("POST", "/api/games"), *openapi.game_links(*openapi.OF_A_NEW_GAME)}
    | {
        openapi.operation_id("POST", "/api/account/tokens"),
        openapi.operation_id("POST", "/api/account/tokens/{token_id}/revoke"),
    }
)


def test_schemathesis_follows_the_links_from_a_new_game_and_a_new_token(
    server: ServerProcess, schema: Any, accounts: dict[str, Any]
) -> None:
    """Sequences of calls where each uses an id an earlier answer gave (a game created,
    then played, undone, resigned, withdrawn, ...): Ann's session for the games, the
    bot account's page session for its tokens."""
    ann, page = _session(accounts["ann"]), _session(accounts["page"])

    class Workflow(schema.include(operation_id=STATEFUL).as_state_machine()):  # type: ignore[misc]
        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            cookies = page if case.path.startswith("/api/account/tokens") else ann
            return {"base_url": server.url, "cookies": cookies, "timeout": 30}

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            case.validate_response(response, checks=CHECKS)

    Workflow.run(
        settings=settings(
            max_examples=max(5, FUZZ_EXAMPLES // 5),
            stateful_step_count=6,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
    )
