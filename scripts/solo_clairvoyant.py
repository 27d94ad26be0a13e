"""A bound for the solo benchmark: a planner that is *told* the refill.

The solo game's only hidden information is the refill between the phases. This
script plays the solo planner with that secret handed to it — every phase-1 end
state is judged on the true refill instead of sampled ones; phase 2 is the
planner's own — so its mean is roughly the best any honest planner could hope
for with the same search. It is a measuring stick for ``novaluna solo-bench``,
never a bot: it reads the pile order, which no bot may.

    .venv/bin/python scripts/solo_clairvoyant.py --games 500 --seed 1 --jobs 2
"""

from __future__ import annotations

import argparse
import statistics
from concurrent.futures import ProcessPoolExecutor

from tabletop.games.novaluna.bots import solo
from tabletop.games.novaluna.rules import Action, Game, View

PHASE1_BEAM, CANDIDATES, JUDGE_BEAM = 1000, 150, 30
UNLIMITED = 10**12


class ClairvoyantPlanner(solo.SoloPlanner):
    """The solo planner, but phase-1 plans are judged on the true refill."""

    def __init__(self, refill: tuple[int, ...]) -> None:
        super().__init__(solo.LEVELS["normal"])
        self.refill = refill

    def _phase1(self, view: View) -> tuple[Action, str]:
        self._left = UNLIMITED  # a bound, not a bot: no time limit
        found = self._search(view, phase=1, beam=PHASE1_BEAM, keep=CANDIDATES)
        plans = [solo._line(item) for item in found]
        rows, _ = solo.kernel.phase2_scores(
            [plan.end for plan in plans], [self.refill], self._params, JUDGE_BEAM, UNLIMITED
        )
        totals = [plan.phase1_score + row[0] for plan, row in zip(plans, rows, strict=True)]
        best = plans[min(range(len(plans)), key=totals.__getitem__)]
        return best.moves[0], "told the refill"


def play(seed: int) -> tuple[int, int]:
    """Total and phase-1 score of one clairvoyant game."""
    state = Game(players=1).new_state(seed=seed)
    bot = ClairvoyantPlanner(tuple(state.pile_order()[state.drawn : state.drawn + 11]))
    while not state.is_over:
        state.apply(bot.choose(state.view()))
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
