"""A bound for the solo benchmark: a planner that is *told* the refill.

The solo game's only hidden information is the refill between the phases. This
script plays the solo planner with that secret handed to it — every phase-1 end
state is judged on the true refill instead of sampled ones; phase 2 is the
planner's own — so its mean is roughly the best any honest planner could hope
for with the same search. It is a measuring stick for ``novaluna solo-bench``,
never a bot: it reads the pile order, which no bot may.

    .venv/bin/python scripts/solo_clairvoyant.py --games 200 --seed 1 --jobs 2

``--beam`` and ``--candidates`` widen the phase-1 search (the planner's own are
1,000 and 150), ``--judge-beam`` the phase-2 search that judges each end state on
the true refill. ``--phase2-beams 1000,8000`` measures something else: how much
better a wider phase-2 search does from the phase-2 starts ``solo:fast`` reaches
(the mean best line found at each width).
"""

from __future__ import annotations

import argparse
import statistics
from concurrent.futures import ProcessPoolExecutor
from typing import NamedTuple

from tabletop.games.novaluna.bots import solo
from tabletop.games.novaluna.rules import Action, Game, View

UNLIMITED = 10**12


class Breadth(NamedTuple):
    beam: int = 1000  # lines kept per step of the phase-1 search
    candidates: int = 150  # phase-1 end states judged
    judge_beam: int = 30  # the phase-2 search judging each on the true refill


class ClairvoyantPlanner(solo.SoloPlanner):
    """The solo planner, but phase-1 plans are judged on the true refill."""

    def __init__(self, refill: tuple[int, ...], breadth: Breadth) -> None:
        super().__init__(solo.LEVELS["normal"])
        self.refill = refill
        self.breadth = breadth

    def _phase1(self, view: View) -> tuple[Action, str]:
        self._left = UNLIMITED  # a bound, not a bot: no time limit
        b = self.breadth
        found = self._search(view, phase=1, beam=b.beam, keep=b.candidates)
        plans = [solo._line(item) for item in found]
        rows, _ = solo.kernel.phase2_scores(
            [plan.end for plan in plans], [self.refill], self._params, b.judge_beam, UNLIMITED
        )
        totals = [plan.phase1_score + row[0] for plan, row in zip(plans, rows, strict=True)]
        best = plans[min(range(len(plans)), key=totals.__getitem__)]
        return best.moves[0], "told the refill"


def play(job: tuple[int, Breadth]) -> tuple[int, int]:
    """Total and phase-1 score of one clairvoyant game."""
    seed, breadth = job
    state = Game(players=1).new_state(seed=seed)
    bot = ClairvoyantPlanner(tuple(state.pile_order()[state.drawn : state.drawn + 11]), breadth)
    while not state.is_over:
        state.apply(bot.choose(state.view()))
    result = state.result()
    return result.total, result.phase1


def phase2_start(seed: int) -> solo.Position | None:
    """Where ``solo:fast`` starts phase 2 on this pile (None: the game ended in phase 1)."""
    state = Game(players=1).new_state(seed=seed)
    bot = solo.SoloPlanner(solo.LEVELS["fast"], seed=seed)
    while not state.is_over and state.view().phase == 1:
        state.apply(bot.choose(state.view()))
    return None if state.is_over else solo._position(state.view())


def phase2_best(job: tuple[solo.Position, int]) -> float:
    (display, wheel, meeple), beam = job
    params = solo.Weights().as_params()
    lines, _ = solo.kernel.search(display, wheel, meeple, 2, 0, params, beam, UNLIMITED, 1, False)
    return lines[0][0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--beam", type=int, default=Breadth().beam)
    parser.add_argument("--candidates", type=int, default=Breadth().candidates)
    parser.add_argument("--judge-beam", type=int, default=Breadth().judge_beam)
    parser.add_argument("--phase2-beams", help="widths, e.g. 1000,8000: the phase-2 search")
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    with ProcessPoolExecutor(args.jobs) as pool:
        if args.phase2_beams:
            starts = [s for s in pool.map(phase2_start, seeds) if s is not None]
            for beam in map(int, args.phase2_beams.split(",")):
                best = list(pool.map(phase2_best, [(position, beam) for position in starts]))
                print(
                    f"phase-2 beam {beam}: mean best line {statistics.fmean(best):.2f} "
                    f"over {len(best)} phase-2 starts"
                )
            return
        breadth = Breadth(args.beam, args.candidates, args.judge_beam)
        results = list(pool.map(play, [(seed, breadth) for seed in seeds], chunksize=4))
    totals = [total for total, _ in results]
    print(
        f"clairvoyant solo planner ({breadth._asdict()}), "
        f"{args.games} games from seed {args.seed}: "
        f"mean {statistics.fmean(totals):.2f} "
        f"(standard error {statistics.stdev(totals) / len(totals) ** 0.5:.2f}), "
        f"median {statistics.median(totals):g}, "
        f"mean phase 1 {statistics.fmean(p1 for _, p1 in results):.1f}"
    )


if __name__ == "__main__":
    main()
