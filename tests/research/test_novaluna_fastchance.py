"""OpenSpiel's Nova Luna on the compiled game (``fastchance.CompiledChanceEncoder``):
what it hands to its Python reference (text, the rules' state, errors, ISMCTS's
reshuffle), copies and pickles, and the Python game where C is not built."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from tabletop.core.errors import IllegalActionError  # noqa: E402
from tabletop.games.novaluna import fastchance  # noqa: E402
from tabletop.games.novaluna.chance import ChanceEncoder  # noqa: E402
from tabletop.games.novaluna.encoding import ENCODING  # noqa: E402
from tabletop.research import openspiel  # noqa: E402

if not fastchance.COMPILED:
    pytest.skip("the optional C extension is not built here", allow_module_level=True)


def played(players: int, steps: int, seed: int):
    """A compiled game and the Python one after the same ``steps`` random steps."""
    setup = ENCODING.setup(players)
    fast, python = fastchance.CompiledChanceEncoder(setup), ChanceEncoder(setup)
    rng = random.Random(seed)
    for _ in range(steps):
        if python.is_over:
            break
        if python.acting() == -1:
            outcome = rng.choice(python.chance_outcomes())[0]
            fast.apply_chance(outcome)
            python.apply_chance(outcome)
        else:
            action = rng.choice(python.legal_actions(python.acting()))
            fast.apply(action)
            python.apply(action)
    return fast, python


@pytest.mark.parametrize("players", [1, 2, 4])
def test_what_c_does_not_answer_comes_from_the_replayed_reference(players):
    fast, python = played(players, 60, seed=players)
    assert fast.render() == python.render()
    assert fast.state is not None and fast.state.turn == python.state.turn
    actions = python.legal_actions(python.acting()) if python.acting() >= 0 else [5]
    assert [fast.action_string(a) for a in actions] == [python.action_string(a) for a in actions]
    assert (
        fast.information_tensor(0, [1, 2]).tobytes()
        == python.information_tensor(0, [1, 2]).tobytes()
    )
    # the reference follows later moves too
    fast2, python2 = played(players, 90, seed=players)
    assert fast2.render() == python2.render()


def test_an_illegal_action_is_refused_in_the_rules_words_and_changes_nothing():
    fast, python = played(2, 40, seed=3)
    while python.acting() == -1:
        outcome = python.chance_outcomes()[0][0]
        fast.apply_chance(outcome)
        python.apply_chance(outcome)
    seat = python.acting()
    before = fast.observe(seat).tobytes(), fast.legal_actions(seat)
    for action in (-1, 3 * 89 * 89 - 1, 10**9):
        with pytest.raises(IllegalActionError) as python_error:
            python.apply(action)
        with pytest.raises(IllegalActionError) as fast_error:
            fast.apply(action)
        assert str(fast_error.value) == str(python_error.value)
    with pytest.raises(IllegalActionError, match="turn"):
        fast.apply(fast.legal_actions(seat)[0], seat=1 - seat)
    with pytest.raises(IllegalActionError, match="chance outcome 70"):
        fast.apply_chance(70)
    assert (fast.observe(seat).tobytes(), fast.legal_actions(seat)) == before


def test_copies_and_pickles_carry_the_log_and_the_reshuffled_pile():
    fast, _ = played(3, 50, seed=8)
    fast.shuffle_unseen(random.Random(1).random)  # only the reference holds the pile
    pile = fast.state.pile_order()
    for twin in (copy.deepcopy(fast), pickle.loads(pickle.dumps(fast))):
        assert twin.state.pile_order() == pile
        assert twin.render() == fast.render()
        assert twin.observe(1).tobytes() == fast.observe(1).tobytes()
        if twin.acting() >= 0:  # the copy goes its own way
            twin.apply(twin.legal_actions(twin.acting())[0])
            assert twin.render() != fast.render()


def test_an_openspiel_game_plays_the_compiled_game_and_ismcts_resamples_it():
    game = pyspiel.load_game(openspiel.NOVA_LUNA, {"players": 2})
    state = game.new_initial_state()
    assert isinstance(state.encoder, fastchance.CompiledChanceEncoder)
    rng = random.Random(4)
    for _ in range(40):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    resampled = state.resample_from_infostate(state.current_player(), random.Random(2).random)
    assert resampled.history() == state.history()
    assert resampled.observation_tensor() == state.observation_tensor()


def test_without_the_c_extension_openspiel_plays_the_python_game(monkeypatch):
    monkeypatch.setattr(fastchance, "COMPILED", False)
    game = pyspiel.load_game(openspiel.NOVA_LUNA, {"players": 2})
    state = game.new_initial_state()
    assert type(state.encoder) is ChanceEncoder
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[-1][0])
        else:
            state.apply_action(state.legal_actions()[-1])
    assert sorted(state.returns()) == [-1.0, 1.0]
