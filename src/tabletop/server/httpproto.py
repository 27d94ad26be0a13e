"""uvicorn's HTTP protocol with the limits a public server needs on its connections.

uvicorn (0.54) times out only an idle keep-alive connection after a response, and
counts nothing per client: left alone,

- a connection that sends nothing, or half a request's headers, or headers and then
  a body that never finishes, stays open for good (a "slowloris": 400 of them hold
  400 sockets and file descriptors);
- one address may open connections until the process runs out of file descriptors,
  and then ``accept`` fails for every other visitor too;
- a WebSocket handshake that the websockets library refuses while parsing it (a
  header line over 8 KB, too many headers) is never answered nor closed.

So here (``ConnectionLimits``, ``serve``'s options):

- each request's headers must come within ``header_timeout`` seconds of connecting
  (or of the previous response), else 408 and close; a WebSocket handshake must be
  through within that time as well;
- its body must come within ``body_timeout`` seconds of its headers, else 408 (or,
  once answered, just the close);
- a header line (or request line) longer than ``MAX_LINE`` is answered 431 (414);
- an address holds at most ``per_address`` open connections (WebSockets included),
  counted by the address the client really has: behind a trusted proxy, the one its
  ``X-Forwarded-For`` names, as the rate limits count; one more is answered 429;
- the process holds at most ``capacity`` connections (its file limit less a reserve
  for its database, bot workers and mail): one more is answered 503 and closed at
  once, so that accepting never fails for lack of descriptors.
"""

from __future__ import annotations

import asyncio
import ipaddress
import resource
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

MAX_LINE = 8190  # bytes of one header line or request line, as nginx's default buffers


def _response(status: str, text: str) -> bytes:
    body = (text + "\n").encode()
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


RESPONSE_408 = _response("408 Request Timeout", "the request's headers took too long to come")
RESPONSE_408_BODY = _response("408 Request Timeout", "the request's body took too long to come")
RESPONSE_414 = _response("414 URI Too Long", f"the request line is longer than {MAX_LINE} bytes")
RESPONSE_431 = _response(
    "431 Request Header Fields Too Large", f"a header line is longer than {MAX_LINE} bytes"
)
RESPONSE_503 = _response("503 Service Unavailable", "the server is full; try again shortly")


def _response_429(per_address: int) -> bytes:
    return _response(
        "429 Too Many Requests",
        f"too many connections from your address (at most {per_address}); close some",
    )


def file_limit() -> int:
    """Raise the soft limit on open files to the hard one (a server wants all it may
    have), and return it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass  # keep what there is
    return soft


def capacity_for(files: int) -> int:
    """Connections a process with ``files`` descriptors takes: an eighth of them (at
    least 64, at most 1024) stays for the database, bot workers, analyses and mail."""
    reserve = min(1024, max(64, files // 8))
    return max(16, files - reserve)


@dataclass(frozen=True)
class ConnectionLimits:
    """The server's settings for connections (``serve --header-timeout`` ...)."""

    header_timeout: float = 10.0  # seconds for a request's headers (or a handshake)
    body_timeout: float = 30.0  # seconds for a request's body, from its headers
    per_address: int = 100  # connections one address may hold open
    capacity: int = 1 << 30  # connections the process may hold open
    trusted_proxies: tuple[str, ...] = ()  # whose X-Forwarded-For is believed


@dataclass
class Connections:
    """The connections a process holds open: per address, and in all."""

    limits: ConnectionLimits = field(default_factory=ConnectionLimits)
    per_address: Counter[str] = field(default_factory=Counter)
    total: int = 0

    def __post_init__(self) -> None:
        self._trust_all = "*" in self.limits.trusted_proxies
        self._proxies: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for proxy in self.limits.trusted_proxies:
            try:
                self._proxies.append(ipaddress.ip_network(proxy.strip(), strict=False))
            except ValueError:
                continue  # "*", or a literal uvicorn compares as text
        self._literals = set(self.limits.trusted_proxies)

    def trusted(self, host: str) -> bool:
        """Whether ``host`` is a trusted proxy (``--trusted-proxy``), as uvicorn decides
        whose ``X-Forwarded-For`` to believe."""
        if self._trust_all or host in self._literals:
            return True
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(ip in net for net in self._proxies)

    def client_behind(self, forwarded_for: str) -> str | None:
        """The client a trusted proxy forwards for: the rightmost address of its
        ``X-Forwarded-For`` that is no trusted proxy itself."""
        hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
        for hop in reversed(hops):
            if not self.trusted(hop):
                return hop
        return hops[0] if hops else None

    def add(self, address: str | None) -> bytes | None:
        """Count a new connection (its address ``None``: not known yet), or say the
        refusal to send it."""
        if self.total >= self.limits.capacity:
            return RESPONSE_503
        if address is not None and self.per_address[address] >= self.limits.per_address:
            return _response_429(self.limits.per_address)
        self.total += 1
        if address is not None:
            self.per_address[address] += 1
        return None

    def move(self, old: str | None, new: str) -> bytes | None:
        """A counted connection turns out to be ``new``'s (a proxy's request for a
        client); the refusal to send if ``new`` holds all it may."""
        if new == old:
            return None
        if self.per_address[new] >= self.limits.per_address:
            return _response_429(self.limits.per_address)
        self._forget(old)
        self.per_address[new] += 1
        return None

    def remove(self, address: str | None) -> None:
        self.total -= 1
        self._forget(address)

    def _forget(self, address: str | None) -> None:
        if address is None:
            return
        self.per_address[address] -= 1
        if self.per_address[address] <= 0:
            del self.per_address[address]


class LimitedProtocol(HttpToolsProtocol):
    """``HttpToolsProtocol`` with the limits above."""

    def __init__(self, *args: Any, connections: Connections | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.counts = connections if connections is not None else Connections()
        self.limits = self.counts.limits
        self._header_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._counted = False  # whether this connection is in ``counts``
        self._address: str | None = None  # the address it is counted for
        self._refused = False  # answered with a refusal: whatever else comes is ignored

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = self.client[0] if self.client else None
        # a trusted proxy's connections count for its clients, once their headers say who
        self._address = None if peer is None or self.counts.trusted(peer) else peer
        refusal = self.counts.add(self._address)
        if refusal is not None:
            self._refuse(refusal)
            return
        self._counted = True
        self._start_header_timer()

    def data_received(self, data: bytes) -> None:
        if not self._refused:
            super().data_received(data)

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > MAX_LINE and not self._refused:
            self._refuse(RESPONSE_414)

    def on_header(self, name: bytes, value: bytes) -> None:
        if self._refused:
            return
        super().on_header(name, value)
        if len(name) + len(value) + 2 > MAX_LINE:
            self._refuse(RESPONSE_431)

    def on_headers_complete(self) -> None:
        if self._refused or not self._count_forwarded_client():
            return
        if self.parser.should_upgrade() and self._should_upgrade():
            super().on_headers_complete()  # the header timer runs on, over the handshake
            return
        self._stop_header_timer()
        super().on_headers_complete()
        self._body_timer = self.loop.call_later(self.limits.body_timeout, self._body_too_slow)

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self._refused:
            return
        self._stop_body_timer()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        if self._refused:
            return
        super().handle_websocket_upgrade()
        upgraded = self.transport.get_protocol()
        lost = upgraded.connection_lost

        def connection_lost(exc: Exception | None) -> None:
            self._uncount()
            lost(exc)

        # the WebSocket protocol takes the transport over: its end is this one's too
        setattr(upgraded, "connection_lost", connection_lost)  # noqa: B010 - a method

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # the next request has its own time for its headers (unless it came already)
        if not self.transport.is_closing() and not self.pipeline:
            self._start_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        self._stop_body_timer()
        self._uncount()
        super().connection_lost(exc)

    def _count_forwarded_client(self) -> bool:
        """Behind a trusted proxy: count the connection for the client it forwards
        for; ``False`` if that client holds all it may (refused)."""
        peer = self.client[0] if self.client else None
        if peer is None or not self.counts.trusted(peer):
            return True
        forwarded = [v.decode("latin-1") for n, v in self.headers if n == b"x-forwarded-for"]
        client = self.counts.client_behind(", ".join(forwarded)) or peer
        refusal = self.counts.move(self._address, client)
        if refusal is not None:
            self._refuse(refusal)
            return False
        self._address = client
        return True

    def _uncount(self) -> None:
        if self._counted:
            self._counted = False
            self.counts.remove(self._address)

    def _refuse(self, response: bytes) -> None:
        """Answer ``response`` and close, and read nothing more."""
        self._refused = True
        self._stop_header_timer()
        self._stop_body_timer()
        if not self.transport.is_closing():
            self.transport.write(response)
            self.transport.close()

    def _start_header_timer(self) -> None:
        self._stop_header_timer()
        self._header_timer = self.loop.call_later(
            self.limits.header_timeout, self._headers_too_slow
        )

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _stop_body_timer(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        upgraded = self.transport.get_protocol()
        if upgraded is not self:  # a WebSocket handshake: done in time, or closed unanswered
            if not getattr(upgraded, "handshake_complete", True):
                self.transport.close()
            return
        self._refuse(RESPONSE_408)

    def _body_too_slow(self) -> None:
        self._body_timer = None
        if self.cycle is not None and self.cycle.response_started:
            self.transport.close()  # answered already: only the rest of the body is late
        else:
            self._refuse(RESPONSE_408_BODY)
