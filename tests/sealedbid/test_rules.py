"""Sealed Bids' engine, records and bots on their own (the conformance suite in
``tests/platform`` checks it as it checks every registered game)."""

from __future__ import annotations

import doctest
import json
from types import ModuleType

import pytest

import sealedbid
from sealedbid import bots, gametype, page, records, rules
from sealedbid.rules import CARDS, Bid, Game, parse_action
from tabletop.core.errors import IllegalActionError, InvalidActionError, RecordError
from tabletop.core.game import SIMULTANEOUS, get_game
from tabletop.core.page import page_view
from tabletop.harness.selfplay import play_game


@pytest.mark.parametrize("module", [sealedbid, rules, records, bots, page, gametype])
def test_doctests(module: ModuleType) -> None:
    assert doctest.testmod(module).failed == 0


def test_the_registered_game_is_sealed_bids() -> None:
    game = get_game("sealed-bids")
    assert game is gametype.GAME
    assert (game.title, game.min_seats, game.max_seats, game.dynamics) == (
        "Sealed Bids",
        2,
        3,
        SIMULTANEOUS,
    )


def test_actions_round_trip_through_their_notation() -> None:
    for card in range(1, CARDS + 1):
        assert parse_action(str(Bid(card))) == Bid(card)
    for text in ("bid 0", "bid 7", "bid", "", "bid 1 2", "4"):
        with pytest.raises(InvalidActionError):
            parse_action(text)


def test_every_seat_bids_at_once_and_the_last_bid_resolves_the_round() -> None:
    state = Game(players=3).new_state(prizes=[4, 1, 2, 3, 5, 6])
    assert state.acting_seats() == (0, 1, 2)
    state.apply(Bid(2), 1)
    assert state.acting_seats() == (0, 2) and state.round == 0
    assert state.legal_actions(1) == []  # it has bid: nothing more this round
    with pytest.raises(IllegalActionError, match="already bid"):
        state.apply(Bid(3), 1)
    state.apply(Bid(6), 0)
    state.apply(Bid(5), 2)
    assert state.round == 1 and state.won == [[4], [], []] and state.history == [(6, 2, 5)]
    assert state.hands[0] == [1, 2, 3, 4, 5] and state.acting_seats() == (0, 1, 2)


def test_a_tie_for_the_highest_bid_takes_nothing() -> None:
    state = Game(players=3).new_state(prizes=[6, 1, 2, 3, 4, 5])
    for seat, card in enumerate((5, 5, 4)):
        state.apply(Bid(card), seat)
    assert state.won == [[], [], []] and state.round == 1  # the 6 is discarded


def test_a_spent_card_cannot_be_bid_again_and_nothing_changes() -> None:
    state = Game(players=2).new_state(seed=2)
    state.apply(Bid(3), 0)
    state.apply(Bid(1), 1)
    before = state.clone()
    with pytest.raises(IllegalActionError, match="no card"):
        state.apply(Bid(3), 0)
    assert state == before


def test_a_pending_bid_is_taken_back_into_the_hand() -> None:
    state = Game(players=2).new_state(seed=2)
    state.apply(Bid(4), 1)
    assert state.take_back(1) == 4
    assert state.hands[1] == list(range(1, CARDS + 1)) and state.acting_seats() == (0, 1)
    with pytest.raises(IllegalActionError, match="no bid of yours"):
        state.take_back(1)


def test_a_view_holds_neither_the_prize_order_nor_another_seats_pending_bid() -> None:
    one = Game(players=2).new_state(prizes=[3, 1, 2, 4, 5, 6])
    other = Game(players=2).new_state(prizes=[3, 6, 5, 4, 2, 1])  # other order, same prize
    one.apply(Bid(2), 0)
    other.apply(Bid(5), 0)  # another pending bid of seat 0
    for seat in (None, 1):
        assert one.view(seat) == other.view(seat)
        page = gametype.GAME.page
        assert page_view(page, one, seat) == page_view(page, other, seat)
    assert one.view(1).acted == (True, False)  # that seat 0 has bid is public
    assert one.view(0) != other.view(0)  # the seat itself sees its own bid


def test_greedy_beats_random_more_often_than_not() -> None:
    game = get_game("sealed-bids")
    wins = sum(game.outcome(play_game(game, ["greedy", "random"], s)).wins(0) for s in range(40))
    assert wins > 25


def test_the_outcome_of_a_record_is_the_states() -> None:
    game = get_game("sealed-bids")
    for seed in range(3):
        record = play_game(game, ["random", "greedy", "random"], seed)
        assert game.outcome(record) == game.read_record(record).state.outcome()


def test_records_are_checked_round_by_round() -> None:
    game = get_game("sealed-bids")
    record = json.loads(json.dumps(play_game(game, ["random", "random"], 4)))
    assert game.verify(record).endswith("6 rounds")
    tampered = json.loads(json.dumps(record))
    tampered["rounds"][2]["prize"] = 99
    with pytest.raises(RecordError, match="round 3: a round is"):
        game.verify(tampered)
    tampered = json.loads(json.dumps(record))
    tampered["rounds"][3]["bids"][1] = tampered["rounds"][1]["bids"][1]  # spent already
    with pytest.raises(RecordError, match="round 4: you have no card"):
        game.verify(tampered)
    tampered = json.loads(json.dumps(record))
    tampered["prizes"][0], tampered["prizes"][1] = tampered["prizes"][1], tampered["prizes"][0]
    with pytest.raises(RecordError, match="do not match seed"):
        game.verify(tampered)
    tampered = json.loads(json.dumps(record))
    tampered["result"]["scores"][0] += 1
    with pytest.raises(RecordError, match="result"):
        game.verify(tampered)
    tampered = json.loads(json.dumps(record))
    tampered["rounds"][1]["bids"][0] = None  # only the last round may miss a bid
    with pytest.raises(RecordError, match="round 2: only the last round"):
        game.verify(tampered)
    unfinished = dict(record, rounds=[*record["rounds"][:3], {**record["rounds"][3]}], over=False)
    unfinished["rounds"][3]["bids"] = [record["rounds"][3]["bids"][0], None]
    del unfinished["result"]
    assert game.verify(unfinished).startswith("unfinished after 3 rounds")
    assert game.read_record(unfinished).state.acting_seats() == (1,)
