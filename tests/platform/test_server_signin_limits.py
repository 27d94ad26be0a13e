"""Limits that hold (issue 42): password guessing throttled per account before any
hash, the owner never locked out by a stranger, a fair share of the hashing threads,
and heavy replays cached, limited and kept off the event loop."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher

from account_support import PASSWORD, client, register
from tabletop.server.accounts import ACCOUNT, KNOWN_DEVICE, OTHER, Passwords
from tabletop.server.accounts_api import check_password
from tabletop.server.errors import ApiError
from tabletop.server.rows import Account
from tabletop.server.storage import GameStore, is_postgres, open_store
from tabletop.server.store import Store
from tabletop.server.throttle import DeviceCookies, LoginThrottle, TryLimits, device_key
from tabletop.server.writes import ReserveLoginTry, Write

from server_support import Api, ServerProcess

HUMAN = {"kind": "human", "name": "Ann"}
GREEDY = {"kind": "bot", "bot": "greedy"}


def store_writer(store: Store) -> Any:
    async def write(one: Write[Any]) -> Any:
        return store.write(one)

    return write


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def hub_for(store: Store, clock: Clock) -> Any:
    """The parts of a hub that ``check_password`` uses, real ones, on one store."""
    write = store_writer(store)
    return SimpleNamespace(
        throttle=LoginThrottle(write, TryLimits(per_hour=10, free=5), clock),
        passwords=Passwords(queue=64, threads=1),
        devices=DeviceCookies(write),
    )


ANN = Account(1, "Ann")
#: Ann's password hashed at argon2's lowest cost (a hash carries its own parameters, so
#: checking it is as cheap): these tests count tries, not hashing work, and the server's
#: cost at nice +10 on a loaded machine made a hundred tries take minutes
ANN_HASH = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash(PASSWORD)


async def statuses_of_guesses(hub: Any, count: int) -> list[int]:
    async def guess(n: int) -> int:
        try:
            await check_password(hub, (ANN, ANN_HASH), "ann", f"wrong guess {n}")
        except ApiError as err:
            return err.status
        return 200

    return list(await asyncio.gather(*(guess(n) for n in range(count))))


def test_parallel_guesses_are_refused_before_hashing_beyond_the_free_tries() -> None:
    store, clock = Store(":memory:"), Clock()
    hub = hub_for(store, clock)
    statuses = asyncio.run(statuses_of_guesses(hub, 16))
    # a 401 was hashed; a 429 was refused before any hash
    assert sorted(statuses) == [401] * 5 + [429] * 11


def test_each_failure_doubles_the_wait_up_to_the_cap_and_a_right_password_resets() -> None:
    store, clock = Store(":memory:"), Clock()
    hub = hub_for(store, clock)

    async def run() -> list[float]:
        waits = []
        for _ in range(16):
            before = clock.now
            while await statuses_of_guesses(hub, 1) == [429]:
                clock.now += 1
            waits.append(clock.now - before)
        return waits

    # 5 tries free, then 1 s doubling with each failure, up to the cap (360 s: 10 an hour)
    assert asyncio.run(run()) == [0] * 5 + [1, 2, 4, 8, 16, 32, 64, 128, 256, 360, 360]
    clock.now += 359  # while the account's wait runs, even the right password waits
    with pytest.raises(ApiError) as refused:
        asyncio.run(check_password(hub, (ANN, ANN_HASH), "ann", PASSWORD))
    assert refused.value.status == 429 and refused.value.retry_after == 1
    clock.now += 1
    asyncio.run(check_password(hub, (ANN, ANN_HASH), "ann", PASSWORD))  # right: resets
    assert sorted(asyncio.run(statuses_of_guesses(hub, 6))) == [401] * 5 + [429]


def test_a_strangers_trickle_of_guesses_never_keeps_the_owners_browser_out() -> None:
    store, clock = Store(":memory:"), Clock()
    hub = hub_for(store, clock)
    cookie = asyncio.run(hub.devices.new(ANN.id))
    owner = SimpleNamespace(cookies={"device": cookie}, client=None)
    for _ in range(100):  # a wrong guess every 6 minutes for ten hours
        assert asyncio.run(statuses_of_guesses(hub, 1)) == [401]
        clock.now += 360
    clock.now -= 1  # a second before the stranger's next try
    assert asyncio.run(statuses_of_guesses(hub, 1)) == [429]  # strangers wait
    asyncio.run(check_password(hub, (ANN, ANN_HASH), "ann", PASSWORD, request=owner))


def test_processes_sharing_a_database_share_the_tries(
    database: Callable[[str], str | Path],
) -> None:
    """Eight stores on one database (as eight server processes, one connection each):
    16 reservations at once take at most the 5 free tries (a compare-and-set on the
    account's row; a try that loses a race is refused, never taken twice)."""
    db = str(database("tries.sqlite3"))
    if is_postgres(db):
        from tabletop.server.pgstore import migrate

        migrate(db)
    else:
        open_store(db).close()  # made once, before the processes open it
    stores = [open_store(db) for _ in range(8)]
    start = threading.Barrier(8)
    waits: list[float] = []

    def reserve(store: GameStore) -> None:
        start.wait()
        for _ in range(2):
            waits.append(store.write(ReserveLoginTry("name:ann", 1000.0, 5, 360.0, 86400.0)))

    threads = [threading.Thread(target=reserve, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for store in stores:
        store.close()
    assert len(waits) == 16 and 1 <= waits.count(0.0) <= 5


def test_a_device_cookie_counts_only_for_its_own_account_and_cannot_be_forged() -> None:
    store = Store(":memory:")
    devices = DeviceCookies(store_writer(store))
    cookie = asyncio.run(devices.new(7))
    device = cookie.split(".")[1]
    assert asyncio.run(devices.device_of(cookie, 7)) == device
    assert asyncio.run(devices.device_of(cookie, 8)) is None
    forged = cookie[:-2] + ("AA" if not cookie.endswith("AA") else "BB")
    assert asyncio.run(devices.device_of(forged, 7)) is None
    assert asyncio.run(devices.device_of("8." + cookie.split(".", 1)[1], 8)) is None
    assert device_key(7, device) != device_key(8, device)


def test_the_hash_queue_serves_known_devices_and_accounts_before_a_flood() -> None:
    order: list[str] = []

    async def run() -> list[object]:
        passwords = Passwords(queue=4, threads=1)
        gate = threading.Event()

        def work(name: str) -> Any:
            def run() -> str:
                if name == "first":
                    gate.wait()
                order.append(name)
                return name

            return run

        first = asyncio.ensure_future(passwords.run(work("first"), "x", OTHER))
        await asyncio.sleep(0)  # started: the thread holds it until the gate opens
        flood = [
            asyncio.ensure_future(passwords.run(work(f"flood{n}"), f"10.0.0.{n}", OTHER))
            for n in range(3)
        ]
        await asyncio.sleep(0)
        assert passwords.busy == 4  # full
        ann = asyncio.ensure_future(passwords.run(work("ann"), "10.9.9.9", ACCOUNT))
        bob = asyncio.ensure_future(passwords.run(work("bob"), "10.9.9.8", KNOWN_DEVICE))
        late = asyncio.ensure_future(passwords.run(work("late"), "10.0.0.9", OTHER))
        await asyncio.sleep(0)
        gate.set()
        return list(await asyncio.gather(first, *flood, ann, bob, late, return_exceptions=True))

    results = asyncio.run(run())
    refused = [r.status for r in results if isinstance(r, ApiError)]
    # two of the flood made room for bob and ann; the late flooder found no room
    assert refused == [503, 503, 503]
    assert order == ["first", "bob", "ann", "flood0"]


def test_one_address_cannot_fill_the_hash_queue() -> None:
    order: list[str] = []

    async def run() -> list[object]:
        passwords = Passwords(queue=3, threads=1)
        gate = threading.Event()

        def work(name: str, wait: bool = False) -> Any:
            def run() -> str:
                if wait:
                    gate.wait()
                order.append(name)
                return name

            return run

        jobs = [asyncio.ensure_future(passwords.run(work("f0", True), "flood", OTHER))]
        await asyncio.sleep(0)
        jobs += [
            asyncio.ensure_future(passwords.run(work(f"f{n}"), "flood", OTHER)) for n in (1, 2)
        ]
        await asyncio.sleep(0)
        jobs.append(asyncio.ensure_future(passwords.run(work("cy"), "cy", OTHER)))
        await asyncio.sleep(0)
        gate.set()
        return list(await asyncio.gather(*jobs, return_exceptions=True))

    results = asyncio.run(run())
    assert [r.status if isinstance(r, ApiError) else r for r in results] == [
        *("f0", "f1", 503, "cy")
    ]
    assert order == ["f0", "cy", "f1"]


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("signin")
    options = ("--trusted-proxy", "127.0.0.1", "--password-queue", "64")
    proc = ServerProcess(folder / "limits.sqlite3", rates=True, options=options).start()
    yield proc
    proc.stop()


def test_a_server_hashes_few_of_many_parallel_guesses(limited: ServerProcess) -> None:
    register(limited, "Dee")
    start = threading.Barrier(16)
    statuses: list[int] = []

    def guess(n: int) -> None:
        with client(limited) as c:
            body = {"name": "Dee", "password": f"guess {n} of many"}
            start.wait()
            headers = {"X-Forwarded-For": f"10.5.{n}.1"}
            statuses.append(c.post("/api/account/login", json=body, headers=headers).status_code)

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # before, all 16 were hashed (401): the limit was checked before hashing, spent after.
    # Now 5 are free and each further one waits 1, 2, 4 s...: only a server that took
    # many seconds for 16 requests could hash more than 8
    assert statuses.count(401) <= 8 and set(statuses) == {401, 429}


def test_the_owners_browser_signs_in_while_a_stranger_is_refused(
    limited: ServerProcess,
) -> None:
    owner = register(limited, "Eve")  # registering remembers this browser
    assert owner.cookies.get("device")
    stranger = client(limited)
    statuses = []
    for n in range(30):
        body = {"name": "eve", "password": f"stranger guess {n}"}
        headers = {"X-Forwarded-For": f"10.6.{n}.1"}
        statuses.append(stranger.post("/api/account/login", json=body, headers=headers).status_code)
        if statuses[-1] == 429:
            break
    assert statuses[-1] == 429 and statuses.count(401) >= 5
    r = owner.post("/api/account/login", json={"name": "Eve", "password": PASSWORD})
    assert r.status_code == 200, r.text


def finished_game(api: Api) -> str:
    created = api.create([HUMAN, GREEDY], seed=5)
    game_id, token = created["id"], created["seats"][0]["token"]
    while True:
        state = api.wait(game_id, token, lambda s: s["over"] or s["acting"] == 0)
        if state["over"]:
            return game_id
        action = next(c["action"] for c in state["choices"] if "space" in c)
        assert api.act(game_id, token, action, state["ply"]).status_code == 200


def test_a_finished_games_replay_is_cached_with_an_etag(api: Api) -> None:
    path = f"/api/games/{finished_game(api)}/replay"
    first = api.request("GET", path, headers={"Accept-Encoding": "identity"})
    again = api.request("GET", path, headers={"Accept-Encoding": "identity"})
    assert first.status_code == again.status_code == 200
    assert first.content == again.content and first.json()["frames"]
    etag = first.headers["etag"]
    assert again.headers["etag"] == etag and first.headers["cache-control"] == "no-cache"
    packed = httpx.get(api.server.url + path, headers={"Accept-Encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip" and packed.content == first.content
    unchanged = api.request("GET", path, headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.headers["etag"] == etag


def test_replays_worked_out_are_rate_limited_per_address(tmp_path: Path) -> None:
    proc = ServerProcess(tmp_path / "replays.sqlite3", options=("--rate-replays", "6")).start()
    try:
        api = Api(proc)
        path = f"/api/games/{finished_game(api)}/replay"
        first = api.request("GET", path)  # worked out: one of the burst of 5
        record = api.request("GET", path.replace("/replay", "/record")).json()
        statuses = [api.request("POST", "/api/replay", json=record).status_code for _ in range(8)]
        assert statuses[:4] == [200] * 4 and statuses[-1] == 429
        refused = api.request("POST", "/api/replay", json=record)
        assert "too many replays" in refused.json()["error"] and refused.headers["retry-after"]
        cached = api.request("GET", path)  # kept: served however often
        assert cached.status_code == 200 and cached.content == first.content
        api.http.close()
    finally:
        proc.stop()


@pytest.mark.skipif(not hasattr(os, "setpriority"), reason="no per-thread priorities here")
def test_hashes_run_at_a_lower_priority_than_the_event_loop() -> None:
    """argon2 hashes 4 lanes on threads of its own: at the loop's priority a flood of
    sign-ins would take every core; at a lower one the games' loop goes first."""

    def niceness() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    async def hashing_thread_niceness() -> int:
        return await Passwords(queue=1, threads=1).run(niceness)

    assert asyncio.run(hashing_thread_niceness()) >= min(19, niceness() + 10)


def test_a_full_hash_queue_refuses_before_any_try_is_reserved() -> None:
    store, clock = Store(":memory:"), Clock()
    hub = hub_for(store, clock)
    hub.passwords = Passwords(queue=1, threads=1)
    gate = threading.Event()

    async def run() -> list[int]:
        busy = asyncio.ensure_future(hub.passwords.run(gate.wait, "10.0.0.1", ACCOUNT))
        await asyncio.sleep(0)
        statuses = await statuses_of_guesses(hub, 8)  # Ann's, from no known device
        gate.set()
        await busy
        return statuses

    assert asyncio.run(run()) == [503] * 8
    # none of the eight took one of Ann's 5 free tries: all five are still there
    hub.passwords = Passwords(queue=64, threads=1)
    assert sorted(asyncio.run(statuses_of_guesses(hub, 6))) == [401] * 5 + [429]


def test_a_try_refused_by_the_hash_queue_does_not_wipe_out_the_failures() -> None:
    """A guesser who gets his tries refused (503) after they were reserved (the queue
    filled meanwhile) must not reset the account's count of failures."""
    store, clock = Store(":memory:"), Clock()
    hub = hub_for(store, clock)
    for _ in range(5):
        assert asyncio.run(statuses_of_guesses(hub, 1)) == [401]

    async def refused_after_reserving() -> None:
        await hub.throttle.reserve("name:ann")  # what check_password does, then a 503
        await hub.throttle.refund("name:ann")

    clock.now += 1  # the wait after the 5th failure has run
    asyncio.run(refused_after_reserving())
    clock.now += 2  # the wait the refused try set stands
    # still 5 failures (wiped out, the next two would both be free): one is hashed and
    # fails, then the account waits again
    assert asyncio.run(statuses_of_guesses(hub, 2)) == [401, 429]
