"""What every game the platform hosts must do, checked the same way for each.

Random games through the game's ``Table`` end, record themselves, replay to the
same outcome and are fixed by their seed; outcomes are well formed; bad bot
names and bad records are refused with the game's own errors.
"""

from __future__ import annotations

import json
import random

import pytest

from tabletop.core.errors import BotSpecError, RecordError
from tabletop.core.game import game_types, get_game
from tabletop.harness.selfplay import play_game

GAMES = sorted(game_types())


def seat_counts(name: str) -> list[int]:
    game = get_game(name)
    return list(range(game.min_seats, game.max_seats + 1))


CASES = [(name, players) for name in GAMES for players in seat_counts(name)]


def strip(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "created"}


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_games_end_record_and_replay(name, players):
    game = get_game(name)
    for seed in (1, 2):
        record = play_game(game, ["random"] * players, seed)
        assert record["game"] == name and record["over"] is True
        again = json.loads(json.dumps(record))  # records survive JSON unchanged
        assert again == record
        summary = game.verify(again)
        assert isinstance(summary, str) and summary
        outcome = game.outcome(record)
        assert len(outcome.ranks) == len(outcome.scores) == players
        assert min(outcome.ranks) == 1 and all(1 <= r <= players for r in outcome.ranks)
        # a shared rank takes the places of all who share it: ranks are "1 + seats ahead"
        for seat, rank in enumerate(outcome.ranks):
            assert rank == 1 + sum(other < rank for other in outcome.ranks)
            assert outcome.wins(seat) == (1 / outcome.ranks.count(1) if rank == 1 else 0)
        assert outcome.length > 0


@pytest.mark.parametrize("name", GAMES)
def test_a_game_is_fixed_by_its_seed_and_bots(name):
    game = get_game(name)
    players = min(2, game.max_seats)
    first = play_game(game, ["greedy", "random"][:players], 7)
    second = play_game(game, ["greedy", "random"][:players], 7)
    other = play_game(game, ["greedy", "random"][:players], 8)
    assert strip(first) == strip(second)
    assert strip(first) != strip(other)


@pytest.mark.parametrize("name", GAMES)
def test_tables_ask_every_acting_seat_and_refuse_what_is_not_legal(name):
    game = get_game(name)
    table = game.new_table(2, {}, ["A", "B"], seed=3)
    rng = random.Random(0)
    asked = set()
    while acting := table.acting():
        for seat in acting:
            asked.add(seat)
            view = table.view(seat)
            table.apply(seat, rng.choice(view.legal_actions()))
        if len(asked) == 2:
            break
    assert asked == {0, 1}


@pytest.mark.parametrize("name", GAMES)
def test_unknown_bots_and_foreign_records_are_refused(name):
    game = get_game(name)
    with pytest.raises(BotSpecError, match="unknown bot 'nobody'"):
        game.check_bot("nobody", 2)
    for record in ({"game": "chess", "format": 1}, [], "x", {"game": name, "format": 99}):
        with pytest.raises(RecordError):
            game.verify(record)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_offers_random_and_greedy_bots(name):
    game = get_game(name)
    assert {"random", "greedy"} <= set(game.bots.names())
