"""The server's clock (clock.py) and the route that moves it in tests (clock_api.py):
what waits for a time wakes as soon as the clock is moved past it, in whichever event
loop it waits; only ``serve --test-clock`` offers the route."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from tabletop.server.clock import Clock

from clock_support import DAY, HOUR, TEST_CLOCK, advance_clock
from server_support import Api, ServerProcess

HANG = 60.0  # seconds: only a hang takes this long


def test_a_sleeper_wakes_when_the_clock_is_moved_past_its_time() -> None:
    clock = Clock()

    async def main() -> list[str]:
        woke: list[str] = []

        async def sleeper(name: str, when: float) -> None:
            await clock.sleep_until(when)
            woke.append(name)

        start = clock.time()
        hour = asyncio.create_task(sleeper("hour", start + HOUR))
        day = asyncio.create_task(sleeper("day", start + DAY))
        await asyncio.sleep(0)  # both are asleep
        clock.advance(2 * HOUR)
        await asyncio.wait_for(hour, HANG)
        assert not day.done()  # woken to look again, and asleep again
        clock.advance(DAY)
        await asyncio.wait_for(day, HANG)
        return woke

    assert asyncio.run(main()) == ["hour", "day"]


def test_a_clock_moved_from_another_thread_wakes_the_loops_sleeper() -> None:
    clock = Clock()
    asleep = threading.Event()

    async def main() -> None:
        task = asyncio.create_task(clock.sleep(DAY))
        await asyncio.sleep(0)
        asleep.set()
        await asyncio.wait_for(task, HANG)

    def mover_runs() -> None:
        assert asleep.wait(HANG)
        clock.advance(DAY)

    mover = threading.Thread(target=mover_runs)
    mover.start()
    asyncio.run(main())
    mover.join()


def test_a_clock_never_goes_back() -> None:
    clock = Clock()
    with pytest.raises(ValueError, match="only moves on"):
        clock.advance(-1)
    with pytest.raises(ValueError, match="only moves on"):
        clock.advance(float("nan"))


@pytest.fixture(scope="module")
def clocked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("clocked")
    proc = ServerProcess(folder / "games.sqlite3", options=TEST_CLOCK).start()
    yield proc
    proc.stop()


def test_the_route_moves_the_servers_clock_on(clocked: ServerProcess) -> None:
    before = datetime.now().astimezone()
    moved = datetime.fromisoformat(advance_clock(clocked, DAY))
    assert (moved - before).total_seconds() >= DAY


@pytest.mark.parametrize("seconds", [-1, "soon", True, None, 11 * 365 * DAY])
def test_the_route_refuses_what_is_no_move_on(clocked: ServerProcess, seconds: object) -> None:
    api = Api(clocked)
    r = api.request("POST", "/api/test/clock", json={"seconds": seconds})
    assert r.status_code == 400 and "how far to move the clock on" in r.json()["error"]


def test_a_server_without_the_option_has_no_such_route(tmp_path: Path) -> None:
    proc = ServerProcess(tmp_path / "games.sqlite3").start()
    try:
        r = Api(proc).request("POST", "/api/test/clock", json={"seconds": HOUR})
        assert r.status_code == 404
    finally:
        proc.stop()
