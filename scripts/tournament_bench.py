"""Tournament benchmark: an arena of 64 entrants on a server of its own.

Starts ``novaluna serve`` on a fresh database (SQLite; ``--postgres``: a throw-away
PostgreSQL cluster, as the test suite makes them), creates an arena that starts at
once, enters ``--people`` simulated accounts and ``--bots`` of our own bots, and runs
it for ``--minutes``. Each account is a client like a person's page: its account
socket open (so it is present and gets paired), and for each game of the event the
socket announces, a game WebSocket on which it plays a random legal move after a tiny
think time. Printed (``--runs N``: each run's, then the median over the runs):

* pairing latency: an account's game of the event ended -> its next game of the event
  created, both as its account socket announces them, p50/p99;
* the players' move latency beside it: a move sent -> the first state after it
  (the move applied and pushed back), p50/p99;
* games of the event finished while measured, and the server's CPU seconds per game
  (its process and the bot workers below it, from /proc; not PostgreSQL's).

    .venv/bin/python scripts/tournament_bench.py                     # 3 minutes, SQLite
    .venv/bin/python scripts/tournament_bench.py --minutes 5 --runs 3 --postgres

Uses the load test's helpers (scripts/loadtest.py) to start the server and read its
CPU time. Measured from the first pairing on; the arena itself lasts a little longer
than measured (games still running at the end are not counted).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))  # loadtest.py, beside this one
from loadtest import cpu_seconds, start_server  # noqa: E402

from tabletop.server.main import tune_gc  # noqa: E402

PASSWORD = "tournament bench password"
COOKIE = "session"  # server/accounts.py


@dataclass
class Figures:
    """What one run measured."""

    pairing: list[float] = field(default_factory=list)  # seconds, per pairing seen
    moves: list[float] = field(default_factory=list)  # seconds, per move
    games: int = 0  # games of the event finished while measured
    cpu: float = 0.0  # the server's CPU seconds while measured
    errors: int = 0  # refused moves and dropped sockets
    recording: bool = False


@dataclass
class Person:
    """One simulated account entrant: its page's account socket and its games."""

    name: str
    cookie: str
    ws_base: str
    event_id: str
    figures: Figures
    rng: random.Random
    think: float
    finished_at: float | None = None  # when its last game of the event ended
    seen: set[str] = field(default_factory=set)  # games of the event announced
    over: set[str] = field(default_factory=set)  # ... and ended
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    @property
    def headers(self) -> dict[str, str]:
        return {"Cookie": f"{COOKIE}={self.cookie}"}

    async def attend(self) -> None:
        """Keep the account socket open; play each game of the event it announces."""
        url = f"{self.ws_base}/api/account/ws"
        async with websockets.connect(url, additional_headers=self.headers) as ws:
            async for raw in ws:
                message = orjson.loads(raw)
                for game in message.get("games") or [message.get("game")]:
                    if not game or (game.get("tournament") or {}).get("id") != self.event_id:
                        continue
                    if game["over"]:
                        self._ended(game["id"])
                    elif game["id"] not in self.seen:
                        self._paired(game["id"])

    def _ended(self, game_id: str) -> None:
        """A game of the event ended: told on the same socket as the next pairing, so
        the two times are in the order the server sent them."""
        if game_id in self.seen and game_id not in self.over:
            self.over.add(game_id)
            self.finished_at = time.perf_counter()

    def _paired(self, game_id: str) -> None:
        self.seen.add(game_id)
        if self.finished_at is not None and self.figures.recording:
            self.figures.pairing.append(time.perf_counter() - self.finished_at)
        self.finished_at = None
        self.tasks.append(asyncio.create_task(self.play(game_id)))

    async def play(self, game_id: str) -> None:
        url = f"{self.ws_base}/api/games/{game_id}/ws"
        try:
            async with websockets.connect(url, additional_headers=self.headers) as ws:
                await ws.send(orjson.dumps({"type": "hello", "tokens": []}).decode())
                await self._play_on(ws)
        except websockets.ConnectionClosed:
            self.figures.errors += 1

    async def _play_on(self, ws: Any) -> None:
        acted_ply = -1
        sent_at: float | None = None
        choices: list[str] = []
        async for raw in ws:
            message = orjson.loads(raw)
            if message["type"] == "error":
                self.figures.errors += 1
                sent_at = None
                continue
            if message["type"] != "state":
                continue
            if sent_at is not None and message["ply"] > acted_ply:
                if self.figures.recording:
                    self.figures.moves.append(time.perf_counter() - sent_at)
                sent_at = None
            if message["over"]:
                return
            if message["choices"] is not None:  # null: the same as before
                choices = [c["action"] for c in message["choices"]]
            if message["acting"] is None or message["ply"] == acted_ply or not choices:
                continue
            await asyncio.sleep(self.rng.expovariate(1 / self.think))
            acted_ply = message["ply"]
            act = {"type": "act", "action": self.rng.choice(choices), "ply": acted_ply}
            sent_at = time.perf_counter()
            await ws.send(orjson.dumps(act).decode())


async def register(url: str, name: str) -> tuple[httpx.AsyncClient, str]:
    """A new account's client (signed in) and its session cookie."""
    page = httpx.AsyncClient(base_url=url, timeout=60)
    answer = await page.post("/api/account/register", json={"name": name, "password": PASSWORD})
    if answer.status_code != 201:
        raise SystemExit(f"could not register {name}: {answer.text}")
    return page, str(page.cookies[COOKIE])


async def create_arena(page: httpx.AsyncClient, game: str, minutes: float, bots: int) -> str:
    """An arena starting at once, lasting longer than measured, with ``bots`` of ours."""
    body = {
        "kind": "arena",
        "type": game,
        "name": "Bench arena",
        "players": 2,
        "minutes": max(10, int(minutes) + 2),
        "starts_in": 0,
        "rated": False,
    }
    made = await page.post("/api/tournaments", json=body)
    if made.status_code != 201:
        raise SystemExit(f"could not create the arena: {made.text}")
    event_id = str(made.json()["id"])
    offered = (await page.get(f"/api/tournaments/{event_id}")).json()["bots"]
    for number in range(bots):
        name = offered[number % len(offered)]
        added = await page.post(f"/api/tournaments/{event_id}/bots", json={"bot": name})
        if added.status_code != 200:
            raise SystemExit(f"could not add the bot {name}: {added.text}")
    return event_id


async def finished_games(page: httpx.AsyncClient, event_id: str) -> int:
    """Games of the event finished so far: two seats each (the arena's tables are of 2)."""
    event = (await page.get(f"/api/tournaments/{event_id}")).json()
    return sum(int(s["games"]) for s in event["standings"]) // 2


async def one_run(url: str, pid: int, args: argparse.Namespace, run: int) -> Figures:
    figures = Figures()
    rng = random.Random(run)
    organiser, _ = await register(url, f"Organiser{run}x{rng.randrange(10**6)}")
    people = [
        await register(url, f"Bench{run}x{n}x{rng.randrange(10**6)}") for n in range(args.people)
    ]
    event_id = await create_arena(organiser, args.game, args.minutes, args.bots)
    ws_base = url.replace("http", "ws", 1)
    persons = []
    for number, (page, cookie) in enumerate(people):
        joined = await page.post(f"/api/tournaments/{event_id}/join", json={})
        if joined.status_code != 200:
            raise SystemExit(f"could not join the arena: {joined.text}")
        await page.aclose()
        seed = random.Random(f"{run}:{number}")
        persons.append(Person(f"p{number}", cookie, ws_base, event_id, figures, seed, args.think))
    attending = [asyncio.create_task(p.attend()) for p in persons]
    try:
        await asyncio.sleep(args.warmup)  # the first pairings, made at the start, not measured
        before, cpu = await finished_games(organiser, event_id), cpu_seconds([pid])
        figures.recording = True
        await asyncio.sleep(args.minutes * 60)
        figures.recording = False
        figures.cpu = cpu_seconds([pid]) - cpu
        figures.games = await finished_games(organiser, event_id) - before
    finally:
        for task in attending + [t for p in persons for t in p.tasks]:
            task.cancel()
        await asyncio.gather(*attending, return_exceptions=True)
        await organiser.aclose()
    return figures


def percentile(values: list[float], q: int) -> float:
    """The ``q``-th percentile in milliseconds (0 when nothing was measured)."""
    if len(values) < 2:
        return values[0] * 1000 if values else 0.0
    return statistics.quantiles(values, n=100)[q - 1] * 1000


def summary(f: Figures) -> dict[str, float]:
    return {
        "pairings": len(f.pairing),
        "pairing p50 ms": percentile(f.pairing, 50),
        "pairing p99 ms": percentile(f.pairing, 99),
        "moves": len(f.moves),
        "move p50 ms": percentile(f.moves, 50),
        "move p99 ms": percentile(f.moves, 99),
        "games finished": f.games,
        "server CPU s/game": f.cpu / f.games if f.games else 0.0,
    }


def show(title: str, figures: dict[str, float]) -> None:
    def shown(name: str, value: float) -> str:
        if name.endswith("/game"):
            return f"{value:.3f}"
        return f"{value:.1f}" if name.endswith("ms") else f"{value:.0f}"

    text = ", ".join(f"{name} {shown(name, value)}" for name, value in figures.items())
    print(f"{title}: {text}")


def start(args: argparse.Namespace) -> tuple[Any, str, Any]:
    """Our own server (and, with ``--postgres``, its own PostgreSQL cluster)."""
    cluster = None
    db = None
    if args.postgres:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        from pg_support import PgCluster

        cluster = PgCluster().start()
        db = cluster.database()
    proc, url, _ = start_server(workers=args.bot_workers, db=db)
    return proc, url, cluster


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=3, help="measured time (default 3)")
    parser.add_argument("--runs", type=int, default=1, help="runs; the median is printed")
    parser.add_argument("--postgres", action="store_true", help="a PostgreSQL cluster of its own")
    parser.add_argument("--game", default="nova-luna", help="nova-luna (default) or nmbr9")
    parser.add_argument("--people", type=int, default=56, help="account entrants (default 56)")
    parser.add_argument("--bots", type=int, default=8, help="our bots entered (default 8)")
    parser.add_argument("--think", type=float, default=0.1, help="mean think time, s (0.1)")
    parser.add_argument("--warmup", type=float, default=10, help="unmeasured start, s (10)")
    parser.add_argument("--bot-workers", type=int, default=1, help="server's bot workers (1)")
    args = parser.parse_args()
    # the accounts' password hashes are not what is measured: at the lowest cost
    os.environ.setdefault("TABLETOP_INSECURE_FAST_HASHES", "1")
    tune_gc()  # the clients must not be what is slow (as the load test)
    runs = []
    for run in range(args.runs):
        proc, url, cluster = start(args)
        try:
            figures = asyncio.run(one_run(url, proc.pid, args, run))
        finally:
            proc.terminate()
            proc.wait()
            if cluster is not None:
                cluster.stop()
        runs.append(summary(figures))
        where = "PostgreSQL" if args.postgres else "SQLite"
        show(f"run {run + 1} ({where}, {figures.errors} errors)", runs[-1])
    if args.runs > 1:
        show(f"median of {args.runs}", {k: statistics.median(r[k] for r in runs) for k in runs[0]})
    print(
        f"{args.people} accounts + {args.bots} of our bots, 2-player {args.game} arena, "
        f"think {args.think} s, {args.minutes:g} min measured"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
