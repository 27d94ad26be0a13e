"""``random``: a uniformly random legal placement."""

from __future__ import annotations

import random

from ..rules import Place, View
from .base import REGISTRY, BotSpecError


class RandomBot:
    """Picks uniformly among the distinct legal placements.

    >>> from tabletop.games.nmbr9.rules import Game
    >>> state = Game(players=1).new_state(seed=2)
    >>> RandomBot(seed=1).choose(state.view(0)) in state.legal_actions(0)
    True
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Place:
        # The same draw as ``rng.choice(legal_or_raise(view))[0]``, minus the list.
        return view.random_action(self.rng)


def _make(option: str | None, seed: int | None) -> RandomBot:
    if option:
        raise BotSpecError("the random bot takes no option")
    return RandomBot(seed)


REGISTRY.register("random", _make)
