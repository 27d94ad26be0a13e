"""uvicorn's HTTP protocol with a time limit on reading a request's headers.

uvicorn (0.54) times out only an idle keep-alive connection after a response: a
connection that sends nothing, or half a request's headers, stays open for good,
so 400 such connections (a "slowloris") hold 400 sockets and file descriptors
forever. ``timeout_keep_alive`` does not apply to them and h11's size limits
do not either. Here a connection must finish each request's headers within
``header_timeout`` seconds of connecting (or of its previous response); else it
is answered 408 and closed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

RESPONSE_408 = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 44\r\nconnection: close\r\n\r\n"
    b"the request's headers took too long to come\n"
)


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """``HttpToolsProtocol``, closing connections slow to send their headers."""

    def __init__(self, *args: Any, header_timeout: float = 10.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_timeout = header_timeout
        self._header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_header_timer()

    def on_headers_complete(self) -> None:
        self._stop_header_timer()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # the next request has its own time for its headers (unless it came already)
        if not self.transport.is_closing() and not self.pipeline:
            self._start_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)

    def _start_header_timer(self) -> None:
        self._stop_header_timer()
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.write(RESPONSE_408)
            self.transport.close()
