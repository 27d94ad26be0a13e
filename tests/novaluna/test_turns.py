"""Setup, turn order and the steps of a turn (RULES.md "Setup", "Turn order", "A turn"),
plus illegal and malformed actions and the action notation."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from tabletop.games.novaluna.rules import (
    END_PHASE,
    REFILL,
    TILES,
    Game,
    IllegalActionError,
    InvalidActionError,
    Place,
    State,
    parse_action,
)

from novaluna_support import make_pile, play, snapshot


def place_at_first_cell(state: State, space: int) -> list:
    """Take the tile on ``space`` and lay it on the current player's first legal cell."""
    return state.apply(Place(space, *state.legal_cells()[0]))


def fewest_covers(state: State) -> Place:
    """A placement covering as few tasks as possible (keeps discs in the supply)."""
    places = [a for a in state.legal_actions() if isinstance(a, Place)]
    return min(places, key=lambda a: (len(state.preview(a)), a.space, a.x, a.y))


# -- setup -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_meeple_on_0_and_spaces_1_to_11_in_pile_order(players):
    """Setup 1: "The meeple stands on space 0 ... draw 11 and lay them face up on spaces
    1, 2, …, 11 in draw order. The rest form the face-down draw pile." """
    pile = list(range(68, 0, -1))
    random.Random(players).shuffle(pile)
    state = Game(players=players).new_state(pile=pile)
    assert state.meeple == 0
    assert list(state.wheel) == [0] + pile[:11]
    assert state.pile_count == 57
    assert state.unseen_tiles() == tuple(sorted(pile[11:]))
    assert state.turn == 0 and not state.is_over
    assert all(not d.tiles for d in state.displays)
    assert state.takeable_spaces() == [1, 2, 3]


@pytest.mark.parametrize(
    ("players", "first_game", "supply"),
    [
        (2, False, 20),
        (3, False, 20),
        (4, False, 20),
        (2, True, 20),
        (3, True, 17),
        (4, True, 15),
        (1, False, 21),
    ],
)
def test_supply(players, first_game, supply):
    """Setup 2: "the supply is 20 discs"; first game: 3 players 17, 4 players 15,
    "2 players always 21 (supply 20)"; solo: "21 discs" (no marker)."""
    state = Game(players=players, first_game=first_game).new_state(seed=1)
    assert state.supply == [supply] * players
    assert [s["discs_left"] for s in state.view().to_json()["seats"]] == [supply] * players
    assert all(state.discs_placed(s) == 0 for s in range(players))


def test_solo_has_no_first_game_option_and_player_counts_are_1_to_4():
    """Nova Luna is for 1–4 players; the first-game option is for 3–4 player games."""
    with pytest.raises(ValueError):
        Game(players=1, first_game=True)
    for bad in (0, 5):
        with pytest.raises(ValueError):
            Game(players=bad)


def test_new_state_rejects_bad_pile_and_start_stack():
    """The pile must hold the 68 tiles once each; the start stack each seat once."""
    with pytest.raises(ValueError):
        Game(players=2).new_state(pile=list(range(1, 68)) + [1])
    with pytest.raises(ValueError):
        Game(players=2).new_state(pile=list(range(1, 68)))
    with pytest.raises(ValueError):
        Game(players=3).new_state(seed=1, start_stack=[0, 1, 1])
    with pytest.raises(ValueError):
        Game(players=1).new_state(seed=1, start_stack=[1, 0])


@pytest.mark.parametrize("stack", list(itertools.permutations(range(3))))
def test_top_of_start_stack_moves_first(stack):
    """Setup 3: "All markers start on the same space ... as one stack in random order.
    The marker on top moves first." ``start_stack`` lists seats bottom to top."""
    state = Game(players=3).new_state(seed=0, start_stack=list(stack))
    assert state.current_seat == stack[-1]
    assert state.turn_order() == list(reversed(stack))
    assert state.time == [0, 0, 0]


def test_seeded_setup_is_reproducible_and_shuffled():
    """A seed determines the shuffle and the start stack; different seeds differ."""
    a = Game(players=4).new_state(seed=11)
    b = Game(players=4).new_state(seed=11)
    assert a.pile_order() == b.pile_order() and a.turn_order() == b.turn_order()
    assert sorted(a.pile_order()) == list(range(1, 69))
    piles = {Game(players=4).new_state(seed=s).pile_order() for s in range(5)}
    assert len(piles) == 5
    firsts = {Game(players=4).new_state(seed=s).current_seat for s in range(40)}
    assert firsts == {0, 1, 2, 3}


# -- taking a tile ----------------------------------------------------------------------


def test_take_one_of_first_three_clockwise():
    """Turn step 2: "any of the first three tiles clockwise from the meeple"."""
    state = Game(players=2).new_state(seed=5)
    assert state.takeable_spaces() == [1, 2, 3]
    assert state.legal_actions() == [Place(1, 0, 0), Place(2, 0, 0), Place(3, 0, 0)]


def test_empty_spaces_are_skipped_not_counted():
    """RULES.md: "empty spaces are skipped, not counted" — including the golden space 0."""
    state = Game(players=1).new_state(seed=2)
    for space in (3, 6, 9):
        place_at_first_cell(state, space)
    assert state.meeple == 9
    assert state.takeable_spaces() == [10, 11, 1]  # 0 is empty
    place_at_first_cell(state, 1)
    assert state.takeable_spaces() == [2, 4, 5]  # 3 is empty
    place_at_first_cell(state, 5)
    assert state.takeable_spaces() == [7, 8, 10]


def test_meeple_moves_to_the_space_taken_from():
    """RULES.md: "The meeple moves onto the space the tile came from" and that space empties."""
    state = Game(players=3).new_state(seed=4)
    tile, seat = state.wheel[3], state.current_seat
    place_at_first_cell(state, 3)
    assert state.meeple == 3
    assert state.wheel[3] == 0
    assert state.view().display(seat)[(0, 0)][0] == tile
    assert state.takeable_spaces() == [4, 5, 6]


def test_fewer_than_three_tiles_any_of_them():
    """RULES.md: "With fewer than 3 tiles on the wheel, any of them." Solo, so no refill."""
    state = Game(players=1).new_state(seed=3)
    for space in (3, 4, 5, 6, 7, 8, 9, 11, 2):  # leaves spaces 1 and 10
        place_at_first_cell(state, space)
    assert [s for s in range(12) if state.wheel[s]] == [1, 10]
    assert sorted(state.takeable_spaces()) == [1, 10]
    place_at_first_cell(state, 10)
    assert state.takeable_spaces() == [1]


# -- refilling ---------------------------------------------------------------------------


def two_player_game_down_to(tiles_left: int, seed: int = 8) -> State:
    """A 2-player game, tiles taken from the next space without refilling."""
    state = Game(players=2).new_state(seed=seed)
    while state.on_wheel > tiles_left:
        place_at_first_cell(state, state.takeable_spaces()[0])
    return state


@pytest.mark.parametrize("tiles_left", [11, 10, 5, 4, 3])
def test_no_refill_with_three_or_more_tiles(tiles_left):
    """Turn step 1: "3 or more: no refill." REFILL is not offered and is rejected."""
    state = two_player_game_down_to(tiles_left)
    assert REFILL not in state.legal_actions()
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="1 or 2"):
        state.apply(REFILL)
    assert snapshot(state) == before


@pytest.mark.parametrize("tiles_left", [2, 1])
def test_refill_is_a_real_choice_with_one_or_two_tiles(tiles_left):
    """Turn step 1: "1 or 2 tiles: the player **may** refill (a real choice)". Refilling
    keeps the turn (the player then takes a tile); declining is simply taking."""
    state = two_player_game_down_to(tiles_left)
    actions = state.legal_actions()
    assert actions[0] == REFILL
    assert any(isinstance(a, Place) for a in actions)
    seat, turn, pile = state.current_seat, state.turn, state.pile_count

    refilled = state.clone()
    assert refilled.apply(REFILL) == []
    assert refilled.on_wheel == 11  # every space but the meeple's
    assert refilled.pile_count == pile - (11 - tiles_left)
    assert refilled.current_seat == seat and refilled.turn == turn
    assert refilled.wheel[refilled.meeple] == 0
    assert REFILL not in refilled.legal_actions(), "only one refill per turn"
    assert all(isinstance(a, Place) for a in refilled.legal_actions())
    assert len(refilled.takeable_spaces()) == 3

    declined = state.clone()
    place_at_first_cell(declined, declined.takeable_spaces()[-1])
    assert len(declined.displays[seat].tiles) == len(state.displays[seat].tiles) + 1
    if tiles_left == 2:
        assert declined.on_wheel == 1 and declined.pile_count == pile
    else:  # the wheel is empty now: the next turn starts with the compulsory refill
        assert declined.refilled and declined.on_wheel == 11


def test_refill_is_compulsory_and_automatic_with_zero_tiles():
    """Turn step 1: "0 tiles: the player **must** refill" — done automatically at the
    start of the turn; no further refill is offered in that turn."""
    state = two_player_game_down_to(1)
    place_at_first_cell(state, state.takeable_spaces()[0])  # decline, take the last tile
    assert state.on_wheel == 11
    assert state.pile_count == 57 - 11
    assert state.refilled
    assert state.wheel[state.meeple] == 0
    assert REFILL not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="already refilled"):
        state.apply(REFILL)


def test_refill_order_clockwise_from_meeple_skipping_its_space():
    """Refilling: "starting with the space directly clockwise after the meeple and going
    on clockwise, put one tile from the draw pile face up on every empty space except
    the meeple's own space." Occupied spaces keep their tiles."""
    draws = [61, 62, 63, 64, 65, 66, 67, 68, 60]
    state = Game(players=2).new_state(pile=make_pile(range(1, 12), draws), start_stack=[0, 1])
    for space in (3, 4, 5, 6, 7, 8, 10, 11, 2):
        place_at_first_cell(state, space)
    assert state.meeple == 2
    assert list(state.wheel) == [0, 1, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0]
    state.apply(REFILL)
    expected = [draws[8], 1, 0, draws[0], draws[1], draws[2], draws[3], draws[4], draws[5]]
    expected += [9, draws[6], draws[7]]
    assert list(state.wheel) == expected
    assert state.pile_count == 57 - 9
    assert state.takeable_spaces() == [3, 4, 5]


def test_refill_stops_when_the_pile_runs_out_and_none_when_it_is_empty():
    """RULES.md: "If the pile runs out, stop there": the last refill of 2 tiles fills the two
    spaces after the meeple; with the pile empty no refill is offered."""
    state = Game(players=4).new_state(seed=1)
    refills = 0
    while state.pile_count:
        before = state.pile_count
        state.apply(fewest_covers(state))
        refills += state.pile_count != before
    assert not state.is_over
    assert refills == 6  # 11 on the wheel, then 5 refills of 11 and one of 2
    assert state.on_wheel == 2
    m = state.meeple
    assert [s for s in range(12) if state.wheel[s]] == sorted([(m + 1) % 12, (m + 2) % 12])
    assert state.refilled  # this was the compulsory refill at the start of this turn
    place_at_first_cell(state, state.takeable_spaces()[0])
    assert state.on_wheel == 1 and state.pile_count == 0
    assert REFILL not in state.legal_actions()
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="pile is empty"):
        state.apply(REFILL)
    assert snapshot(state) == before


def test_partial_optional_refill_when_pile_is_short():
    """An optional refill with fewer pile tiles than empty spaces stops when the pile
    runs out (found by playing a 2-player game to its last pile tiles)."""
    for seed in range(40):
        state = Game(players=2).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            if REFILL in state.legal_actions() and 0 < state.pile_count < 11 - state.on_wheel:
                m, pile_left, on_wheel = state.meeple, state.pile_count, state.on_wheel
                empty = [(m + k) % 12 for k in range(1, 12) if not state.wheel[(m + k) % 12]]
                old = list(state.wheel)
                unseen = set(state.unseen_tiles())
                state.apply(REFILL)
                assert state.pile_count == 0
                assert state.on_wheel == on_wheel + pile_left
                filled = [s for s in range(12) if state.wheel[s] != old[s]]
                assert sorted(filled) == sorted(empty[:pile_left])
                assert {state.wheel[s] for s in filled} == unseen
                return
            state.apply(rng.choice(state.legal_actions()))
    pytest.fail("no short optional refill found")


# -- turn order ----------------------------------------------------------------------


def test_turn_order_by_moon_track_time():
    """RULES.md: "The player whose marker is furthest back on the moon track takes the next turn.
    If several markers share the rearmost space, the one on top of that stack goes. A
    marker that lands on an occupied space is put on top. The same player may take
    several turns in a row." """
    tiles = [2, 12, 18, 19, 4, 35]  # costs 2, 5, 1, 2, 3, 1
    assert [TILES[t].cost for t in tiles] == [2, 5, 1, 2, 3, 1]
    state = Game(players=2).new_state(pile=make_pile(tiles), start_stack=[0, 1])
    steps = [
        # (seat to move, space, time after)
        (1, 1, [0, 2]),
        (0, 2, [5, 2]),
        (1, 3, [5, 3]),
        (1, 4, [5, 5]),  # lands on seat 0's space, on top of it
        (1, 5, [5, 8]),  # so seat 1 goes again
        (0, 6, [6, 8]),
    ]
    for seat, space, time in steps:
        assert state.current_seat == seat
        place_at_first_cell(state, space)
        assert list(state.time) == time
    assert state.current_seat == 0
    assert state.turn_order() == [0, 1]


def test_turn_order_stack_tie_breaks_three_players():
    """Ties on a space go to the marker on top; the start stack decides at first."""
    tiles = [4, 5, 6, 1, 21]  # costs 3, 3, 3, 1, 3
    assert [TILES[t].cost for t in tiles] == [3, 3, 3, 1, 3]
    state = Game(players=3).new_state(pile=make_pile(tiles), start_stack=[0, 1, 2])
    assert state.turn_order() == [2, 1, 0]
    place_at_first_cell(state, 1)  # seat 2 to 3
    assert state.current_seat == 1 and state.turn_order() == [1, 0, 2]
    place_at_first_cell(state, 2)  # seat 1 to 3, on top of seat 2
    assert state.current_seat == 0 and state.turn_order() == [0, 1, 2]
    place_at_first_cell(state, 3)  # seat 0 to 3, on top of both
    assert list(state.time) == [3, 3, 3]
    assert state.current_seat == 0 and state.turn_order() == [0, 1, 2]
    place_at_first_cell(state, 4)  # seat 0 to 4
    assert state.current_seat == 1 and state.turn_order() == [1, 2, 0]
    place_at_first_cell(state, 5)  # seat 1 to 6
    assert state.current_seat == 2 and state.turn_order() == [2, 0, 1]


def test_markers_never_more_than_seven_apart():
    """RULES.md: "Because the rearmost player always moves and a tile costs at most 7, the
    markers are never more than 7 apart." """
    for seed in range(10):
        state = Game(players=2 + seed % 3).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            assert max(state.time) - min(state.time) <= 7
            seat = state.current_seat
            assert state.time[seat] == min(state.time)
            state.apply(rng.choice(state.legal_actions()))


# -- placing -----------------------------------------------------------------------------


def test_first_tile_must_go_on_origin():
    """Turn step 3: "the first tile anywhere" — the engine puts every first tile on
    (0, 0); any other cell is refused with a hint."""
    state = Game(players=2).new_state(seed=3)
    assert state.legal_cells() == [(0, 0)]
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="first tile goes on cell 0,0"):
        state.apply(Place(1, 3, 4))
    assert snapshot(state) == before


def test_later_tiles_edge_adjacent():
    """Turn step 3: "every later tile on an empty cell that shares an edge with at least
    one of the player's tiles"; diagonal, far and occupied cells are refused."""
    state = Game(players=1).new_state(seed=3)
    play(state, "1@0,0")
    assert state.legal_cells() == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    for action, hint in [
        ("2@1,1", "does not touch"),
        ("2@2,0", "does not touch"),
        ("2@0,0", "is taken"),
        ("2@200,0", "does not touch"),
    ]:
        before = snapshot(state)
        with pytest.raises(IllegalActionError, match=hint):
            state.apply(parse_action(action))
        assert snapshot(state) == before
    play(state, "2@1,0")
    assert state.legal_cells() == [(-1, 0), (0, -1), (0, 1), (1, -1), (1, 1), (2, 0)]


def test_each_player_has_an_own_display():
    """Placement is "in the player's own display": another seat starts at (0, 0)."""
    state = Game(players=2).new_state(seed=3, start_stack=[1, 0])
    play(state, "1@0,0")
    assert state.legal_cells(0) == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    assert state.legal_cells(1) == [(0, 0)]


def test_legal_actions_are_next_three_spaces_times_legal_cells():
    """Exactly one tile is taken and placed: actions = takeable spaces × legal cells."""
    state = Game(players=1).new_state(seed=9)
    play(state, "2@0,0", "4@0,1")
    places = [a for a in state.legal_actions() if isinstance(a, Place)]
    expected = {Place(s, x, y) for s in state.takeable_spaces() for x, y in state.legal_cells()}
    assert set(places) == expected and len(places) == len(expected)


# -- illegal and malformed actions ------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["", "3 0 0", "a@b,c", "1@0", "refil", "1@0,0,0", "@0,0", "1@x,0", "place 1 0 0", "1@\u0663,0"],
)
def test_malformed_text_raises_invalid_action_error(text):
    """Malformed notation raises ``InvalidActionError`` naming the right form."""
    with pytest.raises(InvalidActionError, match="space@x,y"):
        parse_action(text)


@pytest.mark.parametrize("text", ["12@0,0", "99@1,1"])
def test_space_out_of_range_raises_invalid_action_error(text):
    """Wheel spaces are numbered 0–11."""
    with pytest.raises(InvalidActionError, match="0 to 11"):
        parse_action(text)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("7@1,-2", Place(7, 1, -2)),
        (" 7 @ ( 1 , -2 ) ", Place(7, 1, -2)),
        ("0@0,0", Place(0, 0, 0)),
        ("11@-10,10", Place(11, -10, 10)),
        ("refill", REFILL),
        (" Refill ", REFILL),
        ("END", END_PHASE),
    ],
)
def test_parse_accepts_the_notation(text, action):
    """``space@x,y``, ``refill`` and ``end`` (case and spacing do not matter)."""
    assert parse_action(text) == action


def test_error_types_are_distinct_value_errors():
    """Malformed text and illegal actions are told apart, both are ``ValueError``."""
    assert issubclass(InvalidActionError, ValueError)
    assert issubclass(IllegalActionError, ValueError)
    assert not issubclass(InvalidActionError, IllegalActionError)
    assert not issubclass(IllegalActionError, InvalidActionError)


@pytest.mark.parametrize(
    ("action", "hint"),
    [
        (Place(5, 0, 0), "not one of the next three tiles; you may take from space 1, 2, 3"),
        (Place(0, 0, 0), "space 0 is empty"),
        (Place(12, 0, 0), "no wheel space 12"),
        (Place(-1, 0, 0), "no wheel space -1"),
        (Place(1, 0, 1), "first tile goes on cell 0,0"),
        (REFILL, "only allowed with 1 or 2 tiles"),
        (END_PHASE, "only the solo game"),
        ("1@0,0", "not a Nova Luna action"),
        ((1, 0, 0), "not a Nova Luna action"),
        (None, "not a Nova Luna action"),
    ],
)
def test_illegal_actions_raise_and_change_nothing(action, hint):
    """Illegal actions raise ``IllegalActionError`` with a helpful message and leave the
    state exactly as it was."""
    state = Game(players=3).new_state(seed=12)
    fresh = Game(players=3).new_state(seed=12)
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=re.escape(hint)):
        state.apply(action)
    assert snapshot(state) == before
    # The state still plays exactly like an untouched copy.
    legal = state.legal_actions()[0]
    assert state.apply(legal) == fresh.apply(legal)
    assert snapshot(state) == snapshot(fresh)


def test_preview_of_illegal_placement_raises():
    """``preview`` checks legality like ``apply`` and never changes the state."""
    state = Game(players=2).new_state(seed=12)
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.preview(Place(4, 0, 0))
    with pytest.raises(IllegalActionError):
        state.preview(Place(1, 1, 0))
    assert snapshot(state) == before


def test_no_actions_after_the_game_is_over():
    """Once the game is over nothing is legal; applying raises "the game is over"."""
    state = Game(players=2).new_state(seed=12)
    state.random_playout(random.Random(1))
    assert state.is_over and state.legal_actions() == []
    before = snapshot(state)
    for action in (Place(1, 0, 0), REFILL, END_PHASE):
        with pytest.raises(IllegalActionError, match="game is over"):
            state.apply(action)
    assert snapshot(state) == before


# -- notation --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_notation_round_trips_for_all_legal_actions(players):
    """``parse_action(str(a)) == a`` for every legal action met in whole games."""
    seen = set()
    for seed in range(3):
        state = Game(players=players).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            for action in state.legal_actions():
                text = str(action)
                assert parse_action(text) == action
                assert parse_action(f"  {text.upper()}  ") == action
                seen.add(type(action).__name__)
            state.apply(rng.choice(state.legal_actions()))
    assert "Place" in seen
    if players > 1:
        assert "Refill" in seen
    assert parse_action(str(REFILL)) is REFILL
    assert parse_action(str(END_PHASE)) is END_PHASE
