"""Bots: players that choose an action from a public ``View``.

>>> from novaluna.rules import Game
>>> bot = make_bot("greedy", seed=1)
>>> state = Game(players=2).new_state(seed=5)
>>> state.apply(bot.choose(state.view()))
[]

Bots never see the draw pile's order: they get a ``View``. Add a bot by
writing a class with ``name`` and ``choose(view)`` and registering it in
``BOTS``.
"""

from __future__ import annotations

from .base import Bot, BotSpecError, bot_names, make_bot, register

__all__ = ["Bot", "BotSpecError", "bot_names", "make_bot", "register"]
