"""The ``solo`` planner: exhaustive-width beam search over the solo game's phases.

Within a solo phase nothing is hidden (there is no refill), so a phase is a
puzzle: which tiles to take, in which order, and where to lay them. The
planner searches it with a wide beam in a C kernel (``_solokernel.c``) that
evaluates millions of placements a second and merges lines that reach the same
display up to rotation, reflection and shift.

* **Phase 2** is exact: the best line found is played, and kept, so a later
  move never settles for a worse line than an earlier one found.
* **Phase 1** ends in a random refill, so its lines are judged by what follows:
  the best distinct phase-1 end states (including "end phase 1 now" once 8
  discs are placed) are each played out over the same sampled refills (drawn
  from the unseen tiles: their *set* is known, never their order) with a
  quick phase-2 search, in rounds that give the most promising lines more
  samples. The unseen tiles do not change during phase 1, so the samples and
  each end state's scores carry over from move to move.

Scores are the game's own, lower is better: phase-1 tiles count twice, every
missing disc costs 10. Work is counted in placements evaluated, not seconds, so
a seed gives the same game on any machine. Where the kernel was not built (installed
without a C compiler) every level plays as ``greedy`` (``compiled.KERNEL``).
"""

from __future__ import annotations

import os
import random
import statistics
from dataclasses import dataclass, field

from ....i18n import N_, Reason
from ..rules import END_PHASE, Action, Place, View
from ..rules.display import cell_key, cell_xy
from ..rules.state import SOLO_PHASE1_DISCS
from ..rules.tiles import TILE_COLOR, TILE_COST, TILE_TASKS
from .base import Bot, BotSpecError, legal_or_raise, make_bot, register
from .compiled import KERNEL, kernel
from .explain import describe

if KERNEL.built:
    kernel.setup_tiles(TILE_COLOR, TILE_COST, TILE_TASKS)


@dataclass(frozen=True, slots=True)
class Weights:
    """The beam's estimate of a line's final score (the kernel's parameter order).

    Unfinished lines: cost so far (phase-1 tiles twice) + 10 per missing
    phase-1 disc + ``rate`` per disc still to place − ``near_k`` per open task
    ``k`` tiles short. Phase-1 end states (``end_*``) add the same kind of
    estimate of phase 2 (their order only decides which are sampled).
    """

    rate2: float = 4.0
    near2_1: float = 1.0
    near2_2: float = 0.3
    near2_3: float = 0.0
    rate1: float = 4.0
    near1_1: float = 1.0
    near1_2: float = 0.3
    near1_3: float = 0.0
    end_base: float = 0.0
    end_rate: float = 4.0
    end_near1: float = 1.0
    end_near2: float = 0.3
    end_near3: float = 0.0
    end_tile: float = 0.0

    def as_params(self) -> tuple[float, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)


@dataclass(frozen=True, slots=True)
class Settings:
    phase1_beam: int = 1000  # lines kept per step in phase 1
    candidates: int = 150  # phase-1 end states considered per move
    # Sampling rounds: (how many of the best end states so far, samples each).
    rounds: tuple[tuple[int, int], ...] = ((150, 8), (40, 32), (10, 128))
    sample_beam: int = 8  # the phase-2 search on each sampled refill
    phase2_beam: int = 8000  # the phase-2 search that decides moves
    # Placements evaluated per move (one core here evaluates 5-7 million a
    # second, two about 9 million on sampled refills). Once spent, no more
    # samples are drawn and searches finish their lines one at a time.
    budget: int = 4_000_000
    weights: Weights = field(default_factory=Weights)
    # Threads for the sampled refills: they change the speed, never the choice.
    threads: int = field(default_factory=lambda: min(4, os.cpu_count() or 1))


#: Settings per level (``normal`` is the default). ``fast`` is the hint bot.
LEVELS: dict[str, Settings] = {
    "fast": Settings(
        phase1_beam=300,
        candidates=40,
        rounds=((40, 8), (10, 24)),
        phase2_beam=1000,
        budget=800_000,
    ),
    "normal": Settings(),
    "strong": Settings(
        phase1_beam=3000,
        candidates=300,
        rounds=((300, 16), (60, 48), (15, 128)),
        sample_beam=16,
        phase2_beam=20000,
        budget=14_000_000,
    ),
}


@dataclass(slots=True)
class Line:
    """A phase-1 line from the kernel: its moves and where it ends phase 1."""

    moves: tuple[Action, ...]
    end: Position  # the phase-1 end state
    phase1_score: int  # cost of the display + 10 per missing phase-1 disc


class SoloPlanner:
    """The solo planner (see the module docstring).

    >>> from tabletop.games.novaluna.rules import Game
    >>> state = Game(players=1).new_state(seed=3)
    >>> bot = SoloPlanner(LEVELS["fast"], seed=1)
    >>> bot.choose(state.view()) in state.legal_actions()
    True
    """

    name = "solo"

    def __init__(self, settings: Settings | None = None, seed: int | None = None) -> None:
        if not KERNEL.built:  # make_bot plays the fallback instead: only a direct call
            raise RuntimeError(
                "the solo planner's compiled kernel was not built (no C compiler at install)"
            )
        self.settings = settings or Settings()
        self.rng = random.Random(seed)
        self._params = self.settings.weights.as_params()
        # Phase 1: sampled refills for the current unseen tiles, and per end
        # state its phase-2 scores on the first samples.
        self._unseen: tuple[int, ...] | None = None
        self._orders: list[tuple[int, ...]] = []
        self._scores: dict[Position, list[float]] = {}
        # Phase 2: the position the kept line starts from, its moves and score.
        self._kept: tuple[Position, tuple[Action, ...], float] | None = None
        self._left = 0  # placements this move may still evaluate

    def choose(self, view: View) -> Action:
        return self.explain(view)[0]

    def explain(self, view: View) -> tuple[Action, Reason]:
        """The action ``choose`` would take, with a one-line reason."""
        legal = legal_or_raise(view)
        if not view.game.solo:
            raise ValueError("the solo planner plays only the solo game; use mcts")
        if len(legal) == 1:
            return legal[0], describe(view, legal[0]) + Reason.of(N_("the only legal move"))
        self._left = self.settings.budget
        if view.phase == 1:
            return self._phase1(view)
        return self._phase2(view)

    # -- phase 2 ------------------------------------------------------------------

    def _phase2(self, view: View) -> tuple[Action, Reason]:
        """Play the best line found so far: searched now, or kept from before."""
        display, wheel, meeple = _position(view)
        lines = self._search(view, phase=2, beam=self.settings.phase2_beam, keep=1)
        moves, value = lines[0][1], lines[0][0]
        key = (display, wheel, meeple)
        if self._kept is not None and self._kept[0] == key and self._kept[2] <= value:
            moves, value = self._kept[1], self._kept[2]
        action = moves[0]
        self._kept = (_after(key, action), moves[1:], value)
        total = view.phase1_score + value
        ends = Reason.of(N_("the best plan ends on {total}"), total=f"{total:.0f}")
        return action, describe(view, action) + ends

    # -- phase 1 ------------------------------------------------------------------

    def _phase1(self, view: View) -> tuple[Action, Reason]:
        """Choose among the best phase-1 end states by their sampled phase-2 scores."""
        best, most = self._best_line(view)
        action = best.moves[0]
        return action, describe(view, action) + Reason.of(
            N_("its plan scores about {score} over {n} sampled refills"),
            score=f"{self._estimate(best):.0f}",
            n=most,
        )

    def _best_line(self, view: View) -> tuple[Line, int]:
        """The best phase-1 line from ``view`` by its sampled phase-2 scores, and how
        many samples the finalists got (post-game analysis reads its estimate too)."""
        s = self.settings
        lines = [
            _line(item)
            for item in self._search(view, phase=1, beam=s.phase1_beam, keep=s.candidates)
        ]
        self._refills_for(view.unseen_tiles)
        pool = lines  # best first by the beam's estimate, then by the samples
        for count, samples in s.rounds:
            pool = pool[:count]
            self._sample(pool, samples)
            pool.sort(key=self._estimate)
        most = max(len(self._scores.get(line.end, ())) for line in pool)
        finalists = [line for line in pool if len(self._scores.get(line.end, ())) == most]
        return min(finalists, key=self._estimate), most

    def _estimate(self, line: Line) -> float:
        """Estimated final score of a phase-1 line (infinite before any sample)."""
        scores = self._scores.get(line.end)
        if not scores:
            return float("inf")
        return line.phase1_score + statistics.fmean(scores)

    def _sample(self, lines: list[Line], samples: int) -> None:
        """Give each line's end state ``samples`` sampled refills, budget allowing."""
        for line in lines:
            scores = self._scores.setdefault(line.end, [])
            missing = self._orders[len(scores) : samples]
            if not missing or self._left <= 0:
                continue
            rows, used = kernel.phase2_scores(
                [line.end],
                missing,
                self._params,
                self.settings.sample_beam,
                self._left,
                self.settings.threads,
            )
            scores.extend(rows[0])
            self._left -= used

    def _refills_for(self, unseen: tuple[int, ...]) -> None:
        """Sampled draw piles for this phase 1 (new ones if the unseen tiles changed)."""
        if self._unseen == unseen:
            return
        self._unseen = unseen
        self._scores = {}
        most = max(samples for _, samples in self.settings.rounds)
        pile = list(unseen)
        self._orders = []
        for _ in range(most):
            self.rng.shuffle(pile)
            self._orders.append(tuple(pile[:11]))

    # -- the kernel -----------------------------------------------------------------

    def _search(self, view: View, phase: int, beam: int, keep: int) -> list[Searched]:
        display, wheel, meeple = _position(view)
        phase1_tiles = len(display) if phase == 1 else 0
        lines, used = kernel.search(
            display,
            wheel,
            meeple,
            phase,
            phase1_tiles,
            self._params,
            beam,
            self._left,
            keep,
            view.phase == 1 and view.discs_placed(0) >= SOLO_PHASE1_DISCS,
        )
        self._left -= used
        return [
            (value, tuple(map(_action, moves)), display, wheel, meeple, discs, cost)
            for value, moves, display, wheel, meeple, discs, cost in lines
        ]


#: The kernel's picture of a position: display ((cell, tile), ...), wheel, meeple.
Position = tuple[tuple[tuple[int, int], ...], tuple[int, ...], int]
#: A line the kernel found: (value, moves, end display, end wheel, end meeple, discs, cost).
Searched = tuple[
    float, tuple[Action, ...], tuple[tuple[int, int], ...], tuple[int, ...], int, int, int
]


def _position(view: View) -> Position:
    """The kernel's picture of a position: display ((cell, tile), ...), wheel, meeple."""
    tiles = view.display(0)
    display = tuple(sorted((cell_key(x, y), tile) for (x, y), (tile, _) in tiles.items()))
    return display, view.wheel, view.meeple


def _after(position: Position, action: Action) -> Position:
    """The position after a placement (phase 2: nothing random happens)."""
    display, wheel, _ = position
    assert isinstance(action, Place)
    laid = tuple(sorted((*display, (cell_key(action.x, action.y), wheel[action.space]))))
    emptied = tuple(0 if space == action.space else tile for space, tile in enumerate(wheel))
    return laid, emptied, action.space


def _action(move: tuple[int, int | None]) -> Action:
    space, cell = move
    if space < 0 or cell is None:
        return END_PHASE
    return Place(space, *cell_xy(cell))


def _line(item: Searched) -> Line:
    _, moves, display, wheel, meeple, discs, cost = item
    missing = max(0, SOLO_PHASE1_DISCS - discs)
    return Line(moves, (display, wheel, meeple), cost + 10 * missing)


def _factory(option: str | None, seed: int | None) -> Bot:
    level = option or "normal"
    if level not in LEVELS:
        raise BotSpecError(f"solo takes a level ({', '.join(LEVELS)}), not {option!r}")
    if not KERNEL.built:  # said where play starts (KERNEL.warning)
        return make_bot(KERNEL.plays_as("solo"), seed)
    return SoloPlanner(LEVELS[level], seed)


register("solo", _factory)
