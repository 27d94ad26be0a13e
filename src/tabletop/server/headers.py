"""Security headers on every HTTP response: the page runs only its own files.

Seat tokens travel in URLs (``/g/<id>#seat=<token>``), so no referrer leaves the
page; the page may not be framed (click-jacking a move); browsers must not
guess content types. The page has no inline script or style attribute: styles
set from JavaScript go through the CSSOM, which ``style-src 'self'`` allows.
API answers are seat-dependent and may hold a seat's secrets: no cache keeps them.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]
API_HEADERS = [(b"cache-control", b"no-store")]


class SecurityHeaders:
    """ASGI middleware adding ``HEADERS`` to every HTTP response, and ``API_HEADERS``
    to those under ``/api/``, unless the response sets them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        defaults = HEADERS + API_HEADERS if scope["path"].startswith("/api/") else HEADERS

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in defaults if k not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)
