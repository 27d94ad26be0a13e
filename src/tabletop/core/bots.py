"""Bots as the platform sees them, and a registry that builds them from names.

Each game keeps its own ``BotRegistry``; a spec is ``"name"`` or
``"name:option"`` (e.g. ``"mcts:hard"``), and a seed makes a bot's choices
repeatable.

>>> registry = BotRegistry("a test game")
>>> registry.register("first", lambda option, seed: FirstLegal())
>>> registry.make("first").name
'first'
>>> registry.make("nobody")
Traceback (most recent call last):
...
tabletop.core.errors.BotSpecError: unknown bot 'nobody'; choose from first
>>> registry.make_explaining("first")  # a hint needs a bot that says why
Traceback (most recent call last):
...
tabletop.core.errors.BotSpecError: the bot 'first' cannot explain its choices
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeGuard

from ..i18n import Reason
from .errors import BotSpecError

if TYPE_CHECKING:
    from .game import View


class Bot(Protocol):
    """A player: ``choose(view)`` returns one of the view's legal actions.

    The view is the game's own: it holds what the bot's seat may know and nothing
    more, so a bot cannot cheat by construction.
    """

    name: str

    # Any: the game's own view type, which the platform cannot name; a bot is given
    # only views of its own game.
    def choose(self, view: Any) -> object: ...


class ExplainingBot(Bot, Protocol):
    """A bot that can also say why: ``explain`` returns the action and its ``Reason``
    (translatable parts; ``str()`` is the English line)."""

    def explain(self, view: Any) -> tuple[object, Reason]: ...  # Any: as in ``choose``


BotFactory = Callable[[str | None, int | None], Bot]


def can_explain(bot: Bot) -> TypeGuard[ExplainingBot]:
    """Whether ``bot`` also says why it chooses (``ExplainingBot``): for the type
    checker, what a hint needs is then known."""
    return callable(getattr(bot, "explain", None))


class BotRegistry:
    """Bots by name. ``load`` (if given) imports the modules that register bots,
    the first time a name is looked up, so importing a game stays cheap."""

    def __init__(self, game: str, load: Callable[[], None] | None = None) -> None:
        self.game = game
        self._factories: dict[str, BotFactory] = {}
        self._load = load

    def register(self, name: str, factory: BotFactory) -> None:
        """Make ``make(name[:option])`` build a bot with ``factory(option, seed)``."""
        self._factories[name] = factory

    def names(self) -> list[str]:
        self._ensure_loaded()
        return sorted(self._factories)

    def make(self, spec: str, seed: int | None = None) -> Bot:
        """Build a bot from ``"name"`` or ``"name:option"``; ``BotSpecError`` if unknown."""
        self._ensure_loaded()
        name, _, option = spec.strip().partition(":")
        factory = self._factories.get(name.lower())
        if factory is None:
            raise BotSpecError(f"unknown bot {name!r}; choose from {', '.join(self.names())}")
        return factory(option or None, seed)

    def make_explaining(self, spec: str, seed: int | None = None) -> ExplainingBot:
        """Build a bot that can explain its choices (a hint's); ``BotSpecError`` if
        ``spec`` is unknown or its bot does not explain."""
        bot = self.make(spec, seed)
        if not can_explain(bot):
            raise BotSpecError(f"the bot {spec!r} cannot explain its choices")
        return bot

    def _ensure_loaded(self) -> None:
        if self._load is not None:
            load, self._load = self._load, None
            load()


class FirstLegal:
    """The simplest bot: the first legal action (for examples and tests)."""

    name = "first"

    def choose(self, view: View) -> object:
        return view.legal_actions()[0]
