"""OpenSpiel states share the game's undealt position until they change, and clone()
copies through the encoders' own ``__deepcopy__``: neither may let one state's moves
reach another."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from tabletop.research import openspiel  # noqa: E402
from tabletop.research.encoding import spiel_name  # noqa: E402

from research_support import research_games  # noqa: E402

GAMES = research_games()


@pytest.fixture(autouse=True)
def spiel_games():
    openspiel.register()  # every registered game with an encoding, the toy included


def step(state, rng: random.Random) -> None:
    if state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probs)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def tensors(state) -> list[list[float]]:
    n = state.num_players()
    return [state.observation_tensor(p) for p in range(n)] + [
        state.information_state_tensor(p) for p in range(n)
    ]


def fresh_tensors(game, params) -> list[list[float]]:
    """A new state's tensors computed from an encoder of its own (no sharing, no cache)."""
    state = game.new_initial_state()
    state._changing()
    observer = game.make_py_observer()
    out = []
    for p in range(params["players"]):
        observer.set_from(state, p)
        out.append(observer.tensor.tolist())
    return out


@pytest.mark.parametrize("name", GAMES)
def test_new_states_share_the_undealt_position_but_never_its_changes(name):
    game = pyspiel.load_game(spiel_name(name), {"players": 2})
    first, second = game.new_initial_state(), game.new_initial_state()
    before = tensors(second)
    rng = random.Random(1)
    for _ in range(12):
        step(first, rng)
    third = game.new_initial_state()
    assert tensors(second) == before == tensors(third)
    assert second.history() == [] and str(second) == str(third)
    observations = [second.observation_tensor(p) for p in range(2)]
    assert observations == fresh_tensors(game, {"players": 2})
    assert first.encoder is not second.encoder and second.encoder is third.encoder


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("moves", [0, 7, 25])
def test_a_clone_goes_its_own_way(name, moves):
    game = pyspiel.load_game(spiel_name(name), {"players": 2})
    state = game.new_initial_state()
    rng = random.Random(moves)
    for _ in range(moves):
        if not state.is_terminal():
            step(state, rng)
    before = tensors(state), state.history(), str(state)
    clone = state.clone()
    assert clone.history() == state.history() and tensors(clone) == before[0]
    replay = game.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
    for _ in range(15):
        if clone.is_terminal():
            break
        step(clone, rng)
    assert (tensors(state), state.history(), str(state)) == before
    for action in clone.history()[len(replay.history()) :]:
        replay.apply_action(action)
    assert tensors(replay) == tensors(clone) and str(replay) == str(clone)
    assert np.isfinite(np.array(tensors(clone)[0])).all()
