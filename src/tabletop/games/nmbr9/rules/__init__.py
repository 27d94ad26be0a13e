"""The NMBR 9 rules engine: pure, fast, no I/O, no global randomness.

>>> from tabletop.games.nmbr9.rules import Game, parse_action
>>> state = Game(players=1).new_state(seed=7)
>>> placed = state.apply(parse_action("r0@0,0"))
>>> placed.digit, placed.level, state.round
(8, 0, 1)
"""

from .actions import Action, IllegalActionError, InvalidActionError, Place, parse_action
from .board import Board, Placed
from .state import CARDS, FULL_DECK, RANDOM_REMOVAL, Game, Result, State
from .tiles import CANONICAL, DISTINCT, DRAWN, SHAPES, SQUARES, Shape
from .view import View

__all__ = [
    "CANONICAL",
    "CARDS",
    "DISTINCT",
    "DRAWN",
    "FULL_DECK",
    "RANDOM_REMOVAL",
    "SHAPES",
    "SQUARES",
    "Action",
    "Board",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "Place",
    "Placed",
    "Result",
    "Shape",
    "State",
    "View",
    "parse_action",
]
