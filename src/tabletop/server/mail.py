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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from email.message import EmailMessage
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

    def send(self, message: EmailMessage) -> None:
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
            smtp.send_message(message)

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


class Mailer:
    """Sends queued mails one by one in the background (``start`` in the event loop)."""

    def __init__(self, server: SmtpServer, pauses: tuple[float, ...] = RETRY_PAUSES) -> None:
        self.server = server
        self.pauses = pauses
        self._queue: asyncio.Queue[EmailMessage] = asyncio.Queue(QUEUE_LIMIT)
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="tabletop-mail")
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def send(self, message: EmailMessage) -> None:
        """Queue ``message``; it goes out in the background."""
        try:
            self._queue.put_nowait(message)
        except asyncio.QueueFull:
            log.error("mail queue full: dropped the mail to %s", message["To"])

    async def _run(self) -> None:
        while True:
            message = await self._queue.get()
            try:
                await self._deliver(message)
            finally:
                self._queue.task_done()

    async def _deliver(self, message: EmailMessage) -> None:
        """Send, retrying a server that fails for a while; a mail it refuses for good
        (a 5xx answer) or that still fails after the retries is logged and dropped."""
        import smtplib

        loop = asyncio.get_running_loop()
        for pause in (*self.pauses, None):
            try:
                await loop.run_in_executor(self._thread, self.server.send, message)
                return
            except (OSError, smtplib.SMTPException) as err:
                permanent = isinstance(err, smtplib.SMTPResponseException) and err.smtp_code >= 500
                if permanent or isinstance(err, smtplib.SMTPRecipientsRefused) or pause is None:
                    log.error("could not send the mail to %s: %s", message["To"], err)
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
