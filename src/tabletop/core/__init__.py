"""The platform's core: the interfaces a game offers, the error vocabulary, the bot
registry. Everything else in the platform depends on this, and on no game."""

from .bots import Bot, BotRegistry, ExplainingBot
from .errors import ActionRejected, BotSpecError, OptionsError, RecordError
from .game import JSON, GameType, Outcome, Table, game_types, get_game

__all__ = [
    "JSON",
    "ActionRejected",
    "Bot",
    "BotRegistry",
    "BotSpecError",
    "ExplainingBot",
    "GameType",
    "OptionsError",
    "Outcome",
    "RecordError",
    "Table",
    "game_types",
    "get_game",
]
