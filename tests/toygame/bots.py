"""Toy Draft's bots, built by name from ``REGISTRY``: ``random`` and ``greedy``.

A bot chooses from a ``View``, which holds no pile order: it cannot cheat.

>>> from toygame.rules import Game
>>> view = Game(players=2).new_state(seed=3).view(0)
>>> bot = REGISTRY.make("greedy")
>>> action, reason = bot.explain(view)
>>> view.market[action.slot] == max(view.market), str(reason).startswith("the highest tile")
(True, True)
"""

from __future__ import annotations

import random

from tabletop.core.bots import BotRegistry
from tabletop.i18n import N_, Reason

from .rules import Take, View


def _legal(view: View) -> list[Take]:
    legal = view.legal_actions()
    if not legal:
        raise ValueError("it is not this seat's turn: there is nothing to choose")
    return legal


class RandomBot:
    """Any tile on offer."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Take:
        return self.rng.choice(_legal(view))


class GreedyBot:
    """The highest tile on offer (the leftmost of equals); it can say why."""

    name = "greedy"

    def choose(self, view: View) -> Take:
        return self.explain(view)[0]

    def explain(self, view: View) -> tuple[Take, Reason]:
        best = max(_legal(view), key=lambda a: (view.market[a.slot], -a.slot))
        return best, Reason.of(N_("the highest tile on offer: {tile}"), tile=view.market[best.slot])


REGISTRY = BotRegistry("Toy Draft")
REGISTRY.register("random", lambda option, seed: RandomBot(seed))
REGISTRY.register("greedy", lambda option, seed: GreedyBot())
