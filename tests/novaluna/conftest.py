"""The Nova Luna browser tests' server: one per test module (Chromium and ``page`` come
from tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from browser_support import running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``novaluna serve`` of the module's own; its base URL."""
    with running_server(tmp_path_factory.mktemp("browser") / "games.db") as base:
        yield base
