"""Seat records, checked the same way for every game that offers them (the bot API
sends them to outside programs): at every step of a random web match and for every
seat, the seat record survives JSON, holds no seed, and a state determinized from it
with any seed shows that seat exactly the page and choices the real game shows.

A game without the two hooks refuses them with a clear ``RecordError``. The
games' own tests (``tests/<game>/test_seat_records.py``) check what is hidden.
"""

from __future__ import annotations

import json
import random

import pytest

from tabletop.core.errors import RecordError
from tabletop.core.game import GameType
from tabletop.core.page import page_choices, page_view
from tabletop.core.web import SIMULTANEOUS, TAKE_BACK, web_games

OFFERING = sorted(name for name, game in web_games().items() if game.offers_seat_records)


def test_the_shipped_games_and_the_test_games_offer_seat_records():
    assert {"nova-luna", "nmbr9", "toy", "sealed-bids"} <= set(OFFERING)


def test_a_game_without_the_hooks_refuses_them_clearly():
    class Bare(GameType):
        title = "Bare"

    bare = Bare()
    assert not bare.offers_seat_records
    with pytest.raises(RecordError, match="Bare offers no seat records"):
        bare.determinize({}, 1)
    with pytest.raises(RecordError, match="outside programs cannot play it"):
        bare.seat_record(None, 0)  # type: ignore[arg-type]  # refused before it is read


def check_seat(game: GameType, match, seat: int, seed: int) -> None:
    record = game.seat_record(match.recorder, seat)
    text = json.dumps(record)
    assert json.loads(text) == record
    assert "seed" not in record and record["seat"] == seat and "revealed" in record
    state = game.determinize(json.loads(text), seed)
    page = game.page
    assert page is not None
    assert page_view(page, state, seat) == match.view(seat)
    assert sorted(state.acting_seats()) == sorted(match.active_seats())
    real = [str(a) for a in match.state.legal_actions(seat)]
    assert [str(a) for a in state.legal_actions(seat)] == real
    if seat in match.active_seats():
        assert page_choices(page, state, seat) == match.choices(seat)


@pytest.mark.parametrize("name", OFFERING)
def test_a_determinized_seat_record_shows_the_seat_what_the_real_game_does(name):
    game = web_games()[name]
    rng = random.Random(name)
    for players in range(max(game.min_seats, 2), game.max_seats + 1):
        match = game.new_match(players, game.check_options({}, players), seed=rng.randrange(99))
        steps = 0
        while not match.is_over() and steps < 30:
            seat = rng.choice(sorted(match.active_seats()))
            if game.dynamics == SIMULTANEOUS and match.has_pending(seat) and rng.random() < 0.3:
                match.apply(seat, TAKE_BACK)
            else:
                match.apply(seat, rng.choice(match.choices(seat))["action"])
            steps += 1
            if steps % 3 == 0 or match.is_over():
                for each in range(players):
                    check_seat(game, match, each, rng.randrange(2**32))


GARBAGE = [
    None,
    [],
    "seat record",
    {},
    {"game": "nova-luna"},
    {"seat": 0, "revealed": [], "players": ["A"]},
]


@pytest.mark.parametrize("name", OFFERING)
def test_garbage_is_refused_with_a_record_error(name):
    game = web_games()[name]
    match = game.new_match(2, game.check_options({}, 2), seed=4)
    seat = sorted(match.active_seats())[0]
    match.apply(seat, match.choices(seat)[0]["action"])
    good = game.seat_record(match.recorder, 1)
    spoilt = [
        *GARBAGE,
        {**good, "seat": 2},
        {**good, "seat": "0"},
        {**good, "revealed": "all"},
        {**good, "revealed": [*good["revealed"], good["revealed"][0]]},
        {**good, "revealed": good["revealed"][:-1]},
        {**good, "revealed": [*good["revealed"], 99]},
        {**good, "seed": 4},
        {**good, "players": "A, B"},
        {**good, "game": "other"},
        {k: v for k, v in good.items() if k != "revealed"},
        {k: v for k, v in good.items() if k != "players"},
    ]
    for bad in spoilt:
        with pytest.raises(RecordError):
            game.determinize(bad, 1)
    with pytest.raises(RecordError, match="seed must be an integer"):
        game.determinize(good, "1")  # type: ignore[arg-type]  # a client sends any JSON
    with pytest.raises(RecordError, match="no seat 5"):
        game.seat_record(match.recorder, 5)
