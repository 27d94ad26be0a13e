"""Toy Draft in the research environments, through its encoding (``encoding.py``): the
encoder follows the rules, sees no pile order, and PettingZoo's ``api_test``,
Gymnasium's ``check_env`` and OpenSpiel's ``random_sim_test`` pass for it.

The encoding contract is ``tabletop.research.encoding``'s; the checks that every encoded
game gets are in ``tests/research`` (docs/adding-a-game.md, "The research encoding").
Without numpy (the extra ``rl``) this module is skipped."""

from __future__ import annotations

import doctest
import random
import warnings

import pytest

pytest.importorskip("tabletop.research.encoding")
np = pytest.importorskip("numpy")

from tabletop.core.game import get_game  # noqa: E402
from tabletop.harness.selfplay import play_game  # noqa: E402
from tabletop.research.encoding import CHANCE, TERMINAL, encoding  # noqa: E402
from toygame import encoding as toy_encoding  # noqa: E402
from toygame.rules import TILES  # noqa: E402


def test_doctests() -> None:
    assert doctest.testmod(toy_encoding).failed == 0


def test_the_game_names_its_encoding() -> None:
    assert encoding("toy") is toy_encoding.ENCODING


def test_a_dealt_encoder_plays_the_recorded_game_to_the_same_ranks() -> None:
    game = get_game("toy")
    for seed in range(5):
        record = play_game(game, ["random", "greedy"], seed)
        encoder = toy_encoding.ENCODING.setup(2).deal(seed, {})
        for turn in record["turns"]:
            assert encoder.acting() == turn["seat"]
            assert encoder.market[turn["slot"]] == turn["tile"]
            encoder.apply(turn["slot"], turn["seat"])
        assert encoder.acting() == TERMINAL
        assert encoder.ranks() == record["result"]["ranks"]
        assert encoder.reward_scores() == [float(s) for s in record["result"]["scores"]]


def test_observations_hold_no_pile_order() -> None:
    setup = toy_encoding.ENCODING.setup(2)
    pile = list(range(1, TILES + 1))
    one = setup.deal(0, {"pile": pile})
    other = setup.deal(0, {"pile": pile[:3] + pile[3:][::-1]})  # same market, other pile
    for seat in (0, 1):
        assert np.array_equal(one.observe(seat), other.observe(seat))


def test_chance_nodes_turn_the_unseen_tiles_uniformly() -> None:
    encoder = toy_encoding.ENCODING.setup(1).undealt()
    rng = random.Random(2)
    seen: list[int] = []
    while encoder.acting() != TERMINAL:
        if encoder.acting() == CHANCE:
            outcomes = encoder.chance_outcomes()
            assert sorted(o + 1 for o, _ in outcomes) == sorted(set(range(1, 16)) - set(seen))
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            outcome = rng.choice(outcomes)[0]
            seen.append(outcome + 1)
            encoder.apply_chance(outcome)
        else:
            encoder.apply(rng.choice(encoder.legal_actions(0)), 0)
    assert len(seen) == 3 + 3  # the market, then a refill after each take but the last
    assert encoder.state is None  # nothing dealt: the chance nodes decided


def test_the_pettingzoo_api_test_passes() -> None:
    from pettingzoo.test import api_test

    from tabletop.research import aec

    for players in (1, 2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the dict observation's notes (see tests/research)
            api_test(aec.env("toy", players=players), num_cycles=50)


def test_gymnasiums_check_env_passes_for_the_solo_game() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from tabletop.research import gym
    from tabletop.research.encoding import gym_id

    gym.register()  # the toy was registered after tabletop.research was imported, maybe
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make(gym_id("toy")).unwrapped)
    assert not [str(w.message) for w in caught]


def test_openspiels_random_sim_test_passes() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from tabletop.research import openspiel
    from tabletop.research.encoding import spiel_name

    openspiel.register()
    for players in (1, 2):
        game = pyspiel.load_game(spiel_name("toy"), {"players": players})
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
