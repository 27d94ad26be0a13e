"""What Sealed Bids' tests share: the environment that hosts it in another process."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tabletop.core.game import GAMES_VARIABLE

from . import NAME, TARGET

#: ``tests/``: where ``sealedbid`` is imported from.
TESTS = Path(__file__).resolve().parents[1]


def hosting_env() -> dict[str, str]:
    """The variables a subprocess (a server and its bot workers) needs to host the game:
    ``TABLETOP_GAMES`` registers it, ``PYTHONPATH`` finds it."""
    paths = [str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {GAMES_VARIABLE: f"{NAME}={TARGET}", "PYTHONPATH": os.pathsep.join(paths)}


@contextmanager
def hosting() -> Iterator[None]:
    """Within: processes started (a server, its bot workers) host Sealed Bids too."""
    with pytest.MonkeyPatch.context() as env:
        for name, value in hosting_env().items():
            env.setenv(name, value)
        yield
