"""OpenSpiel states share the game's undealt position until they change, and clone()
copies through the encoders' own ``__deepcopy__``: neither may let one state's moves
reach another."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from tabletop.core.game import get_game  # noqa: E402
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


def cpp_answers(state) -> tuple:
    """What pyspiel's C++ methods answer (the base class's, past the Python overrides)."""
    base = pyspiel.State
    n = state.num_players()
    players = [None, *range(n)]
    legal = [base.legal_actions(state, *([] if p is None else [p])) for p in players]
    acting = state.current_player()
    tensors = []
    for p in range(n):
        tensors += [base.observation_tensor(state, p), base.information_state_tensor(state, p)]
    if acting >= 0:
        tensors += [base.observation_tensor(state), base.information_state_tensor(state)]
    return legal, base.is_chance_node(state), base.is_player_node(state), tensors


def python_answers(state) -> tuple:
    n = state.num_players()
    players = [None, *range(n)]
    legal = [state.legal_actions(*([] if p is None else [p])) for p in players]
    acting = state.current_player()
    tensors = []
    for p in range(n):
        tensors += [state.observation_tensor(p), state.information_state_tensor(p)]
    if acting >= 0:
        tensors += [state.observation_tensor(), state.information_state_tensor()]
    return legal, state.is_chance_node(), state.is_player_node(), tensors


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seats", ["fewest", "most"])
def test_python_side_reads_answer_as_pyspiels_cpp_path(name, seats):
    """``legal_actions``, ``is_chance_node``, ``is_player_node`` and the tensors are
    overridden on the Python side (to skip pyspiel's round trips): at every node of a
    random game, chance and end included, they answer what the C++ methods answer."""
    rules = get_game(name)
    players = max(1, rules.min_seats) if seats == "fewest" else rules.max_seats
    game = pyspiel.load_game(spiel_name(name), {"players": players})
    state = game.new_initial_state()
    rng = random.Random(players)
    checked = 0
    while True:
        python = python_answers(state)
        assert python == cpp_answers(state)
        assert all(type(value) is float for tensor in python[3] for value in tensor)
        checked += 1
        if state.is_terminal():
            break
        step(state, rng)
    assert checked > 10 and state.legal_actions() == []


@pytest.mark.parametrize("name", GAMES)
def test_python_side_reads_refuse_what_pyspiel_refuses(name):
    game = pyspiel.load_game(spiel_name(name), {"players": 2})
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        step(state, rng)
    for bad in (-2, 2):
        for read in (state.observation_tensor, state.information_state_tensor):
            with pytest.raises(pyspiel.SpielError):
                read(bad)
            with pytest.raises(pyspiel.SpielError):
                getattr(pyspiel.State, read.__name__)(state, bad)
    with pytest.raises(pyspiel.SpielError, match="pseudo-player"):
        state.legal_actions(-2)
    with pytest.raises(pyspiel.SpielError, match="pseudo-player"):
        pyspiel.State.legal_actions(state, -2)
    while not state.is_chance_node():
        step(state, rng)
    with pytest.raises(pyspiel.SpielError):
        state.observation_tensor()  # nobody acts at a chance node
    with pytest.raises(pyspiel.SpielError):
        pyspiel.State.observation_tensor(state)


def test_the_rules_free_twins_of_the_ceiling_script_play_as_pyspiel_expects():
    """scripts/bench_spiel_ceiling.py measures a rules-free twin of each game beside it:
    the twin has the game's shape (tensor size, legal actions, chance nodes per step) and
    passes pyspiel's random simulation checks, so its steps/s is a fair ceiling."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[2] / "scripts" / "bench_spiel_ceiling.py"
    spec = importlib.util.spec_from_file_location("bench_spiel_ceiling", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    shape = script.measure_shape("nova-luna", games=3)
    game = pyspiel.load_game(spiel_name("nova-luna"), {"players": 2})
    assert shape.tensor == game.observation_tensor_size()
    assert shape.actions == game.num_distinct_actions()
    assert 1 < shape.legal < shape.actions and 0 < shape.density < 1
    assert 0.5 < shape.chance_per_step < 2 and 20 < shape.steps < 200
    twin = pyspiel.load_game(script.register_twin("nova-luna", shape))
    pyspiel.random_sim_test(twin, num_sims=2, serialize=False, verbose=False)
    state = twin.new_initial_state()
    assert len(state.observation_tensor(0)) == shape.tensor
