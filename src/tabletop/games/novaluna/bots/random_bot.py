"""The ``random`` bot: every legal action equally likely."""

from __future__ import annotations

import random

from ..rules import Action, View
from .base import BotSpecError, register


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        # The same draw as ``rng.choice(legal_or_raise(view))``, minus the list.
        return view.random_action(self.rng)


def _factory(option: str | None, seed: int | None) -> RandomBot:
    if option:
        raise BotSpecError("the random bot takes no option")
    return RandomBot(seed)


register("random", _factory)
