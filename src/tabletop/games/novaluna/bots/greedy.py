"""The ``greedy`` bot: the best immediate gain, one move deep.

Each take-and-place is scored by the tasks it covers now, how much closer it
brings the open tasks (old ones and the new tile's), and the tile's cost. It
refills when nothing on offer is worth taking, and in the solo game ends
phase 1 as soon as it may (every further tile costs points in both phases).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ....i18n import N_, Reason
from ..rules import END_PHASE, REFILL, Action, Place, View
from ..rules.display import Display, cell_key
from ..rules.tiles import TILE_COST, TILE_TASKS
from .base import BotSpecError, legal_or_raise, register
from .explain import covers_now

COVER_WEIGHT = 10.0
CLOSER_WEIGHT = 2.0
NEW_TASK_WEIGHT = 1.0
COST_WEIGHT = 1.0
REFILL_BELOW = 0.0  # refill (when allowed) if no placement scores at least this


@dataclass(frozen=True, slots=True)
class Scored:
    """Why a placement is good: used for choosing and for hints."""

    action: Place
    score: float
    covers: int
    closer: int
    cost: int

    def reason(self) -> Reason:
        why = covers_now(self.covers) if self.covers else Reason()
        if self.closer == 1:
            why += Reason.of("brings tasks 1 tile closer")
        elif self.closer:
            why += Reason.of("brings tasks {n} tiles closer", n=self.closer)
        return why + Reason.of(N_("cost {cost}"), cost=self.cost)


def score_places(view: View) -> list[Scored]:
    """Score every legal take-and-place for the seat to move."""
    seat = view.current_seat
    base = view.display_copy(seat)
    missing_before = {task: base.missing(*task) for task in base.open_tasks()}
    scored = []
    wheel = view.wheel
    for action in view.legal_actions():
        if isinstance(action, Place):
            scored.append(_score(base, missing_before, action, wheel[action.space]))
    return scored


def _score(
    base: Display, missing_before: dict[tuple[int, int], int], action: Place, tile: int
) -> Scored:
    display = base.clone()
    cell = cell_key(action.x, action.y)
    found = set(display.lay(tile, cell))
    closer = 0
    for task, before in missing_before.items():
        if task not in found:
            closer += before - display.missing(*task)
    new_progress = 0
    for i, needs in enumerate(TILE_TASKS[tile]):
        if (cell, i) not in found:
            need = sum(n for _, n in needs)
            new_progress += need - display.missing(cell, i)
    cost = TILE_COST[tile]
    score = (
        COVER_WEIGHT * len(found)
        + CLOSER_WEIGHT * closer
        + NEW_TASK_WEIGHT * new_progress
        - COST_WEIGHT * cost
    )
    return Scored(action, score, len(found), closer, cost)


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def best(self, view: View) -> list[Scored]:
        """The best-scoring placements (ties kept)."""
        scored = score_places(view)
        top = max(s.score for s in scored)
        return [s for s in scored if s.score == top]

    def choose(self, view: View) -> Action:
        legal = legal_or_raise(view)
        if END_PHASE in legal:
            return END_PHASE
        best = self.best(view)
        if REFILL in legal and best[0].score < REFILL_BELOW:
            return REFILL
        return self.rng.choice(best).action

    def explain(self, view: View) -> tuple[Action, Reason]:
        """The action ``choose`` would take, with a one-line reason."""
        legal = view.legal_actions()
        if END_PHASE in legal:
            return END_PHASE, Reason.of("end phase 1 now: every further tile costs points twice")
        best = self.best(view)
        if REFILL in legal and best[0].score < REFILL_BELOW:
            return REFILL, Reason.of("refill: none of the tiles on offer helps")
        pick = best[0]
        return pick.action, pick.reason()


def _factory(option: str | None, seed: int | None) -> GreedyBot:
    if option:
        raise BotSpecError("the greedy bot takes no option")
    return GreedyBot(seed)


register("greedy", _factory)
