"""Chat and moderation together (issue 46), over the HTTP API of a real server on SQLite
and PostgreSQL: a chat message reported from a game reaches the moderators with the
messages before it, as they stood; a moderator's mute refuses the account's messages at
once and stores nothing, until its time has passed (the test clock moves it on)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from account_support import error, register, unique

from clock_support import advance_clock
from server_support import ServerProcess, new_db

HOUR = 3600


@pytest.fixture(scope="module")
def server(
    storage: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """A server whose clock the test moves on (a mute's end without waiting for it)."""
    folder = tmp_path_factory.mktemp("chat-moderation")
    db = new_db(storage, request, folder)
    proc = ServerProcess(db, log=folder / "server.log", options=("--test-clock",)).start()
    yield proc
    proc.stop()


def name_of(who: httpx.Client) -> str:
    return str(who.get("/api/account").json()["account"]["name"])


@pytest.fixture(scope="module")
def moderator(server: ServerProcess) -> httpx.Client:
    mod = register(server, unique("Mo"))
    command = [sys.executable, "-m", "tabletop.cli", "novaluna", "moderator", "grant"]
    done = subprocess.run(
        [*command, name_of(mod), "--db", str(server.db)],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
    )
    assert done.returncode == 0, done.stderr
    return mod


def invited_game(creator: httpx.Client, guest: httpx.Client) -> str:
    """An NMBR 9 game of two accounts that know each other (an accepted invitation):
    they chat although neither has finished a game."""
    seats = [{"kind": "human", "me": True}, {"kind": "human", "invite": name_of(guest)}]
    created = creator.post("/api/games", json={"type": "nmbr9", "seats": seats})
    assert created.status_code == 201, created.text
    game_id: str = created.json()["id"]
    accepted = guest.post(f"/api/games/{game_id}/invitation", json={"accept": True})
    assert accepted.status_code == 200, accepted.text
    return game_id


def say(who: httpx.Client, game_id: str, text: str) -> httpx.Response:
    return who.post(f"/api/games/{game_id}/chat", json={"channel": "players", "text": text})


def messages(who: httpx.Client, game_id: str) -> list[dict[str, Any]]:
    answer = who.get(f"/api/games/{game_id}/chat")
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["messages"]
    return found


def test_a_reported_message_reaches_the_moderators_with_the_chat_before_it(
    server: ServerProcess, moderator: httpx.Client
) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    game_id = invited_game(ann, ben)
    assert say(ann, game_id, "good luck").status_code == 201
    assert say(ben, game_id, "<b>you</b> will lose").status_code == 201
    rude = messages(ann, game_id)[-1]
    assert rude["name"] == name_of(ben)
    body = {"account": name_of(ben), "reason": "abuse", "game": game_id, "message": rude["id"]}
    filed = ann.post("/api/reports", json=body)
    assert filed.status_code == 201, filed.text
    assert say(ben, game_id, "said after the report").status_code == 201
    overview = moderator.get("/api/moderation")
    assert overview.status_code == 200, overview.text
    (found,) = [r for r in overview.json()["reports"] if r["id"] == filed.json()["report"]]
    context = found["context"]["messages"]
    # the snapshot as it stood when filed: what came after is not in it, HTML is text
    assert [(m["name"], m["text"]) for m in context] == [
        (name_of(ann), "good luck"),
        (name_of(ben), "<b>you</b> will lose"),
    ]
    # a message of another account is not Ben's to be reported for
    mine = messages(ann, game_id)[0]
    wrong = ann.post("/api/reports", json={**body, "message": mine["id"]})
    assert "not by" in error(wrong, 400)


def test_a_moderators_mute_holds_at_once_and_ends_at_its_time(
    server: ServerProcess, moderator: httpx.Client
) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    game_id = invited_game(ann, ben)
    assert say(ben, game_id, "before").status_code == 201
    muted = moderator.post("/api/moderation/mute", json={"account": name_of(ben), "hours": 1})
    assert muted.status_code == 200, muted.text
    refused = say(ben, game_id, "during")
    assert error(refused, 403) == "the moderators have muted your chat for now"
    assert refused.json()["key"] == "the moderators have muted your chat for now"
    phrase = {"channel": "players", "phrase": "good-game"}  # no way around it by a phrase
    assert error(ben.post(f"/api/games/{game_id}/chat", json=phrase), 403)
    assert [m["text"] for m in messages(ann, game_id)] == ["before"]  # nothing stored
    assert say(ann, game_id, "Ann is not muted").status_code == 201
    advance_clock(server, HOUR + 60)
    assert say(ben, game_id, "after").status_code == 201
    assert [m["text"] for m in messages(ann, game_id)][-1] == "after"
