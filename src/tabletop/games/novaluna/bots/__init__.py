"""Bots: players that choose an action from a public ``View``.

>>> from tabletop.games.novaluna.rules import Game
>>> bot = make_bot("greedy", seed=1)
>>> state = Game(players=2).new_state(seed=5)
>>> state.apply(bot.choose(state.view()))
[]

Bots never see the draw pile's order: they get a ``View``. Add a bot by
writing a class with ``name`` and ``choose(view)`` and registering it in
``BOTS``.
"""

from __future__ import annotations

from .base import REGISTRY, Bot, BotSpecError, ExplainingBot, bot_names, make_bot, register
from .compiled import KERNEL

#: The strongest bot at a short budget, per mode: what hints use.
HINT_BOTS = {"standard": "mcts:strong-fast", "solo": "solo:fast"}


def hint_spec(mode: str) -> str:
    """The hint bot of a game ``mode`` as it really plays here: ``greedy`` for the solo
    game where the planner's kernel was not built (what the terminal's hint names)."""
    return KERNEL.plays_as(HINT_BOTS[mode])


def hint_bot(mode: str, seed: int | None = 0) -> ExplainingBot:
    """The bot that gives hints for a game ``mode`` (``"standard"`` or ``"solo"``)."""
    return REGISTRY.make_explaining(hint_spec(mode), seed=seed)


__all__ = [
    "HINT_BOTS",
    "Bot",
    "BotSpecError",
    "ExplainingBot",
    "bot_names",
    "hint_bot",
    "hint_spec",
    "make_bot",
    "register",
]
