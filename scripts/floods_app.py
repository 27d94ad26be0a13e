"""Benchmark: another player's move acks, quiet and under the application floods.

Starts ``novaluna serve`` on a fresh database (behind ``--trusted-proxy
127.0.0.1``, so that the floods can come "from" many addresses through
``X-Forwarded-For``, as they would through a proxy), with the server's own rate
limits for sign-ins and replays. Then, for each scenario, a pair of players
makes ``--moves`` moves in a game of their own, timing each from ``act`` sent to
its ``ack``, while a flood runs in another process:

* ``quiet``: nothing else;
* ``hash``: ``--flooders`` clients signing in to made-up names, each try from an
  address of its own (a password-hash flood from many addresses);
* ``replay``: 8 clients, each from its own address, looping on a finished game's
  ``GET /api/games/{id}/replay`` and ``POST /api/replay`` with its record;
* ``spectators``: 300 spectator sockets on the players' game.

Under ``quiet`` and ``hash`` a real user (an existing account, from a browser it
never used) also signs in over and over: its sign-in p50 and how many of its
tries were refused (503) are printed too. Each scenario is run ``--runs`` times;
the table shows the medians:

    .venv/bin/python scripts/floods_app.py
    .venv/bin/python scripts/floods_app.py --runs 5 --moves 200

Connection floods (slow bodies, connection caps) are another script's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_spectators import Player, new_game, play, spectator  # noqa: E402 - scripts beside this one
from loadtest import free_port  # noqa: E402

from tabletop.server.ratelimit import RateLimits  # noqa: E402

SCENARIOS = ["quiet", "hash", "replay", "spectators"]
PASSWORD = "correct horse battery"


def start_server(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [sys.executable, "-m", "tabletop.cli", "novaluna", "serve", "--port", str(port)]
    command += ["--db", str(db), "--trusted-proxy", "127.0.0.1"]
    for name in ("creates", "actions", "messages"):  # the players' own: out of the way
        command += [f"--rate-{name}", "1000000"]
    # every client runs here, on one address: the caps on sockets and connections per
    # address would refuse the crowd (another script measures those caps)
    command += ["--max-sockets-per-address", "1000000"]
    command += ["--max-connections-per-address", "1000000"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(150):
        if proc.poll() is not None:
            raise SystemExit("the server did not start")
        try:
            if httpx.get(f"{url}/api/types", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def address(n: int) -> str:
    return f"10.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"


async def hash_flood(url: str, flooders: int, stop: float) -> None:
    counter = iter(range(1, 10**9))

    async def one(http: httpx.AsyncClient) -> None:
        while time.monotonic() < stop:
            n = next(counter)
            body = {"name": f"nobody {n}", "password": f"guess number {n}"}
            with contextlib.suppress(httpx.HTTPError):
                headers = {"X-Forwarded-For": address(n)}
                await http.post("/api/account/login", json=body, headers=headers)

    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        await asyncio.gather(*(one(http) for _ in range(flooders)))


async def replay_flood(url: str, game_id: str, stop: float) -> None:
    async def one(n: int) -> None:
        headers = {"X-Forwarded-For": address(1_000_000 + n)}
        async with httpx.AsyncClient(base_url=url, timeout=30, headers=headers) as http:
            record = (await http.get(f"/api/games/{game_id}/record")).json()
            while time.monotonic() < stop:
                try:
                    await http.get(f"/api/games/{game_id}/replay")
                    await http.post("/api/replay", json=record)
                except httpx.HTTPError:
                    pass

    await asyncio.gather(*(one(n) for n in range(8)))


async def crowd(ws_url: str, stop: float) -> None:
    opened: list[float] = []
    tasks = [
        asyncio.create_task(spectator(ws_url, opened, time.perf_counter())) for _ in range(300)
    ]
    await asyncio.sleep(max(0.0, stop - time.monotonic()))
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def flood_process(kind: str, url: str, arg: str, seconds: float, flooders: int) -> None:
    stop = time.monotonic() + seconds
    if kind == "hash":
        asyncio.run(hash_flood(url, flooders, stop))
    elif kind == "replay":
        asyncio.run(replay_flood(url, arg, stop))
    elif kind == "spectators":
        asyncio.run(crowd(arg, stop))


async def finished_game(url: str) -> str:
    """A Nova Luna game of two people played to its end with random moves."""
    rng = random.Random(1)
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        body = {"type": "nova-luna", "seats": [{"kind": "human"}] * 2, "seed": 3}
        created = (await http.post("/api/games", json=body)).json()
        game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
        while True:
            state = (await http.get(f"/api/games/{game_id}")).json()
            if state["over"]:
                return game_id
            headers = {"Authorization": f"Bearer {tokens[state['to_move']]}"}
            mine = (await http.get(f"/api/games/{game_id}", headers=headers)).json()
            act = {"action": rng.choice(mine["choices"])["action"], "ply": mine["ply"]}
            await http.post(f"/api/games/{game_id}/actions", json=act, headers=headers)


async def players_game(url: str, seed: int) -> tuple[list[Player], str]:
    return await new_game(url, seed, random.Random(seed))


async def sign_ins(url: str, stop: float, results: list[tuple[int, float]]) -> None:
    """The real user signing in again and again, each time as a new browser."""
    n = 0
    while time.monotonic() < stop:
        n += 1
        headers = {"X-Forwarded-For": address(5_000_000 + n)}
        async with httpx.AsyncClient(base_url=url, timeout=30, headers=headers) as http:
            body = {"name": "Real User", "password": PASSWORD}
            sent = time.perf_counter()
            status = (await http.post("/api/account/login", json=body)).status_code
            results.append((status, time.perf_counter() - sent))
        await asyncio.sleep(0.2)


def ms(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] * 1000 if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] * 1000


async def scenario(
    kind: str, url: str, game_id: str, seed: int, args: argparse.Namespace
) -> dict[str, float]:
    players, ws_url = await players_game(url, seed)
    arg = ws_url if kind == "spectators" else game_id
    seconds = args.ramp + args.seconds
    flood = multiprocessing.Process(
        target=flood_process, args=(kind, url, arg, seconds, args.flooders)
    )
    flood.start()
    await asyncio.sleep(args.ramp)
    stop = time.monotonic() + args.seconds
    logins: list[tuple[int, float]] = []
    signing = (
        asyncio.create_task(sign_ins(url, stop, logins)) if kind in ("quiet", "hash") else None
    )
    acks: list[float] = []
    while time.monotonic() < stop and len(acks) < args.moves:
        moved = await play(players, 1)
        if not moved:  # the game ended: another one
            for p in players:
                await p.ws.close()
            players, _ = await players_game(url, seed + len(acks))
            continue
        acks.extend(moved)
        await asyncio.sleep(args.think)
    if signing is not None:
        await signing
    flood.join()
    for p in players:
        await p.ws.close()
    ok = [t for s, t in logins if s == 200]
    return {
        "ack_p50": ms(acks, 50),
        "ack_p99": ms(acks, 99),
        "ack_max": max(acks) * 1000 if acks else float("nan"),
        "moves": len(acks),
        "signin_p50": ms(ok, 50) if logins else float("nan"),
        "signin_refused": sum(1 for s, _ in logins if s != 200),
        "signin_tries": len(logins),
    }


async def run_all(url: str, args: argparse.Namespace) -> dict[str, list[dict[str, float]]]:
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        body = {"name": "Real User", "password": PASSWORD}
        assert (await http.post("/api/account/register", json=body)).status_code == 201
    game_id = await finished_game(url)
    figures: dict[str, list[dict[str, float]]] = {k: [] for k in args.scenarios}
    for run in range(args.runs):
        for kind in args.scenarios:
            figures[kind].append(await scenario(kind, url, game_id, 100 * run + 7, args))
            print(f"run {run + 1} {kind}: {figures[kind][-1]}", file=sys.stderr)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--moves", type=int, default=150, help="measured moves per scenario")
    parser.add_argument("--seconds", type=float, default=15, help="measured time at most")
    parser.add_argument("--ramp", type=float, default=2, help="flood time before measuring")
    parser.add_argument("--think", type=float, default=0.05, help="pause between moves, s")
    parser.add_argument("--flooders", type=int, default=64, help="hash flood's clients")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    args = parser.parse_args()
    args.scenarios = args.scenarios.split(",")
    folder = Path(tempfile.mkdtemp(prefix="novaluna-floods-"))
    proc, url = start_server(folder / "floods.sqlite3")
    try:
        figures = asyncio.run(run_all(url, args))
    finally:
        proc.terminate()
        proc.wait()
    replays = getattr(RateLimits(), "replays_per_minute", None)
    print(f"median of {args.runs} runs; replays limited: {replays is not None}")
    print("scenario    | ack p50 | ack p99 | ack max | moves | sign-in p50 | sign-ins refused")
    for kind, runs in figures.items():

        def med(key: str, runs: list[dict[str, Any]] = runs) -> float:
            return statistics.median(r[key] for r in runs)

        refused = f"{med('signin_refused'):.0f}/{med('signin_tries'):.0f}"
        print(
            f"{kind:11} | {med('ack_p50'):5.1f}ms | {med('ack_p99'):5.1f}ms | "
            f"{med('ack_max'):5.0f}ms | {med('moves'):5.0f} | {med('signin_p50'):8.0f} ms | "
            f"{refused if kind in ('quiet', 'hash') else '-'}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
