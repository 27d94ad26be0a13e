"""What the server refuses: ``ApiError`` (a status and a translatable message), and
``Stale`` (another process changed the game first); ``reading`` turns a failed
store read into a 503."""

from __future__ import annotations

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
