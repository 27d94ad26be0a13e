"""Named tests of NMBR 9's placement rules (/work/shared/nmbr9/RULES.md, "Placement"):
rotation, the first tile, contact on one level, higher levels and their support, and
tiles that never move. Each asks both the engine and the independent reference in
``nmbr9_support`` and expects them to agree; boards are drawn in comments and checked
as height pictures (``.`` table, ``1`` one tile, ``2`` two...).
"""

from __future__ import annotations

import pytest

from tabletop.games.nmbr9.rules import (
    CANONICAL,
    DISTINCT,
    Board,
    Game,
    IllegalActionError,
    InvalidActionError,
    Place,
    Placed,
    parse_action,
)

from nmbr9_placing import (
    ROW_OF_NINES,
    ROW_OF_NINES_PICTURE,
    accepted,
    board_with,
    greedy_game,
    listed,
    refused,
)
from nmbr9_support import (
    DIGITS,
    ROTATIONS,
    as_tiles,
    cells,
    deck_starting,
    distinct_rotations,
    drawn,
    footprint,
    heights_picture,
    mirror_picture,
    reference_legal,
    reference_level,
    snapshot,
    squares_of_picture,
)

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
