"""Toy Draft's engine, records and bots on their own (the conformance suite in
``tests/platform`` checks it as it checks every registered game)."""

from __future__ import annotations

import doctest
import json
from types import ModuleType

import pytest

import toygame
from tabletop.core.errors import IllegalActionError, InvalidActionError, RecordError
from tabletop.core.game import get_game
from tabletop.core.page import page_view
from tabletop.harness.selfplay import play_game
from toygame import analysis, bots, gametype, page, records, rules
from toygame.rules import MARKET, TILES, Game, Take, parse_action


@pytest.mark.parametrize("module", [toygame, rules, records, bots, page, gametype, analysis])
def test_doctests(module: ModuleType) -> None:
    assert doctest.testmod(module).failed == 0


def test_the_registered_game_is_the_toy() -> None:
    game = get_game("toy")
    assert game is gametype.GAME
    assert (game.title, game.min_seats, game.max_seats) == ("Toy Draft", 1, 2)


def test_actions_round_trip_through_their_notation() -> None:
    for slot in range(MARKET):
        assert parse_action(str(Take(slot))) == Take(slot)
    for text in ("take 0", "take 4", "take", "", "take 1 2", "1"):
        with pytest.raises(InvalidActionError):
            parse_action(text)


def test_only_the_acting_seat_may_take_and_nothing_changes_otherwise() -> None:
    state = Game(players=2).new_state(seed=9)
    assert state.legal_actions(1) == []
    before = state.clone()
    with pytest.raises(IllegalActionError, match="seat 1's turn"):
        state.apply(Take(0), 1)
    with pytest.raises(IllegalActionError):
        state.apply(Take(3), 0)
    assert state == before


def test_a_view_holds_no_pile_order_only_its_count() -> None:
    one = Game(players=2).new_state(seed=1)
    other = one.clone()
    other.pile.reverse()  # a different secret, the same public facts
    for seat in (None, 0, 1):
        assert one.view(seat) == other.view(seat)
        assert one.view(seat).pile_count == len(one.pile)
    assert page_view(gametype.GAME.page, one, 0) == page_view(gametype.GAME.page, other, 0)


def test_ties_share_the_first_rank() -> None:
    state = Game(players=2).new_state(pile=list(range(1, TILES + 1)))
    state.hands = [[5, 6], [4, 7]]
    state.turn = state.game.turns
    assert state.outcome().ranks == (1, 1)
    assert state.outcome().wins(0) == 0.5


def test_greedy_beats_random_more_often_than_not() -> None:
    game = get_game("toy")
    wins = sum(game.outcome(play_game(game, ["greedy", "random"], s)).wins(0) for s in range(40))
    assert wins > 28


def test_records_are_checked_turn_by_turn() -> None:
    game = get_game("toy")
    record = json.loads(json.dumps(play_game(game, ["random", "random"], 4)))
    assert game.verify(record)
    tampered = json.loads(json.dumps(record))
    tampered["turns"][2]["tile"] += 100
    with pytest.raises(RecordError, match="turn 3: 'tile'"):
        game.verify(tampered)
    tampered = json.loads(json.dumps(record))
    tampered["turns"][1]["seat"] = 0
    with pytest.raises(RecordError, match="turn 2: it is seat 2's turn"):
        game.verify(tampered)
    tampered = json.loads(json.dumps(record))
    tampered["pile"][0], tampered["pile"][1] = tampered["pile"][1], tampered["pile"][0]
    with pytest.raises(RecordError, match="does not match seed"):
        game.verify(tampered)
    tampered["seed"] = None  # without a seed, the pile is the record's own: the turns break
    with pytest.raises(RecordError):
        game.verify(tampered)
    tampered = json.loads(json.dumps(record))
    tampered["result"]["scores"][0] += 1
    with pytest.raises(RecordError, match="result"):
        game.verify(tampered)
    unfinished = dict(record, turns=record["turns"][:3], over=False)
    del unfinished["result"]
    assert game.verify(unfinished).startswith("unfinished after 3 turns")
