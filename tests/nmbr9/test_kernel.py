"""The planner's C kernel against the rules engine: the same legal placements on every
kind of board, the same move whatever the threads, and clear errors for bad input."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.games.nmbr9.bots import _nmbr9kernel as kernel
from tabletop.games.nmbr9.bots import make_bot
from tabletop.games.nmbr9.bots.planner import PlannerBot
from tabletop.games.nmbr9.rules import Board, Game, State


def kernel_legal(board: Board, digit: int) -> set[tuple[int, int, int, int]]:
    found = kernel.legal_placements(list(board.tiles), digit)
    assert len(found) == len(set(found)), "a placement listed twice"
    return set(found)


def engine_legal(board: Board, digit: int) -> set[tuple[int, int, int, int]]:
    return {(p.rotation, p.x, p.y, level) for p, level in board.legal(digit)}


def check_every_digit(board: Board) -> None:
    for digit in range(10):
        assert kernel_legal(board, digit) == engine_legal(board, digit), (board.tiles, digit)


def play(seed: int, choose) -> State:
    """A solo game whose moves ``choose(state, rng)`` picks, checking every board."""
    state = Game(players=1).new_state(seed)
    rng = random.Random(seed)
    while not state.is_over:
        check_every_digit(state.boards[0])
        state.apply(choose(state, rng))
    check_every_digit(state.boards[0])
    return state


def uniform(state: State, rng: random.Random):
    return rng.choice(state.legal_actions())


def climbing(state: State, rng: random.Random):
    legal = state.boards[0].legal(state.card)
    top = max(level for _, level in legal)
    return rng.choice([p for p, level in legal if level == top])


def snake(state: State, rng: random.Random):
    """The table placement furthest from the start: boards as wide as a game allows."""
    legal = state.boards[0].legal(state.card)
    return max(legal, key=lambda pl: (pl[1] == 0, abs(pl[0].x) + abs(pl[0].y)))[0]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_same_legal_placements_in_random_games(seed):
    play(seed, uniform)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_same_legal_placements_in_games_that_climb(seed):
    play(seed, climbing)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_same_legal_placements_on_the_widest_boards(seed):
    state = play(seed, snake)
    x0, y0, x1, y1 = state.boards[0].bounds()
    assert max(x1 - x0, y1 - y0) > 50


def test_the_same_legal_placements_in_a_planner_game():
    bot = make_bot("planner:fast", seed=3)
    play(3, lambda state, rng: bot.choose(state.view(0)))


def test_a_move_does_not_depend_on_the_number_of_threads():
    state = Game(players=1).new_state(seed=12)
    greedy = make_bot("greedy", seed=1)
    for _ in range(7):
        state.apply(greedy.choose(state.view(0)))
    view = state.view(0)
    remaining = [view.unturned.count(d) for d in range(10)]
    args = (list(view.board.tiles), view.card, remaining, view.rounds_left)
    moves = {kernel.choose(*args, seed=5, strength="fast", threads=t)[:3] for t in (1, 2, 3)}
    assert len(moves) == 1


def test_the_bot_explains_with_the_futures_it_sampled():
    state = Game(players=1).new_state(seed=9)
    greedy = make_bot("greedy", seed=1)
    for _ in range(6):
        state.apply(greedy.choose(state.view(0)))
    place, reason = PlannerBot("fast", seed=2).explain(state.view(0))
    assert place in state.legal_actions(0)
    assert "sampled futures" in reason and "points now" in reason


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([], 10, [2] * 10, 5), "digit"),
        (([], 3, [2] * 9, 5), "10 counts"),
        (([], 3, [2] * 10, 25), "rounds_left"),
        (([], 3, [-1] + [2] * 9, 5), "remaining"),
        (([(9, 0, 0, 0, 1)], 3, [2] * 10, 5), "does not lie on level 1"),
    ],
)
def test_bad_input_is_an_error_not_a_crash(args, message):
    with pytest.raises(ValueError, match=message):
        kernel.choose(*args, strength="fast")


def test_unknown_strengths_are_refused():
    with pytest.raises(ValueError, match="planner strengths are fast, normal, strong, learned"):
        make_bot("planner:ultra")
