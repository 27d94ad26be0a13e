"""Small clients of the bot API (issue 32) for the tests: a bot account and its
tokens, a client signed in by token, a challenge, and its event stream read in a
thread."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import httpx

from account_support import PASSWORD, register, unique

from server_support import ServerProcess


def bot_account(server: ServerProcess, prefix: str = "Bot") -> tuple[httpx.Client, str]:
    """A new bot account, signed in on the page, and its name."""
    page = register(server, unique(prefix))
    made = page.post("/api/account/bot", json={"password": PASSWORD})
    assert made.status_code == 200, made.text
    return page, made.json()["account"]["name"]


def token(page: httpx.Client, scopes: list[str] | None = None, name: str = "laptop") -> str:
    body: dict[str, Any] = {"name": name}
    if scopes is not None:
        body["scopes"] = scopes
    made = page.post("/api/account/tokens", json=body)
    assert made.status_code == 201, made.text
    return str(made.json()["token"])


def as_bot(server: ServerProcess, secret: str) -> httpx.Client:
    """A client that signs in with the API token alone (no cookie)."""
    return httpx.Client(
        base_url=server.url, timeout=30, headers={"Authorization": f"Bearer {secret}"}
    )


def challenge(creator: httpx.Client, bot_name: str) -> str:
    """An NMBR 9 game of the creator against the bot account (invited)."""
    seats = [{"kind": "human", "me": True}, {"kind": "human", "invite": bot_name}]
    r = creator.post("/api/games", json={"type": "nmbr9", "seats": seats})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def name_of(client: httpx.Client) -> str:
    return str(client.get("/api/account").json()["account"]["name"])


def read_events(base: str, secret: str, into: list[dict[str, Any]]) -> None:
    """Append each event of the bot account's NDJSON stream (of the server at ``base``)
    to ``into`` until it ends (run it in a daemon thread: the stream stays open)."""
    headers = {"Authorization": f"Bearer {secret}"}
    url = f"{base}/api/account/events"
    try:
        with httpx.stream("GET", url, headers=headers, timeout=None) as response:
            for line in response.iter_lines():
                if line.strip():
                    into.append(json.loads(line))
    except httpx.HTTPError:  # the server stopped at the module's end, or the token went
        pass


def wait_until(condition: Callable[[], object], seconds: float = 60) -> None:
    """Poll ``condition`` until it holds; fail after ``seconds`` (as long as a page's
    waits: a password change's two argon2 hashes took over 20 s at a load of 29)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the condition never held")
        time.sleep(0.02)
