"""An event's start told to its entrants (issue 47; server/tournament_notices.py): five
minutes before the start and at the start, by the channels each account chose for
reminders (its account socket, e-mail), once each, with the server's test clock moving
time on; and the notice mail, checked on the bytes a real SMTP server (aiosmtpd)
receives, keeps an organiser's hostile event name inert (no header added, the body
where it belongs)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.header import decode_header, make_header
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import pytest

from account_support import account_socket
from tabletop.server.compose import Composer
from tabletop.server.mail import MailSettings, SmtpServer, plain_text
from tabletop.server.notify import Signer
from tabletop.server.rows import MailRow
from tabletop.server.tournament_notices import (
    NOTICE_MINUTES,
    SOON,
    STARTED,
    EventNotice,
    notice_mail,
)

from clock_support import HOUR, TEST_CLOCK, advance_clock
from mail_support import Inbox, body, link, smtp_server, token_of
from server_support import ServerProcess, receive

PASSWORD = "correct horse"
PUBLIC = "https://games.example.org"
HEADERS = [  # every mail's headers, each once (as test_server_mail_safety.py)
    *("From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type"),
    *("Content-Transfer-Encoding", "Content-Language", "Auto-Submitted"),
    *("List-Unsubscribe", "List-Unsubscribe-Post"),
]
HOSTILE = {  # event names an organiser might try (the routes refuse most; the mail holds)
    "encoded word": "=?utf-8?q?=0D=0AReply-To:_a@ev.il?=",
    "CR LF": "Cup\r\nReply-To: a@ev.il\r\n\r\nforged body",
    "line separators": "Cup\u2028Bcc: all@ev.il\u2029forged",
    "RTL override": "Cup \u202eli.ve@a :oT-ylpeR",
    "very long": "Cup " + "W" * 300,
}
SUBJECTS = {SOON: f"starts in {NOTICE_MINUTES} min", STARTED: "has started"}


@pytest.fixture(scope="module")
def smtp() -> Iterator[tuple[int, Inbox]]:
    with smtp_server() as found:
        yield found


def wire_parts(raw: bytes) -> tuple[dict[str, str], str]:
    """Assert what the notice's bytes must be; its headers (unfolded) and its text."""
    head, blank, _ = raw.partition(b"\r\n\r\n")
    assert blank, raw[:300]
    lines = head.split(b"\r\n")
    for line in lines:
        assert re.fullmatch(rb"[\x20-\x7e]{1,998}", line), line
    names = [line.split(b":")[0].decode() for line in lines if line[:1] not in b" \t"]
    assert sorted(names) == sorted(HEADERS), names  # none added, none missing, none twice
    headers = {}
    for name, value in re.findall(rb"^([!-9;-~]+): ([^\r\n]*(?:\r\n[ \t][^\r\n]*)*)", head, re.M):
        headers[name.decode()] = value.decode().replace("\r\n", "")
    mail = message_from_bytes(raw, policy=policy.default)
    assert isinstance(mail, EmailMessage) and not mail.defects
    return headers, body(mail).replace("\r\n", "\n")


@pytest.mark.parametrize("stage", [SOON, STARTED])
@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_event_name_adds_no_header_and_moves_no_body(
    case: str, stage: str, smtp: tuple[int, Inbox]
) -> None:
    port, inbox = smtp
    settings = MailSettings(SmtpServer("127.0.0.1", port, "plain"), "games@example.org", PUBLIC)
    composer = Composer(settings, Signer(b"key").unsubscribe_token)
    address = f"notice-{len(inbox.mails)}-{time.monotonic_ns()}@example.org"
    to = MailRow(7, "Ann", address, True, "turn", "en")
    event = EventNotice("Ev3nt_id", HOSTILE[case], "NMBR 9", 1.8e9, "upcoming", (7,))
    mail = notice_mail(composer, to, event, stage)
    settings.server.send(mail.sender, mail.to, mail.wire())  # what the mailer's thread does
    (received,) = inbox.wait(address)
    headers, text = wire_parts(inbox.raw_of(received))
    subject = str(make_header(decode_header(headers["Subject"])))
    assert SUBJECTS[stage] in subject and "\n" not in subject and "\u202e" not in subject
    assert text.startswith("Hello Ann,\n\nthe NMBR 9 tournament ")
    assert f"tournament {plain_text(HOSTILE[case])} that you entered" in text
    assert f"{PUBLIC}/t/Ev3nt_id\n" in text and "Reply-To" not in received
    if stage == SOON:
        assert "starts at 2027-01-15 08:00 UTC." in text


# -- through a server: the socket and the mail, once each ---------------------------------


def serving(folder: Path, smtp_port: int) -> ServerProcess:
    """A server with the test clock that mails through the test's SMTP server."""
    proc = ServerProcess(folder / "games.sqlite3", log=folder / "server.log")
    proc.options = (
        *TEST_CLOCK,
        *("--smtp", f"smtp://127.0.0.1:{smtp_port}", "--public-url", proc.url),
        *("--mail-from", "games@example.org", "--mail-delay", "0"),
    )
    return proc.start()


def register(server: ServerProcess, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=30)
    name = f"{name}{time.monotonic_ns() % 10**8}"
    answer = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return client


def subscribe(client: httpx.Client, inbox: Inbox, lang: str) -> str:
    """A confirmed address for the account (mails of its turns: mode "turn")."""
    name = client.get("/api/account").json()["account"]["name"]
    address = f"{name.lower()}@example.org"
    saved = client.post(
        "/api/account/email", json={"address": address, "mode": "turn", "lang": lang}
    )
    assert saved.status_code == 200, saved.text
    (mail,) = inbox.wait(address)  # the confirmation
    answer = client.post("/api/mail/verify", json={"token": token_of(link(mail, "/mail/verify"))})
    assert answer.status_code == 200, answer.text
    return address


def notices(inbox: Inbox, address: str, event_id: str) -> list[EmailMessage]:
    return [m for m in inbox.to(address) if f"/t/{event_id}" in body(m)]


def is_notice(event_id: str, stage: str) -> Any:
    return lambda m: (
        m["type"] == "tournament" and m["event"] == stage and m["tournament"]["id"] == event_id
    )


def test_each_entrant_is_told_once_before_the_start_and_at_it(
    tmp_path: Path, smtp: tuple[int, Inbox]
) -> None:
    inbox = smtp[1]
    server = serving(tmp_path, smtp[0])
    try:
        ann, ben, cara = (register(server, n) for n in ("Ann", "Ben", "Cara"))
        addresses = [subscribe(p, inbox, lang) for p, lang in ((ann, "de"), (ben, "en"))]
        # Ben: on his pages only; Cara: not at all
        assert ben.post("/api/account/reminders", json={"mail": False}).status_code == 200
        off = {"push": False, "mail": False}
        assert cara.post("/api/account/reminders", json=off).status_code == 200
        made = ann.post(
            "/api/tournaments",
            json={"kind": "swiss", "type": "nmbr9", "name": "Moon Cup", "players": 2,
                  "rounds": 1, "starts_in": HOUR},
        )  # fmt: skip
        assert made.status_code == 201, made.text
        event_id = made.json()["id"]
        for player in (ann, ben, cara):
            joined = player.post(f"/api/tournaments/{event_id}/join", json={})
            assert joined.status_code == 200, joined.text
        # four entrants: everybody plays the one round (no bye)
        added = ann.post(f"/api/tournaments/{event_id}/bots", json={"bot": "greedy"})
        assert added.status_code == 200, added.text
        sockets = [account_socket(server, p) for p in (ann, ben, cara)]
        try:
            advance_clock(server, HOUR - NOTICE_MINUTES * 60 + 10)
            for sock in sockets[:2]:
                soon = receive(sock, is_notice(event_id, SOON))
                assert 0 < soon["left"] <= NOTICE_MINUTES * 60
                assert soon["tournament"]["name"] == "Moon Cup"
                assert soon["tournament"]["url"] == f"/t/{event_id}"
            (mail,) = inbox.wait(addresses[0], "beginnt in 5 min")  # in Ann's language
            assert mail["Content-Language"] == "de" and "Moon Cup" in mail["Subject"]
            headers, text = wire_parts(inbox.raw_of(mail))
            assert f"{server.url}/t/{event_id}\n" in text and "/mail/unsubscribe" in text
            advance_clock(server, NOTICE_MINUTES * 60)
            for sock in sockets[:2]:
                receive(sock, is_notice(event_id, STARTED))
            inbox.wait(addresses[0], "hat begonnen")
            # the round is under way: Cara, paired like the others, was told nothing
            told = receive(sockets[2], lambda m: m["type"] in ("tournament", "game"))
            assert told["type"] == "game" and told["game"]["tournament"]["id"] == event_id
            advance_clock(server, HOUR)  # time passing tells nobody again
            assert len(notices(inbox, addresses[0], event_id)) == 2
            assert notices(inbox, addresses[1], event_id) == []
        finally:
            for sock in sockets:
                sock.close()
        log = server.log.read_text()
        for stage in (SOON, STARTED):
            assert log.count(f"sent the {stage} notice of event {event_id}") == 2
    finally:
        server.stop()


def wait_in_log(server: ServerProcess, text: str) -> None:
    """Until the server's log says ``text`` (the deadline only bounds a hang)."""
    deadline = time.monotonic() + 30
    while text not in server.log.read_text():
        assert time.monotonic() < deadline, f"never logged: {text}"
        time.sleep(0.05)


def test_a_kill_9_between_the_notices_tells_nobody_twice(
    tmp_path: Path, smtp: tuple[int, Inbox]
) -> None:
    inbox = smtp[1]
    server = serving(tmp_path, smtp[0])
    try:
        ann = register(server, "Ann")
        address = subscribe(ann, inbox, "en")
        made = ann.post(
            "/api/tournaments",
            json={"kind": "arena", "type": "nova-luna", "name": "Night Arena", "players": 2,
                  "minutes": 30, "starts_in": HOUR},
        )  # fmt: skip
        assert made.status_code == 201, made.text
        event_id = made.json()["id"]
        assert ann.post(f"/api/tournaments/{event_id}/join", json={}).status_code == 200
        sock = account_socket(server, ann)
        advance_clock(server, HOUR - NOTICE_MINUTES * 60 + 10)
        receive(sock, is_notice(event_id, SOON))
        inbox.wait(address, "starts in 5 min")
        sock.close()
        server.kill9()
        server.start()  # its clock starts again from real time: the notice is due again
        sock = account_socket(server, ann)
        try:
            advance_clock(server, HOUR - NOTICE_MINUTES * 60 + 10)
            wait_in_log(server, f"had the soon notice of event {event_id} already")
            advance_clock(server, NOTICE_MINUTES * 60)
            started = receive(sock, lambda m: m["type"] == "tournament")  # no second "soon"
            assert started["event"] == STARTED and started["tournament"]["id"] == event_id
            inbox.wait(address, "has started")
        finally:
            sock.close()
        assert len(notices(inbox, address, event_id)) == 2
        assert server.log.read_text().count(f"sent the soon notice of event {event_id}") == 1
    finally:
        server.stop()
