"""NMBR 9's dealt game in C (``fastchance.CompiledEncoder``, what PettingZoo and
Gymnasium play) against the pure Python ``encoding.Encoder``: both play the same seeded
games side by side and every node is compared; refusals, copies, pickles and the
truncation of a full window."""

from __future__ import annotations

import copy
import pickle
import random
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.core.errors import IllegalActionError
from tabletop.games.nmbr9 import fastchance
from tabletop.games.nmbr9.encoding import ENCODING, WINDOW_FULL, Encoder, Nmbr9Setup

if not fastchance.COMPILED:
    pytest.skip("the optional C extension is not built here", allow_module_level=True)


def pair(setup: Nmbr9Setup, seed: int, deck: list[int] | None = None):
    """The compiled and the Python game of one deal."""
    fast = setup.deal(seed, {} if deck is None else {"deck": deck})
    assert isinstance(fast, fastchance.CompiledEncoder)
    python = Encoder(setup, setup.rules.new_state(seed, deck=deck))
    return fast, python


def same(fast, python) -> None:
    """Every answer the environments ask for is the Python one."""
    assert fast.acting() == python.acting()
    assert fast.is_over == python.is_over
    assert fast.truncation == python.truncation
    for seat in range(python.setup.players):
        assert fast.observe(seat).tobytes() == python.observe(seat).tobytes(), seat
        assert fast.mask(seat).tobytes() == python.mask(seat).tobytes(), seat
        assert fast.legal_actions(seat) == python.legal_actions(seat), seat
    assert fast.scores() == python.scores()
    if python.is_over:
        assert fast.ranks() == python.ranks()
        assert fast.reward_scores() == python.reward_scores()
        assert fast.solo_score() == python.solo_score()


def play(fast, python, rng: random.Random, past_truncation: bool = False) -> None:
    same(fast, python)
    while not python.is_over and (past_truncation or python.truncation is None):
        seat = python.acting()
        legal = python.legal_actions(seat)
        if not legal:  # a full window: the seat cannot place
            with pytest.raises(IllegalActionError):
                fast.apply(0, seat)
            break
        action = rng.choice(legal)
        if rng.random() < 0.2:  # the index of a rules' placement, without the rules' state
            place = rng.choice(python.state.legal_actions(seat))
            try:
                expected = python.action_index(place)
            except ValueError as error:
                with pytest.raises(ValueError, match=re.escape(str(error))):
                    fast.action_index(place)
            else:
                assert fast.action_index(place) == expected
        fast.apply(action, seat)
        python.apply(action, seat)
        same(fast, python)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(1, 4),
    remove=st.sampled_from([0, 3, None]),
    size=st.sampled_from([40, 9, 12]),
)
def test_seeded_games_play_as_the_python_encoder(seed, players, remove, size):
    setup = ENCODING.setup(players, remove=remove, size=size)
    fast, python = pair(setup, seed)
    play(fast, python, random.Random(seed), past_truncation=True)
    assert fast.render() == python.render()


def test_a_fixed_deck_and_a_full_window_truncate_as_the_python_encoder():
    truncated = 0
    for seed in range(30):
        setup = ENCODING.setup(2, size=8)
        deck = random.Random(seed).sample(range(10), 10) * 2
        fast, python = pair(setup, seed, deck)
        play(fast, python, random.Random(seed), past_truncation=True)
        truncated += python.truncation == WINDOW_FULL
    assert truncated > 5


def test_refusals_are_the_rules_words_and_change_nothing():
    setup = ENCODING.setup(2)
    fast, python = pair(setup, 5)
    for _ in range(3):
        seat = python.acting()
        action = python.legal_actions(seat)[0]
        fast.apply(action, seat)
        python.apply(action, seat)
    seat = python.acting()
    illegal = next(a for a in range(setup.actions) if a not in python.legal_actions(seat))
    for action, who in ((illegal, seat), (-3, seat), (setup.actions, seat)):
        with pytest.raises(IllegalActionError) as python_error:
            python.apply(action, who)
        with pytest.raises(IllegalActionError) as fast_error:
            fast.apply(action, who)
        assert str(fast_error.value) == str(python_error.value)
    same(fast, python)


def test_copies_and_pickles_go_their_own_way():
    setup = ENCODING.setup(3, remove=2)
    fast, python = pair(setup, 11)
    rng = random.Random(2)
    for _ in range(10):
        action = rng.choice(python.legal_actions(python.acting()))
        seat = python.acting()
        fast.apply(action, seat)
        python.apply(action, seat)
    for twin in (fast.copy(), copy.deepcopy(fast), pickle.loads(pickle.dumps(fast))):
        assert twin.render() == fast.render()
        twin_python = python.copy()
        play(twin, twin_python, random.Random(7))
        same(fast, python)  # the original is where it was
    assert np.array_equal(fast.state.deck_order(), python.state.deck_order())
