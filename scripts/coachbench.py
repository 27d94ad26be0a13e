"""What a casual game's coach costs (docs/web.md, "The coach"), in three figures:

1. **CPU per coached move** at the default budget (each game's ``coach_budget``):
   ``coach_move`` timed here with ``time.process_time`` (the NMBR 9 kernel's threads
   included) over the moves of random games, per game and mode.
2. **The answer time a client sees**: our own server, coached games played over the
   WebSocket one move at a time; from sending a move to the state that carries its
   judgement (a note, or the count of judged moves going up). Median of many moves.
3. **Other players' move latency while coached games run**: ``loadtest.run``'s plain
   two-person Nova Luna games (latency: a move's ``act`` to its ``ack``), alone, beside
   ``--coached`` games of the same kinds without the coach, and beside as many coached
   games (their player moving every ``--think`` seconds): the last two differ only in
   the coach.

The machine's load average is printed with each part: the figures are only as quiet
as the machine.

    .venv/bin/python scripts/coachbench.py                 # all three, defaults
    .venv/bin/python scripts/coachbench.py --moves 100 --coached 20 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

from tabletop.analysis.coach import coach_budget, coach_move
from tabletop.analysis.run import analyser_of
from tabletop.core.web import get_web_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from loadtest import report, run, start_server  # noqa: E402 - a script beside this one

#: What is coached: (label, game, seats as the create request gives them).
KINDS = [
    ("NMBR 9 solo", "nmbr9", [{"kind": "human"}]),
    ("Nova Luna solo", "nova-luna", [{"kind": "human"}]),
    ("Nova Luna vs greedy", "nova-luna", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]),
]


# -- 1: CPU per coached move ----------------------------------------------------------------


def cpu_per_move(name: str, players: int, moves: int, seed: int) -> list[float]:
    """CPU seconds of ``coach_move`` for ``moves`` random moves of seat 0 (random games,
    the other seats greedy's first choice), at the game's coach budget."""
    game = get_web_game(name)
    analyser = analyser_of(game)
    budget = coach_budget(analyser)
    rng = random.Random(seed)
    times: list[float] = []
    while len(times) < moves:
        match = game.new_match(players, {}, rng.getrandbits(40))
        scale = analyser.scale(match.record(["a"] * players)).to_json()
        ply = 0
        while not match.is_over() and len(times) < moves:
            seat = min(match.active_seats())
            action = rng.choice(match.choices(seat))["action"]
            if seat == 0:
                view = match.state.view(seat)
                start = time.process_time()
                coach_move(name, scale, view, seat, action, ply, budget, 1)
                times.append(time.process_time() - start)
            match.apply(seat, action)
            ply += 1
    return times


# -- 2 and 3: a coached player over the WebSocket ----------------------------------------------


async def coached_player(
    url: str,
    game: str,
    seats: list[dict[str, Any]],
    rng: random.Random,
    think: float,
    answers: list[float] | None,
    stop: float,
    coach: bool = True,
) -> None:
    """Play coached games (``coach``: else the same games without) one after another
    until ``stop``: random moves, each after ``think`` seconds; with ``answers``, each
    move waits for its judgement and its answer time is kept."""
    async with httpx.AsyncClient(timeout=60) as client:
        while time.perf_counter() < stop:
            body = {"type": game, "seats": seats, "coach": coach, "seed": rng.getrandbits(40)}
            made = (await client.post(f"{url}/api/games", json=body)).json()
            token = made["seats"][0]["token"]
            ws_url = url.replace("http", "ws", 1) + f"/api/games/{made['id']}/ws"
            async with websockets.connect(ws_url, max_size=2**23) as ws:
                await ws.send(json.dumps({"type": "hello", "tokens": [token]}))
                await _play(ws, rng, think, answers, stop)


async def _play(
    ws: Any, rng: random.Random, think: float, answers: list[float] | None, stop: float
) -> None:
    choices: list[str] = []
    acted = -1
    sent: tuple[float, int] | None = None  # (when, judged before) of a move awaiting its note
    async for raw in ws:
        message = orjson.loads(raw)
        if message["type"] != "state":
            continue
        coach = message["coach"] or {"judged": 0, "busy": []}
        if sent is not None and coach["judged"] + len(coach["busy"]) > sent[1]:
            if answers is not None:
                answers.append(time.perf_counter() - sent[0])
            sent = None
        if message["over"] or time.perf_counter() > stop:
            return
        if message["choices"] is not None:
            choices = [c["action"] for c in message["choices"]]
        waiting = answers is not None and sent is not None
        if message["acting"] is None or message["ply"] == acted or waiting:
            continue
        await asyncio.sleep(rng.expovariate(1 / think) if think > 0 else 0)
        acted = message["ply"]
        judged = coach["judged"] + len(coach["busy"])
        sent = (time.perf_counter(), judged)
        await ws.send(json.dumps({"type": "act", "action": rng.choice(choices), "ply": acted}))


async def answer_times(url: str, moves: int, seed: int) -> dict[str, list[float]]:
    """Per kind, the answer time of ``moves`` coached moves, one game at a time."""
    found: dict[str, list[float]] = {}
    for label, game, seats in KINDS:
        answers: list[float] = []
        rng = random.Random(seed)
        task = asyncio.create_task(
            coached_player(url, game, seats, rng, 0.0, answers, time.perf_counter() + 3600)
        )
        while len(answers) < moves and not task.done():
            await asyncio.sleep(0.1)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        found[label] = answers[:moves]
    return found


async def beside(
    url: str, args: argparse.Namespace, pids: list[int], games: int, coach: bool
) -> Any:
    """``loadtest.run``'s plain games while ``games`` players of the coached kinds play
    (``coach``: with the coach)."""
    stop = time.perf_counter() + args.warmup + args.seconds + 5
    players = [
        asyncio.create_task(
            coached_player(url, *_kind(i), random.Random(i), args.think, None, stop, coach)
        )
        for i in range(games)
    ]
    stats = await run(url, args.games, args.seconds, args.think, args.warmup, servers=pids)
    for task in players:
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    return stats


def _kind(number: int) -> tuple[str, list[dict[str, Any]]]:
    """The game and seats of the ``number``-th coached game: the kinds in turn."""
    _, game, seats = KINDS[number % len(KINDS)]
    return game, seats


def _line(label: str, values: list[float], unit: str = "ms") -> str:
    ms = sorted(v * 1000 for v in values)
    if not ms:
        return f"{label}: nothing measured"
    p90 = ms[int(len(ms) * 0.9)] if len(ms) > 1 else ms[0]
    median = statistics.median(ms)
    return (
        f"{label}: median {median:.0f} {unit}, p90 {p90:.0f} {unit}, "
        f"max {ms[-1]:.0f} {unit} ({len(ms)} moves)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=60, help="moves measured per kind (60)")
    parser.add_argument("--coached", type=int, default=20, help="coached games meanwhile (20)")
    parser.add_argument("--games", type=int, default=50, help="other games (50)")
    parser.add_argument("--seconds", type=float, default=40, help="latency measured, s (40)")
    parser.add_argument("--warmup", type=float, default=5, help="unmeasured start, s (5)")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time, s (1.0)")
    parser.add_argument("--workers", type=int, default=2, help="the server's bot workers (2)")
    parser.add_argument("--only", choices=["cpu", "answers", "latency"], help="one part")
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    if args.only in (None, "cpu"):
        print("1. CPU per coached move (coach_move here, at each game's coach budget):")
        for label, game, seats in KINDS:
            print("   " + _line(label, cpu_per_move(game, len(seats), args.moves, 1)))
    if args.only in (None, "answers"):
        proc, url, _ = start_server(workers=args.workers, extra=["--bot-pause", "0"])
        try:
            print(
                f"2. Answer time seen by a client ({args.workers} bot workers, one game at a time):"
            )
            for label, times in asyncio.run(answer_times(url, args.moves, 2)).items():
                print("   " + _line(label, times))
        finally:
            proc.terminate()
            proc.wait()
    if args.only in (None, "latency"):
        print(
            f"3. Other players' move latency, {args.games} two-person games, "
            f"{args.workers} bot workers:"
        )
        for games, coach, label in (
            (0, False, "alone"),
            (args.coached, False, f"beside {args.coached} games of the same kinds, no coach"),
            (args.coached, True, f"beside {args.coached} coached games"),
        ):
            proc, url, _ = start_server(workers=args.workers)
            try:
                stats = asyncio.run(beside(url, args, [proc.pid], games, coach))
            finally:
                proc.terminate()
                proc.wait()
            print(f"   {label} (load average {os.getloadavg()[0]:.1f}):")
            report(
                stats,
                argparse.Namespace(
                    **{
                        **vars(args),
                        "seats": 2,
                        "game": "nova-luna",
                        "url": [url],
                        "db": None,
                        "bot_streams": 0,
                    }
                ),
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
