"""Sealed Bids' bots, built by name from ``REGISTRY``: ``random`` and ``greedy``.

A bot chooses from a ``View``: no prize order, no other seat's pending bid.

>>> from sealedbid.rules import Game
>>> view = Game(players=2).new_state(seed=3).view(0)
>>> action, reason = REGISTRY.make("greedy").explain(view)
>>> action.card == view.prize, str(reason)
(True, 'the prize is worth 1: bid the same')
"""

from __future__ import annotations

import random

from tabletop.core.bots import BotRegistry
from tabletop.i18n import N_, Reason

from .rules import Bid, View


def _legal(view: View) -> list[Bid]:
    legal = view.legal_actions()
    if not legal:
        raise ValueError("this seat has no bid to make now")
    return legal


class RandomBot:
    """Any card left."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Bid:
        return self.rng.choice(_legal(view))


class GreedyBot:
    """Bids what the prize is worth: the card of the prize's number, or the lowest card
    above it, or (none left) the lowest card; it can say why."""

    name = "greedy"

    def choose(self, view: View) -> Bid:
        return self.explain(view)[0]

    def explain(self, view: View) -> tuple[Bid, Reason]:
        legal, prize = _legal(view), view.prize or 0
        above = [bid for bid in legal if bid.card >= prize]
        if above:
            best = min(above, key=lambda bid: bid.card)
            if best.card == prize:
                return best, Reason.of(N_("the prize is worth {prize}: bid the same"), prize=prize)
            return best, Reason.of(N_("the lowest card above the prize {prize}"), prize=prize)
        best = min(legal, key=lambda bid: bid.card)
        return best, Reason.of(
            N_("no card reaches the prize {prize}: spend the lowest"), prize=prize
        )


REGISTRY = BotRegistry("Sealed Bids")
REGISTRY.register("random", lambda option, seed: RandomBot(seed))
REGISTRY.register("greedy", lambda option, seed: GreedyBot())
