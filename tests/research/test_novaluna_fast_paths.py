"""Nova Luna's fast research paths against their references: the incremental encoder
against one built from the state alone, copies and OpenSpiel clones against the game
replayed from its history."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

from tabletop.games.novaluna.encoding import Encoder
from tabletop.games.novaluna.rules import Game


def assert_same_encoding(encoder: Encoder) -> None:
    """``encoder`` (kept up to date move by move) encodes what a new encoder of a copy of
    its state encodes, for every seat: observation, mask and legal actions."""
    fresh = Encoder(encoder.state.clone())
    for seat in range(encoder.players):
        observation = encoder.observe(seat)
        assert observation.dtype == np.int16 and observation.flags.writeable
        assert np.array_equal(observation, fresh.observe(seat))
        assert np.array_equal(encoder.mask(seat), fresh.mask(seat))
        assert encoder.legal_actions(seat) == fresh.legal_actions(seat)
    mask = encoder.mask()
    assert encoder.legal_actions() == np.flatnonzero(mask).tolist()


def random_move(encoder: Encoder, rng: random.Random) -> None:
    encoder.apply(rng.choice(encoder.legal_actions()))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_incremental_encoder_encodes_as_one_built_from_the_state(players):
    rng = random.Random(players)
    for seed in range(2):
        encoder = Encoder(Game(players=players).new_state(seed=seed))
        while not encoder.is_over:
            assert_same_encoding(encoder)
            random_move(encoder, rng)
        assert_same_encoding(encoder)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_an_encoder_copy_and_its_original_go_their_own_ways(players):
    rng = random.Random(10 + players)
    encoder = Encoder(Game(players=players).new_state(seed=players))
    for _ in range(rng.randrange(5, 25)):
        random_move(encoder, rng)
    twin = encoder.copy()
    deep = copy.deepcopy(encoder)  # OpenSpiel's clone goes through deepcopy
    assert_same_encoding(twin)
    assert np.array_equal(deep.observe(0), encoder.observe(0))
    before = [encoder.observe(seat) for seat in range(players)], encoder.mask()
    while not twin.is_over:
        random_move(twin, rng)
        assert_same_encoding(twin)
    for seat in range(players):
        assert np.array_equal(encoder.observe(seat), before[0][seat])
    assert np.array_equal(encoder.mask(), before[1])
    while not encoder.is_over:
        random_move(encoder, rng)
        assert_same_encoding(encoder)


def test_an_openspiel_clone_plays_on_as_its_original_and_apart_from_it():
    pyspiel = pytest.importorskip("pyspiel")
    from tabletop.research import openspiel

    for players in (1, 2, 3):
        game = pyspiel.load_game(openspiel.NOVA_LUNA, {"players": players})
        rng = random.Random(players)
        state = game.new_initial_state()
        while not state.is_terminal():
            # clones at every kind of node: undealt, mid-refill, before a move
            if rng.random() < 0.2:
                check_clone(game, state, rng)
            state.apply_action(next_action(state, rng))
        check_clone(game, state, rng)


def next_action(state, rng: random.Random) -> int:
    if state.is_chance_node():
        return rng.choice(state.chance_outcomes())[0]
    return rng.choice(state.legal_actions())


def replayed(game, history: list[int]):
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def assert_same_state(one, two) -> None:
    assert one.history() == two.history()
    assert one.is_terminal() == two.is_terminal()
    if one.is_terminal():
        assert one.returns() == two.returns()
    elif one.is_chance_node():
        assert one.chance_outcomes() == two.chance_outcomes()
    else:
        assert one.legal_actions() == two.legal_actions()
    for seat in range(one.num_players()):
        assert one.observation_tensor(seat) == two.observation_tensor(seat)


def check_clone(game, state, rng: random.Random) -> None:
    clone = state.clone()
    assert_same_state(clone, state)
    for _ in range(8):  # the clone moves on; the original stays as it was
        if clone.is_terminal():
            break
        clone.apply_action(next_action(clone, rng))
        assert_same_state(clone, replayed(game, clone.history()))
    assert_same_state(state, replayed(game, state.history()))
