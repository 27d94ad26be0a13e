"""Placing NMBR 9 tiles in tests with the engine and the independent reference at once
(``nmbr9_support``, which never imports the engine): the rules tests' helpers."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tabletop.games.nmbr9.rules import CANONICAL, Board, Game, IllegalActionError, Placed, State

from nmbr9_support import as_tiles, board_snapshot, reference_level


def board_with(*placements: tuple[int, int, int, int]) -> Board:
    """An engine board with the tiles ``(digit, rotation, x, y)`` placed in order (each
    checked by the engine and by the reference)."""
    board = Board()
    for placement in placements:
        accepted(board, *placement)
    return board


def accepted(board: Board, digit: int, rotation: int, x: int, y: int) -> int:
    """Place a tile the rules allow; both the engine and the reference must agree on
    its level. Returns the level."""
    level = reference_level(as_tiles(board), digit, rotation, x, y)
    assert level is not None, f"the reference refuses {digit} r{rotation}@{x},{y}"
    assert board.check(digit, rotation, x, y) == level
    placed = board.place(digit, rotation, x, y)
    assert placed == Placed(digit, CANONICAL[digit][rotation], x, y, level)
    return level


def refused(board: Board, digit: int, rotation: int, x: int, y: int) -> str:
    """The engine's reason for refusing a placement the rules forbid (the reference
    must forbid it too, and the board must not change)."""
    assert reference_level(as_tiles(board), digit, rotation, x, y) is None
    before = board_snapshot(board)
    with pytest.raises(IllegalActionError) as check:
        board.check(digit, rotation, x, y)
    with pytest.raises(IllegalActionError) as place:
        board.place(digit, rotation, x, y)
    assert board_snapshot(board) == before
    assert str(check.value) == str(place.value)
    listed = {(p.rotation, p.x, p.y) for p, _ in board.legal(digit)}
    assert (CANONICAL[digit][rotation], x, y) not in listed
    return str(place.value)


def listed(board: Board, digit: int) -> set[tuple[int, int, int, int]]:
    """The engine's listed placements as ``(rotation, x, y, level)``."""
    return {(p.rotation, p.x, p.y, level) for p, level in board.legal(digit)}


def greedy_game(
    seed: int, players: int = 1, remove: int | None = 0, high: float = 0.8
) -> Iterator[tuple[State, int | None]]:
    """A finished-or-not game played by a policy preferring high levels (to build
    tall boards); yields the state before every placement."""
    state = Game(players=players, remove=remove).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        for seat in state.acting_seats():
            yield state, seat
            options = state.boards[seat].legal(state.card)
            top = max(level for _, level in options)
            if rng.random() < high:
                options = [(p, level) for p, level in options if level == top]
            state.apply(rng.choice(options)[0], seat)
    yield state, None


# Four 9s in a row (r0@0,0, r0@3,0, r0@6,0, r0@9,0): a wide level 0 to build on.
ROW_OF_NINES = ((9, 0, 0, 0), (9, 0, 3, 0), (9, 0, 6, 0), (9, 0, 9, 0))
ROW_OF_NINES_PICTURE = [
    "111111111111",
    "111111111111",
    "11.11.11.11.",
    "11.11.11.11.",
]
