"""The bots' starting ratings (``server/data/bot_ratings.json``, made by
``scripts/seed_bot_ratings.py`` from the project's tournaments): every bot a rated
game can seat starts from the tournament, so a new player sees how strong each is."""

from __future__ import annotations

from tabletop.core.game import BUILTIN
from tabletop.core.web import web_games
from tabletop.server.ratings import MODEL, bot_seeds, initial


def _ordinal(game: str, spec: str) -> float:
    return initial(game, f"b:{spec}").ordinal()


def test_every_bot_a_rated_game_can_seat_starts_from_the_tournament() -> None:
    seeds = bot_seeds()
    for name in BUILTIN:  # the shipped games (a game the tests register has no seeds)
        game = web_games()[name]
        offered = {b["spec"] for b in game.describe()["bots"]["standard"]}
        assert set(seeds[name]) == offered, name
        for spec in offered:  # a seeded start, not openskill's default for a newcomer
            assert initial(name, f"b:{spec}").mu != MODEL.rating().mu, (name, spec)


def test_the_seeded_bots_rank_random_below_greedy_below_every_searcher() -> None:
    for name in BUILTIN:
        searchers = [s for s in bot_seeds()[name] if s not in ("random", "greedy")]
        assert _ordinal(name, "random") < _ordinal(name, "greedy"), name
        for spec in searchers:
            assert _ordinal(name, "greedy") < _ordinal(name, spec), (name, spec)
