"""Sealed Bids in the research environments, through its encoding (``encoding.py``):
the encoder follows the rules, an observation never shows the prize order, another
seat's pending bid, or whether another seat has bid this round; PettingZoo's
``api_test`` and ``parallel_api_test`` and OpenSpiel's ``random_sim_test`` pass, and
ISMCTS's resampling keeps what a seat knows."""

from __future__ import annotations

import doctest
import random
import warnings
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from sealedbid import encoding as sealed_encoding  # noqa: E402
from sealedbid.rules import CARDS  # noqa: E402
from tabletop.core.game import get_game  # noqa: E402
from tabletop.harness.selfplay import play_game  # noqa: E402
from tabletop.research.encoding import CHANCE, TERMINAL, encoding, spiel_name  # noqa: E402

ENCODING = sealed_encoding.ENCODING


def test_doctests() -> None:
    assert doctest.testmod(sealed_encoding).failed == 0


def test_the_game_names_its_encoding() -> None:
    assert encoding("sealed-bids") is ENCODING


@pytest.mark.parametrize("players", [2, 3])
def test_a_dealt_encoder_plays_the_recorded_game_to_the_same_ranks(players: int) -> None:
    game = get_game("sealed-bids")
    for seed in range(5):
        record = play_game(game, ["random", "greedy", "random"][:players], seed)
        encoder = ENCODING.setup(players).deal(seed, {})
        for entry in record["rounds"]:
            assert encoder.prize == entry["prize"]
            for seat, bid in enumerate(entry["bids"]):
                encoder.apply(bid - 1, seat)
        assert encoder.acting() == TERMINAL
        assert encoder.ranks() == record["result"]["ranks"]
        assert encoder.reward_scores() == [float(s) for s in record["result"]["scores"]]


def test_observations_hold_no_prize_order() -> None:
    setup = ENCODING.setup(2)
    one = setup.deal(0, {"prizes": [2, 1, 3, 4, 5, 6]})
    other = setup.deal(0, {"prizes": [2, 6, 5, 4, 3, 1]})  # same first prize
    for seat in (0, 1):
        assert np.array_equal(one.observe(seat), other.observe(seat))


def test_an_observation_does_not_show_whether_another_seat_has_bid() -> None:
    """The hidden-history rule (``tabletop.research.rounds``): while the round is open,
    another seat's bid — which, and whether there is one — leaves a seat's observation
    as it was; the round's resolution shows them all."""
    encoder = ENCODING.setup(3).deal(5, {})
    rng = random.Random(5)
    for _ in range(CARDS):
        before = [encoder.observe(s).tolist() for s in range(3)]
        for seat in range(3):
            for other in range(3):
                if other != seat:
                    assert encoder.observe(other).tolist() == before[other]
            encoder.apply(rng.choice(encoder.legal_actions(seat)), seat)
            before[seat] = encoder.observe(seat).tolist()  # its own bid shows to itself
    assert encoder.is_over


def test_the_pettingzoo_api_tests_pass() -> None:
    from pettingzoo.test import api_test, parallel_api_test

    from tabletop.research import aec
    from tabletop.research.parallel import parallel_env

    for players in (2, 3):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the dict observation's notes (see tests/research)
            api_test(aec.env("sealed-bids", players=players), num_cycles=50)
            parallel_api_test(parallel_env("sealed-bids", players=players), num_cycles=50)


def test_the_chance_nodes_turn_the_unseen_prizes_uniformly() -> None:
    encoder = ENCODING.setup(2).undealt()
    rng = random.Random(2)
    seen: list[int] = []
    while encoder.acting() != TERMINAL:
        if encoder.acting() == CHANCE:
            outcomes = encoder.chance_outcomes()
            assert sorted(o + 1 for o, _ in outcomes) == sorted(set(range(1, 7)) - set(seen))
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            outcome = rng.choice(outcomes)[0]
            seen.append(outcome + 1)
            encoder.apply_chance(outcome)
        else:
            seat = encoder.acting()
            encoder.apply(rng.choice(encoder.legal_actions(seat)), seat)
    assert sorted(seen) == list(range(1, CARDS + 1)) and encoder.state is None


@pytest.fixture
def spiel() -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    from tabletop.research import openspiel

    openspiel.register()
    return pyspiel


def test_openspiels_random_sim_test_passes(spiel: Any) -> None:
    for players in (2, 3):
        game = spiel.load_game(spiel_name("sealed-bids"), {"players": players})
        spiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_information_state_hides_the_open_rounds_other_bids(spiel: Any) -> None:
    game = spiel.load_game(spiel_name("sealed-bids"), {"players": 2})
    state = game.new_initial_state()
    state.apply_action(2)  # the prize 3
    infos, tensors = set(), set()
    for action in state.legal_actions():
        child = state.child(action)  # seat 0 bids; seat 1 to bid
        infos.add(child.information_state_string(1))
        tensors.add(tuple(child.observation_tensor(1)))
        assert child.information_state_string(0).endswith(f"bid {action + 1}")
        resolved = child.child(child.legal_actions()[0])
        assert f"bid {action + 1}" in resolved.information_state_string(1)
    assert infos == {"prize 3 ?"} and len(tensors) == 1


def test_a_resampled_state_keeps_what_the_seat_knows(spiel: Any) -> None:
    game = spiel.load_game(spiel_name("sealed-bids"), {"players": 3})
    rng = random.Random(3)
    state, checked = game.new_initial_state(), 0
    while not state.is_terminal():
        if not state.is_chance_node() and rng.random() < 0.5:
            for player in range(3):
                sampler = spiel.UniformProbabilitySampler(rng.randrange(1 << 30), 0.0, 1.0)
                sample = state.resample_from_infostate(player, sampler)
                assert sample.information_state_string(player) == state.information_state_string(
                    player
                )
                assert sample.observation_tensor(player) == state.observation_tensor(player)
                checked += 1
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 6
