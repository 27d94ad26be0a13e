"""The Nova Luna rules engine: pure, fast, no I/O.

>>> from tabletop.games.novaluna.rules import Game, parse_action
>>> state = Game(players=2).new_state(seed=7)
>>> covered = state.apply(state.legal_actions()[0])
"""

from .actions import (
    END_PHASE,
    REFILL,
    Action,
    EndPhase,
    IllegalActionError,
    InvalidActionError,
    Place,
    Refill,
    parse_action,
)
from .position import from_position
from .results import Result, SoloResult, StandardResult
from .state import DISCS, Game, State
from .tiles import COLORS, TILES, Tile
from .view import View

__all__ = [
    "COLORS",
    "DISCS",
    "END_PHASE",
    "REFILL",
    "TILES",
    "Action",
    "EndPhase",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "Place",
    "Refill",
    "Result",
    "SoloResult",
    "StandardResult",
    "State",
    "Tile",
    "View",
    "from_position",
    "parse_action",
]
