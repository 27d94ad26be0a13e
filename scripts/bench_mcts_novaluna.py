"""Two Nova Luna bots head to head, with the time each takes a move: the benchmark for
mcts's levels (docs/learned-evaluation.md).

    PYTHONPATH=src .venv/bin/python scripts/bench_mcts_novaluna.py \\
        --new mcts:strong --old mcts:normal --deals 100 --jobs 2

Each deal (seeds from ``--seed``) is played twice, seats swapped, by the rules' engine
as a referee: the bots see only their ``View``. Printed: the new bot's share of wins
with its standard error, and each bot's median and mean seconds a move (moves with one
legal action left out: no bot thinks there). Both bots run in the same process, one
game at a time per job, so the times compare on a loaded machine too.

``--new-settings`` changes the new bot's ``mcts.Settings`` (JSON), to try a leaf:

    --new mcts:strong-fast --old mcts:strong-fast \
    --new-settings '{"sharpness": 0.689, "time_weight": 0.341, "near_weight": 0.402,
                     "far_weights": [0.332, 0.197], "turn_weight": 0.062}'
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import statistics
import time
from multiprocessing import Pool
from typing import Any

from tabletop.games.novaluna.bots import Bot, make_bot
from tabletop.games.novaluna.bots.mcts import MctsBot
from tabletop.games.novaluna.rules import Game, StandardResult

Job = tuple[str, str, int, int, dict[str, Any]]


def new_bot(spec: str, seed: int, changes: dict[str, Any]) -> Bot:
    bot = make_bot(spec, seed=seed)
    if changes:
        assert isinstance(bot, MctsBot), "--new-settings changes an mcts bot"
        fields = {k: tuple(v) if isinstance(v, list) else v for k, v in changes.items()}
        bot.settings = dataclasses.replace(bot.settings, **fields)
    return bot


def play(job: Job) -> tuple[bool, list[float], list[float]]:
    """One game, ``new`` in ``new_seat``: whether it won, and both bots' move times."""
    new, old, seed, new_seat, changes = job
    bots = [
        new_bot(new, seed * 2 + seat, changes)
        if seat == new_seat
        else make_bot(old, seed=seed * 2 + seat)
        for seat in (0, 1)
    ]
    times: list[list[float]] = [[], []]
    state = Game(players=2).new_state(seed=seed)
    while not state.is_over:
        seat = state.current_seat
        view = state.view(seat)
        if len(view.legal_actions()) == 1:
            state.apply(view.legal_actions()[0])
            continue
        start = time.perf_counter()
        action = bots[seat].choose(view)
        times[seat].append(time.perf_counter() - start)
        state.apply(action)
    result = state.result()
    assert isinstance(result, StandardResult)
    return result.ranking[0] == new_seat, times[new_seat], times[1 - new_seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--new", default="mcts:strong")
    parser.add_argument("--old", default="mcts:normal")
    parser.add_argument("--deals", type=int, default=100, help="deals, each played twice")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--new-settings", type=json.loads, default={}, help="JSON")
    args = parser.parse_args()
    jobs = [
        (args.new, args.old, seed, seat, args.new_settings)
        for seed in range(args.seed, args.seed + args.deals)
        for seat in (0, 1)
    ]
    with Pool(args.jobs) as pool:
        games = pool.map(play, jobs, chunksize=1)
    wins = sum(won for won, _, _ in games)
    share = wins / len(games)
    error = math.sqrt(share * (1 - share) / len(games))
    new_times = [t for _, mine, _ in games for t in mine]
    old_times = [t for _, _, theirs in games for t in theirs]
    changed = f" with {json.dumps(args.new_settings)}" if args.new_settings else ""
    last = args.seed + args.deals - 1
    print(f"{args.new}{changed} against {args.old}: {len(games)} games, deals {args.seed}..{last}")
    print(f"  {args.new} won {wins} ({share:.1%} ± {error:.1%})")
    for name, times in ((args.new, new_times), (args.old, old_times)):
        print(
            f"  {name}: median {statistics.median(times):.3f} s a move, "
            f"mean {statistics.fmean(times):.3f} s, longest {max(times):.3f} s"
        )


if __name__ == "__main__":
    main()
