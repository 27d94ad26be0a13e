"""A real SMTP server for the e-mail tests (aiosmtpd, on a thread), and what reads its mail."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any
from urllib.parse import parse_qs, urlsplit

from aiosmtpd.controller import Controller

from server_support import free_port


class Inbox:
    """Every mail the server received, parsed, in order of arrival; and each one's bytes
    as they came (``raw``: what a mail program reads, not what ``email`` makes of it)."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.raw: dict[int, bytes] = {}  # id() of a parsed mail: its bytes
        self._lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        raw = envelope.original_content  # as sent, less the SMTP dot-stuffing
        mail = message_from_bytes(raw, policy=policy.default)
        assert isinstance(mail, EmailMessage)
        with self._lock:
            self.mails.append(mail)
            self.raw[id(mail)] = raw
        return "250 OK"

    def raw_of(self, mail: EmailMessage) -> bytes:
        with self._lock:
            return self.raw[id(mail)]

    def to(self, address: str, subject: str = "") -> list[EmailMessage]:
        """The mails to ``address`` so far whose subject holds ``subject``."""
        with self._lock:
            return [m for m in self.mails if m["To"] == address and subject in m["Subject"]]

    def wait(self, address: str, subject: str = "", count: int = 1, timeout: float = 30) -> list:
        """Wait until ``count`` such mails arrived; all of them."""
        deadline = time.monotonic() + timeout
        while len(found := self.to(address, subject)) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{len(found)} mails to {address} ({subject!r}), not {count}")
            time.sleep(0.05)
        return found


@contextmanager
def smtp_server() -> Iterator[tuple[int, Inbox]]:
    """A local SMTP server on a free port: ``(port, inbox)``."""
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port, inbox
    finally:
        controller.stop()


def body(mail: EmailMessage) -> str:
    part = mail.get_body(("plain",))
    assert part is not None
    return part.get_content()


def link(mail: EmailMessage, path: str) -> str:
    """The link in the mail's text whose path is ``path`` (a regex)."""
    found = re.search(rf"https?://\S+?{path}\S*", body(mail))
    assert found, f"no link to {path} in:\n{body(mail)}"
    return found[0]


def token_of(url: str) -> str:
    return parse_qs(urlsplit(url).query)["token"][0]


def wait_for(check: Callable[[], bool], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("the condition never held")
        time.sleep(0.05)
