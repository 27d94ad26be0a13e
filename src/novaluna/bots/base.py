"""The bot interface and the registry that builds bots from names."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..rules import Action, View


class Bot(Protocol):
    """A player: ``choose`` returns one of ``view.legal_actions()``."""

    name: str

    def choose(self, view: View) -> Action: ...


class ExplainingBot(Bot, Protocol):
    """A bot that can also say why: ``explain`` returns the action and a reason line."""

    def explain(self, view: View) -> tuple[Action, str]: ...


def legal_or_raise(view: View) -> list[Action]:
    """The legal actions of ``view``; a clear ``ValueError`` once the game is over."""
    legal = view.legal_actions()
    if not legal:
        raise ValueError("the game is over: there is nothing to choose")
    return legal


class BotSpecError(ValueError):
    """An unknown bot name or a bad bot option."""


BotFactory = Callable[[str | None, int | None], Bot]
_REGISTRY: dict[str, BotFactory] = {}


def register(name: str, factory: BotFactory) -> None:
    """Make ``make_bot(name[:option])`` build a bot with ``factory(option, seed)``."""
    _REGISTRY[name] = factory


def bot_names() -> list[str]:
    _load_builtin()
    return sorted(_REGISTRY)


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """Build a bot from ``"name"`` or ``"name:option"`` (e.g. ``"mcts:hard"``).

    >>> make_bot("random", seed=3).name
    'random'
    >>> make_bot("nobody")
    Traceback (most recent call last):
    ...
    novaluna.bots.base.BotSpecError: unknown bot 'nobody'; choose from greedy, mcts, random, solo
    """
    _load_builtin()
    name, _, option = spec.strip().partition(":")
    factory = _REGISTRY.get(name.lower())
    if factory is None:
        raise BotSpecError(f"unknown bot {name!r}; choose from {', '.join(bot_names())}")
    return factory(option or None, seed)


def _load_builtin() -> None:
    # Importing a bot module registers it; imports are cached, so this is cheap.
    from . import greedy, mcts, random_bot, solo  # noqa: F401
