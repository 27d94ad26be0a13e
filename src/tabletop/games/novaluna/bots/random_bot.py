"""The ``random`` bot: every legal action equally likely."""

from __future__ import annotations

import random

from ..rules import Action, View
from .base import BotSpecError, legal_or_raise, register


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        return self.rng.choice(legal_or_raise(view))


def _factory(option: str | None, seed: int | None) -> RandomBot:
    if option:
        raise BotSpecError("the random bot takes no option")
    return RandomBot(seed)


register("random", _factory)
