"""The tournament engine: points, standings and pairings of arenas and Swiss events.

Pure functions over plain data (no I/O, no clock, no randomness): the server stores the
event and asks the engine what the standings are and who plays whom next. The rules a
player reads are in docs/tournaments.md.
"""

from .model import (
    Apart,
    Bye,
    Entrant,
    Format,
    Game,
    Kind,
    Standing,
    SwissRound,
    apart_predicate,
)
from .scoring import bye_points, points, standings

__all__ = [
    "Apart",
    "Bye",
    "Entrant",
    "Format",
    "Game",
    "Kind",
    "Standing",
    "SwissRound",
    "apart_predicate",
    "bye_points",
    "points",
    "standings",
]
