"""The example bot client (examples/bot_client.py) as a real outside program: a separate
process talking to a real server over the network, driven by OpenSpiel's MCTS through
the research encoding. It plays a whole Nova Luna game and a whole NMBR 9 game against
our greedy bot, the bot account's ratings move, and no message it ever received holds
the deal's order or another seat's hidden placement."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from account_support import PASSWORD, unique

from browser_support import REPO, running_server

pytest.importorskip("pyspiel", reason="the client's MCTS needs open_spiel (the extra rl)")

SECRETS = {"seed", "pile", "deck"}  # what a record holds and a seat must never see


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("botclient") / "games.sqlite3"
    with running_server(db) as url:
        yield url


def bot_token(base: str) -> tuple[str, str]:
    """A new bot account's name and API token."""
    page = httpx.Client(base_url=base, timeout=30)
    name = unique("Mcts")
    page.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert page.post("/api/account/bot", json={"password": PASSWORD}).status_code == 200
    made = page.post("/api/account/tokens", json={"name": "test"})
    assert made.status_code == 201, made.text
    return name, str(made.json()["token"])


def start_client(base: str, token: str, frames: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, str(REPO / "examples" / "bot_client.py"), "--server", base]
    command += ["--token", token, "--openspiel-mcts", "8", "--frames", str(frames)]
    log = frames.with_suffix(".log").open("wb")
    return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)


def wait_over(bot: httpx.Client, game_id: str, client: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if client.poll() is not None:
            raise AssertionError(f"the client stopped: {log.read_text()}")
        if bot.get(f"/api/games/{game_id}").json()["over"]:
            return
        time.sleep(0.5)
    raise AssertionError(f"the game did not end: {log.read_text()[-3000:]}")


def secret_keys(value: Any) -> set[str]:
    """The keys anywhere in ``value`` that name a deal's secret order."""
    found: set[str] = set()
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            found |= SECRETS & set(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return found


def test_the_example_client_plays_whole_games_against_our_greedy_bot(
    base: str, tmp_path: Path
) -> None:
    name, token = bot_token(base)
    frames = tmp_path / "frames.ndjson"
    client = start_client(base, token, frames)
    bot = httpx.Client(base_url=base, timeout=30, headers={"Authorization": f"Bearer {token}"})
    try:
        games = {}
        for kind in ("nova-luna", "nmbr9"):
            seats = [{"kind": "human", "me": True}, {"kind": "bot", "bot": "greedy"}]
            made = bot.post("/api/games", json={"type": kind, "seats": seats})
            assert made.status_code == 201, made.text
            games[kind] = made.json()["id"]
        for game_id in games.values():
            wait_over(bot, game_id, client, frames.with_suffix(".log"))
    finally:
        client.terminate()
        client.wait(10)

    profile = httpx.get(f"{base}/api/players/{name}").json()
    rated = {kind: r["games"] for kind, r in profile["ratings"].items()}
    assert rated == {"nova-luna": 1, "nmbr9": 1}, profile["ratings"]
    for game_id in games.values():
        final = bot.get(f"/api/games/{game_id}").json()
        assert final["over"] and not final["abandoned"], final
        record = bot.get(f"/api/games/{game_id}/record").json()
        assert record["players"][0] == name

    received = [json.loads(line) for line in frames.read_text().splitlines()]
    assert len(received) > 40
    seat_records = 0
    for frame in received:
        message = json.loads(frame["text"])
        assert not secret_keys(message), (frame["where"], secret_keys(message))
        record = message.get("record")
        if isinstance(record, dict) and "revealed" in record:  # a seat record
            seat_records += 1
            rounds = record.get("rounds")
            if rounds:  # NMBR 9: asked while the bot (seat 0) must place this round...
                mine, greedy = rounds[-1]["placements"]
                if mine is None:  # ...the greedy bot's placement of it is not shown
                    assert greedy in (None, "hidden"), rounds[-1]
    assert seat_records >= 20  # one per decision of the bot


def test_a_person_in_the_browser_plays_the_client_at_both_games(
    base: str, browser: Any, tmp_path: Path
) -> None:
    from nmbr9.test_browser import confirm_by_hand, wait_for_placing_or_end

    from browser_support import checked_page, play_to_end, register_on_page

    name, token = bot_token(base)
    frames = tmp_path / "frames.ndjson"
    client = start_client(base, token, frames)
    bot = httpx.Client(base_url=base, timeout=30, headers={"Authorization": f"Bearer {token}"})
    try:
        with checked_page(browser, viewport={"width": 1400, "height": 900}) as page:
            person = register_on_page(page, base, unique("Ann"))
            for kind in ("nova-luna", "nmbr9"):
                seats = [{"kind": "human", "me": True}, {"kind": "human", "invite": name}]
                made = person.post("/api/games", json={"type": kind, "seats": seats})
                assert made.status_code == 201, made.text
                game_id = made.json()["id"]
                page.goto(f"{base}/g/{game_id}")  # the client accepts; the game begins
                if kind == "nova-luna":
                    play_to_end(page)
                else:
                    rounds = 0
                    while wait_for_placing_or_end(page):
                        confirm_by_hand(page, "desktop")
                        rounds += 1
                    assert rounds == 20
                wait_over(bot, game_id, client, frames.with_suffix(".log"))
                final = person.get(f"/api/games/{game_id}").json()
                assert final["over"] and not final["abandoned"]
                assert final["game"]["seats"][1]["name"] == name
    finally:
        client.terminate()
        client.wait(10)
    profile = httpx.get(f"{base}/api/players/{name}").json()
    rated = {kind: r["games"] for kind, r in profile["ratings"].items()}
    assert rated == {"nova-luna": 1, "nmbr9": 1}, profile["ratings"]
    for line in frames.read_text().splitlines():
        assert not secret_keys(json.loads(json.loads(line)["text"]))
