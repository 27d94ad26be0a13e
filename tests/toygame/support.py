"""What the toy's tests share: the environment that hosts it in another process."""

from __future__ import annotations

import os
from pathlib import Path

from tabletop.core.game import GAMES_VARIABLE

from . import NAME, TARGET

#: ``tests/``: where ``toygame`` is imported from.
TESTS = Path(__file__).resolve().parents[1]


def hosting_env() -> dict[str, str]:
    """The variables a subprocess (a command, a server and its bot workers) needs to
    host the toy: ``TABLETOP_GAMES`` registers it, ``PYTHONPATH`` finds it."""
    paths = [str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {GAMES_VARIABLE: f"{NAME}={TARGET}", "PYTHONPATH": os.pathsep.join(paths)}
