"""``rules.from_position``: a state set up in the middle of a game plays by the same rules
as one reached by playing (turn order, covering, refills, the end)."""

from __future__ import annotations

import pytest

from tabletop.games.novaluna.rules import REFILL, Game, Place, StandardResult, from_position
from tabletop.games.novaluna.rules.display import cell_key
from tabletop.games.novaluna.rules.tiles import TILE_IDS


def _rest(*named: int) -> list[int]:
    return [t for t in TILE_IDS if t not in named]


def test_the_rearmost_marker_moves_and_the_top_of_a_stack_first() -> None:
    behind = from_position(
        Game(players=2), wheel={1: 52}, meeple=0, pile=[], displays=[{}, {}], time=[5, 3]
    )
    assert behind.current_seat == 1
    level = from_position(
        Game(players=2),
        wheel={1: 52},
        meeple=0,
        pile=[],
        displays=[{}, {}],
        time=[4, 4],
        stack=[1, 0],
    )
    assert level.current_seat == 0 and level.turn_order() == [0, 1]


def test_fulfilled_tasks_are_covered_and_the_supply_counts_them() -> None:
    # the yellow 5 (63: "3 red" | "1 red") touches the red 5 (13: "2 blue" | "1 yellow")
    state = from_position(
        Game(players=2),
        wheel={1: 18},
        meeple=0,
        pile=[],
        displays=[{(0, 0): 13, (-1, 0): 63}, {}],
    )
    display = state.displays[0]
    assert display.covered == 2
    assert display.is_covered(cell_key(0, 0), 1) and display.is_covered(cell_key(-1, 0), 1)
    assert not display.is_covered(cell_key(0, 0), 0)
    assert state.supply == [18, 20]


def test_a_position_plays_on_by_the_rules() -> None:
    state = from_position(
        Game(players=2),
        wheel={4: 18, 7: 1},
        meeple=3,
        pile=[35, 36, 37],
        displays=[{(0, 0): 13, (1, 0): 26}, {(0, 0): 44}],
        time=[2, 5],
        supply=[4, 6],
    )
    assert state.takeable_spaces() == [4, 7] and state.can_refill()
    assert state.apply(Place(4, 0, 1)) == [(0, 0, 0)]  # "2 blue": the blue 4 and the blue 1
    assert state.supply[0] == 3 and state.current_seat == 0  # time 3, still behind
    state.apply(REFILL)
    assert state.wheel[5] == 35 and state.wheel[6] == 36 and state.wheel[8] == 37
    assert state.pile_count == 0


def test_the_last_disc_ends_the_game() -> None:
    state = from_position(
        Game(players=2),
        wheel={1: 18, 2: 52},
        meeple=0,
        pile=[],
        displays=[{(0, 0): 13, (1, 0): 26}, {(0, 0): 44}],
        supply=[1, 3],
        stack=[1, 0],
    )
    state.apply(Place(1, 0, 1))
    result = state.result()
    assert state.is_over and isinstance(result, StandardResult) and result.ranking == (0, 1)


def test_an_empty_wheel_is_refilled_at_once_and_an_empty_game_is_over() -> None:
    refilled = from_position(Game(players=2), wheel={}, meeple=5, pile=[1, 2], displays=[{}, {}])
    assert refilled.refilled and refilled.wheel[6] == 1 and refilled.wheel[7] == 2
    over = from_position(Game(players=2), wheel={}, meeple=5, pile=[], displays=[{}, {}])
    assert over.is_over


def test_a_solo_position_counts_its_discs_from_21() -> None:
    state = from_position(
        Game(players=1),
        wheel={1: 18},
        meeple=0,
        pile=_rest(18, 13, 63),
        displays=[{(0, 0): 13, (-1, 0): 63}],
    )
    assert state.supply == [19] and state.phase == 1 and not state.can_end_phase()
    with pytest.raises(ValueError, match="21 discs"):
        from_position(Game(players=1), wheel={1: 18}, meeple=0, pile=[], displays=[{}], supply=[5])


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"wheel": {0: 18}}, "meeple"),
        ({"wheel": {12: 18}}, "numbered 0 to 11"),
        ({"pile": [18]}, "at most once"),
        ({"displays": [{(0, 0): 52, (2, 0): 35}, {}]}, "do not touch"),
        ({"displays": [{(1, 0): 52}, {}]}, r"\(0, 0\)"),
        ({"displays": [{}]}, "one per seat"),
        ({"time": [0, 9]}, "7 spaces"),
        ({"time": [-1, 0]}, "non-negative"),
        ({"stack": [0, 0]}, "stack"),
        ({"supply": [0, 20]}, "discs left"),
    ],
)
def test_a_position_that_cannot_occur_is_refused(changes: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"wheel": {1: 18}, "meeple": 0, "pile": [], "displays": [{}, {}]}
    args.update(changes)
    with pytest.raises(ValueError, match=message):
        from_position(Game(players=2), **args)  # type: ignore[arg-type]
