"""Does a live game's bot keep its pace while the server analyses finished games?

Starts a server (default bot workers, no bot pause), plays a Nova Luna game
against ``greedy`` over HTTP and times each bot answer (from our move to the
bot's move in the state); then finishes ``--analyses`` NMBR 9 games between
bots, asks for their analyses and times the same while those run. Prints the
median and 90th percentile of both, and how far the analyses got.

    .venv/bin/python scripts/bench_analysis_server.py --moves 30 --analyses 4
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from loadtest import free_port  # noqa: E402 - a sibling script

HUMAN = {"kind": "human", "name": "Ann"}


def start(workers: int) -> tuple[subprocess.Popen[bytes], httpx.Client]:
    db = Path(tempfile.mkdtemp(prefix="tabletop-analysis-bench-")) / "games.sqlite3"
    port = free_port()
    command = [sys.executable, "-m", "tabletop.cli", "novaluna", "serve", "--port", str(port)]
    command += ["--db", str(db), "--bot-workers", str(workers), "--bot-pause", "0"]
    for name in ("creates", "actions", "hints", "messages"):
        command += [f"--rate-{name}", "1000000"]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
    for _ in range(150):
        try:
            if client.get("/api/types").status_code == 200:
                return proc, client
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def bot_answers(client: httpx.Client, moves: int, seed: int) -> list[float]:
    """Seconds from each of our moves to the greedy bot's answer, over ``moves`` moves
    (new games as needed)."""
    rng = random.Random(seed)
    times: list[float] = []
    while len(times) < moves:
        bot = {"kind": "bot", "bot": "greedy"}
        created = client.post("/api/games", json={"type": "nova-luna", "seats": [HUMAN, bot]})
        game_id, token = created.json()["id"], created.json()["seats"][0]["token"]
        auth = {"Authorization": f"Bearer {token}"}
        state = client.get(f"/api/games/{game_id}", headers=auth).json()
        while not state["over"] and len(times) < moves:
            if state["acting"] != 0:
                state = client.get(f"/api/games/{game_id}", headers=auth).json()
                time.sleep(0.005)
                continue
            action = rng.choice(state["choices"])["action"]
            body = {"action": action, "ply": state["ply"]}
            state = client.post(f"/api/games/{game_id}/actions", json=body, headers=auth).json()
            if state["over"] or state["acting"] == 0:
                continue  # our turn again at once (the bot had nothing to do)
            began = time.perf_counter()
            while not state["over"] and state["acting"] != 0:
                time.sleep(0.002)
                state = client.get(f"/api/games/{game_id}", headers=auth).json()
            times.append(time.perf_counter() - began)
    return times


def finished_games(client: httpx.Client, count: int) -> list[str]:
    bots = [{"kind": "bot", "bot": "greedy"}] * 2
    ids = [
        client.post("/api/games", json={"type": "nmbr9", "seats": bots, "seed": s}).json()["id"]
        for s in range(count)
    ]
    for game_id in ids:
        while not client.get(f"/api/games/{game_id}").json()["over"]:
            time.sleep(0.05)
    return ids


def figures(label: str, times: list[float]) -> None:
    cut = sorted(times)[int(0.9 * (len(times) - 1))]
    print(
        f"{label}: greedy answered {len(times)} moves, median "
        f"{1000 * statistics.median(times):.1f} ms, 90th percentile {1000 * cut:.1f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=30, help="bot answers timed per phase")
    parser.add_argument("--analyses", type=int, default=4, help="games analysed meanwhile")
    parser.add_argument("--workers", type=int, default=max(1, min(4, os.cpu_count() or 2)))
    args = parser.parse_args()
    proc, client = start(args.workers)
    try:
        print(f"bot workers: {args.workers}")
        figures("no analysis running", bot_answers(client, args.moves, seed=1))
        ids = finished_games(client, args.analyses)
        for game_id in ids:
            client.post(f"/api/games/{game_id}/analysis")
        times = bot_answers(client, args.moves, seed=1)
        progress = [client.get(f"/api/games/{g}/analysis").json() for g in ids]
        running = sum(p["status"] == "running" for p in progress)
        figures(f"{args.analyses} analyses asked for ({running} still running at the end)", times)
        done = sum(p.get("done") or 0 for p in progress)
        print(f"analyses meanwhile: {done} decisions judged")
    finally:
        proc.terminate()
        proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
