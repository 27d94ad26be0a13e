"""OpenSpiel's NMBR 9 on the compiled game (``fastchance.CompiledChanceEncoder``): what
it hands to its Python reference (text, the rules' state, errors, ISMCTS's reshuffle),
its information states, copies and pickles, and the Python game where C is not built
or the removal is random."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from tabletop.core.errors import IllegalActionError  # noqa: E402
from tabletop.games.nmbr9 import fastchance  # noqa: E402
from tabletop.games.nmbr9.encoding import ENCODING, WINDOW_FULL, ChanceEncoder  # noqa: E402
from tabletop.research import openspiel  # noqa: E402
from tabletop.research.encoding import CHANCE  # noqa: E402

if not fastchance.COMPILED:
    pytest.skip("the optional C extension is not built here", allow_module_level=True)


def played(players: int, steps: int, seed: int, remove: int = 0, size: int = 40):
    """A compiled game, the Python one and OpenSpiel's history after the same
    ``steps`` random steps."""
    setup = ENCODING.setup(players, remove=remove, size=size)
    fast, python = fastchance.CompiledChanceEncoder(setup), ChanceEncoder(setup)
    rng, history = random.Random(seed), []
    for _ in range(steps):
        if python.is_over:
            break
        if python.acting() == CHANCE:
            value = rng.choice(python.chance_outcomes())[0]
            fast.apply_chance(value)
            python.apply_chance(value)
        else:
            seat = python.acting()
            value = rng.choice(python.legal_actions(seat))
            fast.apply(value, seat)
            python.apply(value, seat)
        history.append(value)
    return fast, python, history


@pytest.mark.parametrize("players", [1, 2, 4])
def test_what_c_does_not_answer_comes_from_the_replayed_reference(players):
    fast, python, history = played(players, 3 * (players + 1) + 1, seed=players)
    assert fast._reference is None  # nothing asked of it yet
    assert fast.render() == python.render()
    assert fast.render(0) == python.render(0)
    assert fast.public_render() == python.public_render()
    assert (
        fast.state.deck_order()[: fast.state.round + 1]
        == python.state.deck_order()[: python.state.round + 1]
    )
    place = python.state.legal_actions(python.acting())[0]
    assert fast.action_index(place) == python.action_index(place)
    # the reference follows later moves too
    fast2, python2, _ = played(players, 9 * (players + 1), seed=players)
    assert fast2.render() == python2.render()


@pytest.mark.parametrize("players", [1, 3])
def test_information_states_and_text_come_from_c_without_the_reference(players):
    fast, python, history = played(players, 5 * (players + 1) + 2, seed=7)
    for seat in range(players):
        got = fast.information_tensor(seat, history)
        assert got.tobytes() == python.information_tensor(seat, history).tobytes()
        assert fast.information_string(seat, history) == python.information_string(seat, history)
        assert fast.hidden_moves(seat, history) == python.hidden_moves(seat, history)
    assert (
        fast.public_information_tensor(history).tobytes()
        == python.public_information_tensor(history).tobytes()
    )
    assert fast.public_observe().tobytes() == python.public_observe().tobytes()
    actions = python.legal_actions(python.acting())[:5]
    assert [fast.action_string(a) for a in actions] == [python.action_string(a) for a in actions]
    assert fast.chance_string(4) == python.chance_string(4)
    assert fast._reference is None  # all of it answered without a replay


def test_an_illegal_action_is_refused_in_the_rules_words_and_changes_nothing():
    fast, python, _ = played(2, 10, seed=3)
    if python.acting() == CHANCE:
        value = python.chance_outcomes()[0][0]
        fast.apply_chance(value)
        python.apply_chance(value)
    seat = python.acting()
    illegal = next(a for a in range(6400) if a not in python.legal_actions(seat))
    before = fast.observe(seat).tobytes(), fast.legal_actions(seat)
    for action in (-1, 4 * 40 * 40, 10**30, illegal):
        with pytest.raises(IllegalActionError) as python_error:
            python.apply(action, seat)
        with pytest.raises(IllegalActionError) as fast_error:
            fast.apply(action, seat)
        assert str(fast_error.value) == str(python_error.value)
    with pytest.raises(IllegalActionError):
        fast.apply(fast.legal_actions(seat)[0], 1 - seat)  # not its turn
    with pytest.raises(IllegalActionError, match="chance outcome 3"):
        fast.apply_chance(3)  # not a chance node
    assert (fast.observe(seat).tobytes(), fast.legal_actions(seat)) == before


def test_the_seat_not_acting_yet_has_its_placements_and_chance_nodes_defer():
    """The round is simultaneous: every seat that has not placed has its mask."""
    fast, python, _ = played(3, 2, seed=5)  # the card, then seat 0's placement
    assert fast.acting() == 1
    for seat in range(3):
        assert fast.legal_actions(seat) == python.legal_actions(seat)
        assert fast.mask(seat).tobytes() == python.mask(seat).tobytes()
    fast, python, _ = played(3, 0, seed=5)  # a chance node: the reference's answer
    assert fast.mask(2).tobytes() == python.mask(2).tobytes()


def test_copies_and_pickles_carry_the_log_and_the_reshuffled_deck():
    fast, _, _ = played(3, 20, seed=8, remove=2)
    fast.shuffle_unseen(random.Random(1).random)  # only the reference holds the deck
    deck = fast.state.deck_order()
    for twin in (copy.deepcopy(fast), pickle.loads(pickle.dumps(fast))):
        assert twin.state.deck_order() == deck
        assert twin.render() == fast.render()
        assert twin.observe(1).tobytes() == fast.observe(1).tobytes()
        if twin.acting() >= 0:  # the copy goes its own way
            twin.apply(twin.legal_actions(twin.acting())[0])
            assert twin.render() != fast.render()


def test_a_small_window_ends_the_compiled_game_truncated():
    for seed in range(40):
        fast, python, _ = played(2, 200, seed=seed, size=8)
        if python.is_over and python.truncation == WINDOW_FULL:
            assert fast.is_over and fast.truncation == WINDOW_FULL
            assert fast.acting() == python.acting()
            return
    raise AssertionError("no game filled an 8 x 8 window")


def test_an_openspiel_game_plays_the_compiled_game_and_ismcts_resamples_it():
    game = pyspiel.load_game(openspiel.NMBR9, {"players": 2})
    state = game.new_initial_state()
    assert isinstance(state.encoder, fastchance.CompiledChanceEncoder)
    rng = random.Random(4)
    for _ in range(8):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player() == 1  # seat 0's placement is hidden from seat 1
    resampled = state.resample_from_infostate(1, random.Random(2).random)
    assert resampled.information_state_string(1) == state.information_state_string(1)
    assert resampled.observation_tensor(1) == state.observation_tensor(1)
    assert resampled.history()[:-1] == state.history()[:-1]


def test_without_the_c_extension_or_with_a_random_removal_openspiel_plays_python(
    monkeypatch,
):
    assert type(ENCODING.setup(1, remove=None).undealt()) is ChanceEncoder
    monkeypatch.setattr(fastchance, "COMPILED", False)
    game = pyspiel.load_game(openspiel.NMBR9, {"players": 2})
    state = game.new_initial_state()
    assert type(state.encoder) is ChanceEncoder
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[-1][0])
        else:
            state.apply_action(state.legal_actions()[-1])
    assert len(state.returns()) == 2
