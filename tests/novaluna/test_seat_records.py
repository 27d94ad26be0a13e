"""Nova Luna's seat records (docs/records.md, "Seat records"), over random games at
random points and every seat: nothing in one that the seat's page has not shown, a
state determinized from it with any seed that the seat cannot tell from the real one
(its page, its legal actions, the research encoder's observation and mask), JSON round
trips, and garbage refused with ``RecordError``."""

from __future__ import annotations

import json
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.core.errors import RecordError
from tabletop.core.page import page_view
from tabletop.games.novaluna.encoding import (
    Encoder,
    decode,
    encode,
    encoder_from_seat_record,
)
from tabletop.games.novaluna.gametype import GAME
from tabletop.games.novaluna.records import Recorder, read_seat_record, seat_record

SEEDS = st.integers(0, 2**32 - 1)


def play(players: int, seed: int, moves: int, first_game: bool) -> tuple[Recorder, list[set]]:
    """A random game of ``moves`` actions (or fewer, if it ends), and per seat every
    tile its page has shown (the wheel and the displays of every view it was sent)."""
    options = GAME.check_options({"first_game": first_game and players > 1}, players)
    rec = GAME.new_recorder(players, options, [f"P{i}" for i in range(players)], seed)
    rng = random.Random(seed)
    shown: list[set] = [set() for _ in range(players)]

    def look() -> None:
        for seat in range(players):
            view = page_view(GAME.page, rec.state, seat)
            shown[seat] |= set(view["wheel"]) - {0}
            for board in view["seats"]:
                shown[seat] |= {tile["tile"] for tile in board["tiles"]}

    look()
    for _ in range(moves):
        if rec.state.is_over:
            break
        rec.apply(rng.choice(rec.state.legal_actions()))
        look()
    return rec, shown


GAMES = st.tuples(st.integers(1, 4), SEEDS, st.integers(0, 90), st.booleans())


@settings(max_examples=30, deadline=None)
@given(GAMES, SEEDS)
def test_a_seat_record_holds_only_what_the_seat_was_shown(game, seed):
    rec, shown = play(*game)
    full = rec.to_record()
    for seat in range(len(shown)):
        record = GAME.seat_record(rec, seat)
        assert "seed" not in record and "pile" not in record
        assert set(record) == set(full) - {"seed", "pile"} | {"seat", "revealed"}
        revealed = record["revealed"]
        assert set(revealed) <= shown[seat]
        assert len(revealed) == 68 - rec.state.pile_count
        assert revealed == full["pile"][: len(revealed)]  # in draw order
        assert record["turns"] == full["turns"]  # every move is public


@settings(max_examples=30, deadline=None)
@given(GAMES, SEEDS)
def test_a_determinized_state_is_the_real_one_to_the_seat(game, seed):
    rec, _ = play(*game)
    real = rec.state
    for seat in range(real.game.players):
        record = json.loads(json.dumps(GAME.seat_record(rec, seat)))
        state = GAME.determinize(record, seed)
        assert state.view(seat).to_json() == real.view(seat).to_json()
        assert page_view(GAME.page, state, seat) == page_view(GAME.page, real, seat)
        assert state.legal_actions() == real.legal_actions()
        assert state.pile_order()[: state.drawn] == real.pile_order()[: real.drawn]
        assert sorted(state.pile_order()) == sorted(real.pile_order())

        encoder, truth = encoder_from_seat_record(record, seed), Encoder(real)
        assert np.array_equal(encoder.observe(seat), truth.observe(seat))
        assert np.array_equal(encoder.mask(seat), truth.mask(seat))
        assert encoder.legal_actions(seat) == truth.legal_actions(seat)
        assert encoder.acting() == truth.acting()
        for index in encoder.legal_actions(seat)[:5]:
            move = decode(index, encoder.state)
            assert move == decode(index, real) and encode(move, real) == index


@settings(max_examples=15, deadline=None)
@given(GAMES)
def test_the_unseen_order_comes_from_the_seed(game):
    rec, _ = play(*game)
    record = GAME.seat_record(rec, 0)
    assert GAME.determinize(record, 1).pile_order() == GAME.determinize(record, 1).pile_order()
    orders = {GAME.determinize(record, s).pile_order() for s in range(20)}
    assert (len(orders) > 1) == (rec.state.pile_count > 1)


def spoil(record: dict, rng: random.Random) -> dict:
    """The record with one thing changed so that no game fits it."""
    bad = json.loads(json.dumps(record))
    turns = bad["turns"]
    choice = rng.randrange(7)
    if choice == 0:
        bad["revealed"] = bad["revealed"][:-1]
    elif choice == 1:  # one tile more than the turns drew (or, none left, one too few)
        missing = [t for t in range(1, 69) if t not in bad["revealed"]]
        bad["revealed"] = bad["revealed"] + missing[:1] if missing else bad["revealed"][:-1]
    elif choice == 2:
        bad["revealed"][0], bad["revealed"][-1] = bad["revealed"][-1], bad["revealed"][0]
        bad["revealed"][0] = 0
    elif choice == 3 and turns and "tile" in turns[-1]:
        turns[-1]["tile"] = 0
    elif choice == 4 and turns:
        turns[-1]["seat"] = len(bad["players"])
    elif choice == 5:
        bad["mode"] = "solo" if bad["mode"] == "standard" else "standard"
    else:
        bad["pile"] = bad.pop("revealed")
    return bad


@settings(max_examples=30, deadline=None)
@given(GAMES, SEEDS)
def test_a_spoilt_seat_record_is_refused(game, seed):
    rec, _ = play(*game)
    bad = spoil(GAME.seat_record(rec, 0), random.Random(seed))
    try:
        GAME.determinize(bad, seed)
    except RecordError as err:
        assert str(err)
    else:
        raise AssertionError(f"accepted: {bad}")


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 80) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(st.sampled_from(["players", "seat", "revealed", "turns", "mode"]), JSON_VALUES)
)
def test_random_json_is_refused_with_a_record_error_or_is_the_game(changes):
    rec, _ = play(2, 5, 6, False)
    record = {**GAME.seat_record(rec, 0), **changes}
    try:
        found = read_seat_record(record, 3)
    except RecordError as err:
        assert str(err)
        return
    again = seat_record(found.recorder, record["seat"])  # what is accepted is the game
    assert {key: again[key] for key in changes} == changes
