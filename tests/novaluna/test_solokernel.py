"""The solo planner's C kernel agrees with the rules engine, which stays the reference."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.games.novaluna.bots import _solokernel as kernel
from tabletop.games.novaluna.bots.solo import LEVELS, _action, _position
from tabletop.games.novaluna.rules import END_PHASE, Game, Place
from tabletop.games.novaluna.rules.display import Display, cell_key
from tabletop.games.novaluna.rules.tiles import TILE_TASKS

PARAMS = LEVELS["normal"].weights.as_params()


def _display(display: Display) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(display.tiles.items()))


def _engine_counts(display: Display) -> tuple[int, int, int, int, int]:
    """Fulfilled tasks (covered or not), and unfulfilled ones 1, 2, 3, 4+ tiles short."""
    counts = [0] * 5
    for cell, tile in display.tiles.items():
        for index in range(len(TILE_TASKS[tile])):
            counts[min(display.missing(cell, index), 4)] += 1
    return tuple(counts)


def _random_solo_positions(seed: int, moves: int):
    """Positions of a random solo game, each with a placement to try there."""
    rng = random.Random(seed)
    state = Game(1).new_state(seed=seed)
    for _ in range(moves):
        if state.is_over:
            return
        placements = [a for a in state.legal_actions() if isinstance(a, Place)]
        if not placements:
            state.apply(state.legal_actions()[0])
            continue
        action = rng.choice(placements)
        yield state.displays[0], state.wheel[action.space], cell_key(action.x, action.y)
        state.apply(action)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_counts_and_gains_match_the_engine(seed):
    for display, tile, cell in _random_solo_positions(seed, 22):
        before = kernel.counts(_display(display))
        assert before == _engine_counts(display)
        gained, *shift = kernel.gain(_display(display), tile, cell)
        assert gained == len(display.fulfilled_by(tile, cell))
        after = display.clone()
        after.lay(tile, cell)
        expected = _engine_counts(after)
        assert before[0] + gained == expected[0]
        assert [b + d for b, d in zip(before[1:], shift, strict=True)] == list(expected[1:])


def _play_line(state, moves):
    for action in moves:
        assert action in state.legal_actions()
        state.apply(action)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), beam=st.integers(1, 60))
def test_phase1_lines_are_legal_and_end_where_the_kernel_says(seed, beam):
    state = Game(1).new_state(seed=seed)
    display, wheel, meeple = _position(state.view())
    lines, used = kernel.search(display, wheel, meeple, 1, 0, PARAMS, beam, 10**9, 5, False)
    assert lines and used > 0
    values = [line[0] for line in lines]
    assert values == sorted(values)
    for _value, moves, end_display, end_wheel, end_meeple, discs, cost in lines:
        played = state.clone()
        actions = [_action(move) for move in moves]
        ends_by_choice = actions[-1] == END_PHASE
        _play_line(played, actions[:-1] if ends_by_choice else actions)
        if ends_by_choice:
            assert _position(played.view()) == (end_display, end_wheel, end_meeple)
            played.apply(END_PHASE)
        else:  # the last tile of the wheel ends the phase
            assert not any(end_wheel)
            assert _position(played.view())[0] == end_display
        assert played.phase == 2 or played.is_over
        assert discs == _engine_counts(played.displays[0])[0]
        assert discs >= 8 or not ends_by_choice
        assert cost == played.scores_so_far()


def _phase1_end(seed: int):
    """A random phase-1 game up to the point where it may end phase 1."""
    rng = random.Random(seed)
    state = Game(1).new_state(seed=seed)
    while END_PHASE not in state.legal_actions():
        placements = [a for a in state.legal_actions() if isinstance(a, Place)]
        state.apply(rng.choice(placements))
        if state.phase == 2:
            return None
    return state


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), beam=st.integers(1, 40))
def test_phase2_lines_score_what_the_engine_scores(seed, beam):
    state = _phase1_end(seed)
    if state is None:
        return
    end = _position(state.view())
    refill_order = state.pile_order()[state.drawn :]
    state.apply(END_PHASE)
    if state.is_over:
        return
    display, wheel, meeple = _position(state.view())
    lines, _ = kernel.search(display, wheel, meeple, 2, 0, PARAMS, beam, 10**9, 1, False)
    value, moves = lines[0][0], [_action(move) for move in lines[0][1]]
    _play_line(state, moves)
    assert state.is_over
    assert state.result().phase2 == value
    # the sampled-refill evaluation, given the true order, finds the same line
    scores, _ = kernel.phase2_scores([end], [refill_order], PARAMS, beam, 10**9)
    assert scores == [[value]]


def test_phase2_scores_do_not_depend_on_threads_and_stop_in_batches():
    """Threads only change the speed; the budget is checked between batches of 8
    samples, so a row stops at a multiple of 8 (or at the end of the orders)."""
    state = Game(1).new_state(seed=4)
    rng = random.Random(4)
    ends = []
    while len(ends) < 3:
        state.apply(rng.choice(state.legal_actions()))
        if len(state.displays[0].tiles) >= 3:
            ends.append(_position(state.view()))
    unseen = list(state.unseen_tiles())
    orders = [tuple(rng.sample(unseen, 11)) for _ in range(20)]
    one, used = kernel.phase2_scores(ends, orders, PARAMS, 6, 10**9, 1)
    assert [len(row) for row in one] == [20, 20, 20]
    for threads in (2, 3, 16):
        assert kernel.phase2_scores(ends, orders, PARAMS, 6, 10**9, threads) == (one, used)
    some, spent = kernel.phase2_scores(ends, orders, PARAMS, 6, used // 3, 2)
    lengths = [len(row) for row in some]
    assert 0 < sum(lengths) < 60 and sum(lengths) % 8 == 0
    assert [row == full[: len(row)] for row, full in zip(some, one, strict=True)] == [True] * 3
    assert spent >= used // 3


def test_kernel_refuses_bad_input_clearly():
    state = Game(1).new_state(seed=1)
    state.apply(state.legal_actions()[0])
    display, wheel, meeple = _position(state.view())
    cell = display[0][0]
    free = cell_key(*state.legal_cells()[0])
    for bad in (
        lambda: kernel.gain(display, 99, free),
        lambda: kernel.gain(display, 5, cell),  # an occupied cell
        lambda: kernel.counts(((cell, 0),)),
        lambda: kernel.search(display, wheel[:3], meeple, 1, 0, PARAMS, 10, 100, 1, False),
        lambda: kernel.search(display, wheel, meeple, 1, 0, PARAMS[:3], 10, 100, 1, False),
    ):
        try:
            bad()
        except (ValueError, TypeError) as error:
            assert str(error)
        else:
            raise AssertionError("the kernel accepted bad input")
