"""Benchmark: a crowd of spectators on one game.

Starts ``novaluna serve`` on a fresh database (``scripts/loadtest.py``'s
``start_server``), creates a two-seat Nova Luna game and, each run:

1. the two players connect and make ``--moves`` moves (no spectators), timing
   each move from ``act`` sent to its ``ack``;
2. ``--spectators`` spectator sockets open at once; the time until every one of
   them has its first state is "spectators joining";
3. the players make ``--moves`` more moves with the crowd watching.

It prints each run's figures and then the median of the runs:

    .venv/bin/python scripts/bench_spectators.py
    .venv/bin/python scripts/bench_spectators.py --spectators 500 --runs 5 --moves 40

The server is started with its per-address socket cap raised to fit the crowd (all
the spectators come from this one address); ``--serve-option`` adds more options.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import orjson
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from loadtest import start_server  # noqa: E402 - a script beside this one


@dataclass
class Figures:
    join_seconds: float
    alone_p50: float
    alone_p90: float
    crowd_p50: float
    crowd_p90: float


class Player:
    """One seat's socket: acts on its turn when asked, timing act -> ack."""

    def __init__(self, ws: websockets.ClientConnection, rng: random.Random) -> None:
        self.ws = ws
        self.rng = rng
        self.choices: list[str] = []
        self.turn_ply: int | None = None
        self.over = False

    async def read_until(self, done: object) -> dict:
        while True:
            message = orjson.loads(await self.ws.recv())
            if message["type"] == "state":
                self.over = message["over"]
                if message["choices"] is not None:
                    self.choices = [c["action"] for c in message["choices"]]
                self.turn_ply = message["ply"] if message["acting"] is not None else None
            if callable(done) and done(message):
                return message

    async def move(self) -> tuple[float, int]:
        """Make one move; seconds from sending it to its ack, and the ply after it."""
        ply = self.turn_ply
        assert ply is not None
        sent = time.perf_counter()
        choice = self.rng.choice(self.choices)
        await self.ws.send(json.dumps({"type": "act", "action": choice, "ply": ply}))
        answer = await self.read_until(lambda m: m["type"] in ("ack", "error"))
        if answer["type"] == "error":
            raise SystemExit(f"a move was refused: {answer['message']}")
        return time.perf_counter() - sent, answer["ply"]


async def new_game(url: str, seed: int, rng: random.Random) -> tuple[list[Player], str]:
    """A new two-seat Nova Luna game of ``seed``: both seats' sockets, each past its
    first state, and the game's socket URL (for spectators)."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        body = {"type": "nova-luna", "seats": [{"kind": "human"}] * 2, "seed": seed}
        created = (await http.post("/api/games", json=body)).json()
    ws_url = url.replace("http", "ws", 1) + f"/api/games/{created['id']}/ws"
    players = []
    for seat in created["seats"]:
        ws = await websockets.connect(ws_url, max_size=2**22)
        await ws.send(json.dumps({"type": "hello", "tokens": [seat["token"]]}))
        players.append(Player(ws, rng))
    for p in players:
        await p.read_until(lambda m: m["type"] == "state")
    return players, ws_url


async def play(players: list[Player], moves: int) -> list[float]:
    """``moves`` moves by whoever's turn it is; their latencies."""
    latencies = []
    for _ in range(moves):
        mover = next((p for p in players if p.turn_ply is not None), None)
        if mover is None or any(p.over for p in players):
            break
        latency, ply = await mover.move()
        latencies.append(latency)
        for p in players:  # the mover had the new state before its ack; the others now
            if p is not mover:
                await p.read_until(lambda m, ply=ply: m["type"] == "state" and m["ply"] >= ply)
    return latencies


async def spectator(url: str, opened: list[float], start: float) -> None:
    """One watcher: opens, notes when its first state came, then reads what comes
    until cancelled."""
    async with websockets.connect(url, max_size=2**22, open_timeout=120) as ws:
        await ws.send(json.dumps({"type": "hello", "tokens": []}))
        while json.loads(await ws.recv())["type"] != "state":
            pass
        opened.append(time.perf_counter() - start)
        async for _ in ws:
            pass


def quantile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1] * 1000 if len(values) > 1 else 0.0


async def one_run(url: str, spectators: int, moves: int, seed: int) -> Figures:
    rng = random.Random(seed)
    players, ws_url = await new_game(url, seed, rng)
    alone = await play(players, moves)
    opened: list[float] = []
    start = time.perf_counter()
    crowd = [asyncio.create_task(spectator(ws_url, opened, start)) for _ in range(spectators)]
    while len(opened) < spectators:
        failed = [t for t in crowd if t.done() and t.exception()]
        if failed:
            raise SystemExit(f"a spectator could not watch: {failed[0].exception()!r}")
        await asyncio.sleep(0.05)
    join_seconds = max(opened)
    await asyncio.sleep(1.0)  # let the presence updates of the crowd settle
    with_crowd = await play(players, moves)
    for task in crowd:
        task.cancel()
    await asyncio.gather(*crowd, return_exceptions=True)
    for p in players:
        await p.ws.close()
    return Figures(
        join_seconds,
        quantile(alone, 50),
        quantile(alone, 90),
        quantile(with_crowd, 50),
        quantile(with_crowd, 90),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=500, help="watchers (default 500)")
    parser.add_argument("--moves", type=int, default=30, help="moves timed per phase (default 30)")
    parser.add_argument("--runs", type=int, default=3, help="runs; the median is shown (default 3)")
    parser.add_argument("--url", help="an already running server (default: start one)")
    parser.add_argument(
        "--serve-option", action="append", default=[], help="one more option for serve"
    )
    args = parser.parse_args()
    proc = None
    url = args.url
    if url is None:
        caps = ["--max-sockets-per-address", str(args.spectators + 10)]
        caps += ["--max-sockets-per-game", str(args.spectators + 10)]
        proc, url, _ = start_server(workers=1, extra=[*caps, *args.serve_option])
    try:
        runs = []
        for run in range(args.runs):
            figures = asyncio.run(one_run(url, args.spectators, args.moves, seed=run + 1))
            runs.append(figures)
            print(f"run {run + 1}: {describe(figures, args.spectators)}", flush=True)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait()
    median = Figures(
        *(statistics.median(getattr(f, name) for f in runs) for name in Figures.__annotations__)
    )
    print(f"median of {args.runs}: {describe(median, args.spectators)}")
    return 0


def describe(f: Figures, spectators: int) -> str:
    return (
        f"{spectators} spectators joined in {f.join_seconds:.2f} s; players' move latency "
        f"alone p50 {f.alone_p50:.1f} ms, p90 {f.alone_p90:.1f} ms; "
        f"watched p50 {f.crowd_p50:.1f} ms, p90 {f.crowd_p90:.1f} ms"
    )


if __name__ == "__main__":
    raise SystemExit(main())
