"""The libraries' own checkers pass: PettingZoo's api, seed and render tests for both
games and several player counts, Gymnasium's check_env for both solo games."""

from __future__ import annotations

import warnings

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

import tabletop.research  # noqa: F401  (registers the Gymnasium environments)
from tabletop.research import nmbr9_v0, novaluna_v0

#: What api_test says of every observation dict with an action mask (PettingZoo's own
#: classic games are on its list of exceptions); any other warning fails the test.
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def api_test_warnings(env, num_cycles: int) -> set[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=num_cycles)
    return {str(w.message) for w in caught}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_nova_luna_passes_the_pettingzoo_api_test(players):
    env = novaluna_v0.env(players=players)
    assert api_test_warnings(env, num_cycles=100) <= DICT_OBSERVATION_WARNINGS


@pytest.mark.parametrize("players", [1, 2, 4])
def test_nmbr9_passes_the_pettingzoo_api_test(players):
    env = nmbr9_v0.env(players=players)
    assert api_test_warnings(env, num_cycles=25) <= DICT_OBSERVATION_WARNINGS


@pytest.mark.parametrize("players", [2, 4])
def test_nova_luna_passes_the_pettingzoo_seed_test(players):
    seed_test(lambda: novaluna_v0.env(players=players), num_cycles=100)


@pytest.mark.parametrize("players", [1, 3])
def test_nmbr9_passes_the_pettingzoo_seed_test(players):
    seed_test(lambda: nmbr9_v0.env(players=players), num_cycles=10)


def test_both_games_pass_the_pettingzoo_render_test(capsys):
    render_test(lambda render_mode=None: novaluna_v0.env(players=2, render_mode=render_mode))
    render_test(lambda render_mode=None: nmbr9_v0.env(players=2, render_mode=render_mode))
    assert "Nova Luna" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["tabletop/NovaLunaSolo-v0", "tabletop/Nmbr9Solo-v0"])
@pytest.mark.parametrize("render_mode", [None, "ansi"])
def test_the_solo_games_pass_gymnasiums_check_env_without_a_warning(name, render_mode):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make(name, render_mode=render_mode).unwrapped)
    assert not [str(w.message) for w in caught]
