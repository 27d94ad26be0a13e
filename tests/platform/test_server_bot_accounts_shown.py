"""Bot accounts marked as such wherever the server shows an account (issue 32): seats
of a game's state, of My games, of the lobby and of a new game; the lobby's creator; a
profile; and their own leaderboard (``?players=bots``), apart from people and our own
bots. On SQLite and PostgreSQL (the leaderboard's split is SQL)."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx

from account_support import account_socket, error, register, unique
from bot_support import as_bot, bot_account, challenge, name_of, read_events, token, wait_until

from server_support import ServerProcess


def _rated_game_against(server: ServerProcess) -> tuple[httpx.Client, str, httpx.Client, str]:
    """A person and a bot account after a rated NMBR 9 game between them (the bot
    resigned): ``(person, person's name, bot's token client, bot's name)``."""
    page, bot_name = bot_account(server)
    bot = as_bot(server, token(page))
    ann = register(server, unique("Ann"))
    game_id = challenge(ann, bot_name)
    created_seats = ann.get(f"/api/games/{game_id}").json()["game"]["seats"]
    assert [s["bot_account"] for s in created_seats] == [False, True]  # invited: marked already
    accepted = bot.post(f"/api/games/{game_id}/invitation", json={"accept": True})
    assert accepted.status_code == 200, accepted.text
    for _ in range(2):  # two rounds: resigned before, the game would rate nobody
        for player in (ann, bot):
            state = player.get(f"/api/games/{game_id}").json()
            move = {"action": state["choices"][0]["action"], "ply": state["ply"]}
            assert player.post(f"/api/games/{game_id}/actions", json=move).status_code == 200
    resigned = bot.post(f"/api/games/{game_id}/resign", json={})
    assert resigned.status_code == 200, resigned.text
    assert [s["bot_account"] for s in resigned.json()["game"]["seats"]] == [False, True]
    return ann, name_of(ann), bot, bot_name


def _names(board: dict) -> dict[str, dict]:
    return {p["name"]: p for p in board["players"]}


def test_bot_accounts_have_their_own_leaderboard(server: ServerProcess) -> None:
    ann, ann_name, bot, bot_name = _rated_game_against(server)

    people = ann.get("/api/leaderboard/nmbr9?limit=100").json()
    assert people["players_shown"] == "people"
    assert ann_name in _names(people) and bot_name not in _names(people)
    assert not _names(people)[ann_name]["bot_account"]
    assert any(p["kind"] == "bot" for p in people["players"])  # our own bots stay here
    assert people["you"]["player"]["name"] == ann_name

    bots = ann.get("/api/leaderboard/nmbr9?players=bots&limit=100").json()
    assert bots["players_shown"] == "bots"
    assert bot_name in _names(bots) and ann_name not in _names(bots)
    assert all(p["kind"] == "account" and p["bot_account"] for p in bots["players"])
    assert bots["total"] == len(bots["players"])
    assert bots["you"] is None  # a person is not listed among the bot accounts

    # the bot account finds itself on its own board, not on the people's
    mine = bot.get("/api/leaderboard/nmbr9?players=bots&limit=100").json()["you"]
    assert mine["player"]["name"] == bot_name and mine["player"]["bot_account"]
    assert bot.get("/api/leaderboard/nmbr9").json()["you"] is None

    explicit = ann.get("/api/leaderboard/nmbr9?players=people&limit=100").json()
    assert explicit["players"] == people["players"]
    assert "players" in error(ann.get("/api/leaderboard/nmbr9?players=robots"), 400)


def test_profiles_and_my_games_mark_bot_accounts(server: ServerProcess) -> None:
    ann, ann_name, _, bot_name = _rated_game_against(server)
    assert ann.get(f"/api/players/{bot_name}").json()["bot"] is True
    profile = ann.get(f"/api/players/{ann_name}").json()
    assert profile["bot"] is False
    (game,) = profile["history"]
    assert [s["bot_account"] for s in game["seats"]] == [False, True]
    (mine,) = ann.get("/api/account").json()["games"]
    assert mine["resigned"] and [s["bot_account"] for s in mine["seats"]] == [False, True]


def test_the_lobby_and_a_new_game_mark_bot_accounts(server: ServerProcess) -> None:
    page, bot_name = bot_account(server)
    bot = as_bot(server, token(page))
    seats = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
    opened = bot.post("/api/games", json={"type": "nmbr9", "seats": seats})
    assert opened.status_code == 201, opened.text
    assert [s["bot_account"] for s in opened.json()["seats"]] == [True, False]
    game_id = opened.json()["id"]

    ann = register(server, unique("Ann"))
    listed = {g["id"]: g for g in ann.get("/api/lobby").json()["games"]}[game_id]
    assert listed["creator"]["name"] == bot_name and listed["creator"]["bot"] is True
    assert [s["bot_account"] for s in listed["seats"]] == [True, False]

    own = ann.post("/api/games", json={"type": "nmbr9", "seats": seats}).json()["id"]
    theirs = {g["id"]: g for g in ann.get("/api/lobby").json()["games"]}[own]
    assert theirs["creator"]["bot"] is False
    assert not any(s["bot_account"] for s in theirs["seats"])

    # a person takes the bot account's open seat: the state marks only the bot's seat
    joined = ann.post(f"/api/games/{game_id}/join", json={})
    assert joined.status_code == 200, joined.text
    state = ann.get(f"/api/games/{game_id}").json()
    assert [s["bot_account"] for s in state["game"]["seats"]] == [True, False]


def test_a_bot_account_is_online_while_its_event_stream_is_open(server: ServerProcess) -> None:
    page, bot_name = bot_account(server)
    secret = token(page)
    ann = register(server, unique("Ann"))

    def online() -> bool:
        return bot_name in [b["name"] for b in ann.get("/api/bots").json()["bots"]]

    owner_tab = account_socket(server, page)  # its owner's page: not the program
    try:
        assert json.loads(owner_tab.recv(timeout=10))["type"] == "games"
        assert not online()
        events: list[dict[str, Any]] = []
        stream = threading.Thread(target=read_events, args=(server.url, secret, events))
        stream.daemon = True
        stream.start()
        wait_until(lambda: any(e.get("type") == "games" for e in events))
        assert online()
        (token_id,) = [t["id"] for t in page.get("/api/account/tokens").json()["tokens"]]
        assert page.post(f"/api/account/tokens/{token_id}/revoke").status_code == 200
        stream.join(timeout=20)  # the stream ends with its token
        assert not stream.is_alive() and not online()
    finally:
        owner_tab.close()
