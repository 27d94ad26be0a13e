"""Games per second against workers: local processes (``--jobs``) and Ray (``--executor ray``).

Plays the same schedule (selfplay of ``--bots`` on seeds 0..``--games``-1) with each
executor at each worker count and prints the median games/s of ``--runs`` runs, and
the speed-up over one local process. Ray's start (a local cluster, or joining the one
at ``--address``) is timed apart: it is paid once per command, not per game. With
``--dataset`` every game also makes its data set rows (``selfplay --dataset``), which
adds the rows' transfer to the driver. docs/cluster.md reports what it measured.

    .venv/bin/python scripts/bench_cluster.py --game nmbr9 --bots greedy --workers 1,2
    .venv/bin/python scripts/bench_cluster.py --address HEAD:6379 --workers 8,16,32,64
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time

from tabletop.core.game import get_game
from tabletop.harness.executor import Executor
from tabletop.harness.selfplay import bot_specs
from tabletop.harness.tournament import Fixture, play_all, play_fixture


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="nmbr9", help="nmbr9 or nova-luna")
    parser.add_argument("--bots", default="greedy", help="bots by seat (the last repeats)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", default="1,2", help="worker counts, e.g. 1,2,4")
    parser.add_argument("--runs", type=int, default=3, help="repeats (the median is shown)")
    parser.add_argument("--address", help="a Ray cluster to join (default: start one here)")
    parser.add_argument("--no-local", action="store_true", help="measure Ray only")
    parser.add_argument("--dataset", action="store_true", help="make data set rows too")
    args = parser.parse_args()

    import ray

    game = get_game(args.game)
    specs = tuple(bot_specs(args.bots, args.players))
    options = {"remove": 0} if game.name == "nmbr9" else {"first_game": False}
    fixtures = [Fixture(game.name, options, specs, seed) for seed in range(args.games)]
    play = play_fixture
    if args.dataset:
        from tabletop.research.dataset import play_with_decisions

        play = play_with_decisions
    counts = [int(n) for n in args.workers.split(",")]
    start = time.perf_counter()
    if args.address:
        ray.init(address=args.address, logging_level=logging.ERROR, log_to_driver=False)
    else:
        ray.init(num_cpus=max(counts), include_dashboard=False, logging_level=logging.ERROR)
    print(f"Ray started/joined in {time.perf_counter() - start:.1f} s: {ray.cluster_resources()}")
    print(f"{args.game}, {' vs '.join(specs)}, {args.games} games, median of {args.runs} runs")

    def rate(executor: Executor) -> float:
        times = []
        for _ in range(args.runs):
            begin = time.perf_counter()
            played = sum(1 for _ in play_all(fixtures, executor, play=play))
            times.append(time.perf_counter() - begin)
            assert played == len(fixtures)
        return len(fixtures) / statistics.median(times)

    base = None
    for workers in counts:
        for kind in ("ray",) if args.no_local or args.address else ("local", "ray"):
            games_per_s = rate(Executor(kind, workers))
            base = base or games_per_s
            print(
                f"  {kind:5} {workers:3} workers: {games_per_s:8.1f} games/s"
                f"  ({games_per_s / base:.2f}x the first line)"
            )
    ray.shutdown()


if __name__ == "__main__":
    main()
