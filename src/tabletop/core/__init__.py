"""The platform's core: the one interface a game offers (``game``), what is written once
over it (``table``, ``match``), the outcome, the error vocabulary, the bot registry.
Everything else in the platform depends on this, and on no game."""

from .bots import Bot, BotRegistry, ExplainingBot
from .errors import (
    ActionRejected,
    BotSpecError,
    IllegalActionError,
    InvalidActionError,
    OptionsError,
    RecordError,
)
from .game import (
    JSON,
    SEQUENTIAL,
    SIMULTANEOUS,
    GameType,
    State,
    game_types,
    get_game,
    register_game,
)
from .outcome import Outcome
from .table import Table

__all__ = [
    "JSON",
    "SEQUENTIAL",
    "SIMULTANEOUS",
    "ActionRejected",
    "Bot",
    "BotRegistry",
    "BotSpecError",
    "ExplainingBot",
    "GameType",
    "IllegalActionError",
    "InvalidActionError",
    "OptionsError",
    "Outcome",
    "RecordError",
    "State",
    "Table",
    "game_types",
    "get_game",
    "register_game",
]
