"""Benchmark of the tournament engine's pairings (src/tabletop/tournaments).

Prints the median and worst milliseconds of (a) an arena pairing of 64 waiting
entrants, at 2- and 4-player tables, each with a previous table to keep apart from and
a few blocks; (b) the rounds of a Swiss event of 200 entrants at 4-player tables (and
2-player ones), results drawn at random (seeded) between rounds.

    PYTHONPATH=src .venv/bin/python scripts/bench_pairing.py --runs 20
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from tabletop.tournaments import (
    Bye,
    Entrant,
    Format,
    Game,
    arena_tables,
    standings,
    swiss_round,
)


def timed(work: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return times


def arena_case(players: int, rng: random.Random) -> Callable[[], object]:
    """An arena an hour in: 64 of 80 entrants free at once, each with a previous table."""
    fmt = Format("arena", players, max(2, players - 1), minutes=60)
    people = [Entrant(i, rng.gauss(1500, 200)) for i in range(1, 81)]
    games = []
    for order in range(40):  # some history, for standings near each other
        table = tuple(rng.sample(range(1, 81), players))
        ranks = tuple(rng.sample(range(1, players + 1), players))
        games.append(Game(f"g{order}", 0, table, ranks, order))
    ranking = standings(fmt, people, games, [])
    waiting = rng.sample(range(1, 81), 64)
    last = {}
    for start in range(0, 64, players):
        group = waiting[start : start + players]
        for who in group:
            last[who] = frozenset(group) - {who}
    blocks = {frozenset(rng.sample(range(1, 81), 2)) for _ in range(10)}
    return lambda: arena_tables(fmt, waiting, ranking, last, 80, blocks)


def swiss_rounds(
    players: int, entrants: int, rounds: int, rng: random.Random
) -> tuple[list[float], int]:
    """Milliseconds of each round's pairing of a whole Swiss event, and how many
    pairs of table-mates had met before."""
    fmt = Format("swiss", players, max(2, players - 1), rounds=rounds)
    people = [Entrant(i, rng.gauss(1500, 200)) for i in range(1, entrants + 1)]
    games: list[Game] = []
    byes: list[Bye] = []
    times = []
    met: set[frozenset[int]] = set()
    repeats = 0
    for round_no in range(1, rounds + 1):
        start = time.perf_counter()
        pairing = swiss_round(fmt, people, games, byes, round_no)
        times.append((time.perf_counter() - start) * 1000)
        for table in pairing.tables:
            pairs = {frozenset((a, b)) for a in table for b in table if a < b}
            repeats += len(pairs & met)
            met |= pairs
            ranks = tuple(rng.sample(range(1, len(table) + 1), len(table)))
            games.append(Game(f"g{len(games)}", round_no, table, ranks, len(games)))
        byes += [Bye(e, round_no) for e in pairing.byes]
    return times, repeats


def report(name: str, times: list[float], extra: str = "") -> None:
    median, worst = statistics.median(times), max(times)
    print(f"{name:<46} median {median:6.2f} ms   worst {worst:6.2f} ms{extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=47)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for players in (2, 4):
        report(
            f"arena, 64 waiting, {players}-player tables",
            timed(arena_case(players, rng), args.runs),
        )
    for players, rounds in ((4, 7), (2, 9)):
        events = [swiss_rounds(players, 200, rounds, rng) for _ in range(max(1, args.runs // 5))]
        times = [t for event_times, _ in events for t in event_times]
        repeats = sum(r for _, r in events)
        name = f"Swiss round, 200 entrants, {players}-player tables"
        report(
            name, times, f"   repeat meetings: {repeats} in {len(events)} events of {rounds} rounds"
        )


if __name__ == "__main__":
    main()
