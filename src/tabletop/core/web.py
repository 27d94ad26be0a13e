"""The games the web server hosts: every registered game that has a page.

The server knows a game through its ``GameType`` (``core.game``: facts, setup
checks, ``describe``, ``replay``), a ``Match`` per game in progress
(``core.match``) and the game's ``GamePage`` (``core.page``).
"""

from __future__ import annotations

from ..i18n import N_
from .errors import ActionRejected, OptionsError, RecordError
from .game import JSON, SEQUENTIAL, SIMULTANEOUS, GameType, game_types
from .limits import DEFAULT_LIMITS, BotLimits
from .match import TAKE_BACK, Job, Match
from .page import Applied, Step, Undo

#: The server's name for a game it hosts: a ``GameType`` with a page.
WebGame = GameType


def web_games() -> dict[str, GameType]:
    """The games playable in the browser, by name."""
    return {name: game for name, game in game_types().items() if game.page is not None}


def get_web_game(name: str) -> GameType:
    """Game ``name`` if it is playable in the browser; ``OptionsError`` otherwise."""
    games = web_games()
    if not isinstance(name, str) or name not in games:
        raise OptionsError(
            N_("unknown game {name}; this server hosts {games}"),
            name=repr(name),
            games=", ".join(sorted(games)),
        )
    return games[name]


__all__ = [
    "DEFAULT_LIMITS",
    "JSON",
    "SEQUENTIAL",
    "SIMULTANEOUS",
    "TAKE_BACK",
    "ActionRejected",
    "Applied",
    "BotLimits",
    "Job",
    "Match",
    "OptionsError",
    "RecordError",
    "Step",
    "Undo",
    "WebGame",
    "get_web_game",
    "web_games",
]
