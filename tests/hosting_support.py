"""Hosting a game of the tests' (Toy Draft, Sealed Bids) in other processes: a server,
its bot workers, a command. In this process ``tests/conftest.py`` registers them; a
subprocess learns of a game from ``TABLETOP_GAMES`` and finds its package on
``PYTHONPATH`` (``tests/``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tabletop.core.game import GAMES_VARIABLE

#: ``tests/``: where the test games' packages are imported from.
TESTS = Path(__file__).resolve().parent


def hosting_env(name: str, target: str) -> dict[str, str]:
    """The variables a subprocess needs to host the game ``name`` (registered as
    ``target``): ``TABLETOP_GAMES`` registers it, ``PYTHONPATH`` finds it."""
    paths = [str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {GAMES_VARIABLE: f"{name}={target}", "PYTHONPATH": os.pathsep.join(paths)}


@contextmanager
def hosting(name: str, target: str) -> Iterator[None]:
    """Within: processes started (a server, its bot workers) host the game too."""
    with pytest.MonkeyPatch.context() as env:
        for variable, value in hosting_env(name, target).items():
            env.setenv(variable, value)
        yield
