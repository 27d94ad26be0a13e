"""Fixtures shared by every test folder (games and platform), and the browser tests':
one Chromium per module and ``page``, a page at each of ``SIZES`` that fails the test on
any JavaScript error or Content-Security-Policy breach; and the server tests': a real
``novaluna serve`` per module as ``server`` (the browser folders override it with a URL,
and a module may with other settings) and an HTTP client of it per test as ``api``.

``server`` runs once on SQLite and once on PostgreSQL (a throw-away cluster,
``pg_cluster``); ``TABLETOP_TEST_STORAGES=sqlite`` (or ``postgresql``) picks one."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest

import pg_support
from tabletop.core.game import register_game

import parallel_support
from browser_support import CHROMIUM, CHROMIUM_ARGS, SIZES, checked_page, require_chromium
from server_support import Api, ServerProcess, new_db
from server_zygote import remember_environment

# argon2 at its lowest cost in this process and every server it starts (read when
# tabletop.server.accounts is imported, which none of the imports above does): the
# suite registers and signs in about a thousand times, and at the real cost that was a
# tenth of its CPU. test_password_cost.py checks that a server without it uses the real cost.
os.environ.setdefault("TABLETOP_INSECURE_FAST_HASHES", "1")
register_game("toy", "toygame")  # a third game, in tests/toygame/ (in-process)
register_game("sealed-bids", "sealedbid")  # simultaneous, tests/sealedbid/
remember_environment()  # the one the servers forked from server_zygote.py share

STORAGES = os.environ.get("TABLETOP_TEST_STORAGES", "sqlite,postgresql").split(",")


def _patient_http() -> None:
    """httpx's calls and clients wait a minute for an answer, not 5 s: the tests check
    what the server answers, never how fast, and on a loaded machine a sign-in (argon2)
    took longer than 5 s. A test that passes a timeout of its own keeps it."""
    patient = httpx.Timeout(60.0)
    for call in (httpx.request, httpx.get, httpx.post, httpx.put, httpx.patch, httpx.delete):
        assert call.__kwdefaults__ is not None
        call.__kwdefaults__["timeout"] = patient
    for client in (httpx.Client, httpx.AsyncClient):
        defaults = client.__init__.__kwdefaults__
        assert defaults is not None
        defaults["timeout"] = patient


_patient_http()


#: how often a browser test's ``wait_for_function`` checks its condition, in ms
POLLING_MS = 25


def _polling_by_timer() -> None:
    """Playwright's ``wait_for_function`` checks its condition on every animation frame
    by default, and Chromium draws a frame for each: measured 0.07 CPU-s a second of
    waiting against 0.006 on a 25 ms timer, over thousands of waits in a loaded suite.
    A test that passes ``polling`` of its own keeps it."""
    try:
        from playwright.sync_api import Frame, Page
    except ImportError:  # the browser tests skip themselves
        return
    for kind in (Page, Frame):
        defaults = kind.wait_for_function.__kwdefaults__
        assert defaults is not None and "polling" in defaults
        defaults["polling"] = POLLING_MS


_polling_by_timer()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record-durations",
        action="store_true",
        help=f"write the seconds of each test or group to {parallel_support.DURATIONS.name}",
    )


def pytest_configure(config: pytest.Config) -> None:
    plugin = parallel_support.ParallelPlugin(config)
    config.pluginmanager.register(plugin, "tabletop-parallel")
    if config.getoption("record_durations") and not hasattr(config, "workerinput"):
        recorder = parallel_support.DurationRecorder(plugin)
        config.pluginmanager.register(recorder, "tabletop-durations")


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20240607)


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    """One Chromium per module: the headless shell, or the module's ``CHROMIUM_EXECUTABLE``.
    (Not per test process: Playwright's sync API keeps an event loop running in the
    test's thread while it is open, and a later module's ``asyncio.run`` then fails.)"""
    sync_api = pytest.importorskip("playwright.sync_api")
    executable = getattr(request.module, "CHROMIUM_EXECUTABLE", CHROMIUM)
    require_chromium(executable)
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
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


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[pg_support.PgCluster]:
    """A PostgreSQL cluster of the test session's own (see ``pg_support``)."""
    if not pg_support.available():
        pytest.skip("PostgreSQL's binaries are missing: `make test` installs them")
    cluster = pg_support.PgCluster().start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="module", params=STORAGES)
def storage(request: pytest.FixtureRequest) -> str:
    """ "sqlite" or "postgresql": what the module's ``server`` stores games in."""
    return request.param


@pytest.fixture
def database(
    storage: str, request: pytest.FixtureRequest, tmp_path: Path
) -> Callable[[str], str | Path]:
    """``database(name)``: a new empty database of the module's storage (a test using
    it runs on both, like ``server``)."""
    return partial(new_db, storage, request, tmp_path)


@pytest.fixture(scope="module")
def server(
    storage: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("server")
    proc = ServerProcess(new_db(storage, request, folder), log=folder / "server.log").start()
    yield proc
    proc.stop()


@pytest.fixture
def api(server: ServerProcess) -> Iterator[Api]:
    client = Api(server)
    yield client
    client.http.close()


@pytest.fixture(scope="session")
def axe_script() -> str:
    """axe-core's source (npm, pinned in package-lock.json), injected by the axe tests."""
    from novaluna.test_browser_axe import AXE

    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` at the repository root")
    return AXE.read_text()
