"""Blocks keep two accounts apart on every route that could bring them together (issue
46), over the HTTP API of a real server on SQLite and PostgreSQL, with a real SMTP
server (aiosmtpd) for the mails: whoever blocked whom, neither invites the other, joins
or sees the other's open games, claims a seat beside the other or accepts an
invitation there; and the blocked account causes no account-socket event and no mail.
The blocked account is never told: each refusal reads like the ordinary one."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import httpx
import pytest

from account_support import account_socket, error, register, unique

from mail_support import Inbox, link, smtp_server, token_of
from server_support import ServerProcess, new_db, receive


@pytest.fixture(scope="module")
def smtp() -> Iterator[tuple[int, Inbox]]:
    with smtp_server() as found:
        yield found


@pytest.fixture(scope="module")
def server(
    storage: str,
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    smtp: tuple[int, Inbox],
) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("server")
    proc = ServerProcess(new_db(storage, request, folder), log=folder / "server.log")
    proc.options = mail_options(proc, smtp[0])
    yield proc.start()
    proc.stop()


def mail_options(proc: ServerProcess, smtp_port: int) -> tuple[str, ...]:
    return (
        *("--smtp", f"smtp://127.0.0.1:{smtp_port}", "--public-url", proc.url),
        *("--mail-from", "games@example.org", "--mail-delay", "0"),
    )


def subscribe(client: httpx.Client, inbox: Inbox) -> str:
    """Give the account an address for "your turn" mails, verified through its link."""
    name = client.get("/api/account").json()["account"]["name"]
    address = f"{name.lower()}@example.org"
    saved = client.post("/api/account/email", json={"address": address, "mode": "turn"})
    assert saved.status_code == 200, saved.text
    (mail,) = inbox.wait(address)
    answer = client.post("/api/mail/verify", json={"token": token_of(link(mail, "/mail/verify"))})
    assert answer.status_code == 200, answer.text
    return address


@dataclass
class Pair:
    """``blocker`` blocked ``blocked``; ``other`` is a third account, on good terms."""

    blocker: httpx.Client
    blocked: httpx.Client
    other: httpx.Client

    def name(self, who: httpx.Client) -> str:
        return str(who.get("/api/account").json()["account"]["name"])


def pair(server: ServerProcess) -> Pair:
    found = Pair(*(register(server, unique(n)) for n in ("Bea", "Al", "Cy")))
    block = found.blocker.post("/api/account/blocks", json={"name": found.name(found.blocked)})
    assert block.status_code == 200, block.text
    return found


def new_game(creator: httpx.Client, *seats: dict[str, object]) -> dict[str, object]:
    body = {"type": "nmbr9", "seats": [{"kind": "human", "me": True}, *seats]}
    made = creator.post("/api/games", json=body)
    assert made.status_code == 201, made.text
    result: dict[str, object] = made.json()
    return result


def lobby(client: httpx.Client) -> list[str]:
    return [g["id"] for g in client.get("/api/lobby").json()["games"]]


# -- each route, tried by ``actor`` toward ``target`` (one of them blocked the other) -----


def invite(p: Pair, actor: httpx.Client, target: httpx.Client) -> str:
    seats = [{"kind": "human", "me": True}, {"kind": "human", "invite": p.name(target)}]
    return error(actor.post("/api/games", json={"type": "nmbr9", "seats": seats}), 409)


def join(p: Pair, actor: httpx.Client, target: httpx.Client) -> str:
    game_id = str(new_game(target, {"kind": "human", "open": True})["id"])
    assert game_id in lobby(p.other) and game_id not in lobby(actor)  # not listed to it
    refused = error(actor.post(f"/api/games/{game_id}/join", json={}), 409)
    assert refused == "this game has no open seat left"  # as a full game's
    assert p.other.post(f"/api/games/{game_id}/join", json={}).status_code == 200
    return refused


def claim(p: Pair, actor: httpx.Client, target: httpx.Client) -> str:
    """A seat link of ``target``'s game, passed on: ``actor`` may not claim it."""
    made = new_game(target, {"kind": "human", "name": "Guest"})
    game_id, seats = made["id"], made["seats"]
    assert isinstance(seats, list)
    token = seats[1]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    return error(actor.post(f"/api/games/{game_id}/claim", headers=headers), 409)


def accept(p: Pair, actor: httpx.Client, target: httpx.Client) -> str:
    """A third account invites both: the second of them to answer finds no seat."""
    made = new_game(
        p.other,
        {"kind": "human", "invite": p.name(target)},
        {"kind": "human", "invite": p.name(actor)},
    )
    game_id = made["id"]
    took = target.post(f"/api/games/{game_id}/invitation", json={"accept": True})
    assert took.status_code == 200, took.text
    return error(actor.post(f"/api/games/{game_id}/invitation", json={"accept": True}), 409)


ROUTES: dict[str, Callable[[Pair, httpx.Client, httpx.Client], str]] = {
    "invitation": invite,
    "join": join,
    "claim": claim,
    "accept": accept,
}


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("who", ["blocked", "blocker"])
def test_a_block_stops_the_route_both_ways(server: ServerProcess, route: str, who: str) -> None:
    p = pair(server)
    actor, target = (p.blocked, p.blocker) if who == "blocked" else (p.blocker, p.blocked)
    refused = ROUTES[route](p, actor, target)
    assert "block" not in refused or who == "blocker"  # the blocked is never told
    if route == "invitation":
        expected = "you blocked" if who == "blocker" else "cannot be invited now"
        assert expected in refused


def test_a_block_declines_the_invitations_between_them_either_way(server: ServerProcess) -> None:
    bea, al = register(server, unique("Bea")), register(server, unique("Al"))
    bea_name = bea.get("/api/account").json()["account"]["name"]
    al_name = al.get("/api/account").json()["account"]["name"]
    to_bea = new_game(al, {"kind": "human", "invite": bea_name})["id"]
    to_al = new_game(bea, {"kind": "human", "invite": al_name})["id"]
    blocked = bea.post("/api/account/blocks", json={"name": al_name}).json()
    assert blocked["declined"] == [to_bea]
    assert error(bea.post(f"/api/games/{to_bea}/invitation", json={"accept": True}), 409)
    assert error(al.post(f"/api/games/{to_al}/invitation", json={"accept": True}), 409)
    games = [g["id"] for g in al.get("/api/account").json()["games"]]
    assert to_al not in games
    # unblocked: they may meet again
    bea.post("/api/account/blocks/remove", json={"name": al_name})
    again = new_game(al, {"kind": "human", "invite": bea_name})["id"]
    assert bea.post(f"/api/games/{again}/invitation", json={"accept": True}).status_code == 200


def test_the_blocked_account_causes_no_event_and_no_mail(
    server: ServerProcess, smtp: tuple[int, Inbox]
) -> None:
    """Every route the blocked account tries leaves the blocker's socket and inbox
    untouched: the next event and the next mail there are a third account's."""
    inbox = smtp[1]
    p = pair(server)
    address = subscribe(p.blocker, inbox)
    sock = account_socket(server, p.blocker)
    receive(sock, lambda m: m["type"] == "games")
    for route in (invite, join, claim):  # what the blocked account can try itself
        route(p, p.blocked, p.blocker)
    blocked_name, other_name = p.name(p.blocked), p.name(p.other)
    marker = new_game(p.other, {"kind": "human", "invite": p.name(p.blocker)})["id"]
    # the blocker's own games (join, claim) and the third's invitation are all it hears of
    heard = receive(sock, lambda m: m["type"] == "game")
    while heard["game"]["id"] != marker:
        assert blocked_name not in {s["name"] for s in heard["game"]["seats"]}
        heard = receive(sock, lambda m: m["type"] == "game")
    (mail,) = inbox.wait(address, "invites you")
    raw = inbox.raw_of(mail)
    assert other_name.encode() in raw and blocked_name.encode() not in raw
    sock.close()
