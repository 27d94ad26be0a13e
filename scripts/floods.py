"""Floods against the connection limits, and what they cost another player.

Each flood runs on a fresh ``novaluna serve`` (``scripts/loadtest.py``'s
``start_server``, on loopback only): two players on 127.0.0.1 make ``--moves``
moves with nobody else about (quiet), then a flood from other loopback addresses
(127.0.0.2 ...) is put in place by a separate process and the players make
``--moves`` more; each move is timed from ``act`` sent to its ``ack``. It prints
the move-ack p50 and p99 of both phases side by side, and what became of the flood:

- ``slow-bodies``: ``--size`` (300) requests whose headers come and whose bodies
  trickle a byte a second, never finishing; the server answers 408 after
  ``--body-timeout``;
- ``connections``: ``--size`` (1,100) connections from one address, each with half
  its headers, against a server whose file limit is 1,024: past the address's cap
  (``--max-connections-per-address``) they are answered 429 at once;
- ``ws-headers``: ``--size`` (200) WebSocket handshakes with a header line over
  8 KB: answered 431 and closed;
- ``streams``: ``--size`` (200) game streams (NDJSON) of one address opened at once:
  as many as its cap (50) are served, the rest answered 429.

    .venv/bin/python scripts/floods.py all
    .venv/bin/python scripts/floods.py slow-bodies --size 300 --moves 200
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import resource
import statistics
import sys
import time
from collections import Counter
from collections.abc import Coroutine
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_spectators import new_game  # noqa: E402 - scripts beside this one
from loadtest import start_server  # noqa: E402

SOURCES = [f"127.0.0.{n}" for n in range(2, 30)]  # the flood's addresses: not the players'


# --- another player's move acks ----------------------------------------------------


async def move_acks(url: str, moves: int, seed: int) -> list[float]:
    """``moves`` move acks, in as many games as it takes."""
    rng = random.Random(seed)
    latencies: list[float] = []
    while len(latencies) < moves:
        players, _ = await new_game(url, rng.randrange(10**6), rng)
        while len(latencies) < moves and not any(p.over for p in players):
            mover = next((p for p in players if p.turn_ply is not None), None)
            if mover is None:
                break
            latency, ply = await mover.move()
            latencies.append(latency)
            for p in players:
                if p is not mover:
                    await p.read_until(lambda m, ply=ply: m["type"] == "state" and m["ply"] >= ply)
        for p in players:
            await p.ws.close()
    return latencies


async def _bounded(acks: Coroutine[Any, Any, list[float]]) -> list[float] | str:
    """The move acks, or why there are none: a server out of files answers nothing."""
    try:
        return await asyncio.wait_for(acks, 120)
    except (TimeoutError, OSError, httpx.HTTPError, websockets.WebSocketException) as err:
        return f"no move acked ({type(err).__name__}: {err})"


def ms(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] * 1000


# --- the floods (each in a process of its own, so that its work is not the players') ----


async def _open(url: str, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    host, port = url.removeprefix("http://").split(":")
    return await asyncio.open_connection(host, int(port), local_addr=(source, 0))


async def _answer(reader: asyncio.StreamReader) -> str:
    """The status of what the server says, or how the connection ended."""
    try:
        line = await reader.readline()
    except ConnectionResetError:
        return "reset"
    return line.split()[1].decode() if line.startswith(b"HTTP/1.1") else "closed"


async def slow_body(url: str, source: str, outcome: Counter[str], ready: list[int]) -> None:
    reader, writer = await _open(url, source)
    head = "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    writer.write(f"{head}Content-Length: 10000\r\n\r\n{{".encode())  # under 64 KB
    ready.append(1)
    answer = asyncio.create_task(_answer(reader))
    while not answer.done():  # a byte a second, for ever
        writer.write(b" ")
        await asyncio.wait([answer], timeout=1.0)
    outcome[answer.result()] += 1
    writer.close()


async def half_headers(url: str, source: str, outcome: Counter[str], ready: list[int]) -> None:
    try:
        reader, writer = await _open(url, source)
    except OSError:
        outcome["connect failed"] += 1
        ready.append(1)
        return
    writer.write(b"GET /api/types HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    ready.append(1)
    answer = await _answer(reader)
    outcome[answer] += 1
    writer.close()


async def big_ws_header(url: str, source: str, outcome: Counter[str], ready: list[int]) -> None:
    reader, writer = await _open(url, source)
    writer.write(
        b"GET /api/games/none/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        b"Sec-WebSocket-Version: 13\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n"
    )
    ready.append(1)
    outcome[await _answer(reader)] += 1
    writer.close()


async def stream(url: str, source: str, outcome: Counter[str], ready: list[int]) -> None:
    game = _FLOOD_GAME[0]
    transport = httpx.AsyncHTTPTransport(local_address=source)
    async with (
        httpx.AsyncClient(base_url=url, timeout=120, transport=transport) as http,
        http.stream("GET", f"/api/games/{game}/stream") as response,
    ):
        outcome[str(response.status_code)] += 1
        ready.append(1)
        if response.status_code == 200:
            async for _ in response.aiter_lines():
                pass  # held open until the flood ends


_FLOOD_GAME: list[str] = []
LINGER = 45.0  # seconds the flood waits, after the players' moves, for the server to end it
FLOODS = {
    "slow-bodies": (slow_body, 300, 4),  # what, how many, from how many addresses
    "connections": (half_headers, 1100, 1),
    "ws-headers": (big_ws_header, 200, 4),
    "streams": (stream, 200, 1),
}


def _flood_process(kind: str, url: str, size: int, placed: Event, stop: Event, out: Any) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    asyncio.run(_flood(kind, url, size, placed, stop, out))


async def _flood(kind: str, url: str, size: int, placed: Event, stop: Event, out: Any) -> None:
    what, _, addresses = FLOODS[kind]
    outcome: Counter[str] = Counter()
    ready: list[int] = []
    started = time.perf_counter()
    tasks = [
        asyncio.create_task(what(url, SOURCES[i % addresses], outcome, ready)) for i in range(size)
    ]
    while len(ready) < size and time.perf_counter() - started < 60:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # the server has them all by now
    placed.set()
    while not stop.is_set():
        await asyncio.sleep(0.05)
    if kind != "streams":  # the flood's own end: what the server closes, and when
        await asyncio.wait(tasks, timeout=LINGER)
    held = sum(not t.done() for t in tasks)
    # what the server said so far, and how many it still holds
    seconds = time.perf_counter() - started
    out.put({"outcome": dict(outcome), "held": held, "seconds": seconds})
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def one_flood(kind: str, size: int, moves: int, serve: list[str]) -> dict[str, object]:
    # start_server lifts the caps per address: the defaults again
    caps = ["--max-sockets-per-address", "50", "--max-connections-per-address", "100"]
    proc, url, _ = start_server(workers=1, extra=[*caps, *serve], files=_files(kind))
    try:
        if kind == "streams":
            body = {"type": "nova-luna", "seats": [{"kind": "human"}] * 2}
            _FLOOD_GAME[:] = [httpx.post(f"{url}/api/games", json=body).json()["id"]]
        quiet = asyncio.run(move_acks(url, moves, seed=1))
        context = multiprocessing.get_context("fork")
        placed, stop, out = context.Event(), context.Event(), context.Queue()
        flood = context.Process(
            target=_flood_process, args=(kind, url, size, placed, stop, out), daemon=True
        )
        flood.start()
        placed.wait(120)
        flooded = asyncio.run(_bounded(move_acks(url, moves, seed=2)))
        stop.set()
        result = out.get(timeout=60)
        flood.join(30)
    finally:
        proc.terminate()
        proc.wait()
    return {"kind": kind, "size": size, "quiet": quiet, "flooded": flooded, **result}


def _files(kind: str) -> int | None:
    """The connection flood meets a server with 1,024 files, as in the issue."""
    return 1024 if kind == "connections" else None


def describe(r: dict[str, Any]) -> str:
    quiet, flooded = r["quiet"], r["flooded"]
    outcome = ", ".join(f"{k}: {v}" for k, v in sorted(r["outcome"].items()))
    under = (
        f"flooded p50 {ms(flooded, 50):5.1f} ms p99 {ms(flooded, 99):6.1f} ms"
        if isinstance(flooded, list)
        else flooded
    )
    return (
        f"{r['kind']:12} x{r['size']:<5} quiet p50 {ms(quiet, 50):5.1f} ms p99 "
        f"{ms(quiet, 99):6.1f} ms | {under} | answered {{{outcome}}}, still open "
        f"{r['held']} after {r['seconds']:.1f} s"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("flood", choices=[*FLOODS, "all"])
    parser.add_argument("--size", type=int, help="the flood's size (default: each one's own)")
    parser.add_argument("--moves", type=int, default=200, help="moves timed per phase")
    parser.add_argument(
        "--serve-option", action="append", default=[], help="one more option for serve"
    )
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    kinds = list(FLOODS) if args.flood == "all" else [args.flood]
    for kind in kinds:
        size = args.size or FLOODS[kind][1]
        print(describe(one_flood(kind, size, args.moves, args.serve_option)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
