"""What Sealed Bids's tests share: the environment that hosts it in another process
(``hosting_support``, for every game of the tests)."""

from __future__ import annotations

from contextlib import AbstractContextManager

import hosting_support
from . import NAME, TARGET


def hosting_env() -> dict[str, str]:
    """The variables a subprocess (a command, a server and its bot workers) needs."""
    return hosting_support.hosting_env(NAME, TARGET)


def hosting() -> AbstractContextManager[None]:
    """Within: processes started (a server, its bot workers) host the game too."""
    return hosting_support.hosting(NAME, TARGET)
