"""The libraries' own checkers pass for every game with an encoding (the toy third game
of ``tests/toygame`` included): PettingZoo's api, seed and render tests at
several player counts, its parallel api test for every game whose rounds are
simultaneous, Gymnasium's check_env for every solo game."""

from __future__ import annotations

import gc
import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test

import tabletop.research  # noqa: F401  (registers the Gymnasium environments)
from tabletop.core.game import get_game
from tabletop.research import aec
from tabletop.research.encoding import encoding, gym_id
from tabletop.research.parallel import parallel_env

from research_support import research_games, seats  # noqa: E402

GAMES = research_games()

#: What api_test says of every observation dict with an action mask (PettingZoo's own
#: classic games are on its list of exceptions); any other warning fails the test.
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}

#: The player counts and cycles each game is checked with (the long games with fewer
#: cycles); a game not named here: its fewest and most seats, 100 cycles.
API_TEST = {"nova-luna": ((2, 3, 4), 100), "nmbr9": ((1, 2, 4), 25)}
SEED_TEST = {"nova-luna": ((2, 4), 100), "nmbr9": ((1, 3), 10)}
#: NMBR 9's parallel environment has tests of its own (test_nmbr9_parallel.py): once here.
PARALLEL_API_TEST = {"nmbr9": ((2,), 10)}
SIMULTANEOUS = [game for game in GAMES if encoding(game).simultaneous]


def cases(table: dict, games: list[str] = GAMES) -> list[tuple[str, int, int]]:
    out = []
    for game in games:
        players, cycles = table.get(game, (seats(game), 100))
        out += [(game, p, cycles) for p in players]
    return out


def api_test_warnings(env, num_cycles: int) -> set[str]:
    """The checker's warnings; not a ResourceWarning of an earlier test's object (say
    an unclosed socket) that the garbage collector happens to finalise meanwhile."""
    gc.collect()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=num_cycles)
    return {str(w.message) for w in caught if not issubclass(w.category, ResourceWarning)}


@pytest.mark.parametrize(("game", "players", "cycles"), cases(API_TEST))
def test_every_game_passes_the_pettingzoo_api_test(game, players, cycles):
    env = aec.env(game, players=players)
    assert api_test_warnings(env, num_cycles=cycles) <= DICT_OBSERVATION_WARNINGS


@pytest.mark.parametrize(("game", "players", "cycles"), cases(PARALLEL_API_TEST, SIMULTANEOUS))
def test_every_simultaneous_game_passes_the_pettingzoo_parallel_api_test(game, players, cycles):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel_api_test(parallel_env(game, players=players), num_cycles=cycles)
    assert not [w for w in caught if not issubclass(w.category, ResourceWarning)]


@pytest.mark.parametrize(("game", "players", "cycles"), cases(SEED_TEST))
def test_every_game_passes_the_pettingzoo_seed_test(game, players, cycles):
    seed_test(lambda: aec.env(game, players=players), num_cycles=cycles)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_passes_the_pettingzoo_render_test(game, capsys):
    render_test(lambda render_mode=None: aec.env(game, players=2, render_mode=render_mode))
    out = capsys.readouterr().out
    assert out  # "human" prints the position
    if game == "nova-luna":
        assert "Nova Luna" in out


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("render_mode", [None, "ansi"])
def test_the_solo_games_pass_gymnasiums_check_env_without_a_warning(game, render_mode):
    if get_game(game).min_seats > 1:
        pytest.skip("no solo mode")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make(gym_id(game), render_mode=render_mode).unwrapped)
    # a ResourceWarning is the garbage collector finding another test's unclosed socket
    # while this one runs (same worker), never gymnasium's word on the environment
    assert not [str(w.message) for w in caught if not issubclass(w.category, ResourceWarning)]


def test_the_former_names_are_the_registrys_environments():
    assert gym_id("nova-luna") == "tabletop/NovaLunaSolo-v0"
    assert gym_id("nmbr9") == "tabletop/Nmbr9Solo-v0"
    from tabletop.research import nmbr9_v0, novaluna_v0

    assert novaluna_v0.env().unwrapped.metadata["name"] == "novaluna_v0"
    assert type(nmbr9_v0.raw_env(players=1)) is aec.TabletopEnv
