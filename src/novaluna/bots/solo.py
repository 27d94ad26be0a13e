"""The ``solo`` planner: beam search over the solo game's perfect-information phases.

Within a solo phase nothing is hidden (there is no refill), so the planner
searches whole sequences of takes and placements with a beam and plays the
first move of the best one, re-planning every move. The only unknown — the
refill between the phases — is not searched: a plan that ends phase 1 is
scored with an estimate of what the missing discs will cost in phase 2.

Scores are the game's own (lower is better):

* phase 2: cost of the tiles still to take + 10 per disc of the 21 missing;
* phase 1: phase-1 tiles count twice (they score in both phases), missing
  discs of the first 8 cost 10, and every disc still to place later is
  estimated at ``disc_rate`` points, less a bonus for tasks one or two tiles
  short.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..rules import END_PHASE, Action, Place, State, View
from ..rules.display import Display, cell_xy
from ..rules.state import DISCS, SOLO_PHASE1_DISCS
from ..rules.tiles import TILE_COLOR, TILE_TASKS
from .base import BotSpecError, legal_or_raise, register
from .explain import describe

#: Settings per level (the defaults are ``normal``). ``fast`` is the hint bot and
#: must answer well under a second, so it also samples fewer, quicker refills.
LEVELS: dict[str, dict[str, int]] = {
    "fast": {
        "beam": 16,
        "per_take": 4,
        "first_beam": 48,
        "follow_beam": 16,
        "lines_sampled": 3,
        "phase2_beam": 4,
    },
    "normal": {},
    "strong": {"beam": 150, "per_take": 6, "first_beam": 400, "follow_beam": 150},
}


@dataclass(frozen=True, slots=True)
class Settings:
    beam: int = 96  # sequences kept per step in phase 1
    per_take: int = 5  # cells kept per takeable tile
    first_beam: int = 120  # the first phase-2 move searches this wide
    follow_beam: int = 48  # later phase-2 moves (they also have the kept line)
    disc_rate: float = 4.0  # estimated phase-2 points per disc still to place
    near1: float = 1.0  # bonus for an open task one tile short
    near2: float = 0.3  # bonus for an open task two tiles short
    phase_end_samples: int = 4  # refills sampled per phase-1 line
    # Best phase-1 lines re-ranked by sampled refills. On seeds 1000-1039 re-ranking
    # 4 or 8 lines by 4 samples of a beam-6 phase 2 scored no better than taking
    # the heuristic's best (1; its samples then only explain the choice), and the
    # time is better spent on a wider phase-1 beam.
    lines_sampled: int = 1
    phase2_beam: int = 6  # the quick phase-2 planner used on those samples
    phase2_per_take: int = 3
    # Search nodes per move (a node is one line one tile longer). Once they are spent
    # the lines are finished one tile at a time, so no move runs much over a second:
    # this machine makes 11-17 thousand a second. Counted, not timed, so that a seed
    # gives the same game on any machine.
    max_nodes: int = 8_000


@dataclass(slots=True)
class Plan:
    state: State
    first: Action | None
    value: float
    done: bool  # the phase ended on this line
    path: tuple[Action, ...] = ()  # the line's moves


class SoloPlanner:
    name = "solo"

    def __init__(self, settings: Settings | None = None, seed: int | None = None) -> None:
        self.settings = settings or Settings()
        self.rng = random.Random(seed)
        # Phase-1 end states already sampled, for the unseen tiles they were sampled with.
        self._unseen: tuple[int, ...] | None = None
        self._seeds: list[float] = []
        self._means: dict[tuple, float] = {}
        # Phase 2: the state the kept line continues from, its remaining moves, its score.
        self._kept: tuple[tuple, tuple[Action, ...], float] | None = None
        self._nodes_left = self.settings.max_nodes  # this move's search budget

    def choose(self, view: View) -> Action:
        legal_or_raise(view)
        if not view.game.solo:
            raise ValueError("the solo planner plays only the solo game; use mcts")
        return self.explain(view)[0]

    def explain(self, view: View) -> tuple[Action, str]:
        """The action ``choose`` would take, with a one-line reason."""
        legal = view.legal_actions()
        self._nodes_left = self.settings.max_nodes
        if len(legal) == 1:
            return legal[0], describe(view, legal[0]) + "; the only legal move"
        if view.phase == 1:
            # The pile order is irrelevant: the search stops at the end of the phase.
            lines = self.plan_lines(view.determinize(self.rng))
            return self._choose_by_sampled_refills(view, lines)
        return self._follow_best_line(view)

    def _follow_best_line(self, view: View) -> tuple[Action, str]:
        """Phase 2: play the best line, searched widely once and kept.

        Phase 2 hides nothing, so a line found at one move is still playable at
        the next and its score is exact: each move searches again (narrower after
        the first) and keeps whichever line scores lower.
        """
        s = self.settings
        state = view.determinize(self.rng)
        key = _end_key(state)
        kept = self._kept if self._kept is not None and self._kept[0] == key else None
        beam = s.follow_beam if kept is not None else s.first_beam
        best = self.plan_lines(state, beam=beam)[0]
        path, value = best.path, best.value
        if kept is not None and kept[2] <= value:
            path, value = kept[1], kept[2]
        action = path[0] if path else view.legal_actions()[0]
        after = state.clone()
        after.apply(action)
        self._kept = (_end_key(after), path[1:], value)
        return action, f"{describe(view, action)}; the best plan scores about {value:.0f}"

    def _choose_by_sampled_refills(self, view: View, lines: list[Plan]) -> tuple[Action, str]:
        """Phase 1: re-rank the best lines by their mean final score over sampled refills.

        Each line ends phase 1; the refill between the phases is drawn from the
        unseen tiles, and phase 2 is played by a quick plan. All lines see the
        same samples (common random numbers), and as the unseen tiles do not
        change during phase 1, the samples and each end state's mean are kept
        for the later moves: a line evaluated once costs nothing again.
        """
        refills = self._refills_for(view.unseen_tiles)
        best_line, best_mean = lines[0], float("inf")
        for key, line in self._candidates(lines).items():
            mean = self._sampled_mean(line.state, key, refills)
            if mean < best_mean:
                best_line, best_mean = line, mean
        action = best_line.first or view.legal_actions()[0]
        return action, (
            f"{describe(view, action)}; its plan scores about {best_mean:.0f} "
            f"over {len(refills)} sampled refills"
        )

    def _candidates(self, lines: list[Plan]) -> dict[tuple, Plan]:
        """The best few lines with different end states (several lines often end
        alike: the same tiles laid in another order)."""
        picked: dict[tuple, Plan] = {}
        for line in lines:
            picked.setdefault(_end_key(line.state), line)
            if len(picked) == self.settings.lines_sampled:
                break
        return picked

    def _refills_for(self, unseen: tuple[int, ...]) -> list[float]:
        """The refill seeds for this phase 1 (new ones if the unseen tiles changed)."""
        if self._unseen != unseen:
            self._unseen = unseen
            self._means = {}
            self._seeds = [self.rng.random() for _ in range(self.settings.phase_end_samples)]
        return self._seeds

    def _sampled_mean(self, state: State, key: tuple, refills: list[float]) -> float:
        """Mean final score of a phase-1 end state over the sampled refills (cached)."""
        mean = self._means.get(key)
        if mean is None:
            s = self.settings
            quick = SoloPlanner(Settings(beam=s.phase2_beam, per_take=s.phase2_per_take))
            total = sum(quick.final_estimate(_after_phase1(state, sd)) for sd in refills)
            mean = self._means[key] = total / len(refills)
        return mean

    def final_estimate(self, state: State) -> float:
        """The final score of a game in phase 2 (or over), playing phase 2 by plan."""
        if state.is_over:
            return state.result().total
        return state.phase1_score + self.plan(state).value

    def plan(self, state: State) -> Plan:
        """Beam search from ``state`` to the end of its phase; the best line."""
        return self.plan_lines(state)[0]

    def plan_lines(self, state: State, beam: int | None = None) -> list[Plan]:
        """Beam search from ``state`` to the end of its phase (``beam`` lines wide,
        default the settings' beam); finished lines, best first."""
        phase = state.phase
        width = beam or self.settings.beam
        beam = [Plan(state, None, self._value(state, phase), False)]
        finished: list[Plan] = []
        while beam:
            children: list[Plan] = []
            for child in self._step(beam, phase):
                (finished if child.done else children).append(child)
            children.sort(key=lambda p: p.value)
            self._nodes_left -= len(children)
            beam = children[: width if self._nodes_left > 0 else 1]
            if finished and beam and min(f.value for f in finished) <= beam[0].value:
                break  # nothing left in the beam can beat a finished line
        return sorted(finished, key=lambda p: p.value)

    def _step(self, beam: list[Plan], phase: int) -> list[Plan]:
        """The lines of ``beam`` one tile longer, and those ending the phase here."""
        out = []
        for plan in beam:
            state = plan.state
            if state.can_end_phase():
                end = self._value(state, phase, True)
                path = (*plan.path, END_PHASE)
                out.append(Plan(state, plan.first or END_PHASE, end, True, path))
            for place in self._moves(state):
                child = state.clone()
                child.apply(place)
                done = child.is_over or child.phase != phase
                value = self._value(child, phase, done)
                out.append(Plan(child, plan.first or place, value, done, (*plan.path, place)))
        return out

    def _moves(self, state: State) -> list[Place]:
        """Per takeable tile, the cells that cover most now, then fit best."""
        display = state.displays[0]
        takes = [(space, state.wheel[space]) for space in state.takeable_spaces()]
        scored: list[list[tuple[int, int, int]]] = [[] for _ in takes]
        for cell in display.frontier:
            counts = display.counts_at(cell)  # shared by the takeable tiles
            for (_, tile), out in zip(takes, scored, strict=True):
                covers = len(display.fulfilled_by(tile, cell))
                out.append((-covers, -_fit(display, tile, cell, counts), cell))
        moves = []
        for (space, _), out in zip(takes, scored, strict=True):
            out.sort()
            for _, _, cell in out[: self.settings.per_take]:
                moves.append(Place(space, *cell_xy(cell)))
        return moves

    def _value(self, state: State, phase: int, done: bool = False) -> float:
        """Estimated final score of the line (lower is better).

        A line that ends phase 1 is scored like any other phase-1 line: the
        refill between the phases does not change the display.
        """
        s = self.settings
        display = state.displays[0]
        placed = display.covered
        cost = state.scores_so_far()
        if phase == 2 and done:
            return cost + 10 * (DISCS - placed)
        if phase == 2:
            return cost + s.disc_rate * (DISCS - placed) - self._near_bonus(display)
        if state.is_over:  # all 21 discs placed in phase 1
            return 2 * cost
        missing1 = max(0, SOLO_PHASE1_DISCS - placed)
        later = DISCS - placed
        return 2 * cost + 10 * missing1 + s.disc_rate * later - self._near_bonus(display)

    def _near_bonus(self, display: Display) -> float:
        gaps = _gaps(display)
        return self.settings.near1 * gaps[1] + self.settings.near2 * gaps[2]


def _gaps(display: Display) -> list[int]:
    """Open tasks by how many tiles they lack: index 1, 2, 3, and 4 for 4 or more."""
    gaps = [0, 0, 0, 0, 0]
    tiles = display.tiles
    for cell, mask in display.open.items():
        tile = tiles[cell]
        counts = display.counts_at(cell)
        if counts[TILE_COLOR[tile]]:
            counts[TILE_COLOR[tile]] -= 1  # the tile's own group holds the tile itself
        for i, task in enumerate(TILE_TASKS[tile]):
            if mask >> i & 1:
                missing = 0
                for c, need in task:
                    if counts[c] < need:
                        missing += need - counts[c]
                gaps[min(missing, 4)] += 1
    return gaps


def _fit(display: Display, tile: int, cell: int, counts: list[int]) -> int:
    """How well ``tile`` fits ``cell`` beyond covering now: neighbours whose open
    tasks want its colour, plus the part of its own tasks its neighbours meet
    (``counts`` as from ``Display.counts_at``)."""
    watching = display.watch[TILE_COLOR[tile]]
    fit = (
        (cell + 1 in watching)
        + (cell - 1 in watching)
        + (cell + 256 in watching)
        + (cell - 256 in watching)
    )
    for task in TILE_TASKS[tile]:
        fit += sum(min(counts[c], need) for c, need in task)
    return fit


def _end_key(state: State) -> tuple:
    """What decides a phase-1 end state's future: display, wheel, meeple, phase."""
    return (
        tuple(sorted(state.displays[0].tiles.items())),
        tuple(state.wheel),
        state.meeple,
        state.phase,
        state.is_over,
    )


def _after_phase1(state: State, seed: float) -> State:
    """``state`` (the end of a phase-1 line) moved into phase 2 with a sampled refill."""
    if state.is_over or state.phase == 2:
        return state.clone()  # the wheel emptied: its refill is already a sample
    sample = state.view().determinize(random.Random(seed))
    sample.apply(END_PHASE)
    return sample


def _factory(option: str | None, seed: int | None) -> SoloPlanner:
    level = option or "normal"
    if level not in LEVELS:
        raise BotSpecError(f"solo takes a level ({', '.join(LEVELS)}), not {option!r}")
    return SoloPlanner(Settings(**LEVELS[level]), seed)


register("solo", _factory)
