"""What the server refuses: ``ApiError`` (a status and a translatable message), and
``Stale`` (another process changed the game first); ``reading`` turns a failed
store read into a 503."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

from ..core.web import JSON
from ..i18n import fill
from .rows import StoreError

T = TypeVar("T")


class ApiError(Exception):
    """A request the server refuses: an HTTP status and a message for the user.

    The message is a msgid with ``{name}`` placeholders filled from ``args``
    (tabletop.i18n): the answer carries the English ``message``, and the ``key`` and
    ``args`` the page translates. A ``key`` of ``None`` is a text from elsewhere (a
    game's rules) the page shows as it is."""

    def __init__(self, status: int, key: str | None, /, **args: Any) -> None:
        params = {k: v if isinstance(v, int | str) else str(v) for k, v in args.items()}
        message = fill(key, params) if key is not None else str(params.pop("text", ""))
        super().__init__(message)
        self.status = status
        self.message = message
        self.key = key
        self.params = params  # not ``args``: an exception's own
        # seconds to send as ``Retry-After`` (every 429 and 503 has one; at least 1)
        self.retry_after: int | None = 1 if status in (429, 503) else None

    @classmethod
    def wait(cls, status: int, key: str, seconds: float) -> ApiError:
        """A refusal for now (429, 503) whose message says ``{seconds}`` to wait: the
        wait rounded up (never "wait 0 s"), and sent as ``Retry-After`` too."""
        whole = max(1, math.ceil(seconds))
        err = cls(status, key, seconds=whole)
        err.retry_after = whole
        return err

    def headers(self) -> dict[str, str]:
        """The HTTP headers of the answer: ``Retry-After`` for a refusal for now."""
        return {} if self.retry_after is None else {"Retry-After": str(self.retry_after)}

    @classmethod
    def of(cls, status: int, err: Exception) -> ApiError:
        """A game's refusal (``OptionsError``, ``ActionRejected``): with its msgid when it
        has one (``tabletop.core.errors.KeyedError``), else its text as it is."""
        key = getattr(err, "key", None)
        if key is None:
            return cls.plain(status, str(err))
        return cls(status, key, **getattr(err, "params", {}))

    @classmethod
    def plain(cls, status: int, text: str) -> ApiError:
        """An error whose text has no msgid (a game's own words): shown as it is."""
        return cls(status, None, text=text)

    def body(self) -> JSON:
        """``{"error", "key", "args"}``: the English text, and what translates it."""
        return {"error": self.message, "key": self.key, "args": self.params}


class Stale(ApiError):
    """Another process changed the game first: 409, and the room is reloaded."""


def reading(read: Callable[..., T], *args: object) -> T:
    """A store read; 503 if the database is unavailable."""
    try:
        return read(*args)
    except StoreError as err:
        raise ApiError.plain(503, f"{err}; try again shortly") from None
