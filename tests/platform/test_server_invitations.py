"""Inviting a specific account to a seat (issue 29), over the HTTP API of a real
server on SQLite and PostgreSQL: the seat is kept for that account (never in the
lobby), it appears in their *My games* and on their account socket, and they accept
(the seat is theirs; the game starts when every seat is taken) or decline (the seat
opens to the lobby and the creator is told)."""

from __future__ import annotations

from typing import Any

import httpx

from account_support import PASSWORD, account_socket, error, register, unique

from server_support import ServerProcess, receive


def invite(creator: httpx.Client, name: str, **extra: Any) -> httpx.Response:
    """An NMBR 9 game: the creator's seat, a seat kept for ``name``, a greedy bot."""
    seats = [{"kind": "human", "me": True}, {"kind": "human", "invite": name}]
    body = {"type": "nmbr9", "seats": [*seats, {"kind": "bot", "bot": "greedy"}], **extra}
    return creator.post("/api/games", json=body)


def mine(client: httpx.Client, game_id: str) -> dict[str, Any] | None:
    games = client.get("/api/account").json()["games"]
    return next((g for g in games if g["id"] == game_id), None)


def lobby(client: httpx.Client) -> list[str]:
    return [g["id"] for g in client.get("/api/lobby").json()["games"]]


def test_an_invited_account_accepts_and_the_game_starts(server: ServerProcess) -> None:
    ann, ben, cy = (register(server, unique(n)) for n in ("Ann", "Ben", "Cy"))
    ben_name = ben.get("/api/account").json()["account"]["name"]
    ben_socket = account_socket(server, ben)
    receive(ben_socket, lambda m: m["type"] == "games")
    created = invite(ann, ben_name.upper())  # names are found as at sign-in
    assert created.status_code == 201, created.text  # before: 400, 'invite' unknown
    game_id = created.json()["id"]
    seat = created.json()["seats"][1]
    assert seat["invited"] and seat["open"] and seat["name"] == ben_name
    assert "token" not in seat  # no seat link: the seat is the account's to take

    told = receive(ben_socket, lambda m: m["type"] == "game" and m["game"]["id"] == game_id)
    assert told["event"] == "invited" and told["game"]["invited"]
    listed = mine(ben, game_id)
    assert (
        listed is not None
        and listed["invited"]
        and listed["creator"] == ann.get("/api/account").json()["account"]["name"]
    )
    assert game_id not in lobby(cy)  # kept for Ben: never in the lobby
    assert "open" in error(cy.post(f"/api/games/{game_id}/join", json={}), 409)
    assert "open" in error(cy.post(f"/api/games/{game_id}/join", json={"seat": 1}), 409)
    assert "no invitation" in error(
        cy.post(f"/api/games/{game_id}/invitation", json={"accept": True}), 409
    )
    assert ann.get(f"/api/games/{game_id}").json()["game"]["waiting"]

    answer = ben.post(f"/api/games/{game_id}/invitation", json={"accept": True})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"id": game_id, "seat": 1, "url": f"/g/{game_id}"}
    state = ben.get(f"/api/games/{game_id}").json()
    assert not state["game"]["waiting"] and state["game"]["seats"][1]["account"]
    listed = mine(ben, game_id)
    assert listed is not None and not listed["invited"] and listed["seat"] == 1
    assert "no invitation" in error(
        ben.post(f"/api/games/{game_id}/invitation", json={"accept": True}), 409
    )


def test_a_declined_invitation_opens_the_seat_to_the_lobby(server: ServerProcess) -> None:
    ann, ben, cy = (register(server, unique(n)) for n in ("Ann", "Ben", "Cy"))
    ben_name = ben.get("/api/account").json()["account"]["name"]
    game_id = invite(ann, ben_name).json()["id"]
    ann_socket, ben_socket = account_socket(server, ann), account_socket(server, ben)
    receive(ann_socket, lambda m: m["type"] == "games")
    receive(ben_socket, lambda m: m["type"] == "games")

    answer = ben.post(f"/api/games/{game_id}/invitation", json={"accept": False})
    assert answer.status_code == 200 and answer.json() == {"id": game_id, "declined": True}
    gone = receive(ben_socket, lambda m: m["type"] == "gone")
    assert gone["id"] == game_id
    assert mine(ben, game_id) is None
    told = receive(ann_socket, lambda m: m["type"] == "game" and m["game"]["id"] == game_id)
    seat = told["game"]["seats"][1]
    assert seat["open"] and not seat["invited"] and seat["name"] == "Open seat"
    assert game_id in lobby(cy)
    assert cy.post(f"/api/games/{game_id}/join", json={}).json()["seat"] == 1


def test_the_creator_withdraws_a_game_with_an_invitation(server: ServerProcess) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    ben_name = ben.get("/api/account").json()["account"]["name"]
    game_id = invite(ann, ben_name).json()["id"]
    ben_socket = account_socket(server, ben)
    receive(ben_socket, lambda m: m["type"] == "games")
    assert ann.post(f"/api/games/{game_id}/cancel").status_code == 200
    assert receive(ben_socket, lambda m: m["type"] == "gone")["id"] == game_id
    assert mine(ben, game_id) is None
    assert error(ben.post(f"/api/games/{game_id}/invitation", json={"accept": True}), 404)


def test_bad_invitations_are_refused_with_the_reason(server: ServerProcess) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    me = ann.get("/api/account").json()["account"]["name"]
    ben_name = ben.get("/api/account").json()["account"]["name"]
    assert "no account named" in error(invite(ann, unique("Nobody")), 400)
    assert "yourself" in error(invite(ann, me), 400)
    assert "name of an account" in error(invite(ann, ""), 400)
    assert "name of an account" in error(invite(ann, 7), 400)  # type: ignore[arg-type]
    assert "name of an account" in error(invite(ann, "x" * 10_000), 400)
    guest = httpx.Client(base_url=server.url, timeout=30)
    seats = [{"kind": "human"}, {"kind": "human", "invite": ben_name}]
    assert "sign in" in error(guest.post("/api/games", json={"type": "nmbr9", "seats": seats}), 401)
    twice = [{"kind": "human", "invite": ben_name}, {"kind": "human", "invite": ben_name}]
    assert "one seat" in error(ann.post("/api/games", json={"type": "nmbr9", "seats": twice}), 400)
    bot = [{"kind": "human", "me": True}, {"kind": "bot", "bot": "greedy", "invite": ben_name}]
    assert "human seat" in error(ann.post("/api/games", json={"type": "nmbr9", "seats": bot}), 400)
    game_id = invite(ann, ben_name).json()["id"]
    for body in ({}, {"accept": "yes"}, {"accept": None}, {"accept": 1}):
        answer = ben.post(f"/api/games/{game_id}/invitation", json=body)
        assert "'accept'" in error(answer, 400)
    assert "sign in" in error(
        guest.post(f"/api/games/{game_id}/invitation", json={"accept": True}), 401
    )
    assert mine(ben, game_id) is not None and mine(ben, game_id)["invited"]  # nothing changed


def test_deleting_an_invited_account_opens_its_seat(server: ServerProcess) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    ben_name = ben.get("/api/account").json()["account"]["name"]
    game_id = invite(ann, ben_name).json()["id"]
    deleted = ben.post("/api/account/delete", json={"password": PASSWORD})
    assert deleted.status_code == 200, deleted.text  # before: the invitation held the account
    row = server.query_one(
        "SELECT name, invited, open FROM seats WHERE game_id = ? AND seat = 1", game_id
    )
    assert row is not None and row[0] == "Open seat" and row[1] is None and row[2]


# -- unwanted invitations (issue 42) ------------------------------------------------------


def name_of(client: httpx.Client) -> str:
    return str(client.get("/api/account").json()["account"]["name"])


def test_blocking_declines_the_waiting_invitations_and_refuses_new_ones(
    server: ServerProcess,
) -> None:
    ann, ben, cy = (register(server, unique(n)) for n in ("Ann", "Ben", "Cy"))
    ben_name, ann_name = name_of(ben), name_of(ann)
    game_id = invite(ann, ben_name, rated=False).json()["id"]
    assert ben.get("/api/account/blocks").json() == {"blocked": []}
    blocked = ben.post("/api/account/blocks", json={"name": ann_name.upper()})
    assert blocked.status_code == 200, blocked.text
    assert blocked.json() == {"blocked": [{"name": ann_name}], "declined": [game_id]}
    assert mine(ben, game_id) is None  # declined: the seat is open to the lobby now
    refused = error(invite(ann, ben_name, rated=False), 409)
    assert refused == f"seat 2: {ben_name} cannot be invited now"  # the block stays unseen
    assert invite(cy, ben_name, rated=False).status_code == 201  # others still may
    # the export holds the block and the invitations sent, by name
    exported = ben.get("/api/account/data").json()
    assert [b["name"] for b in exported["blocks"]] == [ann_name]
    assert [i["name"] for i in ann.get("/api/account/data").json()["invitations_sent"]] == [
        ben_name
    ]
    assert "yourself" in error(ben.post("/api/account/blocks", json={"name": ben_name}), 400)
    assert error(ben.post("/api/account/blocks", json={"name": unique("Nobody")}), 404)
    assert error(ben.post("/api/account/blocks", json={"name": 7}), 400)
    guest = httpx.Client(base_url=server.url, timeout=30)
    assert error(guest.get("/api/account/blocks"), 401)
    removed = ben.post("/api/account/blocks/remove", json={"name": ann_name})
    assert removed.status_code == 200 and removed.json() == {"blocked": []}
    assert invite(ann, ben_name, rated=False).status_code == 201


def test_decline_all_declines_every_waiting_invitation(server: ServerProcess) -> None:
    ben = register(server, unique("Ben"))
    ben_name = name_of(ben)
    strangers = [register(server, unique(f"Str{i}")) for i in range(3)]
    games = {invite(s, ben_name, rated=False).json()["id"] for s in strangers}
    answer = ben.post("/api/account/invitations/decline", json={})
    assert answer.status_code == 200, answer.text
    assert set(answer.json()["declined"]) == games
    assert not [g for g in ben.get("/api/account").json()["games"] if g["invited"]]
    assert ben.post("/api/account/invitations/decline").json() == {"declined": []}
    guest = httpx.Client(base_url=server.url, timeout=30)
    assert error(guest.post("/api/account/invitations/decline"), 401)


def test_one_account_cannot_flood_another_with_invitations(server: ServerProcess) -> None:
    ann = register(server, unique("Ann"))
    invitees = [name_of(register(server, unique(f"Inv{i}"))) for i in range(11)]
    for name in invitees[:10]:
        assert invite(ann, name, rated=False).status_code == 201
    assert "waiting for an answer" in error(invite(ann, invitees[10], rated=False), 429)


def test_a_stalled_game_is_claimed_only_once_the_time_is_over(server: ServerProcess) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    game_id = invite(ann, name_of(ben), rated=False, time_limit=3600, on_timeout="abandon")
    game_id = game_id.json()["id"]
    assert ben.post(f"/api/games/{game_id}/invitation", json={"accept": True}).status_code == 200
    early = ann.post(f"/api/games/{game_id}/timeout", json={})
    assert "out of time" in error(early, 409) and not early.json()["state"]["over"]
    guest = httpx.Client(base_url=server.url, timeout=30)
    assert error(guest.post(f"/api/games/{game_id}/timeout", json={}), 401)


def test_deleting_an_account_mid_game_resigns_it(server: ServerProcess) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    game_id = invite(ann, name_of(ben)).json()["id"]
    assert ben.post(f"/api/games/{game_id}/invitation", json={"accept": True}).status_code == 200
    deleted = ben.post("/api/account/delete", json={"password": PASSWORD})
    assert deleted.status_code == 200, deleted.text
    state = ann.get(f"/api/games/{game_id}").json()
    assert state["over"] and state["resigned"] and state["timed_out"] == [1]  # not waiting
