"""Fixtures of the server tests: a real ``novaluna serve`` per module (a module may
override ``server``, e.g. with other settings) and an HTTP client of it per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server_support import Api, ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("server") / "games.sqlite3").start()
    yield proc
    proc.stop()


@pytest.fixture
def api(server: ServerProcess) -> Iterator[Api]:
    client = Api(server)
    yield client
    client.http.close()
