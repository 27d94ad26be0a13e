"""mcts's C kernel (``_mctskernel.c``) agrees with the Python search it compiles: the
same position, candidates and leaf, and a search that only plays legal moves. The rules
engine stays the reference."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.games.novaluna.bots import make_bot, mcts
from tabletop.games.novaluna.bots.compiled import mcts_kernel
from tabletop.games.novaluna.bots.mcts import (
    MctsBot,
    Settings,
    kernel_action,
    kernel_move,
    kernel_params,
    kernel_position,
)
from tabletop.games.novaluna.rules import Game, Place, State

pytestmark = pytest.mark.skipif(mcts_kernel is None, reason="built without a C compiler")

SETTINGS = Settings()
PARAMS = kernel_params(SETTINGS)
#: A leaf with every weight set (as a fitted one has them)
FITTED = Settings(far_weights=(0.3, 0.2), turn_weight=0.06)
FITTED_PARAMS = PARAMS[:7] + (0.3, 0.2, 0.06)


def _random_game(seed: int, players: int) -> list[State]:
    """Every position of a game played by random legal moves, the end included."""
    rng = random.Random(seed)
    state = Game(players).new_state(seed=seed)
    states = [state.clone()]
    while not state.is_over:
        state.apply(state.random_action(rng))
        states.append(state.clone())
    return states


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 4))
def test_candidates_are_the_python_ones(seed, players):
    """The kernel keeps refill/end first, then placements with Python's gains, the
    best ones (ties may be kept in another order)."""
    for state in _random_game(seed, players)[::3]:
        if state.is_over:
            continue
        python = mcts.MctsBot(SETTINGS)._candidates(state)
        gains = {place: gain for gain, place in mcts._scored_places(state, None)}
        listed = mcts_kernel.candidates(kernel_position(state.view()), PARAMS)
        actions = [kernel_action(*move) for move, _ in listed]
        specials = [a for a in python if not isinstance(a, Place)]
        assert actions[: len(specials)] == specials
        placed = listed[len(specials) :]
        for move, gain in placed:
            assert gains[kernel_action(*move)] == pytest.approx(gain)
        best = sorted(gains.values(), reverse=True)[: SETTINGS.candidates]
        assert [gain for _, gain in placed] == pytest.approx(best)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(1, 4))
def test_the_leaf_is_the_python_one(seed, players):
    """Discs, time and tasks one tile short, through the logistic; the result once
    the game is over (the winner, or the solo score)."""
    bot, fitted = MctsBot(SETTINGS), MctsBot(FITTED)
    states = _random_game(seed, players)
    for state in [*states[::4], states[-1]]:
        kernel = mcts_kernel.leaf(kernel_position(state.view()), PARAMS)
        assert kernel == pytest.approx(bot._rewards(state))
        kernel = mcts_kernel.leaf(kernel_position(state.view()), FITTED_PARAMS)
        assert kernel == pytest.approx(fitted._rewards(state))


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_compiled_search_plays_whole_games_legally(players):
    """The rules engine referees every move (``apply`` refuses an illegal one)."""
    bots = [MctsBot(Settings(200, None, compiled=True), seed=seat) for seat in range(players)]
    state = Game(players).new_state(seed=11 + players)
    while not state.is_over:
        seat = state.current_seat
        view = state.view(seat)
        action = bots[seat].choose(view)
        assert action in view.legal_actions()
        state.apply(action)
    assert state.result()


def test_the_budget_the_seed_and_the_time_cap():
    state = Game(3).new_state(seed=4)
    rng = random.Random(4)
    for _ in range(9):
        state.apply(state.random_action(rng))
    view = state.view()
    root = MctsBot(Settings(500, None, compiled=True), seed=3).search(view)
    assert root.visits == 500 == sum(child.visits for child in root.children.values())
    assert set(root.children) <= set(view.legal_actions())
    again = MctsBot(Settings(500, None, compiled=True), seed=3).search(view)
    assert {a: (c.visits, c.value) for a, c in again.children.items()} == {
        a: (c.visits, c.value) for a, c in root.children.items()
    }
    capped = MctsBot(Settings(10**6, 0.0, compiled=True), seed=3).search(view)
    assert capped.visits == 8  # the clock is read every 8 iterations


def test_strong_is_the_compiled_search_and_the_old_levels_are_not():
    assert make_bot("mcts:strong").settings.compiled
    assert (
        make_bot("mcts:strong").settings.max_seconds == make_bot("mcts:normal").settings.max_seconds
    )
    for level in ("easy", "normal", "hard", "400"):
        assert not make_bot(f"mcts:{level}").settings.compiled


def test_without_the_kernel_the_same_search_runs_in_python(monkeypatch):
    monkeypatch.setattr(mcts, "mcts_kernel", None)
    state = Game(2).new_state(seed=8)
    root = MctsBot(Settings(40, None, compiled=True), seed=1).search(state.view())
    assert root.visits == 40 and set(root.children) <= set(state.legal_actions())


def test_bad_positions_are_refused():
    state = Game(2).new_state(seed=5)
    position = kernel_position(state.view())
    unseen = state.view().unseen_tiles
    search = mcts_kernel.search
    with pytest.raises(ValueError, match="19 entries"):
        search(position[:-1], unseen, PARAMS, 10, -1.0, 1)
    with pytest.raises(ValueError, match="unseen"):
        search(position, unseen[1:], PARAMS, 10, -1.0, 1)
    with pytest.raises(ValueError, match="iterations"):
        search(position, unseen, PARAMS, 0, -1.0, 1)
    with pytest.raises(ValueError, match="parameters"):
        search(position, unseen, (0, *PARAMS[1:]), 10, -1.0, 1)
    with pytest.raises(ValueError, match="finite"):
        search(position, unseen, PARAMS, 10, float("nan"), 1)
    apart = ((((5, 5, 12, 1),),) + position[17][1:],)
    with pytest.raises(ValueError, match="not next to"):
        search(position[:17] + apart + position[18:], unseen, PARAMS, 10, -1.0, 1)
    over = position[:8] + (1,) + position[9:]
    with pytest.raises(ValueError, match="over"):
        search(over, unseen, PARAMS, 10, -1.0, 1)


def _midgame(seed: int) -> State:
    state = Game(2).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(12):
        state.apply(state.random_action(rng))
    return state


def test_the_analysed_move_is_offered_and_topped_up_to_its_fair_share():
    state = _midgame(4)
    view, position = state.view(), kernel_position(state.view())
    prior = {kernel_action(*move) for move, _ in mcts_kernel.candidates(position, PARAMS)}
    outside = [a for a in view.legal_actions() if a not in prior]
    assert outside  # the prior keeps 8 placements of many
    for played in (outside[-1], next(iter(prior))):
        done, children, topped = mcts_kernel.search(
            position, view.unseen_tiles, PARAMS, 3000, -1.0, 9, kernel_move(played), 1000
        )
        visits = {kernel_action(s, x, y): n for s, x, y, n, _ in children}
        assert done == 3000 and sum(visits.values()) == done + topped
        assert played in visits and visits[played] >= 1000
        assert topped == 0 or visits[played] == 1000  # topped up to exactly its share
        assert set(visits) <= prior | {played}
    # without an analysed move nothing is topped up, and the prior's moves alone are offered
    done, children, topped = mcts_kernel.search(position, view.unseen_tiles, PARAMS, 500, -1.0, 9)
    assert topped == 0 and {kernel_action(s, x, y) for s, x, y, *_ in children} <= prior


def test_an_illegal_analysed_move_is_refused():
    state = _midgame(6)
    view, position = state.view(), kernel_position(state.view())
    taken = next(
        s
        for s in range(12)
        if s not in {a.space for a in view.legal_actions() if isinstance(a, Place)}
    )
    search = mcts_kernel.search
    with pytest.raises(ValueError, match="not legal"):
        search(position, view.unseen_tiles, PARAMS, 10, -1.0, 1, (taken, 0, 0), 5)
    with pytest.raises(ValueError, match="not legal"):
        search(position, view.unseen_tiles, PARAMS, 10, -1.0, 1, (-1, 0, 0), 5)  # no phase end
    with pytest.raises(ValueError, match="move is"):
        search(position, view.unseen_tiles, PARAMS, 10, -1.0, 1, (0, 0), 5)
    with pytest.raises(ValueError, match="fair"):
        search(position, view.unseen_tiles, PARAMS, 10, -1.0, 1, None, -1)
