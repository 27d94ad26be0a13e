"""A bound for the solo benchmark: a planner that is *told* the refill.

The solo game's only hidden information is the refill between the phases. This
script plays the solo planner's search with that secret handed to it — every
phase-1 end state is judged on the true refill instead of sampled ones — so its
mean is roughly the best any honest planner could hope for with the same search.
It is a measuring stick for ``novaluna solo-bench``, never a bot: it reads the
pile order, which no bot may.

    .venv/bin/python scripts/solo_clairvoyant.py --games 500 --seed 1 --jobs 2
"""

from __future__ import annotations

import argparse
import statistics
from concurrent.futures import ProcessPoolExecutor

from novaluna.bots import solo
from novaluna.rules import Game
from novaluna.rules.state import SOLO_PHASE1_DISCS

PARAMS = solo.Weights().as_params()
PHASE1_BEAM, CANDIDATES, JUDGE_BEAM, PHASE2_BEAM = 1000, 150, 30, 8000


def play(seed: int) -> tuple[int, int]:
    """Total and phase-1 score of one clairvoyant game."""
    state = Game(players=1).new_state(seed=seed)
    refill = tuple(state.pile_order()[state.drawn : state.drawn + 11])
    while not state.is_over:
        view = state.view()
        display, wheel, meeple = solo._position(view)
        if state.phase == 1:
            lines, _ = solo.kernel.search(
                display, wheel, meeple, 1, len(display), PARAMS, PHASE1_BEAM, 10**12,
                CANDIDATES, view.discs_placed(0) >= SOLO_PHASE1_DISCS,
            )  # fmt: skip
            plans = [solo._line(item) for item in lines]
            ends = [plan.end for plan in plans]
            scores, _ = solo.kernel.phase2_scores(ends, [refill], PARAMS, JUDGE_BEAM, 10**12)
            totals = [plan.phase1_score + row[0] for plan, row in zip(plans, scores, strict=True)]
            first_move = plans[min(range(len(plans)), key=totals.__getitem__)].moves[0]
        else:
            lines, _ = solo.kernel.search(
                display, wheel, meeple, 2, 0, PARAMS, PHASE2_BEAM, 10**12, 1, False
            )
            first_move = lines[0][1][0]
        state.apply(solo._action(first_move))
    result = state.result()
    return result.total, result.phase1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play, seeds, chunksize=4))
    totals = [total for total, _ in results]
    print(
        f"clairvoyant solo planner, {args.games} games from seed {args.seed}: "
        f"mean {statistics.fmean(totals):.2f} "
        f"(standard error {statistics.stdev(totals) / len(totals) ** 0.5:.2f}), "
        f"median {statistics.median(totals):g}, "
        f"mean phase 1 {statistics.fmean(p1 for _, p1 in results):.1f}"
    )


if __name__ == "__main__":
    main()
