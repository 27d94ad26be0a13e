"""The load benchmark starts its own server and never measures somebody else's."""

from __future__ import annotations

import asyncio
import importlib.util
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType

import httpx
import pytest

from pg_support import PgCluster

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "loadtest.py"


@pytest.fixture(scope="module")
def loadtest() -> ModuleType:
    spec = importlib.util.spec_from_file_location("loadtest", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Squatter(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"types": []}')

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def squatter() -> Iterator[int]:
    """Another server that answers everything with 200, on a port of its own."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Squatter)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()


def test_a_taken_port_stops_the_load_test(loadtest: ModuleType, squatter: int) -> None:
    with pytest.raises(SystemExit, match="did not start"):
        loadtest.start_server(workers=1, port=squatter)


def test_by_default_it_starts_its_own_server_on_a_free_port(loadtest: ModuleType) -> None:
    proc, url, db = loadtest.start_server(workers=1)
    try:
        assert db.exists()
        assert httpx.get(f"{url}/api/types").json()["types"]
    finally:
        proc.terminate()
        proc.wait(10)


def test_it_plays_nmbr9_with_every_seat_placing_at_once(loadtest: ModuleType) -> None:
    proc, url, _ = loadtest.start_server(workers=1)
    try:
        stats = asyncio.run(
            loadtest.run(
                url, 3, seconds=0, think=0.02, warmup=0.5, game="nmbr9", seats=4, actions=24
            )
        )
    finally:
        proc.terminate()
        proc.wait(10)
    assert stats.errors == 0
    assert len(stats.latencies) >= 24  # several rounds of 3 games of 4 seats were measured


def test_it_spreads_each_game_over_several_processes(
    loadtest: ModuleType, pg_cluster: PgCluster
) -> None:
    url = pg_cluster.database()
    started = [loadtest.start_server(workers=1, db=url) for _ in range(2)]
    try:
        urls = [u for _, u, _ in started]
        stats = asyncio.run(loadtest.run(urls, 4, seconds=0, think=0.02, warmup=0.5, actions=20))
    finally:
        for proc, _, _ in started:
            proc.terminate()
            proc.wait(10)
    assert stats.errors == 0
    assert len(stats.latencies) >= 20  # moves acknowledged while every game spans both
