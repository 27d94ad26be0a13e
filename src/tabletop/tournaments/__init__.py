"""The tournament engine: points, standings and pairings of arenas and Swiss events.

Pure functions over plain data (no I/O, no clock, no randomness): the server stores the
event and asks the engine what the standings are and who plays whom next. The rules a
player reads are in docs/tournaments.md.
"""

from .arena import arena_tables
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
from .seating import most_seated, table_sizes
from .swiss import swiss_round

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
    "arena_tables",
    "bye_points",
    "most_seated",
    "points",
    "standings",
    "swiss_round",
    "table_sizes",
]
