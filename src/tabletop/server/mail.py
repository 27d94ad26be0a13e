"""Sending e-mail: the SMTP server an operator names (``serve --smtp URL``), and a
background sender that never makes a request or a move wait.

A mail is handed to ``Mailer.send``, which only queues it; one task takes the
queue in order and sends each mail with ``smtplib`` on a thread of its own,
retrying a failing server a few times before it gives up and logs the loss.
Nothing of it reaches a player: a broken mail server costs mails, not moves.

>>> server = SmtpServer.parse("smtp+starttls://ann:s%40cret@mail.example.org")
>>> server.host, server.port, server.security, server.user, server.password
('mail.example.org', 587, 'starttls', 'ann', 's@cret')
>>> SmtpServer.parse("smtps://mail.example.org").port
465
>>> SmtpServer.parse("http://mail.example.org")
Traceback (most recent call last):
ValueError: an SMTP URL starts with smtp://, smtp+starttls:// or smtps://, not 'http://mail.example.org'
"""

from __future__ import annotations

import asyncio
import logging
import os
import quopri
import re
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from email.header import Header
from email.utils import format_datetime, make_msgid
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

if TYPE_CHECKING:
    import smtplib

log = logging.getLogger("tabletop.mail")

#: scheme: (security, default port)
SCHEMES = {"smtp": ("plain", 25), "smtp+starttls": ("starttls", 587), "smtps": ("tls", 465)}
PASSWORD_ENV = "TABLETOP_SMTP_PASSWORD"  # kept out of the URL, which `ps` shows
TIMEOUT = 20.0  # seconds one SMTP conversation may take
RETRY_PAUSES = (2.0, 15.0, 60.0)  # seconds before each retry of a failing server
QUEUE_LIMIT = 10_000  # mails waiting; beyond it new ones are dropped (and logged)


# -- what goes over the wire ----------------------------------------------------------------

#: what a header value of our own may hold: printable ASCII (no CR, LF or NUL)
_PRINTABLE_ASCII = re.compile(r"[\x20-\x7e]*")
#: an address in From, To and the envelope (checked again here: the To of a mail is
#: what an account saved, the From what the operator typed)
_ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9.-]+")
_LINE = 998  # the longest line SMTP carries (RFC 5321), without its CR LF


class UnsafeMail(ValueError):
    """A mail whose bytes would not be exactly what it means to say: never sent."""


def check_sender(address: str) -> str:
    """``address`` if a From header can carry it as it is (``ValueError`` if not): a
    bare ``local@domain``, no display name."""
    if not _ADDRESS.fullmatch(address):
        raise ValueError(f"the sender is a bare address such as games@example.org, not {address!r}")
    return address


def plain_text(text: str) -> str:
    """``text`` (a name, a game's title) as one line of visible text: control, format
    and private-use characters and line or paragraph separators (U+2028, U+2029) become
    spaces, runs of spaces one. Names are checked when they are chosen (names.py); this
    holds for older rows and any text that missed the check.

    >>> plain_text("Ann\\r\\nReply-To: x\\u2028\\u202eLee\\x00")
    'Ann Reply-To: x Lee'
    """
    kept = (" " if _invisible(char) else char for char in text)
    return " ".join("".join(kept).split())


def _invisible(char: str) -> bool:
    return char.isspace() or unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn")


def header_text(text: str) -> str:
    """``text`` as a subject may carry it: ``plain_text``, and no ``=?`` left, which a
    mail program would read as the start of an RFC 2047 encoded word (a name such as
    ``=?utf-8?q?=0D=0AReply-To:...?=`` would otherwise decode to new header lines).

    >>> header_text("=?utf-8?q?=0D=0AReply-To:_a@ev.il?=")
    '= ?utf-8?q?=0D=0AReply-To:_a@ev.il?='
    """
    text = plain_text(text)
    while "=?" in text:
        text = text.replace("=?", "= ?")
    return text


@dataclass(frozen=True)
class Mail:
    """One plain-text mail, written out by ``wire`` rather than by ``email``'s
    generator: the bytes are built from checked parts and checked again, so that no
    text can add a header or end the header block, on any Python (CPython before 3.11.10
    and 3.12.5 writes a CR LF decoded from an encoded word out as a line break)."""

    sender: str
    to: str
    subject: str
    body: str  # lines separated by "\n"
    headers: tuple[tuple[str, str], ...] = ()  # more headers, printable ASCII only

    def wire(self, when: datetime | None = None) -> bytes:
        """The mail as an SMTP server receives it (CR LF line ends); ``UnsafeMail``
        if any part could change its meaning."""
        for address in (self.sender, self.to):
            if not _ADDRESS.fullmatch(address):
                raise UnsafeMail(f"not an address a header can carry: {address!r}")
        domain = self.sender.rpartition("@")[2]
        fields = [
            ("From", self.sender),
            ("To", self.to),
            ("Subject", _subject(self.subject)),
            ("Date", format_datetime(when or datetime.now(UTC))),
            ("Message-ID", make_msgid(domain=domain)),
            ("MIME-Version", "1.0"),
            ("Content-Type", 'text/plain; charset="utf-8"'),
            ("Content-Transfer-Encoding", "quoted-printable"),
            *self.headers,
        ]
        head = b"".join(_field(name, value) for name, value in fields)
        body = quopri.encodestring(self.body.encode()).replace(b"\n", b"\r\n")
        raw = head + b"\r\n" + body
        check_head(raw, [name for name, _ in fields])
        return raw


def _subject(subject: str) -> str:
    """The subject as it goes into the header: folded at spaces; RFC 2047 encoded words
    (``=?utf-8?b?...?=``) when it is not ASCII."""
    text = header_text(subject)
    charset = "us-ascii" if text.isascii() else "utf-8"
    return Header(text, charset, header_name="Subject").encode(linesep="\r\n")


def _field(name: str, value: str) -> bytes:
    """One header; folded only where ``value`` already is (the subject)."""
    for line in value.split("\r\n"):
        if not _PRINTABLE_ASCII.fullmatch(line):
            raise UnsafeMail(f"the {name} header would hold {line!r}")
    return f"{name}: {value}\r\n".encode("ascii")


def check_head(raw: bytes, names: list[str]) -> None:
    """``UnsafeMail`` unless ``raw``'s header block holds exactly the headers ``names``,
    once each and in order, every line printable ASCII of at most 998 characters, and
    ends before the body (the blank line)."""
    head, blank, _ = raw.partition(b"\r\n\r\n")
    if not blank:
        raise UnsafeMail("the mail has no end to its header block")
    found = []
    for line in head.split(b"\r\n"):
        if len(line) > _LINE or not _PRINTABLE_ASCII.fullmatch(line.decode("latin-1")):
            raise UnsafeMail(f"a header line holds more than printable ASCII: {line!r}")
        if line[:1] not in (b" ", b"\t"):  # not a folded line's continuation: a new header
            found.append(line.partition(b":")[0].decode("ascii"))
    if found != names:
        raise UnsafeMail(f"the mail's headers would be {found}, not {names}")


@dataclass(frozen=True)
class SmtpServer:
    """Where mails go: ``smtp://`` (plain), ``smtp+starttls://`` or ``smtps://`` (TLS)."""

    host: str
    port: int
    security: str  # "plain", "starttls" or "tls"
    user: str | None = None
    password: str | None = None

    @classmethod
    def parse(cls, url: str) -> SmtpServer:
        """The server of ``url`` (``ValueError`` saying what is wrong); the password may
        come from ``$TABLETOP_SMTP_PASSWORD`` instead of the URL."""
        parts = urlsplit(url)
        if parts.scheme not in SCHEMES:
            raise ValueError(
                f"an SMTP URL starts with smtp://, smtp+starttls:// or smtps://, not {url!r}"
            )
        security, default_port = SCHEMES[parts.scheme]
        try:
            port = parts.port or default_port
        except ValueError:
            raise ValueError(
                f"the SMTP URL's port is not a number from 1 to 65535: {url!r}"
            ) from None
        if not parts.hostname:
            raise ValueError(f"the SMTP URL names no host: {url!r}")
        user = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password else os.environ.get(PASSWORD_ENV)
        return cls(parts.hostname, port, security, user, password)

    def send(self, sender: str, to: str, raw: bytes) -> None:
        """Send one mail now (blocking: on the mailer's thread only)."""
        import smtplib  # here: with ssl it costs every command's start-up (see rows.hash_token)
        import ssl

        context = ssl.create_default_context()
        if self.security == "tls":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(
                self.host, self.port, timeout=TIMEOUT, context=context
            )
        else:
            smtp = smtplib.SMTP(self.host, self.port, timeout=TIMEOUT)
        with smtp:
            if self.security == "starttls":
                smtp.starttls(context=context)
            if self.user:
                smtp.login(self.user, self.password or "")
            smtp.sendmail(sender, [to], raw)

    def settings(self) -> dict[str, Any]:
        """What a ``--workers`` process needs to rebuild it (see ``main``)."""
        return {
            "host": self.host,
            "port": self.port,
            "security": self.security,
            "user": self.user,
            "password": self.password,
        }


@dataclass(frozen=True)
class MailSettings:
    """The operator's mail settings: the server, the sender address, the public address
    links in mails start with, how long a turn waits before its mail goes (a player who
    moves at once gets none) and how often the daily digests are looked for."""

    server: SmtpServer
    sender: str
    public_url: str
    turn_delay: float = 60.0
    digest_check: float = 300.0

    def settings(self) -> dict[str, Any]:
        return {
            "server": self.server.settings(),
            "sender": self.sender,
            "public_url": self.public_url,
            "turn_delay": self.turn_delay,
            "digest_check": self.digest_check,
        }

    @classmethod
    def from_settings(cls, settings: dict[str, Any]) -> MailSettings:
        return cls(
            SmtpServer(**settings["server"]),
            settings["sender"],
            settings["public_url"],
            settings["turn_delay"],
            settings["digest_check"],
        )


@dataclass(frozen=True)
class Outgoing:
    """A mail as it is queued: its envelope and its checked bytes."""

    sender: str
    to: str
    raw: bytes


class Mailer:
    """Sends queued mails one by one in the background (``start`` in the event loop)."""

    def __init__(self, server: SmtpServer, pauses: tuple[float, ...] = RETRY_PAUSES) -> None:
        self.server = server
        self.pauses = pauses
        self._queue: asyncio.Queue[Outgoing] = asyncio.Queue(QUEUE_LIMIT)
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="tabletop-mail")
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def send(self, mail: Mail) -> bool:
        """Queue ``mail``; it goes out in the background. False (and logged) if it is
        refused: unsafe (``Mail.wire``) or the queue is full."""
        try:
            outgoing = Outgoing(mail.sender, mail.to, mail.wire())
        except UnsafeMail as err:
            log.error("refused to send a mail to %r: %s", mail.to, err)
            return False
        try:
            self._queue.put_nowait(outgoing)
        except asyncio.QueueFull:
            log.error("mail queue full: dropped the mail to %s", mail.to)
            return False
        return True

    async def _run(self) -> None:
        while True:
            outgoing = await self._queue.get()
            try:
                await self._deliver(outgoing)
            finally:
                self._queue.task_done()

    async def _deliver(self, mail: Outgoing) -> None:
        """Send, retrying a server that fails for a while; a mail it refuses for good
        (a 5xx answer) or that still fails after the retries is logged and dropped."""
        import smtplib

        loop = asyncio.get_running_loop()
        for pause in (*self.pauses, None):
            try:
                await loop.run_in_executor(
                    self._thread, self.server.send, mail.sender, mail.to, mail.raw
                )
                return
            except (OSError, smtplib.SMTPException) as err:
                permanent = isinstance(err, smtplib.SMTPResponseException) and err.smtp_code >= 500
                if permanent or isinstance(err, smtplib.SMTPRecipientsRefused) or pause is None:
                    log.error("could not send the mail to %s: %s", mail.to, err)
                    return
                log.warning("mail server %s failed (%s); retrying", self.server.host, err)
                await asyncio.sleep(pause)

    async def idle(self) -> None:
        """Wait until every queued mail is sent or given up."""
        await self._queue.join()

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self._thread.shutdown(wait=False, cancel_futures=True)
