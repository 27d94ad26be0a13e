"""``greedy``: the most points now (digit x level), then the tidiest layout.

Among the placements scoring most this round, it prefers the one that shares
the most square edges with tiles on the same level (a compact area leaves room
to build on); remaining ties are broken at random. It does not look ahead: a high digit goes
on the table when nothing higher is possible.
"""

from __future__ import annotations

import random

from ....i18n import N_, Reason
from ..rules import SHAPES, Board, Place, View
from ..rules.board import NEIGHBOURS
from .base import REGISTRY, BotSpecError, legal_or_raise


def contacts(board: Board, digit: int, place: Place, level: int) -> int:
    """Square edges the placement shares with tiles on its level (a measure of how
    compact the layout stays)."""
    cells = {(place.x + dx, place.y + dy) for dx, dy in SHAPES[digit][place.rotation].cells}
    squares = board.squares
    return sum(
        1
        for x, y in cells
        for dx, dy in NEIGHBOURS
        if (x + dx, y + dy) not in cells and squares.get((x + dx, y + dy), (0,))[0] > level
    )


class GreedyBot:
    """Most points now; then most contacts on its level; then at random.

    >>> from tabletop.games.nmbr9.rules import Game
    >>> state = Game(players=1).new_state(seed=2)
    >>> GreedyBot(seed=1).choose(state.view(0)) in state.legal_actions(0)
    True
    """

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Place:
        return self.explain(view)[0]

    def explain(self, view: View) -> tuple[Place, Reason]:
        """The placement and why, e.g. ``'level 1: 7 points now; 6 edges touch level 1'``."""
        legal = legal_or_raise(view)
        board, digit = view.board, view.card
        assert digit is not None  # legal_or_raise: the game is not over
        top = max(level for _, level in legal)
        best = [(p, level) for p, level in legal if level == top]
        if len(best) == 1 or not board.tiles:
            return self.rng.choice(best)[0], points_now(top, digit * top)
        scored = [(contacts(board, digit, p, level), p) for p, level in best]
        most = max(score for score, _ in scored)
        place = self.rng.choice([p for score, p in scored if score == most])
        if top == 0:
            why = Reason.of("on the table: {points} points now, the most possible", points=0)
        else:
            why = Reason.of(
                "on level {level}: {points} points now, the most possible",
                level=top,
                points=digit * top,
            )
        if most:
            why += Reason.of(
                "of those the most compact ({n} square edges touch tiles {where})",
                n=most,
                where=where(top),
            )
        return place, why


def where(level: int) -> str:
    """``'on the table'`` or ``'on level 2'``."""
    return "on the table" if level == 0 else f"on level {level}"


def points_now(level: int, points: int) -> Reason:
    """``"on level 2: 14 points now"`` as a translatable reason."""
    if level == 0:
        return Reason.of(N_("on the table: {points} points now"), points=points)
    return Reason.of(N_("on level {level}: {points} points now"), level=level, points=points)


def _make(option: str | None, seed: int | None) -> GreedyBot:
    if option:
        raise BotSpecError("the greedy bot takes no option")
    return GreedyBot(seed)


REGISTRY.register("greedy", _make)
