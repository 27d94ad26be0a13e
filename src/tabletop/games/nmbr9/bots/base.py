"""The registry that builds NMBR 9 bots from names, and what every bot shares."""

from __future__ import annotations

from ....core.bots import Bot, BotRegistry, ExplainingBot
from ....core.errors import BotSpecError
from ..rules import Place, View

__all__ = ["REGISTRY", "Bot", "BotSpecError", "ExplainingBot", "legal_or_raise", "make_bot"]


def legal_or_raise(view: View) -> list[tuple[Place, int]]:
    """The viewer's legal placements with their levels; a clear ``ValueError`` when it
    has nothing to place (game over, or already placed this round)."""
    legal = view.legal_with_levels()
    if not legal:
        raise ValueError("there is nothing to place: the game is over or this seat has placed")
    return legal


def _load_builtin() -> None:
    # Importing a bot module registers it; imports are cached, so this is cheap.
    from . import greedy, planner, random_bot  # noqa: F401


REGISTRY = BotRegistry("NMBR 9", load=_load_builtin)


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """Build a bot from ``"name"`` or ``"name:option"`` (e.g. ``"planner:fast"``).

    >>> make_bot("greedy", seed=1).name
    'greedy'
    """
    return REGISTRY.make(spec, seed)
