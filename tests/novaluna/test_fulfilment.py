"""Task fulfilment (RULES.md, "When a task is fulfilled" and turn step 5).

Displays are built tile by tile with real tiles from tiles.json; every scenario
is also checked against the brute-force ``reference_fulfilled`` of conftest.
"""

from __future__ import annotations

import random

import pytest

from tabletop.games.novaluna.rules import COLORS, TILES, Game, Place
from tabletop.games.novaluna.rules.display import Display, cell_key

from novaluna_support import (
    build_display,
    covered,
    fulfilled,
    lay,
    layout_of,
    make_pile,
    plain,
    play,
    reference_count,
    reference_fulfilled,
    task_index,
    tile_with,
)

RED, BLUE, CYAN, YELLOW = (COLORS.index(c) for c in ("red", "blue", "cyan", "yellow"))


def covered_tasks(display: Display) -> set[tuple[int, int, int]]:
    """All tasks of a display that carry a disc."""
    out = set()
    for (x, y), tile in layout_of(display).items():
        for i in range(len(TILES[tile].tasks)):
            if covered(display, x, y, i):
                out.add((x, y, i))
    return out


def assert_matches_reference(display: Display) -> None:
    """Engine's covered tasks == brute-force fulfilled tasks, and count() agrees."""
    layout = layout_of(display)
    assert covered_tasks(display) == reference_fulfilled(layout)
    assert display.covered == len(reference_fulfilled(layout))
    for (x, y), _tile in layout.items():
        for color in COLORS:
            expected = reference_count(layout, (x, y), color)
            assert display.count(cell_key(x, y), COLORS.index(color)) == expected, (x, y, color)


def solo_with(*tiles: int):
    """A solo game whose wheel holds ``tiles`` on spaces 1, 2, ... in order."""
    return Game(players=1).new_state(pile=make_pile(tiles))


# -- the seven rulebook examples ------------------------------------------------------


def test_example1_two_blue_touching_or_chained():
    """Example 1: yellow tile with "2 blue": two blue tiles both touching it fulfil it;
    so do two blue tiles in a chain of which only one touches it."""
    yellow = tile_with("yellow", task={"blue": 2})
    i = task_index(yellow, {"blue": 2})
    blue_a, blue_b = plain("blue"), tile_with("blue", task={"blue": 4})

    touching = build_display({(0, 0): yellow, (1, 0): blue_a})
    assert not fulfilled(touching, 0, 0, i), "one blue tile is not two"
    assert lay(touching, -1, 0, blue_b) == [(0, 0, i)]
    assert_matches_reference(touching)

    chained = build_display({(0, 0): yellow, (1, 0): blue_a})
    assert lay(chained, 2, 0, blue_b) == [(0, 0, i)]
    assert chained.count(cell_key(0, 0), BLUE) == 2
    assert_matches_reference(chained)


def test_example2_third_red_only_diagonal_does_not_count():
    """Example 2: "With a third red tile touching the chain only diagonally, '3 red'
    stays unfulfilled." Joining it edge to edge fulfils the task."""
    yellow = 63  # "3 red" and "1 red"
    three, one = task_index(yellow, {"red": 3}), task_index(yellow, {"red": 1})
    red1, red2, red3, red4 = 1, 4, 5, 6
    d = build_display(
        {
            (0, 0): yellow,
            (1, 0): red1,
            (2, 0): red2,  # chain of two reds, one touching the yellow tile
            (3, 0): plain("cyan"),
            (3, 1): red3,  # touches the chain's end (2, 0) only diagonally
        }
    )
    assert not fulfilled(d, 0, 0, three)
    assert fulfilled(d, 0, 0, one)
    assert d.count(cell_key(0, 0), RED) == 2
    assert_matches_reference(d)
    # (2, 1) joins (2, 0) and (3, 1) edge to edge: now four reds count.
    assert lay(d, 2, 1, red4) == [(0, 0, three)]
    assert d.count(cell_key(0, 0), RED) == 4
    assert_matches_reference(d)


def test_example3_one_placement_fulfils_two_tasks_of_one_tile():
    """Example 3: "One placement can fulfil two tasks of the same tile at once (two
    discs)." Red 7-cost: blue+cyan, cyan+yellow, blue+yellow; the cyan completes two."""
    red7 = tile_with("red", cost=7)
    state = solo_with(red7, plain("blue"), plain("yellow"), plain("cyan"))
    b_y = task_index(red7, {"blue": 1, "yellow": 1})
    b_c = task_index(red7, {"blue": 1, "cyan": 1})
    c_y = task_index(red7, {"cyan": 1, "yellow": 1})
    assert play(state, "1@0,0", "2@1,0") == [[], []]
    assert play(state, "3@-1,0") == [[(0, 0, b_y)]]
    assert state.supply == [20]
    assert play(state, "4@0,1") == [sorted([(0, 0, b_c), (0, 0, c_y)])]
    assert state.supply == [18]
    assert state.discs_placed(0) == 3


def test_example3_placing_the_task_tile_fulfils_two_of_its_tasks():
    """Example 3 (other way round): a red tile with "4 yellow" and "2 yellow" laid next
    to a chain of four yellow tiles takes two discs at once."""
    red = tile_with("red", task={"yellow": 4})
    assert [dict(t) for t in TILES[red].tasks] == [{"yellow": 4}, {"yellow": 2}]
    yellows = [plain("yellow"), 53, 54, 55]
    assert all(TILES[t].color == "yellow" for t in yellows)
    state = solo_with(*yellows, red)
    play(state, "1@0,0", "2@1,0", "3@2,0", "4@3,0")
    assert state.discs_placed(0) == 0
    assert play(state, "5@0,1") == [[(0, 1, 0), (0, 1, 1)]]
    assert state.supply == [19]


@pytest.mark.parametrize("seven", [17, 34, 51, 68])
def test_example4_seven_cost_tile_three_tasks_with_three_tiles(seven):
    """Example 4: "A 7-cost tile's three two-colour tasks can all be fulfilled with 3
    tiles" — one of each other colour around it."""
    tile = TILES[seven]
    assert tile.cost == 7 and len(tile.tasks) == 3
    assert all(sum(t.values()) == 2 and len(t) == 2 for t in tile.tasks)
    others = [plain(c) for c in COLORS if c != tile.color]
    d = build_display({(0, 0): seven, (1, 0): others[0], (-1, 0): others[1]})
    assert len(covered_tasks(d)) == 1  # two colours: exactly one two-colour task
    assert len(lay(d, 0, 1, others[2])) == 2
    assert covered_tasks(d) == {(0, 0, 0), (0, 0, 1), (0, 0, 2)}
    assert_matches_reference(d)


def test_example5_two_tiles_fulfil_a_task_on_each_other():
    """Example 5: "Two tiles can fulfil a task on each other without any third tile."
    A cyan tile with "1 blue" next to a blue tile with "1 cyan"."""
    cyan = tile_with("cyan", task={"blue": 1})
    blue = tile_with("blue", task={"cyan": 1})
    state = solo_with(cyan, blue)
    assert play(state, "1@0,0") == [[]]
    covered_now = state.apply(Place(2, 1, 0))
    assert covered_now == sorted(
        [(0, 0, task_index(cyan, {"blue": 1})), (1, 0, task_index(blue, {"cyan": 1}))]
    )
    assert state.supply == [19]


def test_example6_red_four_needs_four_other_reds_and_two_help_each_other():
    """Example 6: a red 2-cost tile ("4 red") needs at least four *other* red tiles in
    its group; two such tiles in one red group help each other."""
    red_a, red_b = 2, 3
    assert all(TILES[t].color == "red" and TILES[t].cost == 2 for t in (red_a, red_b))
    assert all(dict(TILES[t].tasks[0]) == {"red": 4} for t in (red_a, red_b))
    d = build_display({(0, 0): red_a, (1, 0): 1, (2, 0): 4, (3, 0): 5})
    # A group of four reds: red_a sees only three others.
    assert d.count(cell_key(0, 0), RED) == 3
    assert not fulfilled(d, 0, 0, 0)
    # The second "4 red" tile makes a group of five: both see four others.
    assert lay(d, 0, 1, red_b) == [(0, 0, 0), (0, 1, 0)]
    assert d.count(cell_key(0, 1), RED) == 4
    assert_matches_reference(d)


def test_example7_four_red_touching_blue_fulfil_two_and_four_red():
    """Example 7: "Four red tiles touching a blue tile fulfil both '2 red' and '4 red'
    on it" — four separate one-tile groups add up."""
    blue = tile_with("blue", task={"red": 4})
    four, two = task_index(blue, {"red": 4}), task_index(blue, {"red": 2})
    d = build_display({(0, 0): blue, (1, 0): 1})
    assert covered_tasks(d) == set()
    assert lay(d, -1, 0, 6) == [(0, 0, two)]
    assert lay(d, 0, 1, 9) == []
    assert lay(d, 0, -1, 10) == [(0, 0, four)]
    assert d.count(cell_key(0, 0), RED) == 4
    assert covered_tasks(d) == {(0, 0, four), (0, 0, two)}
    assert_matches_reference(d)


# -- the general rules ---------------------------------------------------------


def test_task_tile_never_counts_even_if_same_colour():
    """RULES.md: "T itself never counts, even when T is of colour c": a red "3 red" tile in a
    red group of three sees two reds."""
    red = tile_with("red", task={"red": 3})
    i = task_index(red, {"red": 3})
    d = build_display({(0, 0): red, (1, 0): 1, (2, 0): 4})
    assert d.count(cell_key(0, 0), RED) == 2
    assert not fulfilled(d, 0, 0, i)
    assert lay(d, -1, 0, 5) == [(0, 0, i)]
    assert_matches_reference(d)


def test_lone_tile_counts_nothing_of_its_own_colour():
    """A tile alone never counts itself: a lone blue "4 blue" tile sees 0 blue."""
    d = build_display({(0, 0): 19})
    assert d.count(cell_key(0, 0), BLUE) == 0
    assert not fulfilled(d, 0, 0, 0)


def test_diagonals_never_count():
    """RULES.md: "Diagonal contact never counts": four blue tiles on the diagonals of a "2 blue"
    task give 0 blue; one edge-touching blue joining two of them gives 3."""
    yellow = tile_with("yellow", task={"blue": 2})
    i = task_index(yellow, {"blue": 2})
    d = build_display(
        {
            (0, 0): yellow,
            (1, 0): plain("cyan"),
            (-1, 0): 36,
            (1, 1): 18,
            (1, -1): 19,
            (-1, 1): 20,
            (-1, -1): 21,
        }
    )
    assert d.count(cell_key(0, 0), BLUE) == 0
    assert not fulfilled(d, 0, 0, i)
    assert_matches_reference(d)
    assert (0, 0, i) in lay(d, 0, 1, 22)
    assert d.count(cell_key(0, 0), BLUE) == 3
    assert_matches_reference(d)


def test_each_tile_counts_once_per_task():
    """RULES.md: "Each tile counts at most once per task": a group of three blue tiles touching
    a "4 blue" task tile on two edges counts 3, not 6."""
    cyan = tile_with("cyan", task={"blue": 4})
    four, two = task_index(cyan, {"blue": 4}), task_index(cyan, {"blue": 2})
    d = build_display({(0, 0): cyan, (1, 0): 18, (1, 1): 19, (0, 1): 20})
    assert d.count(cell_key(0, 0), BLUE) == 3
    assert not fulfilled(d, 0, 0, four)
    assert fulfilled(d, 0, 0, two)
    assert_matches_reference(d)


def test_same_tile_helps_several_tasks_on_several_tiles():
    """RULES.md: "the same tile may help any number of tasks, on any number of tiles": one
    blue tile fulfils "1 blue" on a cyan and on a red tile at once."""
    cyan = tile_with("cyan", task={"blue": 1})
    red = tile_with("red", task={"blue": 1})
    d = build_display({(0, 0): cyan, (0, 1): 35, (1, 1): red})
    found = lay(d, 1, 0, 18)  # touches the cyan (0, 0) and the red (1, 1)
    assert found == [(0, 0, task_index(cyan, {"blue": 1})), (1, 1, task_index(red, {"blue": 1}))]
    assert_matches_reference(d)


def test_same_tiles_help_several_tasks_of_one_tile():
    """The same blue group of three fulfils "3 blue" and "1 blue" on one red tile."""
    red = 12  # "3 blue" and "1 blue"
    three, one = task_index(red, {"blue": 3}), task_index(red, {"blue": 1})
    d = build_display({(0, 0): red, (1, 0): 18, (2, 0): 19})
    assert covered_tasks(d) == {(0, 0, one)}
    assert lay(d, 3, 0, 20) == [(0, 0, three)]
    assert_matches_reference(d)


def test_tasks_of_one_tile_are_independent():
    """RULES.md: "The tasks of one tile are independent of each other": "1 blue" is covered
    while "3 blue" on the same tile stays open; each gets its own disc."""
    red = 12  # "3 blue" and "1 blue"
    three, one = task_index(red, {"blue": 3}), task_index(red, {"blue": 1})
    state = solo_with(red, 18, 19, 20)
    assert play(state, "1@0,0", "2@1,0") == [[], [(0, 0, one)]]
    tile_flags = state.view().display(0)[(0, 0)]
    assert tile_flags[1][one] is True and tile_flags[1][three] is False
    assert play(state, "3@2,0", "4@3,0") == [[], [(0, 0, three)]]
    assert state.discs_placed(0) == 2


def test_multi_colour_task_needs_every_colour():
    """RULES.md: "fulfilled when, for every colour in it, that number of tiles is at least its
    count": a blue "2 blue + 1 yellow" tile needs both."""
    blue = tile_with("blue", task={"blue": 2, "yellow": 1})
    d = build_display({(0, 0): blue, (1, 0): 18, (2, 0): 19})
    assert d.count(cell_key(0, 0), BLUE) == 2
    assert not fulfilled(d, 0, 0, 0)
    assert lay(d, 0, 1, plain("yellow")) == [(0, 0, 0)]
    assert_matches_reference(d)


def test_at_least_the_count_fulfils():
    """RULES.md: "at least its count": more tiles than needed still fulfil the task."""
    yellow = tile_with("yellow", task={"blue": 2})
    i = task_index(yellow, {"blue": 2})
    d = build_display({(0, 0): yellow, (1, 0): 18, (2, 0): 19, (3, 0): 20, (4, 0): 21})
    assert d.count(cell_key(0, 0), BLUE) == 4
    assert fulfilled(d, 0, 0, i)
    assert_matches_reference(d)


def test_covered_stays_covered_and_is_not_paid_twice():
    """RULES.md: "Once covered, a task stays covered": later placements neither uncover it nor
    take a second disc for it."""
    red = tile_with("red", task={"blue": 1})
    one = task_index(red, {"blue": 1})
    state = solo_with(red, 18, 19, plain("yellow"), 20)
    assert play(state, "1@0,0", "2@1,0") == [[], [(0, 0, one)]]
    later = play(state, "3@0,1", "4@-1,0", "5@0,-1")
    assert all((0, 0, one) not in c for c in later)
    assert state.view().display(0)[(0, 0)][1][one] is True
    d = state.displays[0]
    assert covered(d, 0, 0, one)
    assert state.supply[0] + state.discs_placed(0) == 21


def test_covering_is_automatic_in_own_display_from_own_supply():
    """Turn step 5: "every task in the player's display that is fulfilled and not yet
    covered gets one disc from the supply. **Decision:** this is automatic." Another
    player's tiles never help, and the discs come from the placing player's supply."""
    cyan = tile_with("cyan", task={"blue": 1})  # cost 5
    blue_a, blue_b = 29, 30  # cost 5: "3 cyan"/"1 cyan" and "2 yellow"/"1 cyan"
    assert TILES[cyan].cost == TILES[blue_a].cost == TILES[blue_b].cost == 5
    pile = make_pile([cyan, plain("blue"), blue_a, blue_b])
    state = Game(players=2).new_state(pile=pile, start_stack=[1, 0])
    assert state.current_seat == 0
    assert play(state, "1@0,0") == [[]]  # seat 0: cyan, time 5
    assert state.current_seat == 1
    # Seat 1 lays two blue tiles: nothing of seat 0's cyan tile counts for them.
    assert play(state, "2@0,0", "3@1,0") == [[], []]
    assert state.supply == [20, 20]
    assert state.current_seat == 0  # time 5 < 6
    got = state.apply(Place(4, 1, 0))
    expected = [(0, 0, task_index(cyan, {"blue": 1})), (1, 0, task_index(blue_b, {"cyan": 1}))]
    assert got == sorted(expected)
    assert state.supply == [18, 20]
    assert state.discs_placed(0) == 2 and state.discs_placed(1) == 0
    flags = state.view().display(0)
    assert flags[(0, 0)][1][expected[0][2]] and flags[(1, 0)][1][expected[1][2]]


def test_preview_equals_what_apply_covers(rng):
    """``preview(place)`` lists exactly the tasks ``apply`` then covers, unchanged state."""
    checked = 0
    for seed in range(6):
        state = Game(players=1 + seed % 4).new_state(seed=seed)
        while not state.is_over and checked < 3000:
            before = state.view().to_json()
            for action in state.legal_actions():
                if not isinstance(action, Place):
                    continue
                preview = state.preview(action)
                clone = state.clone()
                got = clone.apply(action)
                if state.supply[state.current_seat] >= len(preview):
                    assert got == preview, action
                else:
                    assert len(got) == state.supply[state.current_seat]
                    assert set(got) <= set(preview)
                checked += 1
            assert state.view().to_json() == before
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 1000


def test_display_matches_reference_after_random_games():
    """After whole random games every display's covered tasks are exactly the
    brute-force fulfilled ones (or a subset once the supply ran out)."""
    for seed in range(8):
        state = Game(players=1 + seed % 4).new_state(seed=seed)
        state.random_playout(random.Random(seed))
        for seat, d in enumerate(state.displays):
            ref = reference_fulfilled(layout_of(d))
            if state.supply[seat]:
                assert covered_tasks(d) == ref
            else:
                assert covered_tasks(d) <= ref
