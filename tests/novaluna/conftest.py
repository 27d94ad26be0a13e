"""Fixtures of the browser tests: one server per test module, one Chromium per module,
and ``page``: a page at each of ``SIZES`` that fails the test on any JavaScript error or
Content-Security-Policy breach."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    SIZES,
    checked_page,
    require_chromium,
    running_server,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``novaluna serve`` of the module's own; its base URL."""
    with running_server(tmp_path_factory.mktemp("browser") / "games.db") as base:
        yield base


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
