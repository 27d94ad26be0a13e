"""Small clients of a server's accounts for the server tests: a signed-in client, a
game with an open seat, playing a game out."""

from __future__ import annotations

import time
from typing import Any

import httpx
from websockets.sync.client import connect

from tabletop.server.accounts import COOKIE

from server_support import ServerProcess

PASSWORD = "correct horse"


def client(server: ServerProcess) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=30)


def register(server: ServerProcess, name: str) -> httpx.Client:
    """A client signed in to a new account ``name``."""
    c = client(server)
    r = c.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c


def account_socket(server: ServerProcess, who: httpx.Client | None, **kw: Any) -> Any:
    """``WS /api/account/ws`` with ``who``'s session cookie (``None``: no session)."""
    cookie = who.cookies.get(COOKIE) if who is not None else None
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
    url = f"{server.ws_url}/api/account/ws"
    return connect(url, open_timeout=10, additional_headers=headers, **kw).__enter__()


def open_game(creator: httpx.Client, **extra: Any) -> str:
    """An NMBR 9 game: the creator's seat, an open seat and a greedy bot."""
    seats = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
    body = {"type": "nmbr9", "seats": [*seats, {"kind": "bot", "bot": "greedy"}], **extra}
    r = creator.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()["id"]


def play_out(game_id: str, players: list[httpx.Client]) -> dict[str, Any]:
    """Play the game to its end, each player taking its first choice."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        for player in players:
            state = player.get(f"/api/games/{game_id}").json()
            if state["over"]:
                return state
            if state["acting"] is not None and state["choices"]:
                action = {"action": state["choices"][0]["action"], "ply": state["ply"]}
                player.post(f"/api/games/{game_id}/actions", json=action)
        time.sleep(0.01)
    raise AssertionError("the game did not end")


def error(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    return response.json()["error"]


def unique(prefix: str) -> str:
    return f"{prefix}{time.monotonic_ns() % 10**9}"
