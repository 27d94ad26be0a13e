"""Load test: N concurrent games driven over WebSocket by bot clients.

Starts ``novaluna serve`` on a fresh database (or uses ``--url``), keeps
``--games`` games of ``--seats`` people running at once — each seat a client on
its own WebSocket that picks a random legal move after a think time — and prints
actions per second and the latency of each action: from sending ``act`` to
receiving its ``ack``, which the server sends only after the move is stored
durably. A finished game is replaced by a new one. In NMBR 9 every seat places
at once, so each seat acts as soon as a round begins (after its think time).

With several processes (``--db postgresql://... --processes 2``, or ``--url`` given
once per running process) each game is created at one process and its seats
connect to the others in turn, so every move crosses processes: stored by one,
pushed to the other seat by another (PostgreSQL NOTIFY).

    .venv/bin/python scripts/loadtest.py --games 200 --seconds 60
    .venv/bin/python scripts/loadtest.py --game nmbr9 --seats 4 --games 200
    .venv/bin/python scripts/loadtest.py --db postgresql://... --processes 2 --games 400

``--bot-streams N`` also keeps N bot accounts online the whole time, each with its
event stream open (``WS /api/account/ws`` with an API token; docs/bot-api.md): what
they cost the players is the difference to a run without them.

    .venv/bin/python scripts/loadtest.py --games 200 --bot-streams 100

``--chat-floods N`` adds N accounts that each post to their own game's chat as fast as
the server answers (a flood: most get 429 from the chat's limits per account and per
address); what the flood costs the players is the difference to a run without it.

    .venv/bin/python scripts/loadtest.py --games 100 --chat-floods 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from functools import partial
from pathlib import Path

import httpx
import orjson
import websockets

from tabletop.server.main import tune_gc


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.client_lag: list[float] = []  # this process's own event-loop delays
        self.errors = 0
        self.games_finished = 0
        self.recording = False
        self.server_cpu = 0.0  # CPU seconds the servers used while measured
        self.bot_streams = 0  # bot accounts' event streams open to the end
        self.chat_answers: Counter[int] = Counter()  # the flood's answers, by status
        self.measured = 0.0  # seconds measured
        self.wanted: int | None = None  # measure until this many actions (else a time)
        self.enough = asyncio.Event()

    def record(self, latency: float) -> None:
        self.latencies.append(latency)
        if self.wanted is not None and len(self.latencies) >= self.wanted:
            self.enough.set()


async def seat_client(
    url: str, game_id: str, token: str, stats: Stats, rng: random.Random, think: float
) -> None:
    """Play one seat until the game is over."""
    ws_url = url.replace("http", "ws", 1) + f"/api/games/{game_id}/ws"
    try:
        await _play_seat(ws_url, token, stats, rng, think)
    except websockets.ConnectionClosed:  # refused or dropped by the server: it counts
        stats.errors += 1


async def _play_seat(
    ws_url: str, token: str, stats: Stats, rng: random.Random, think: float
) -> None:
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "tokens": [token]}))
        sent_at: float | None = None  # our action waiting for its ack
        acted_ply = -1
        # Only what the next move needs: a whole parsed state kept for the think time
        # would burden this process's garbage collector, and its pauses count as latency.
        turn: tuple[int, list[str]] | None = None  # (ply, legal actions) when it is ours
        choices: list[str] = []
        async for raw in ws:
            message = orjson.loads(raw)  # the client's parsing counts in every latency
            kind = message["type"]
            if kind == "state":
                if message["over"]:
                    return
                turn = None
                if message["choices"] is not None:  # null: the same as before
                    choices = [c["action"] for c in message["choices"]]
                if message["acting"] is not None:
                    turn = (message["ply"], choices)
            elif kind == "ack" and sent_at is not None:
                if stats.recording:
                    stats.record(time.perf_counter() - sent_at)
                sent_at = None
            elif kind == "error":
                stats.errors += 1
                sent_at = None
            if sent_at is None and turn is not None and turn[0] != acted_ply:
                await asyncio.sleep(rng.expovariate(1 / think) if think > 0 else 0)
                acted_ply, choice = turn[0], rng.choice(turn[1])
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": choice, "ply": acted_ply}))
    stats.errors += 1  # the server closed the socket before the game was over


async def game_loop(
    client: httpx.AsyncClient,
    urls: list[str],
    stats: Stats,
    seed: int,
    think: float,
    stop: float,
    game: str = "nova-luna",
    seats: int = 2,
    spread: bool = True,
) -> None:
    """Run one game after another until ``stop``; ``spread``: each seat at another
    process (else all at the game's, as a load balancer with affinity would)."""
    rng = random.Random(seed)
    while time.perf_counter() < stop:
        body = {"type": game, "seats": [{"kind": "human"}] * seats, "seed": rng.getrandbits(40)}
        home = urls[seed % len(urls)]
        created = (await client.post(f"{home}/api/games", json=body)).json()
        tokens = [s["token"] for s in created["seats"]]
        # seat i at process seed + i: with several, every game spans them
        places = [urls[(seed + i * spread) % len(urls)] for i in range(len(tokens))]
        await asyncio.gather(
            *(
                seat_client(url, created["id"], t, stats, rng, think)
                for url, t in zip(places, tokens, strict=True)
            )
        )
        stats.games_finished += 1


async def run(
    url: str | list[str],
    games: int,
    seconds: float,
    think: float,
    warmup: float,
    game: str = "nova-luna",
    seats: int = 2,
    spread: bool = True,
    servers: list[int] = [],  # noqa: B006 - never changed
    bot_streams: int = 0,
    actions: int | None = None,
    chat_floods: int = 0,
) -> Stats:
    """``servers``: the pids of the servers (this script's own), whose CPU time
    the run reports per action. ``actions``: measure until that many actions were
    acknowledged, however long it takes (the tests: a busy machine makes a measured
    time hold fewer), instead of for ``seconds``."""
    urls = [url] if isinstance(url, str) else url
    stats = Stats()
    stats.wanted = actions
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        # made first: each costs two password hashes, which must not count as load
        tokens = [await bot_token(urls[i % len(urls)], i) for i in range(bot_streams)]
        floods = [await flood_game(urls[i % len(urls)], i) for i in range(chat_floods)]
        start = time.perf_counter()
        stop = math.inf if actions is not None else start + warmup + seconds
        streams = [
            asyncio.create_task(bot_stream(urls[i % len(urls)], token, stop))
            for i, token in enumerate(tokens)
        ]
        flooding = [asyncio.create_task(chat_flood(*flood, stats, stop)) for flood in floods]
        loops = [
            asyncio.create_task(
                game_loop(client, urls, stats, seed, think, stop, game, seats, spread)
            )
            for seed in range(games)
        ]
        await asyncio.sleep(warmup)  # let every game get going before measuring
        stats.recording = True
        cpu = cpu_seconds(servers)
        lag = asyncio.create_task(watch_own_lag(stats))
        measuring = time.perf_counter()
        if actions is None:
            await asyncio.sleep(seconds)
        else:
            await stats.enough.wait()
        stats.recording = False
        stats.measured = time.perf_counter() - measuring
        stats.server_cpu = cpu_seconds(servers) - cpu
        lag.cancel()
        for task in loops + streams + flooding:
            task.cancel()
        await asyncio.gather(*loops, *streams, *flooding, return_exceptions=True)
        failed = [task.exception() for task in flooding if _failed(task)]
        if failed:
            raise SystemExit(f"a chat flood failed: {failed[0]!r}")
        stats.bot_streams = sum(1 for task in streams if not _failed(task))
    return stats


def _failed(task: asyncio.Task[None]) -> bool:
    return task.done() and not task.cancelled() and task.exception() is not None


async def bot_token(url: str, number: int) -> str:
    """A new bot account's API token (an account registered, made a bot, a token made),
    on a client of its own: the players' client must carry no session cookie."""
    name = f"LoadBot{number}x{random.randrange(10**6)}"
    async with httpx.AsyncClient(base_url=url, timeout=60) as page:
        for path, body in (
            ("/api/account/register", {"name": name, "password": "load test password"}),
            ("/api/account/bot", {"password": "load test password"}),
            ("/api/account/tokens", {"name": "load test"}),
        ):
            r = await page.post(path, json=body)
            if r.status_code not in (200, 201):
                raise SystemExit(f"could not make a bot account ({path}): {r.text}")
    return str(r.json()["token"])


async def flood_game(url: str, number: int) -> tuple[httpx.AsyncClient, str]:
    """An account in a game of two accounts that know each other (an accepted
    invitation, so it may chat at once): its client and the game."""
    names = [f"Flood{number}x{random.randrange(10**6)}{seat}" for seat in "ab"]
    clients = [httpx.AsyncClient(base_url=url, timeout=60) for _ in names]
    for page, name in zip(clients, names, strict=True):
        r = await page.post(
            "/api/account/register", json={"name": name, "password": "load test password"}
        )
        if r.status_code != 201:
            raise SystemExit(f"could not register a chat flood's account: {r.text}")
    seats = [{"kind": "human", "me": True}, {"kind": "human", "invite": names[1]}]
    game_id = (await clients[0].post("/api/games", json={"type": "nmbr9", "seats": seats})).json()[
        "id"
    ]
    await clients[1].post(f"/api/games/{game_id}/invitation", json={"accept": True})
    await clients[1].aclose()
    return clients[0], game_id


async def chat_flood(page: httpx.AsyncClient, game_id: str, stats: Stats, stop: float) -> None:
    """Post to the game's players' chat as fast as the server answers, until ``stop``."""
    body = {"channel": "players", "text": "buy cheap moon tiles " * 14}
    try:
        while time.perf_counter() < stop:
            r = await page.post(f"/api/games/{game_id}/chat", json=body)
            if stats.recording:
                stats.chat_answers[r.status_code] += 1
    finally:
        await page.aclose()


async def bot_stream(url: str, token: str, stop: float) -> None:
    """A bot account's event stream, open until ``stop``, reading what comes."""
    ws_url = url.replace("http", "ws", 1) + "/api/account/ws"
    headers = {"Authorization": f"Bearer {token}"}
    async with websockets.connect(ws_url, additional_headers=headers) as ws:
        while time.perf_counter() < stop:
            try:
                await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue


async def watch_own_lag(stats: Stats, tick: float = 0.01) -> None:
    """How late this client's own loop wakes up: a latency it adds to every figure."""
    while True:
        start = time.perf_counter()
        await asyncio.sleep(tick)
        stats.client_lag.append(time.perf_counter() - start - tick)


def cpu_seconds(pids: list[int]) -> float:
    """CPU time of these processes and all below them (bot workers), in seconds."""
    total, seen, todo = 0.0, set(), list(pids)
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        todo += children.get(pid, [])
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _limit_files(files: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))


def start_server(
    workers: int,
    port: int | None = None,
    db: str | None = None,
    extra: list[str] | None = None,
    files: int | None = None,
) -> tuple[subprocess.Popen[bytes], str, Path | str]:
    """Our own server on a free port, or ``SystemExit``: never benchmark, or write
    games into, somebody else's server. ``novaluna serve`` refuses a taken port
    before it creates its database, so an answer counts only once our fresh
    database exists and our process still runs. ``db``: a PostgreSQL URL to share
    (default: a new SQLite file); ``extra``: more ``serve`` options; ``files``: the
    server's limit on open files (default: this process's)."""
    if db is None:
        db = Path(tempfile.mkdtemp(prefix="novaluna-load-")) / "load.sqlite3"
    port = port or free_port()
    command = [sys.executable, "-m", "tabletop.cli", "novaluna", "serve", "--port", str(port)]
    command += ["--db", str(db), "--bot-workers", str(workers)]
    # one address plays every game (and registers every bot account)
    for name in ("creates", "actions", "hints", "messages", "logins", "replays"):
        command += [f"--rate-{name}", "1000000"]
    command += ["--max-sockets-per-address", "1000000"]  # likewise: every socket is ours
    command += ["--max-connections-per-address", "1000000"]  # and every connection
    command += extra or []
    limit = None if files is None else partial(_limit_files, files)
    proc = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=limit
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(150):
        if proc.poll() is not None:
            raise SystemExit(f"the load test's server did not start on port {port} (in use?)")
        try:
            answered = httpx.get(f"{url}/api/types", timeout=1).status_code == 200
        except httpx.HTTPError:
            answered = False
        if answered and (isinstance(db, str) or db.exists()) and proc.poll() is None:
            return proc, url, db
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the load test's server did not start")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--seconds", type=float, default=60, help="measured time (default 60)")
    parser.add_argument("--warmup", type=float, default=5, help="unmeasured start (default 5)")
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean think time per move, s (default 1.0)"
    )
    parser.add_argument(
        "--url",
        action="append",
        help="an already running server; once per process to spread games (default: start one)",
    )
    parser.add_argument("--db", help="start the servers on this postgresql://... database")
    parser.add_argument(
        "--processes", type=int, default=1, help="servers to start on --db (default 1)"
    )
    parser.add_argument(
        "--affinity",
        action="store_true",
        help="all seats of a game at one process (default: each seat at another)",
    )
    parser.add_argument(
        "--game", default="nova-luna", help="game type: nova-luna (default) or nmbr9"
    )
    parser.add_argument("--seats", type=int, default=2, help="people per game (default 2)")
    parser.add_argument(
        "--bot-streams", type=int, default=0, help="bot accounts online meanwhile (default 0)"
    )
    parser.add_argument(
        "--chat-floods",
        type=int,
        default=0,
        help="accounts flooding their games' chat meanwhile (default 0)",
    )
    args = parser.parse_args()
    tune_gc()  # the clients must not be what is slow: same collector settings as the server
    procs = []
    urls = args.url
    if urls is None:
        urls = []
        for _ in range(args.processes if args.db else 1):
            proc, url, db = start_server(workers=1, db=args.db)
            procs.append(proc)
            urls.append(url)
        shown = str(db).split("@")[-1]  # no password on the screen
        print(f"servers: {', '.join(urls)}, database {shown}")
    try:
        stats = asyncio.run(
            run(
                *(urls, args.games, args.seconds, args.think, args.warmup, args.game, args.seats),
                spread=not args.affinity,
                servers=[proc.pid for proc in procs],
                bot_streams=args.bot_streams,
                chat_floods=args.chat_floods,
            )
        )
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait()
    report(stats, args)
    return 0


def report(stats: Stats, args: argparse.Namespace) -> None:
    lat = sorted(stats.latencies)
    if not lat:
        print("no actions were measured")
        return
    ms = [x * 1000 for x in lat]
    p = statistics.quantiles(ms, n=100)
    print(
        f"{args.games} concurrent {args.seats}-seat {args.game} games, think {args.think} s, "
        f"{len(args.url or [None] * (args.processes if args.db else 1))} process(es), "
        f"{args.seconds:.0f} s measured: "
        f"{len(lat)} actions = {len(lat) / args.seconds:.0f} actions/s; "
        f"latency p50 {p[49]:.1f} ms, p90 {p[89]:.1f} ms, p99 {p[98]:.1f} ms, max {ms[-1]:.1f} ms; "
        f"{stats.games_finished} games finished, {stats.errors} errors"
    )
    if args.bot_streams:
        print(f"bot accounts online meanwhile: {stats.bot_streams} of {args.bot_streams}")
    if args.chat_floods:
        answers = ", ".join(f"{n} x {code}" for code, n in sorted(stats.chat_answers.items()))
        print(f"chat flood of {args.chat_floods} accounts, answered while measured: {answers}")
    if stats.server_cpu:
        print(
            f"server CPU: {stats.server_cpu:.1f} s = {stats.server_cpu / len(lat) * 1000:.2f} ms "
            "per action (the server processes and their bot workers; not PostgreSQL's)"
        )
    own = sorted(stats.client_lag)
    if own:
        print(
            f"the clients' own event-loop delay: p99 {own[int(len(own) * 0.99)] * 1000:.1f} ms, "
            f"max {own[-1] * 1000:.1f} ms (included in the latencies above)"
        )


if __name__ == "__main__":
    sys.exit(main())
