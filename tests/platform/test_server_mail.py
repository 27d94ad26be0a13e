"""E-mail notifications (issue 29) against a real SMTP server the tests run (aiosmtpd):
the verification mail arrives and its link verifies; a "your turn" mail arrives once
per turn and its link opens the game; the daily digest; the unsubscribe link; every
bad input a clear 4xx; a failing mail server costs mails, never moves."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tabletop.server.notify import Signer

from mail_support import Inbox, body, link, smtp_server, token_of, wait_for
from server_support import ServerProcess, new_db

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def smtp() -> Iterator[tuple[int, Inbox]]:
    with smtp_server() as found:
        yield found


@pytest.fixture(scope="module")
def inbox(smtp: tuple[int, Inbox]) -> Inbox:
    return smtp[1]


def mail_options(proc: ServerProcess, smtp_port: int, *more: str) -> tuple[str, ...]:
    return (
        *("--smtp", f"smtp://127.0.0.1:{smtp_port}", "--public-url", proc.url),
        *("--mail-from", "games@example.org", "--mail-delay", "0"),
        *("--mail-digest-check", "0.2", *more),
    )


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


def register(server: ServerProcess, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=30)
    name = f"{name}{time.monotonic_ns() % 10**8}"
    answer = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return client


def address_of(client: httpx.Client) -> str:
    return f"{client.get('/api/account').json()['account']['name'].lower()}@example.org"


def subscribe(client: httpx.Client, inbox: Inbox, mode: str, lang: str = "en") -> str:
    """Give the account an address, and verify it through the mail's link."""
    address = address_of(client)
    saved = client.post("/api/account/email", json={"address": address, "mode": mode, "lang": lang})
    assert saved.status_code == 200, saved.text
    (mail,) = inbox.wait(address)
    answer = client.post("/api/mail/verify", json={"token": token_of(link(mail, "/mail/verify"))})
    assert answer.status_code == 200, answer.text
    return address


def error(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    return response.json()["error"]


def nmbr9(creator: httpx.Client, *others: httpx.Client) -> str:
    """An NMBR 9 game of the creator and ``others`` (who join its open seats)."""
    seats = [{"kind": "human", "me": True}, *({"kind": "human", "open": True} for _ in others)]
    if not others:
        seats.append({"kind": "bot", "bot": "greedy"})
    answer = creator.post("/api/games", json={"type": "nmbr9", "seats": seats})
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    for other in others:
        assert other.post(f"/api/games/{game_id}/join", json={}).status_code == 200
    return game_id


def act(player: httpx.Client, game_id: str) -> None:
    state = player.get(f"/api/games/{game_id}").json()
    move = {"action": state["choices"][0]["action"], "ply": state["ply"]}
    answer = player.post(f"/api/games/{game_id}/actions", json=move)
    assert answer.status_code == 200, answer.text


# -- verification ----------------------------------------------------------------------


def test_the_verification_mail_arrives_and_its_link_verifies(
    server: ServerProcess, inbox: Inbox
) -> None:
    ann = register(server, "Ann")
    address = address_of(ann)
    saved = ann.post("/api/account/email", json={"address": f"  {address} ", "mode": "turn"})
    assert saved.json() == {
        **{"offered": True, "address": address, "verified": False},
        **{"mode": "turn", "lang": "en", "verification_sent": True},
    }
    (mail,) = inbox.wait(address, "Confirm your e-mail address")
    assert mail["From"] == "games@example.org" and "List-Unsubscribe" in mail
    url = link(mail, "/mail/verify")
    assert url.startswith(f"{server.url}/mail/verify?token=")
    page = httpx.get(url)  # the page the link opens (it sends the token on)
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    verified = httpx.post(f"{server.url}/api/mail/verify", json={"token": token_of(url)})
    assert verified.json() == {"verified": True, "address": address}
    assert ann.get("/api/account/email").json()["verified"] is True
    # the same address saved again stays verified: no new mail
    again = ann.post("/api/account/email", json={"address": address, "mode": "digest"})
    assert again.json()["verified"] is True and again.json()["verification_sent"] is False


def test_a_verification_mail_speaks_the_accounts_language(
    server: ServerProcess, inbox: Inbox
) -> None:
    jan = register(server, "Jan")
    address = address_of(jan)
    jan.post("/api/account/email", json={"address": address, "mode": "turn", "lang": "nl"})
    (mail,) = inbox.wait(address)
    assert mail["Subject"] == "Bevestig je e-mailadres" and mail["Content-Language"] == "nl"
    assert "Geen mails meer" in body(mail)


def test_bad_settings_and_links_get_a_clear_4xx(server: ServerProcess, inbox: Inbox) -> None:
    bea = register(server, "Bea")
    for address in ["no-at-sign", "a@b", "two@@example.org", "a b@example.org",
                    "x@example.org\r\nBcc: all@example.org", "é@example.org", 7,
                    "a" * 250 + "@example.org"]:  # fmt: skip
        refused = bea.post("/api/account/email", json={"address": address, "mode": "turn"})
        assert "e-mail address" in error(refused, 400)
    assert "'mode'" in error(bea.post("/api/account/email", json={"mode": "often"}), 400)
    assert "'lang'" in error(bea.post("/api/account/email", json={"lang": "fr"}), 400)
    assert bea.get("/api/account/email").json()["address"] is None  # nothing stored
    assert error(httpx.post(f"{server.url}/api/account/email", json={}), 401)
    assert error(httpx.get(f"{server.url}/api/account/email"), 401)
    verify = f"{server.url}/api/mail/verify"
    # "9" * 30: an account id no database integer holds (the look-up raised: 500)
    for token in ["garbage", "", None, 7, "1.2.3", "9" * 300, "9" * 30 + ".1.mac"]:
        assert "not valid" in error(httpx.post(verify, json={"token": token}), 400)
    assert error(httpx.post(verify, content=b"not json"), 400)
    # a token of the right form for a real account, signed with another key
    address = address_of(bea)
    bea.post("/api/account/email", json={"address": address, "mode": "turn"})
    (mail,) = inbox.wait(address)
    account, expires, _ = token_of(link(mail, "/mail/verify")).split(".")
    forged = Signer(b"another key").verify_token(int(account), address, int(expires))
    assert "not valid" in error(httpx.post(verify, json={"token": forged}), 400)
    # signed with the server's own key, but expired
    (key,) = server.query_one("SELECT value FROM server_secrets WHERE name = 'mail-links'")
    expired = Signer(key.encode()).verify_token(int(account), address, int(time.time()) - 1)
    assert "expired" in error(httpx.post(verify, json={"token": expired}), 400)
    assert bea.get("/api/account/email").json()["verified"] is False
    # a link to an address the account no longer has
    bea.post("/api/account/email", json={"address": "new" + address, "mode": "turn"})
    old = token_of(link(mail, "/mail/verify"))
    assert "not valid" in error(httpx.post(verify, json={"token": old}), 400)
    unsubscribe = f"{server.url}/api/mail/unsubscribe"
    for query in ["", "?token=garbage", "?token=1.", f"?token={account}.forged", "?token=%00"]:
        assert "not valid" in error(httpx.post(unsubscribe + query), 400)
    assert bea.get("/api/account/email").json()["mode"] == "turn"  # unchanged


@pytest.mark.parametrize("field", ["lang", "mode"])
@pytest.mark.parametrize("value", [["en"], {"en": 1}])
def test_a_language_or_mode_that_is_a_list_or_object_gets_a_400(
    server: ServerProcess, field: str, value: Any
) -> None:
    """Found by fuzzing: a list is not hashable, and the check for a known language
    raised (500) instead of refusing it."""
    cas = register(server, "Cas")
    body = {"address": address_of(cas), "mode": "turn", "lang": "en", field: value}
    assert f"'{field}'" in error(cas.post("/api/account/email", json=body), 400)
    assert cas.get("/api/account/email").json()["address"] is None  # nothing stored


# -- "your turn" -------------------------------------------------------------------------


def test_a_turn_mail_arrives_once_per_turn_and_its_link_opens_the_game(
    server: ServerProcess, inbox: Inbox
) -> None:
    ann, ben, cat = (register(server, n) for n in ("Ann", "Ben", "Cat"))
    address = subscribe(ann, inbox, "turn")
    game_id = nmbr9(ann, ben, cat)  # the last seat taken starts it: everyone's turn
    (mail,) = inbox.wait(address, "Your turn")
    assert "NMBR 9" in mail["Subject"] and mail["To"] == address
    url = link(mail, "/g/")
    assert url == f"{server.url}/g/{game_id}"
    opened = ann.get(url)  # the game's page, and the game as the account's seat
    assert opened.status_code == 200 and "text/html" in opened.headers["content-type"]
    assert ann.get(f"/api/games/{game_id}").json()["acting"] == 0
    act(ben, game_id)  # the game changes twice while it is still Ann's turn
    act(cat, game_id)
    act(ann, game_id)  # Ann moves (the round ends), then it is her turn again
    act(ben, game_id)
    mails = inbox.wait(address, "Your turn", count=2)
    assert len(mails) == 2 and link(mails[1], "/g/") == url
    (sent,) = server.query_one(
        "SELECT COUNT(*) FROM mails_sent WHERE key LIKE ?", f"turn:{game_id}:%"
    )
    assert sent == 2  # one per turn, not one per change
    assert len(inbox.to(address, "Your turn")) == 2


def test_no_turn_mail_without_a_verified_address_or_for_a_digest_reader(
    server: ServerProcess, inbox: Inbox
) -> None:
    ann, ben = register(server, "Ann"), register(server, "Ben")
    dan = register(server, "Dan")
    unverified = address_of(ann)
    ann.post("/api/account/email", json={"address": unverified, "mode": "turn"})
    reader = subscribe(ben, inbox, "digest")
    watcher = subscribe(dan, inbox, "turn")  # Dan's turn mail shows the others' came too
    nmbr9(dan, ann, ben)  # the last seat taken starts it: everyone's turn
    inbox.wait(watcher, "Your turn")
    # a mail queued after the others' turns were decided: had they been mailed, those
    # mails would have gone before this one
    later = "later-" + watcher
    dan.post("/api/account/email", json={"address": later, "mode": "turn"})
    inbox.wait(later)
    assert inbox.to(unverified, "Your turn") == [] and inbox.to(reader, "Your turn") == []


# -- the daily digest ----------------------------------------------------------------------


def test_the_daily_digest_lists_the_games_waiting(server: ServerProcess, inbox: Inbox) -> None:
    eve = register(server, "Eve")
    first, second = nmbr9(eve), nmbr9(eve)
    address = subscribe(eve, inbox, "digest", lang="de")
    (mail,) = inbox.wait(address, "warten")
    assert mail["Subject"] == "2 Partien warten auf deinen Zug"
    text = body(mail)
    assert f"{server.url}/g/{first}" in text and f"{server.url}/g/{second}" in text
    assert text.count("* NMBR 9 mit Gierig") == 2  # the bot's name in German too
    assert "/mail/unsubscribe?token=" in text and "List-Unsubscribe" in mail
    (sent,) = server.query_one("SELECT COUNT(*) FROM mails_sent WHERE key LIKE ?", "digest:%")
    assert sent >= 1


# -- unsubscribing -------------------------------------------------------------------------


def test_the_unsubscribe_link_stops_the_mails_in_one_click(
    server: ServerProcess, inbox: Inbox
) -> None:
    fay = register(server, "Fay")
    address = subscribe(fay, inbox, "turn")
    (mail,) = inbox.to(address)
    url = link(mail, "/mail/unsubscribe")
    assert httpx.get(url).status_code == 200  # the page the link opens
    header = re.fullmatch(r"<(.+)>", mail["List-Unsubscribe"])
    assert header and mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # what a mail program sends for the header (RFC 8058): no cookie, a form body
    stopped = httpx.post(header[1], data={"List-Unsubscribe": "One-Click"})
    assert stopped.json() == {"unsubscribed": True, "address": address}
    assert fay.get("/api/account/email").json()["mode"] == "off"
    again = httpx.post(f"{server.url}/api/mail/unsubscribe?token={token_of(url)}")
    assert again.status_code == 200  # the page's own link: still fine, still off


# -- a server without mail, a failing mail server ----------------------------------------------


def test_without_smtp_no_mail_is_offered(tmp_path: Path) -> None:
    proc = ServerProcess(tmp_path / "games.sqlite3").start()
    try:
        gus = register(proc, "Gus")
        assert gus.get("/api/account/email").json() == {"offered": False}
        refused = gus.post("/api/account/email", json={"address": "g@example.org"})
        assert "sends no e-mail" in error(refused, 404)
        assert error(httpx.post(f"{proc.url}/api/mail/unsubscribe?token=1.x"), 404)
    finally:
        proc.stop()


def test_a_failing_mail_server_is_logged_not_raised(tmp_path: Path) -> None:
    proc = ServerProcess(tmp_path / "games.sqlite3")
    with smtp_server() as (port, _):
        pass  # a port a mail server held and left: connections are refused
    proc.options = mail_options(proc, port)
    proc.start()
    try:
        hal = register(proc, "Hal")
        saved = hal.post("/api/account/email", json={"address": "hal@example.org", "mode": "turn"})
        assert saved.status_code == 200 and saved.json()["verification_sent"] is True
        wait_for(lambda: "mail server 127.0.0.1 failed" in proc.log.read_text())
        game_id = nmbr9(hal)
        act(hal, game_id)  # moves go on
        assert hal.get(f"/api/games/{game_id}").json()["ply"] >= 1
    finally:
        proc.stop()


def test_the_settings_need_a_session_from_this_site(server: ServerProcess) -> None:
    ivy = register(server, "Ivy")
    cross = ivy.post(
        "/api/account/email",
        json={"address": "ivy@example.org"},
        headers={"Origin": "https://evil.example"},
    )
    assert error(cross, 403)


def test_two_processes_on_postgresql_send_a_turn_mail_once(
    pg_cluster: Any, tmp_path: Path, smtp: tuple[int, Inbox]
) -> None:
    """Both processes hold the game and learn of each change; the key in the database
    lets exactly one of them send each turn's mail."""
    port, inbox = smtp
    url = pg_cluster.database()
    a = ServerProcess(url, log=tmp_path / "a.log")
    b = ServerProcess(url, log=tmp_path / "b.log")
    a.options, b.options = mail_options(a, port), mail_options(a, port)
    a.start(), b.start()
    try:
        ann, ben = register(a, "Ann"), register(a, "Ben")
        address = subscribe(ann, inbox, "turn")
        on_b = httpx.Client(base_url=b.url, cookies=ann.cookies, timeout=30)
        game_id = nmbr9(ann, ben)
        assert on_b.get(f"/api/games/{game_id}").status_code == 200  # b holds it too
        inbox.wait(address, "Your turn")  # the start: everyone's turn
        act(ann, game_id)
        act(ben, game_id)  # at a: b follows it
        act(on_b, game_id)
        ben_at_b = httpx.Client(base_url=b.url, cookies=ben.cookies, timeout=30)
        act(ben_at_b, game_id)  # at b: a follows it
        inbox.wait(address, "Your turn", count=3)
        # both processes have the last change (a state read brings it), and then each
        # queues a mail: a second turn mail from either would have gone before it
        for server, player in ((a, ben), (b, ben_at_b)):
            assert player.get(f"/api/games/{game_id}").status_code == 200
            sentinel = f"{server.port}-{address_of(ben)}"
            player.post("/api/account/email", json={"address": sentinel, "mode": "off"})
            inbox.wait(sentinel)
        assert len(inbox.to(address, "Your turn")) == 3  # one per turn, not one per process
    finally:
        a.stop()
        b.stop()


def test_an_account_with_mails_can_be_deleted(server: ServerProcess, inbox: Inbox) -> None:
    """Its address and sent mails go with it (they refer to the account: on PostgreSQL a
    leftover row would refuse the deletion)."""
    ann = register(server, "Gone")
    subscribe(ann, inbox, "turn")
    deleted = ann.post("/api/account/delete", json={"password": PASSWORD})
    assert deleted.status_code == 200 and deleted.json()["deleted"], deleted.text
    assert ann.get("/api/account").json()["account"] is None


def test_an_invitation_mail_arrives_once_and_links_to_my_games(
    server: ServerProcess, inbox: Inbox
) -> None:
    ann, ben = register(server, "Ann"), register(server, "Ben")
    address = subscribe(ben, inbox, "turn")
    ben_name = ben.get("/api/account").json()["account"]["name"]
    seats = [{"kind": "human", "me": True}, {"kind": "human", "invite": ben_name}]
    game_id = ann.post("/api/games", json={"type": "nmbr9", "seats": seats}).json()["id"]
    (mail,) = inbox.wait(address, "invites you")
    assert "NMBR 9" in mail["Subject"] and link(mail, "/me") == f"{server.url}/me"
    assert "Accept or decline" in mail.get_body(("plain",)).get_content()
    answer = ben.post(f"/api/games/{game_id}/invitation", json={"accept": True})
    assert answer.status_code == 200, answer.text
    (mail,) = inbox.wait(address, "Your turn")  # then it is a game like any other
    # mails go out in the order they were due: a second invitation, due before the
    # acceptance this turn mail follows, would have arrived before it
    assert len(inbox.to(address, "invites you")) == 1


def test_the_export_holds_the_address_settings_mails_and_tokens(
    server: ServerProcess, inbox: Inbox
) -> None:
    """``GET /api/account/data`` says it holds everything kept of the account: its
    address and what it asked for, the mails it was sent (by key) and asked for, its
    sessions and a bot's tokens (their names and times, never a hash or a secret)."""
    kim = register(server, "Kim")
    assert kim.post("/api/account/bot", json={"password": PASSWORD}).status_code == 200
    made = kim.post("/api/account/tokens", json={"name": "laptop", "scopes": ["play", "read"]})
    assert made.status_code == 201, made.text
    address = subscribe(kim, inbox, "digest", lang="de")
    bearer = {"Authorization": f"Bearer {made.json()['token']}"}
    seats = [{"kind": "human", "me": True}, {"kind": "bot", "bot": "greedy"}]
    created = httpx.post(
        f"{server.url}/api/games", json={"type": "nmbr9", "seats": seats}, headers=bearer
    )
    assert created.status_code == 201, created.text
    inbox.wait(address, "Zug")  # the digest: a mail sent, kept by its key
    data = kim.get("/api/account/data").json()
    email = data["email"]
    assert email.pop("updated") and email == {
        **{"address": address, "verified": True, "mode": "digest", "lang": "de"},
    }
    assert [m["key"].split(":")[0] for m in data["mails_sent"]] == ["digest"]
    assert len(data["confirmation_mails"]) == 1 and data["confirmation_mails"][0]["created"]
    (token,) = data["api_tokens"]
    assert token["name"] == "laptop" and token["scopes"] == ["play", "read"]
    assert token["created"] and made.json()["token"] not in str(data)
    assert data["account"]["bot"] is True and len(data["sessions"]) == 1
    assert data["daily_attempts"] == []
    text = str(data)
    name = kim.get("/api/account").json()["account"]["name"]
    found = server.query_one("SELECT password_hash FROM accounts WHERE name = ?", name)
    assert found is not None
    password_hash = found[0]
    assert password_hash and password_hash not in text and "token_hash" not in text
    kim.post("/api/account/email", json={"address": None})
    assert kim.get("/api/account/data").json()["email"] is None  # forgotten: not kept
