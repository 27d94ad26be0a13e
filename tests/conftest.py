"""Fixtures shared by every test folder (games and platform), and the browser tests':
one Chromium per module and ``page``, a page at each of ``SIZES`` that fails the test on
any JavaScript error or Content-Security-Policy breach; and the server tests': a real
``novaluna serve`` per module as ``server`` (the browser folders override it with a URL,
and a module may with other settings) and an HTTP client of it per test as ``api``."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import CHROMIUM, CHROMIUM_ARGS, SIZES, checked_page, require_chromium
from server_support import Api, ServerProcess


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20240607)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    require_chromium()
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture(params=list(SIZES))
def size(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def page(browser: Any, size: str) -> Iterator[Any]:
    with checked_page(browser, **SIZES[size]) as page:
        yield page


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
