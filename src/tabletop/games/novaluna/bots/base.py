"""The bot interface and the registry that builds Nova Luna bots from names."""

from __future__ import annotations

from ....core.bots import Bot, BotFactory, BotRegistry, ExplainingBot
from ....core.errors import BotSpecError
from ..rules import Action, View

__all__ = [
    "Bot",
    "BotSpecError",
    "ExplainingBot",
    "bot_names",
    "legal_or_raise",
    "make_bot",
    "register",
]


def legal_or_raise(view: View) -> list[Action]:
    """The legal actions of ``view``; a clear ``ValueError`` once the game is over."""
    legal = view.legal_actions()
    if not legal:
        raise ValueError("the game is over: there is nothing to choose")
    return legal


def _load_builtin() -> None:
    # Importing a bot module registers it; imports are cached, so this is cheap.
    from . import greedy, mcts, random_bot, solo  # noqa: F401


REGISTRY = BotRegistry("Nova Luna", load=_load_builtin)


def register(name: str, factory: BotFactory) -> None:
    """Make ``make_bot(name[:option])`` build a bot with ``factory(option, seed)``."""
    REGISTRY.register(name, factory)


def bot_names() -> list[str]:
    return REGISTRY.names()


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """Build a bot from ``"name"`` or ``"name:option"`` (e.g. ``"mcts:hard"``).

    >>> make_bot("random", seed=3).name
    'random'
    >>> make_bot("nobody")
    Traceback (most recent call last):
    ...
    tabletop.core.errors.BotSpecError: unknown bot 'nobody'; choose from greedy, mcts, random, solo
    """
    return REGISTRY.make(spec, seed)
