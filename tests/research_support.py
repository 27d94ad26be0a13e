"""Helpers of the research tests, which run over every game with an encoding: the two
shipped games and the tests' third game, Toy Draft (``tests/toygame``, registered by
``tests/conftest.py``)."""

from __future__ import annotations

from tabletop.core.game import get_game
from tabletop.research.encoding import encoded_games


def seats(name: str) -> tuple[int, int]:
    """The fewest and most seats of a game."""
    game = get_game(name)
    return game.min_seats, game.max_seats


def research_games() -> list[str]:
    """Every game with an encoding (for ``pytest.mark.parametrize``)."""
    return sorted(encoded_games())
