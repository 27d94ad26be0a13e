"""NMBR 9 bots: players that choose a placement from a seat's ``View``.

>>> from tabletop.games.nmbr9.rules import Game
>>> state = Game(players=1).new_state(seed=5)
>>> bot = make_bot("greedy", seed=1)
>>> state.apply(bot.choose(state.view(0))).level
0

Bots never see the deck's order or another seat's pending placement: a view
holds neither. Add a bot by writing a class with ``name`` and ``choose(view)``
and registering it with ``REGISTRY.register``.
"""

from __future__ import annotations

from .base import REGISTRY, Bot, BotSpecError, ExplainingBot, make_bot
from .compiled import KERNEL

#: The bot that gives hints: the strongest one at a short budget (the learned model at
#: ``fast``'s, docs/learned-evaluation.md).
HINT_BOT = "planner:learned-fast"


def hint_spec() -> str:
    """The hint bot as it really plays here: ``greedy`` where the planner's kernel was
    not built (what the terminal's hint names)."""
    return KERNEL.plays_as(HINT_BOT)


def hint_bot(seed: int | None = 0) -> ExplainingBot:
    """The bot that gives hints (``explain(view)`` returns a placement and a reason)."""
    return REGISTRY.make_explaining(hint_spec(), seed=seed)


__all__ = [
    "HINT_BOT",
    "REGISTRY",
    "Bot",
    "BotSpecError",
    "ExplainingBot",
    "hint_bot",
    "hint_spec",
    "make_bot",
]
