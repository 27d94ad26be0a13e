"""Outgoing mail nobody can forge (issue 42), checked on the bytes a real SMTP server
(aiosmtpd) receives, not on a re-parsed message: every kind of mail the server sends,
with hostile names, has exactly its own headers and its body where it belongs;
``List-Unsubscribe`` is a plain ``<https://...>`` line however long; and confirmation
mails to one address, or from one account, stop after a few a day."""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.header import decode_header, make_header
from email.message import EmailMessage

import httpx
import pytest

from tabletop.server.compose import MAIL_KINDS, Composer
from tabletop.server.mail import Mail, Mailer, MailSettings, SmtpServer, UnsafeMail, check_head
from tabletop.server.notify import CONFIRMATIONS_PER_ACCOUNT, CONFIRMATIONS_PER_ADDRESS, Signer
from tabletop.server.rows import MailRow
from tabletop.server.store import Store
from tabletop.server.writes import (
    CreateAccount,
    DeleteAccount,
    MailRefusal,
    ReserveConfirmation,
    SaveMailSettings,
)

from mail_support import Inbox, link, smtp_server, token_of
from server_support import ServerProcess, new_db

PASSWORD = "correct horse"
#: a real site's host: its unsubscribe URL is longer than a header line's 78 characters
PUBLIC = "https://games.a-rather-long-host-name-as-real-sites-have.example.org"
HEADERS = [  # every mail's headers, each once
    *("From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type"),
    *("Content-Transfer-Encoding", "Content-Language", "Auto-Submitted"),
    *("List-Unsubscribe", "List-Unsubscribe-Post"),
]
#: the seat name of the finding: printable, so the page accepts it
ENCODED_WORD = "=?utf-8?q?=0D=0AReply-To:_a@ev.il?="
HOSTILE = {
    "encoded word": ENCODED_WORD,
    "encoded word, base64": "=?utf-8?b?DQpSZXBseS1UbzogYUBldi5pbA0KDQpib2R5?=",
    "CR LF": "Ann\r\nReply-To: a@ev.il\r\n\r\nforged body",
    "LF": "Ann\nBcc: all@ev.il",
    "NUL": "Ann\x00Bcc: all@ev.il",
    "line separators": "Ann\u2028Reply-To: a@ev.il\u2029forged",
    "RTL override": "Ann \u202eli.ve@a :oT-ylpeR",
    "very long": "Ann " + "W" * 990 + " Lee",
}
_UNSEEN = ("Cc", "Cf", "Zl", "Zp")  # no such character in a mail's decoded text but "\n"


# -- what the bytes must be ------------------------------------------------------------------


def check_wire(raw: bytes) -> tuple[dict[str, str], str]:
    """Assert what every mail's bytes must be; its headers (unfolded) and its text."""
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
    unsubscribe = [line for line in lines if line.startswith(b"List-Unsubscribe:")]
    assert re.fullmatch(rb"List-Unsubscribe: <https://[!-;=?-~]+>", unsubscribe[0])
    follows = lines[lines.index(unsubscribe[0]) + 1]
    assert follows == b"List-Unsubscribe-Post: List-Unsubscribe=One-Click"  # not folded
    subject = str(make_header(decode_header(headers["Subject"])))
    assert "=?" not in subject and not _unseen(subject), subject
    mail = message_from_bytes(raw, policy=policy.default)
    assert isinstance(mail, EmailMessage) and not mail.defects
    part = mail.get_body(("plain",))
    assert part is not None
    text = part.get_content().replace("\r\n", "\n")  # lines as the bytes end them
    assert not _unseen(text.replace("\n", "")), text
    assert text.endswith(f"{headers['List-Unsubscribe'][1:-1]}\n".replace("/api/", "/"))
    return headers, text


def _unseen(text: str) -> list[str]:
    return [c for c in text if unicodedata.category(c) in _UNSEEN]


# -- every kind of mail, composed with hostile names, through a real SMTP server ----------------


@pytest.fixture(scope="module")
def smtp() -> Iterator[tuple[int, Inbox]]:
    with smtp_server() as found:
        yield found


def _digest(composer: Composer, to: MailRow, name: str) -> Mail:
    seats = [
        {"seat": 0, "name": to.name, "kind": "human"},
        {"seat": 1, "name": name, "kind": "human"},
    ]
    games = [{"title": "NMBR 9", "url": "/g/abc", "seat": 0, "seats": seats}]
    return composer.digest_mail(to, games)


#: kind: how a mail of it is written with ``name`` wherever a name goes
WRITE: dict[str, Callable[[Composer, MailRow, str], Mail]] = {
    "verification": lambda c, to, name: c.verification_mail(to, "7.123.token"),
    "turn": lambda c, to, name: c.turn_mail(to, "abc", "NMBR 9", [(name, "human")]),
    "invitation": lambda c, to, name: c.invitation_mail(to, name, "NMBR 9", [(name, "human")]),
    "digest": _digest,
}


def test_every_kind_of_mail_the_code_writes_is_in_the_matrix() -> None:
    written = {n.removesuffix("_mail") for n in vars(Composer) if n.endswith("_mail")}
    assert written == set(MAIL_KINDS) == set(WRITE)


@pytest.mark.parametrize("case", list(HOSTILE))
@pytest.mark.parametrize("kind", MAIL_KINDS)
def test_no_name_adds_a_header_or_moves_the_body(
    kind: str, case: str, smtp: tuple[int, Inbox]
) -> None:
    port, inbox = smtp
    settings = MailSettings(SmtpServer("127.0.0.1", port, "plain"), "games@example.org", PUBLIC)
    composer = Composer(settings, Signer(b"key").unsubscribe_token)
    address = f"{kind}-{len(inbox.mails)}-{time.monotonic_ns()}@example.org"
    to = MailRow(7, HOSTILE[case], address, True, "turn", "en")
    mail = WRITE[kind](composer, to, HOSTILE[case])
    settings.server.send(mail.sender, mail.to, mail.wire())  # what the mailer's thread does
    (received,) = inbox.wait(address)
    headers, text = check_wire(inbox.raw_of(received))
    assert headers["To"] == address and "Reply-To" not in received
    assert text.startswith("Hello ")  # the body starts where it should, with its text
    if case == "very long":
        assert "W" * 990 in text  # the name is in the body, whole, and nothing broke


def test_a_mail_whose_bytes_would_change_its_meaning_is_never_sent(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Whatever a later change puts into a header, ``Mail.wire`` checks the bytes it
    made; and the header block CPython 3.11.7 writes for the finding's subject fails
    that check."""
    forged = Mail(
        "games@example.org", "ann@example.org", "Hi", "text\n", (("X-Note", "a\r\nBcc: b"),)
    )
    with pytest.raises(UnsafeMail):
        forged.wire()
    mailer = Mailer(SmtpServer("127.0.0.1", 1, "plain"))
    assert mailer.send(forged) is False and "refused to send" in caplog.text
    old = b"From: a@b.c\r\nSubject: Your turn: NMBR 9 with \r\nReply-To: a@ev.il\r\n\r\nhi\r\n"
    with pytest.raises(UnsafeMail, match="Reply-To"):
        check_head(old, ["From", "Subject"])
    for sender in ("Games <games@example.org>", "games@example.org\r\nBcc: x@y.z"):
        with pytest.raises(UnsafeMail):
            Mail(sender, "ann@example.org", "Hi", "text\n").wire()


# -- the same through a real server: names players can give, and the long unsubscribe link -----


@pytest.fixture(scope="module")
def server(
    storage: str,
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    smtp: tuple[int, Inbox],
) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("server")
    proc = ServerProcess(new_db(storage, request, folder), log=folder / "server.log")
    proc.options = (
        *("--smtp", f"smtp://127.0.0.1:{smtp[0]}", "--public-url", PUBLIC),
        *("--mail-from", "games@example.org", "--mail-delay", "0"),
        *("--mail-digest-check", "0.2"),
    )
    yield proc.start()
    proc.stop()


def register(server: ServerProcess, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=30)
    name = f"{name}{time.monotonic_ns() % 10**8}"
    answer = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return client


def name_of(client: httpx.Client) -> str:
    return str(client.get("/api/account").json()["account"]["name"])


def save(client: httpx.Client, address: str, mode: str = "turn") -> httpx.Response:
    return client.post("/api/account/email", json={"address": address, "mode": mode})


def subscribe(server: ServerProcess, client: httpx.Client, inbox: Inbox, mode: str) -> str:
    """Give the account an address and confirm it; the address."""
    address = f"{name_of(client).lower()}@example.org"
    assert save(client, address, mode).status_code == 200
    (mail,) = inbox.wait(address, "Confirm")
    check_wire(inbox.raw_of(mail))
    token = token_of(link(mail, "/mail/verify"))
    assert httpx.post(f"{server.url}/api/mail/verify", json={"token": token}).status_code == 200
    return address


def game(creator: httpx.Client, *seats: dict[str, object]) -> str:
    answer = creator.post(
        "/api/games", json={"type": "nmbr9", "seats": [{"kind": "human", "me": True}, *seats]}
    )
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


HOSTILE_SEAT = {"kind": "human", "name": ENCODED_WORD}


def _verification(server: ServerProcess, inbox: Inbox) -> EmailMessage:
    ann = register(server, "Ann")
    address = f"{name_of(ann).lower()}@example.org"
    assert save(ann, address).status_code == 200
    (mail,) = inbox.wait(address, "Confirm")
    return mail


def _turn(server: ServerProcess, inbox: Inbox) -> EmailMessage:
    ann = register(server, "Ann")
    address = subscribe(server, ann, inbox, "turn")
    game(ann, HOSTILE_SEAT)  # everyone's turn at once: Ann's mail names the other seat
    (mail,) = inbox.wait(address, "Your turn")
    return mail


def _invitation(server: ServerProcess, inbox: Inbox) -> EmailMessage:
    ann, ben = register(server, "Ann"), register(server, "Ben")
    address = subscribe(server, ben, inbox, "turn")
    game(ann, HOSTILE_SEAT, {"kind": "human", "invite": name_of(ben)})
    (mail,) = inbox.wait(address, "invites you")
    return mail


def _digest_of_server(server: ServerProcess, inbox: Inbox) -> EmailMessage:
    eve = register(server, "Eve")
    game(eve, HOSTILE_SEAT)
    address = subscribe(server, eve, inbox, "digest")
    (mail,) = inbox.wait(address, "waiting")
    return mail


RECEIVE = {
    "verification": _verification,
    "turn": _turn,
    "invitation": _invitation,
    "digest": _digest_of_server,
}


@pytest.mark.parametrize("kind", MAIL_KINDS)
def test_each_mail_a_server_sends_has_its_own_headers_only(
    kind: str, server: ServerProcess, smtp: tuple[int, Inbox]
) -> None:
    """The finding: a seat name that is an encoded word of CR LF and a Reply-To; and a
    site whose unsubscribe URL is longer than 78 characters."""
    inbox = smtp[1]
    mail = RECEIVE[kind](server, inbox)
    _, text = check_wire(inbox.raw_of(mail))
    if kind != "verification":
        assert ENCODED_WORD in text  # the name, shown as text: a body decodes no encoded word


# -- a mail bomb -----------------------------------------------------------------------------------


def test_a_stranger_gets_at_most_three_confirmation_mails_a_day(
    server: ServerProcess, smtp: tuple[int, Inbox]
) -> None:
    inbox = smtp[1]
    stranger = f"stranger-{time.monotonic_ns()}@example.org"
    ann = register(server, "Ann")
    for mode in ("turn", "digest", "off")[:CONFIRMATIONS_PER_ADDRESS]:
        assert save(ann, stranger, mode).json()["verification_sent"] is True
    refused = save(ann, stranger, "turn")
    assert refused.status_code == 429, refused.text
    assert "this address was sent enough confirmation mails" in refused.json()["error"]
    assert 1 <= int(refused.headers["retry-after"]) <= 86400
    assert ann.get("/api/account/email").json()["mode"] == "off"  # nothing changed
    ben = register(server, "Ben")  # another account, the same address
    assert save(ben, stranger).status_code == 429
    assert ben.get("/api/account/email").json()["address"] is None
    # deleting the account that asked starts no new day for the address
    assert ann.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
    assert save(register(server, "Cat"), stranger).status_code == 429
    # a mail asked for after the refusals: had any of them gone, it would have come first
    sentinel = f"sentinel-{time.monotonic_ns()}@example.org"
    assert save(ben, sentinel).status_code == 200
    inbox.wait(sentinel)
    assert len(inbox.to(stranger)) == CONFIRMATIONS_PER_ADDRESS


def test_an_account_asks_for_at_most_five_confirmation_mails_a_day(
    server: ServerProcess, smtp: tuple[int, Inbox]
) -> None:
    dan = register(server, "Dan")
    stamp = time.monotonic_ns()
    for n in range(CONFIRMATIONS_PER_ACCOUNT):
        assert save(dan, f"dan{n}-{stamp}@example.org").status_code == 200
    refused = save(dan, f"dan-more-{stamp}@example.org")
    assert refused.status_code == 429
    assert "you asked for enough confirmation mails" in refused.json()["error"]
    last = f"dan{CONFIRMATIONS_PER_ACCOUNT - 1}-{stamp}@example.org"
    assert dan.get("/api/account/email").json()["address"] == last  # unchanged
    german = dan.post(
        "/api/account/email",
        json={"address": f"x-{stamp}@example.org", "mode": "off"},
        headers={"Accept-Language": "de"},
    )
    assert german.status_code == 429 and german.json()["key"].startswith("you asked for")


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")


def test_the_limits_count_a_rolling_day_in_the_database() -> None:
    """The write that counts, with the times given: a day after the first mail, one
    more may go; the refusal says when; nothing is saved when refused."""
    store = Store(":memory:")
    ann = store.write(CreateAccount("Ann", "ann", "hash"))
    day, start = 86400.0, 1_800_000_000.0

    def reserve(at: float, key: str, account: int = ann) -> MailRefusal | None:
        then = SaveMailSettings(account, f"{key}@example.org", False, "turn", "en")
        return store.write(ReserveConfirmation(account, key, _iso(at), _iso(at - day), 3, 5, then))

    assert [reserve(start + n, "one") for n in range(3)] == [None, None, None]
    refusal = reserve(start + 10, "one")  # until the first leaves the day
    assert refusal and refusal.limit == "address" and refusal.seconds == pytest.approx(day - 10)
    assert store.mail_settings(ann).address == "one@example.org"  # type: ignore[union-attr]
    assert reserve(start + day + 0.5, "one") is None  # the first left the day
    assert [reserve(start + day + 0.75, k) for k in ("two", "three")] == [None, None]
    refusal = reserve(start + day + 0.8, "four")  # five in the day: the oldest at start + 1
    assert refusal and refusal.limit == "account" and refusal.seconds == pytest.approx(0.2)
    assert store.mail_settings(ann).address == "three@example.org"  # type: ignore[union-attr]
    store.write(DeleteAccount(ann))  # the address's count outlives the account
    ben = store.write(CreateAccount("Ben", "ben", "hash"))
    refusal = reserve(start + day + 0.9, "one", ben)
    assert refusal and refusal.limit == "address" and refusal.seconds == pytest.approx(0.1)
    store.close()
