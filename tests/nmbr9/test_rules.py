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
    CARDS,
    FULL_DECK,
    RANDOM_REMOVAL,
    SHAPES,
    SQUARES,
    Game,
    IllegalActionError,
    InvalidActionError,
    Place,
    Placed,
    Result,
    parse_action,
)

from nmbr9_placing import (
    board_with,
)
from nmbr9_support import (
    DIGITS,
    ROTATIONS,
    SHARED_TILES_JSON,
    as_tiles,
    cells,
    deck_starting,
    drawn,
    package_tiles_json,
    picture,
    reference_score,
    snapshot,
    square_count,
)

# -- helpers -------------------------------------------------------------------------


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
