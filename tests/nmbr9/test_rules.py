"""Named tests, one per rule of /work/shared/nmbr9/RULES.md (section by section).

Every placement test asks both the engine and the independent reference in
``nmbr9_support`` and expects them to agree; boards are drawn in comments and
checked as height pictures (``.`` table, ``1`` one tile, ``2`` two...).
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from tabletop.games.nmbr9.rules import (
    CANONICAL,
    CARDS,
    DISTINCT,
    FULL_DECK,
    RANDOM_REMOVAL,
    SHAPES,
    SQUARES,
    Board,
    Game,
    IllegalActionError,
    InvalidActionError,
    Place,
    Placed,
    Result,
    parse_action,
)

from nmbr9_support import (
    DIGITS,
    ROTATIONS,
    SHARED_TILES_JSON,
    as_tiles,
    board_snapshot,
    cells,
    deck_starting,
    distinct_rotations,
    drawn,
    footprint,
    heights_picture,
    mirror_picture,
    package_tiles_json,
    picture,
    reference_legal,
    reference_level,
    reference_score,
    snapshot,
    square_count,
    squares_of_picture,
)

# -- helpers -------------------------------------------------------------------------


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


def greedy_game(seed: int, players: int = 1, remove: int | None = 0, high: float = 0.8):
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


# -- Components ----------------------------------------------------------------------


def test_package_tiles_json_is_the_shared_tiles_json():
    if not SHARED_TILES_JSON.exists():
        pytest.skip(f"{SHARED_TILES_JSON} is not here")
    assert package_tiles_json() == json.loads(SHARED_TILES_JSON.read_text("utf-8"))


def test_square_counts_are_as_in_the_rules():
    counts = {0: 10, 1: 5, 2: 9, 3: 9, 4: 8, 5: 10, 6: 9, 7: 7, 8: 8, 9: 10}
    assert {d: square_count(d) for d in DIGITS} == counts
    assert tuple(counts[d] for d in DIGITS) == SQUARES


def test_engine_shapes_are_tiles_json_turned_clockwise():
    for digit in DIGITS:
        assert SHAPES[digit][0].rows() == list(drawn(digit))
        for rotation in ROTATIONS:
            assert SHAPES[digit][rotation].rows() == list(picture(digit, rotation))
            shape = SHAPES[digit][rotation]
            assert set(shape.cells) == set(cells(digit, rotation))
    # a quarter turn clockwise: the 1's top-left square goes top-right
    assert SHAPES[1][1].rows() == ["...#", "####"]


def test_a_box_of_8_tiles_per_digit_is_enough_for_4_players():
    state = Game(players=4).new_state(seed=11)
    state.random_playout(random.Random(11))
    used = Counter(t.digit for board in state.boards for t in board.tiles)
    assert max(used.values()) <= 8
    for board in state.boards:
        assert max(Counter(t.digit for t in board.tiles).values()) == 2


def test_there_are_20_cards_two_of_each_digit():
    assert CARDS == 20
    assert tuple(sorted(list(DIGITS) * 2)) == FULL_DECK
    for seed in range(20):
        state = Game(players=2).new_state(seed=seed)
        assert sorted(state.deck_order()) == list(FULL_DECK)


def test_the_cards_are_shuffled_from_the_seed():
    decks = [Game().new_state(seed=seed).deck_order() for seed in range(50)]
    assert decks == [Game(players=3).new_state(seed=seed).deck_order() for seed in range(50)]
    assert len(set(decks)) == 50  # different seeds, different orders
    assert all(deck != FULL_DECK for deck in decks)
    # every digit comes first for some seed: a real shuffle, not a rotation of one order
    assert {deck[0] for deck in decks} | {deck[1] for deck in decks} == set(DIGITS)


def test_a_deck_must_hold_two_cards_of_each_digit():
    with pytest.raises(ValueError, match="two cards of each digit"):
        Game().new_state(deck=[0] * 20)
    with pytest.raises(ValueError, match="two cards of each digit"):
        Game().new_state(deck=list(FULL_DECK)[:-1])


def test_the_order_is_hidden_until_a_card_is_turned():
    state = Game(players=2).new_state(seed=5)
    deck = state.deck_order()
    view = state.view(0)
    assert view.turned == deck[:1] and view.card == deck[0]
    assert view.unturned == tuple(sorted(deck[1:]))
    assert "deck" not in json.dumps(view.to_json())


# -- Play: rounds --------------------------------------------------------------------


def test_there_are_20_rounds_one_card_turned_each():
    state = Game(players=1).new_state(seed=3)
    deck = state.deck_order()
    cards = []
    while not state.is_over:
        assert state.round == len(cards)
        assert state.turned() == deck[: len(cards) + 1]
        cards.append(state.card)
        state.apply(state.legal_actions()[-1])
    assert cards == list(deck)
    assert state.round == state.rounds == 20
    assert state.card is None and state.acting_seats() == () and state.turned() == deck


def test_every_player_places_a_tile_of_the_turned_digit_in_their_own_area():
    state = Game(players=3).new_state(deck=deck_starting(7, 3))
    for seat in (2, 0, 1):
        placed = state.apply(state.legal_actions(seat)[0], seat)
        assert placed.digit == 7
    assert [[t.digit for t in b.tiles] for b in state.boards] == [[7], [7], [7]]
    state.apply(Place(0, 0, 4), 1)  # round 2's 3, below the 7
    assert [len(b.tiles) for b in state.boards] == [1, 2, 1]


def test_each_seat_places_once_per_round_in_any_order():
    state = Game(players=3).new_state(deck=deck_starting(4, 6))
    assert state.acting_seats() == (0, 1, 2)
    state.apply(Place(0, 0, 0), 1)
    assert state.acting_seats() == (0, 2) and state.round == 0
    state.apply(Place(1, 0, 0), 2)
    assert state.acting_seats() == (0,) and state.round == 0 and state.card == 4
    assert state.legal_actions(1) == [] and state.legal_actions(2) == []


def test_a_second_placement_in_the_same_round_is_refused():
    state = Game(players=2).new_state(deck=deck_starting(4, 6))
    state.apply(Place(0, 0, 0), 0)
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="seat 0 has already placed this round's 4"):
        state.apply(Place(1, 0, 0), 0)
    with pytest.raises(IllegalActionError, match="already placed"):
        state.level_of(Place(1, 0, 0), 0)
    assert snapshot(state) == before


def test_the_round_resolves_after_the_last_seat_places():
    state = Game(players=3).new_state(deck=deck_starting(4, 6))
    state.apply(Place(0, 0, 0), 2)
    state.apply(Place(0, 0, 0), 0)
    assert (state.round, state.card) == (0, 4)
    placed = state.apply(Place(1, 0, 0), 1)
    assert placed == Placed(4, 1, 0, 0, 0)
    assert (state.round, state.card, state.acting_seats()) == (1, 6, (0, 1, 2))
    assert state.placed == [None, None, None]


def test_take_back_undoes_a_placement_until_the_round_resolves():
    state = Game(players=2).new_state(deck=deck_starting(9, 8, 5))
    state.apply(Place(0, 0, 0), 0)
    state.apply(Place(0, 0, 0), 1)  # round 1 resolved
    before = snapshot(state)
    placed = state.apply(Place(1, 3, 0), 0)
    assert placed == Placed(8, 1, 3, 0, 0)
    assert state.take_back(0) == placed
    assert snapshot(state) == before
    with pytest.raises(IllegalActionError, match="nothing|no placement"):
        state.take_back(0)
    # place again, differently, then the other seat ends the round: no more take-backs
    state.apply(Place(0, 0, 4), 0)
    state.apply(Place(0, 0, 4), 1)
    with pytest.raises(IllegalActionError, match="no placement of this round"):
        state.take_back(0)
    assert [t.y for t in state.boards[0].tiles] == [0, 4]
    with pytest.raises(IllegalActionError):
        state.take_back(7)


def test_take_back_of_a_half_turned_0_or_8_gives_the_recorded_placement():
    state = Game(players=2).new_state(deck=deck_starting(8))
    placed = state.apply(Place(2, 5, 5), 1)
    assert placed == Placed(8, 0, 5, 5, 0)
    assert state.take_back(1) == placed
    assert state.boards[1].tiles == []


def test_nobody_sees_another_players_placement_until_everybody_has_placed():
    state = Game(players=3).new_state(deck=deck_starting(9, 8))
    for seat in range(3):
        state.apply(Place(0, 0, 0), seat)  # round 1 resolved: everybody sees it
    mine = state.apply(Place(1, 0, 4), 0)
    for viewer in (1, 2, None):
        view = state.view(viewer)
        assert [len(b.tiles) for b in view.boards] == [1, 1, 1]
        assert mine not in view.boards[0].tiles
        assert view.pending is None
        assert view.has_placed == (True, False, False)  # that seat 0 has placed is public
        assert view.score(0) == 0
    own = state.view(0)
    assert own.pending == mine and own.boards[0].tiles[-1] == mine
    assert own.legal_actions() == []
    state.apply(Place(1, 0, 4), 1)
    state.apply(Place(1, 3, 0), 2)
    for viewer in (0, 1, 2, None):
        assert state.view(viewer).boards[0].tiles[-1] == mine


# -- Placement: rotation only --------------------------------------------------------


def test_a_tile_may_be_rotated_but_never_mirrored():
    for digit in DIGITS:
        rotations = {cells(digit, r) for r in ROTATIONS}
        mirrored = squares_of_picture(mirror_picture(drawn(digit)))
        # what the engine actually lays, for every rotation it accepts
        laid = set()
        for rotation in ROTATIONS:
            board = Board()
            board.place(digit, rotation, 0, 0)
            laid.add(frozenset(board.squares))
        assert laid == rotations
        # only the 0 looks the same mirrored; every other digit's mirror image is not a
        # placement of it
        assert (mirrored in laid) == (digit == 0)


def test_a_mirrored_shape_is_never_listed_unless_it_equals_a_rotation():
    board = board_with(*ROW_OF_NINES)
    for digit in DIGITS:
        mirrored = squares_of_picture(mirror_picture(drawn(digit)))
        turned_mirrors = set()
        rows = mirror_picture(drawn(digit))
        for _ in ROTATIONS:
            turned_mirrors.add(squares_of_picture(rows))
            rows = tuple("".join(r[c] for r in reversed(rows)) for c in range(len(rows[0])))
        allowed = {cells(digit, r) for r in ROTATIONS}
        for place, _ in board.legal(digit):
            shape = cells(digit, place.rotation)
            assert shape in allowed
            assert shape not in turned_mirrors or digit == 0
        assert (mirrored in allowed) == (digit == 0)


def test_rotations_of_the_0_and_the_8_are_listed_once():
    for digit in DIGITS:
        expected = [Place(r, 0, 0) for r in distinct_rotations(digit)]
        assert Board().legal(digit) == [(p, 0) for p in expected]
        assert [s.rotation for s in DISTINCT[digit]] == [p.rotation for p in expected]
    assert distinct_rotations(0) == distinct_rotations(8) == (0, 1)
    assert CANONICAL[0] == CANONICAL[8] == (0, 1, 0, 1)
    # on a real board too: no two listed placements cover the same squares
    board = board_with(*ROW_OF_NINES, (1, 3, 1, 0))
    for digit in DIGITS:
        places = board.legal(digit)
        covers = [footprint(digit, p.rotation, p.x, p.y) for p, _ in places]
        assert len(covers) == len(set(covers)) == len(set(places))
        if digit in (0, 8):
            assert {p.rotation for p, _ in places} <= {0, 1}


def test_a_half_turned_0_or_8_is_accepted_and_recorded_as_its_lowest_rotation():
    for digit in (0, 8):
        state = Game(players=1).new_state(deck=deck_starting(digit, digit))
        assert state.apply(Place(2, 0, 0)) == Placed(digit, 0, 0, 0, 0)
        level = state.level_of(Place(3, 0, 4))
        assert level == reference_level(as_tiles(state.boards[0]), digit, 3, 0, 4) == 0
        assert state.apply(Place(3, 0, 4)) == Placed(digit, 1, 0, 4, 0)


def test_a_tile_is_aligned_to_the_square_grid():
    with pytest.raises(InvalidActionError):
        parse_action("r0@0.5,0")
    with pytest.raises(InvalidActionError):
        parse_action("r0@0,1e3")


@pytest.mark.parametrize(
    "first, action",
    [
        (None, Place(0, 0.5, 0)),
        (None, Place(0, 0, 1.5)),
        (None, Place("0", 0, 0)),
        (Place(0, 0, 0), Place(0, 3.0, 0)),  # a whole number, but not an int
    ],
)
def test_a_position_that_is_not_a_whole_square_is_refused_and_changes_nothing(first, action):
    # Regression: found while writing these tests (engine of 14:20, 23 Nov), fixed in
    # board.py since. A Place whose x, y or rotation was not an int was not refused:
    # the engine appended the tile (x=0.5) to the board's tiles and squares, then failed
    # with a TypeError in its bitboards, leaving the round unresolved and the board
    # corrupt (it went on listing placements over the phantom tile). Example:
    #   s = Game().new_state(seed=0); s.apply(Place(0, 0.5, 0))
    #   -> TypeError: unsupported operand type(s) for <<: 'int' and 'float'
    #   s.boards[0].tiles == [Placed(digit=5, rotation=0, x=0.5, y=0, level=0)]
    state = Game(players=1).new_state(deck=deck_starting(9, 9))
    if first is not None:
        state.apply(first)
    before = snapshot(state)
    tiles = list(state.boards[0].tiles)
    round_ = state.round
    try:
        state.apply(action)
    except Exception as error:  # which exception it is, is the point
        raised = error
    else:
        raised = None
    assert state.boards[0].tiles == tiles, "the refused tile was laid anyway"
    assert state.round == round_
    assert isinstance(raised, IllegalActionError | InvalidActionError), repr(raised)
    assert str(raised)  # with a reason
    assert snapshot(state) == before


# -- Placement: the first tile -------------------------------------------------------


def test_the_first_tile_goes_anywhere_on_level_0():
    for digit in DIGITS:
        for rotation in ROTATIONS:
            for x, y in ((0, 0), (-1000, 537), (3, -4)):
                assert Board().check(digit, rotation, x, y) == 0
                assert reference_level([], digit, rotation, x, y) == 0
    state = Game(players=1).new_state(seed=4)
    assert state.apply(Place(3, -50, 77)).level == 0
    assert state.boards[0].squares and state.boards[0].score == 0


def test_the_first_tile_is_listed_at_0_0_only_as_the_table_has_no_edge():
    state = Game(players=2).new_state(seed=9)
    for seat in (0, 1):
        assert state.legal_actions(seat) == [Place(r, 0, 0) for r in distinct_rotations(state.card)]
    assert state.view(1).legal_with_levels() == [
        (Place(r, 0, 0), 0) for r in distinct_rotations(state.card)
    ]


# -- Placement: same level -----------------------------------------------------------


def test_a_tile_on_the_table_must_share_a_square_edge_with_a_tile_on_the_table():
    # 1 r0@0,0:  ##    then a 1 below its foot (r0@1,4) shares the edge (1,3)-(1,4)
    #            .#
    #            .#
    #            .#
    board = board_with((1, 0, 0, 0))
    assert accepted(board.clone(), 1, 0, 1, 4) == 0
    message = refused(board, 7, 0, 9, 9)
    assert "r0@9,9 does not touch your tiles on the table" in message
    assert "share a square edge" in message


def test_touching_only_at_a_corner_is_not_contact_on_the_table():
    # a 1 at r0@2,4 meets the first 1's foot (1,3) only corner to corner at (2,4)
    board = board_with((1, 0, 0, 0))
    assert "does not touch your tiles on the table" in refused(board, 1, 0, 2, 4)
    # one square to the left, r0@1,4, the two 1s share an edge:
    assert heights_picture([*as_tiles(board), (1, 0, 1, 4, 0)]) == [
        "11.",
        ".1.",
        ".1.",
        ".1.",
        ".11",
        "..1",
        "..1",
        "..1",
    ]


def test_a_tile_on_level_1_must_share_a_square_edge_with_a_tile_on_level_1():
    board = board_with(*ROW_OF_NINES)
    assert heights_picture(as_tiles(board)) == ROW_OF_NINES_PICTURE
    accepted(board, 1, 3, 1, 0)  # ####  on the first two 9s, level 1
    #                               #...
    assert heights_picture(as_tiles(board)) == [
        "122221111111",
        "121111111111",
        "11.11.11.11.",
        "11.11.11.11.",
    ]
    # on the last two 9s, far from the level-1 tile: it touches level-0 tiles only
    assert "r1@7,0 does not touch your tiles on level 1" in refused(board, 1, 1, 7, 0)
    # edge to edge with it at (4,0)-(4,1): fine
    assert accepted(board.clone(), 1, 1, 4, 0) == 1


def test_touching_only_at_a_corner_is_not_contact_on_level_1():
    board = board_with(*ROW_OF_NINES, (1, 3, 1, 0))
    # 1 r1@5,0 covers (8,0) and (5..8,1): its square (5,1) meets (4,0) corner to corner
    assert "does not touch your tiles on level 1" in refused(board, 1, 1, 5, 0)
    assert accepted(board, 1, 1, 4, 0) == 1  # one square left: an edge at (4,0)-(4,1)


def test_the_first_tile_placed_on_a_new_level_needs_no_contact():
    board = board_with(*ROW_OF_NINES)
    # the very spot refused above once level 1 had a tile
    assert accepted(board.clone(), 1, 1, 7, 0) == 1
    # and the first tile on level 2 (see the level-2 board below) touches no level-2 tile
    board = board_with((2, 1, 0, 0), (2, 3, 1, -2), (8, 0, 0, -2), (8, 0, 2, -1))
    assert accepted(board, 2, 0, 0, -2) == 2


def test_contact_is_counted_per_level():
    # A placement must touch a tile of its own level: lying on (and so meeting) the
    # tiles of the level below is no contact.
    board = board_with(*ROW_OF_NINES, (1, 3, 1, 0))
    assert "does not touch your tiles on level 1" in refused(board, 1, 1, 7, 0)
    # every listed placement of a 1 touches a tile of its own level
    ref = reference_legal(as_tiles(board), 1)
    assert listed(board, 1) == ref
    for rotation, x, y, level in ref:
        mine = footprint(1, rotation, x, y)
        near = {
            (sx + dx, sy + dy) for sx, sy in mine for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        }
        same_level = {
            s
            for d, r, tx, ty, lv in as_tiles(board)
            if lv == level
            for s in footprint(d, r, tx, ty)
        }
        assert near & same_level, (rotation, x, y, level)
    assert {level for *_, level in ref} == {0, 1}


# -- Placement: higher levels --------------------------------------------------------


def test_the_level_of_a_placement_is_the_height_of_the_stack_below():
    # two 2s on the table, two 8s across them on level 1, a 2 across the 8s on level 2
    board = board_with((2, 1, 0, 0), (2, 3, 1, -2))
    assert accepted(board, 8, 0, 0, -2) == 1
    assert accepted(board, 8, 0, 2, -1) == 1
    assert heights_picture(as_tiles(board)) == [
        ".22.1",
        ".2222",
        "22.22",
        "2222.",
        "1.22.",
    ]
    assert accepted(board, 2, 0, 0, -2) == 2
    assert heights_picture(as_tiles(board)) == [
        ".33.1",
        ".3322",
        "33.22",
        "3332.",
        "1.22.",
    ]
    assert [t.level for t in board.tiles] == [0, 0, 1, 1, 2]
    assert board.levels == 3


def test_a_tile_on_level_1_must_rest_on_two_tiles():
    board = board_with((9, 0, 0, 0), (9, 0, 3, 0))
    assert accepted(board.clone(), 8, 1, 1, 0) == 1  # across both 9s
    assert accepted(board.clone(), 5, 3, 0, 0) == 1  # the docstring's example


def test_an_8_resting_on_a_single_9_is_illegal():
    # .##  the 8 fits inside the 9's squares:  ###
    # .##                                      ###
    # ##.                                      ##.
    # ##.                                      ##.
    board = board_with((9, 0, 0, 0), (9, 0, 3, 0))
    message = refused(board, 8, 0, 0, 0)
    assert message == (
        "r0@0,0 would rest on the 9 at 0,0 alone: a tile above the table must rest on "
        "at least two tiles"
    )
    assert "alone" in refused(board, 8, 0, 3, 0)  # on the other 9 alone
    assert "alone" in refused(board_with((9, 0, 0, 0)), 8, 0, 0, 0)


def test_two_tiles_of_the_same_digit_count_as_different_tiles():
    board = board_with((9, 0, 0, 0), (9, 0, 3, 0))
    assert {board.squares[s][1] for s in footprint(8, 1, 1, 0)} == {0, 1}  # two tiles below
    assert accepted(board, 8, 1, 1, 0) == 1


def test_a_tile_on_level_2_must_rest_on_two_level_1_tiles():
    board = board_with((2, 1, 0, 0), (2, 3, 1, -2), (8, 0, 0, -2))
    # only one 8 on level 1: nothing fits on level 2 (the 2 there would rest on it alone)
    for digit in DIGITS:
        assert {level for *_, level in listed(board, digit)} <= {0, 1}
        assert listed(board, digit) == reference_legal(as_tiles(board), digit)


def test_round_2_cannot_reach_level_1():
    # Whatever the first tile and however it is turned, nothing of the second round
    # can go on level 1: it would rest on the first tile alone.
    for first in DIGITS:
        for rotation in distinct_rotations(first):
            board = board_with((first, rotation, 0, 0))
            for digit in DIGITS:
                ref = reference_legal(as_tiles(board), digit)
                assert listed(board, digit) == ref
                assert ref and {level for *_, level in ref} == {0}
    state = Game(players=1).new_state(deck=deck_starting(9, 9))
    state.apply(Place(0, 0, 0))
    assert all(state.level_of(p) == 0 for p in state.legal_actions())
    with pytest.raises(IllegalActionError, match="rest on the 9 at 0,0 alone"):
        state.apply(Place(0, 0, 0))
    assert state.round == 1 and len(state.boards[0].tiles) == 1


def test_a_tile_above_the_table_may_not_overhang():
    board = board_with(*ROW_OF_NINES)
    # a 1 r0@2,1 rests on the first two 9s but its foot (3,4) hangs below them
    message = refused(board, 1, 0, 2, 1)
    assert message.startswith("r0@2,1 would not lie flat on level 1: square 3,4 has nothing")
    assert "no overhang" in message
    assert accepted(board, 1, 0, 2, 0) == 1  # one square up: all on the 9s


def test_a_tile_above_the_table_may_not_bridge_a_gap():
    board = board_with(*ROW_OF_NINES)
    # the 9 r0@0,0 leaves (2,2) and (2,3) open next to the 9 r0@3,0: a 1 r1@1,1 over
    # (1..4,2) would bridge it
    message = refused(board, 1, 1, 1, 1)
    assert message.startswith("r1@1,1 would not lie flat on level 1: square 2,2 has nothing")
    assert "no bridging a gap" in message


def test_the_0s_hole_cannot_be_bridged():
    # two 0s side by side: their holes (1,1), (1,2), (4,1), (4,2) stay open
    board = board_with((0, 0, 0, 0), (0, 0, 3, 0))
    assert heights_picture(as_tiles(board)) == ["111111", "1.11.1", "1.11.1", "111111"]
    # a 9 r1@0,0 (####/####/..##) would lie across the first 0's hole
    message = refused(board, 9, 1, 0, 0)
    assert "square 1,1 has nothing under it" in message
    holes = {(1, 1), (1, 2), (4, 1), (4, 2)}
    ups = 0
    for digit in DIGITS:
        ref = reference_legal(as_tiles(board), digit)
        assert listed(board, digit) == ref
        for rotation, x, y, level in ref:
            assert not footprint(digit, rotation, x, y) & holes  # nothing fits in a hole
            ups += level == 1
    assert ups  # level 1 is reachable elsewhere on the two 0s
    assert all(board.height(*h) == 0 for h in holes)


def test_every_square_under_a_tile_must_be_at_the_same_height():
    board = board_with(*ROW_OF_NINES, (1, 3, 1, 0))
    # a 1 r0@3,0: (3,0) and (4,0) are on the level-1 tile, (4,1..3) only on the 9 r0@3,0
    message = refused(board, 1, 0, 3, 0)
    assert message == (
        "r0@3,0 would not lie flat on level 2: square 4,1 is on the 9 at 3,0, lower than "
        "square 3,0 (every square under a tile must be at the same height)"
    )


# -- Placement: tiles never move, any level any time ----------------------------------


def test_placed_tiles_never_move():
    for seed in range(6):
        before: dict[int, list] = {}
        for state, _seat in greedy_game(seed, players=2):
            for seat, board in enumerate(state.boards):
                tiles = list(board.tiles)
                old = before.get(seat, [])
                assert tiles[: len(old)] == old
                for tile in tiles:
                    for square in footprint(tile.digit, tile.rotation, tile.x, tile.y):
                        assert board.height(*square) > tile.level
                before[seat] = tiles


def test_players_may_add_to_level_0_late_in_the_game():
    for seed in range(5):
        for state, seat in greedy_game(seed):
            if seat is None or state.round < state.rounds - 1:
                continue
            board = state.boards[seat]
            assert board.levels >= 2
            low = [p for p, level in board.legal(state.card) if level == 0]
            assert low
            assert state.apply(low[0], seat).level == 0
            break


def test_players_may_add_to_any_level_at_any_time():
    # once level 1 has a tile, level 0 and level 1 are both open
    board = board_with(*ROW_OF_NINES, (1, 3, 1, 0))
    for digit in (1, 3, 4, 5, 6):
        assert {level for *_, level in listed(board, digit)} == {0, 1}


def test_a_legal_placement_always_exists_on_level_0():
    for seed in range(25):
        for state, seat in greedy_game(seed, players=1 + seed % 4, high=0.9):
            if seat is None:
                continue
            options = state.boards[seat].legal(state.card)
            assert any(level == 0 for _, level in options)
            assert len(options) == len(state.legal_actions(seat))


# -- Scoring ---------------------------------------------------------------------------


def test_each_tile_scores_its_digit_times_its_level():
    board = board_with((9, 0, 0, 0), (9, 0, 3, 0))
    assert board.score == 0  # level 0 scores nothing
    board.place(5, 3, 0, 0)
    assert board.score == 5 * 1
    tall = board_with((2, 1, 0, 0), (2, 3, 1, -2), (8, 0, 0, -2), (8, 0, 2, -1), (2, 0, 0, -2))
    assert tall.score == 8 * 1 + 8 * 1 + 2 * 2 == reference_score(as_tiles(tall))


def test_the_score_is_counted_after_the_last_round_highest_total_wins():
    state = Game(players=3).new_state(seed=21)
    with pytest.raises(ValueError, match="not over"):
        state.result()
    state.random_playout(random.Random(21))
    result = state.result()
    scores = tuple(reference_score(as_tiles(b)) for b in state.boards)
    assert result.scores == scores
    assert result.ranking[0] in result.winners
    assert all(scores[w] == max(scores) for w in result.winners)


def test_equal_totals_share_a_rank():
    result = Result.from_scores((40, 52, 40))
    assert result.ranks == (2, 1, 2) and result.ranking == (1, 0, 2) and result.winners == (1,)
    result = Result.from_scores((30, 30, 10, 30))
    assert result.ranks == (1, 1, 4, 1) and result.winners == (0, 1, 3)
    assert result.ranking == (0, 1, 3, 2)
    assert Result.from_scores((0,)).ranks == (1,)


# -- Variants --------------------------------------------------------------------------


@pytest.mark.parametrize("removed", [1, 3, 7, 19])
def test_removing_k_cards_plays_20_minus_k_rounds_and_never_turns_them(removed):
    state = Game(players=2, remove=removed).new_state(seed=removed)
    deck = state.deck_order()
    assert state.removed == removed and state.rounds == 20 - removed
    assert state.unturned() == tuple(sorted(deck[1:]))  # the removed cards among them
    state.random_playout(random.Random(removed))
    assert state.is_over and state.round == 20 - removed
    assert state.turned() == deck[: 20 - removed]
    assert state.unturned() == tuple(sorted(deck[20 - removed :]))
    for board in state.boards:
        assert [t.digit for t in board.tiles] == list(deck[: 20 - removed])


def test_removed_cards_are_the_last_k_of_a_given_deck():
    deck = deck_starting(3, 1, 4, 1, 5, 9, 2, 6)
    state = Game(remove=4).new_state(deck=deck)
    cards = []
    while not state.is_over:
        cards.append(state.card)
        state.apply(state.legal_actions()[0])
    assert cards == deck[:16]


def test_a_random_removal_draws_1_to_4_cards_from_the_seed():
    draws = [Game(remove=None).new_state(seed=seed).removed for seed in range(60)]
    assert RANDOM_REMOVAL == (1, 4)
    assert set(draws) == {1, 2, 3, 4}
    assert draws == [Game(players=4, remove=None).new_state(seed=s).removed for s in range(60)]
    state = Game(remove=None).new_state(seed=8)
    assert state.rounds == 20 - state.removed


def test_the_game_checks_its_players_and_removal():
    for players in (0, 5, -1):
        with pytest.raises(ValueError, match="1 to 4 players"):
            Game(players=players)
    for remove in (-1, 20, 2.0, "3"):
        with pytest.raises(ValueError, match="removed"):
            Game(remove=remove)
    assert Game(remove=0).new_state(seed=1).rounds == 20


def test_solo_play_needs_no_changes():
    state = Game(players=1).new_state(seed=2)
    assert state.acting_seats() == (0,)
    state.apply(state.legal_actions()[0])  # a solo round resolves at once
    assert state.round == 1
    state.random_playout(random.Random(2))
    assert state.result().ranks == (1,)


def test_a_fixed_card_order_deals_the_same_cards_duplicate_play():
    deck = deck_starting(9, 0, 8, 1)
    a = Game(players=1).new_state(deck=deck)
    b = Game(players=3).new_state(seed=99, deck=deck)
    a.random_playout(random.Random(1))
    b.random_playout(random.Random(2))
    assert a.turned() == b.turned() == tuple(deck)
    assert all([t.digit for t in board.tiles] == deck for board in [*a.boards, *b.boards])


# -- Actions: notation and refusals ----------------------------------------------------


def test_parse_action_and_str_round_trip():
    rng = random.Random(5)
    for _ in range(300):
        place = Place(rng.randrange(4), rng.randint(-(10**6), 10**6), rng.randint(-40, 40))
        assert parse_action(str(place)) == place
    assert parse_action(" R2 @ (0, 0) ") == Place(2, 0, 0)
    assert parse_action("r1@3,-2") == Place(1, 3, -2) and str(Place(1, 3, -2)) == "r1@3,-2"


@pytest.mark.parametrize(
    "text",
    ["", "3,4", "r4@0,0", "r-1@0,0", "r0@0", "r0@a,b", "r0 0,0", "r1@\u0663,2", "r\u00b2@0,0"],
)
def test_a_malformed_action_text_is_refused_with_a_reason(text):
    with pytest.raises(InvalidActionError) as info:
        parse_action(text)
    assert repr(text) in str(info.value)
    assert "rotation" in str(info.value) or "r<rotation>@x,y" in str(info.value)


def test_an_illegal_action_raises_with_a_reason_and_changes_nothing():
    state = Game(players=2).new_state(deck=deck_starting(9, 8, 9, 8))
    state.apply(Place(0, 0, 0), 0)
    state.apply(Place(0, 0, 0), 1)
    state.apply(Place(0, 2, 0), 1)  # seat 1 has placed round 2
    cases = [
        (Place(0, 9, 9), 0, "does not touch your tiles on the table"),
        (Place(4, 0, 0), 0, "rotation is 0, 1, 2 or 3"),
        (Place(-1, 3, 0), 0, "rotation is 0, 1, 2 or 3"),
        (Place(0, 0, 0), 0, "would not lie flat|alone"),
        (Place(1, 3, 0), 1, "already placed"),
        (Place(1, 3, 0), 2, "there is no seat 2"),
        (Place(1, 3, 0), -1, "there is no seat -1"),
        ((1, 3, 0), 0, "not an NMBR 9 placement"),
        ("r1@3,0", 0, "not an NMBR 9 placement"),
    ]
    for action, seat, why in cases:
        before = snapshot(state)
        with pytest.raises(IllegalActionError, match=why):
            state.apply(action, seat)
        assert snapshot(state) == before, (action, seat)
    with pytest.raises(IllegalActionError, match="does not touch"):
        state.level_of(Place(0, 9, 9), 0)
    assert snapshot(state) == before


def test_no_action_is_accepted_once_the_game_is_over():
    state = Game(players=1, remove=18).new_state(seed=1)
    state.random_playout(random.Random(1))
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(Place(0, 0, 0))
    with pytest.raises(IllegalActionError):
        state.take_back(0)
    assert state.legal_actions(0) == [] and snapshot(state) == before


def test_a_seat_that_does_not_exist_has_no_legal_actions_but_an_error():
    state = Game(players=2).new_state(seed=1)
    for seat in (-1, 2):
        with pytest.raises(IllegalActionError, match=f"there is no seat {seat}"):
            state.legal_actions(seat)
