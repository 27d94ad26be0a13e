"""NMBR 9's seat records (docs/records-nmbr9.md, "Seat records"), over random games at
random points (mid-round, with take-backs, some with cards removed at random) and every
seat: no card the seat has not seen turned and no other seat's pending placement in
one; a state determinized from it with any seed that the seat cannot tell from the real
one (its page, its legal placements, the research encoder's observation and mask); JSON
round trips; garbage refused with ``RecordError``."""

from __future__ import annotations

import json
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.core.errors import RecordError
from tabletop.core.page import page_view
from tabletop.games.nmbr9.encoding import (
    decode,
    encoder_from_seat_record,
    legal_mask,
    observe,
)
from tabletop.games.nmbr9.gametype import GAME
from tabletop.games.nmbr9.records import (
    HIDDEN,
    Recorder,
    placement_json,
    read_seat_record,
    seat_record,
)

SEEDS = st.integers(0, 2**32 - 1)


def play(players: int, seed: int, steps: int, random_removal: bool) -> Recorder:
    """A random game of ``steps`` placements or take-backs in a random seat order,
    every placement inside the research encoding's window."""
    options = GAME.check_options({"remove": "random" if random_removal else 0}, players)
    rec = GAME.new_recorder(players, options, [f"P{i}" for i in range(players)], seed)
    rng = random.Random(seed)
    state = rec.state
    for _ in range(steps):
        if state.is_over:
            break
        pending = [s for s in range(players) if state.placed[s] is not None]
        if pending and rng.random() < 0.15:
            rec.take_back(rng.choice(pending))
            continue
        seat = rng.choice(state.acting_seats())
        index = rng.choice(np.flatnonzero(legal_mask(state, seat)).tolist())
        rec.apply(decode(index), seat)
    return rec


GAMES = st.tuples(st.integers(1, 4), SEEDS, st.integers(0, 70), st.booleans())


@settings(max_examples=30, deadline=None)
@given(GAMES)
def test_a_seat_record_holds_only_what_the_seat_was_shown(game):
    rec = play(*game)
    state, full = rec.state, rec.to_record()
    for seat in range(state.game.players):
        record = GAME.seat_record(rec, seat)
        view = page_view(GAME.page, state, seat)
        assert "seed" not in record and "deck" not in record
        assert set(record) == set(full) - {"seed", "deck"} | {"seat", "revealed"}
        assert record["revealed"] == view["turned"]
        assert record["removed"] == view["removed"]
        for number, entry in enumerate(record["rounds"]):
            assert entry["card"] == view["turned"][number]
            for other, placement in enumerate(entry["placements"]):
                made = state.placed[other] if number == state.round else None
                if made is not None and other != seat:  # pending: only that it was made
                    assert placement == HIDDEN
                    assert placement_json(made) not in json.loads(json.dumps(record["rounds"]))
                elif placement is not None:  # shown on the seat's page
                    tile = {**placement, "digit": entry["card"]}
                    assert tile in view["boards"][other]["tiles"]
                    assert placement == full["rounds"][number]["placements"][other]


@settings(max_examples=30, deadline=None)
@given(GAMES, SEEDS)
def test_a_determinized_state_is_the_real_one_to_the_seat(game, seed):
    rec = play(*game)
    real = rec.state
    for seat in range(real.game.players):
        record = json.loads(json.dumps(GAME.seat_record(rec, seat)))
        state = GAME.determinize(record, seed)
        assert page_view(GAME.page, state, seat) == page_view(GAME.page, real, seat)
        assert state.view(seat).to_json() == real.view(seat).to_json()
        assert state.acting_seats() == real.acting_seats()
        assert state.legal_actions(seat) == real.legal_actions(seat)
        assert state.turned() == real.turned() and state.unturned() == real.unturned()
        assert state.removed == real.removed and state.game == real.game

        encoder = encoder_from_seat_record(record, seed)
        assert np.array_equal(encoder.observe(seat), observe(real, seat))
        assert np.array_equal(encoder.mask(seat), legal_mask(real, seat))
        assert encoder.legal_actions(seat) == np.flatnonzero(legal_mask(real, seat)).tolist()
        assert encoder.state.acting_seats() == real.acting_seats()


@settings(max_examples=15, deadline=None)
@given(GAMES)
def test_the_unseen_order_and_hidden_placements_come_from_the_seed(game):
    rec = play(*game)
    state = rec.state
    record = GAME.seat_record(rec, 0)

    def drawn(seed: int) -> tuple:
        made = GAME.determinize(record, seed)
        return made.deck_order(), tuple(made.placed)

    assert drawn(1) == drawn(1)
    unseen = len(set(state.unturned())) > 1 or any(state.placed[1:])
    assert (len({drawn(s) for s in range(20)}) > 1) == unseen


def spoil(record: dict, rng: random.Random) -> dict:
    """The record with one thing changed so that no game fits it."""
    bad = json.loads(json.dumps(record))
    rounds, seat = bad["rounds"], bad["seat"]
    choice = rng.randrange(7)
    if choice == 0:
        bad["revealed"] = bad["revealed"][:-1]
    elif choice == 1 and len(bad["revealed"]) < 20:
        bad["revealed"].append(bad["revealed"][0])
        bad["revealed"].append(bad["revealed"][0])  # a third card of that digit at least
    elif choice == 2 and rounds:
        rounds[-1]["placements"][seat] = HIDDEN
    elif choice == 3 and len(rounds) > 1:
        rounds[0]["placements"][-1] = HIDDEN
    elif choice == 4 and rounds:
        rounds[-1]["placements"] = [HIDDEN] * len(bad["players"])
    elif choice == 5 and rounds:
        bad["revealed"][0] = (bad["revealed"][0] + 1) % 10  # not the first round's card
    else:
        bad["removed"] = 20
    return bad


@settings(max_examples=40, deadline=None)
@given(GAMES, SEEDS)
def test_a_spoilt_seat_record_is_refused(game, seed):
    rec = play(*game)
    bad = spoil(GAME.seat_record(rec, 0), random.Random(seed))
    try:
        GAME.determinize(bad, seed)
    except RecordError as err:
        assert str(err)
    else:
        raise AssertionError(f"accepted: {bad}")


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 21) | st.just(HIDDEN) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=9), inner),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["seat", "revealed", "rounds", "removed"]), JSON_VALUES))
def test_random_json_is_refused_with_a_record_error_or_is_the_game(changes):
    rec = play(3, 5, 8, False)
    record = {**GAME.seat_record(rec, 0), **changes}
    try:
        found = read_seat_record(record, 3)
    except RecordError as err:
        assert str(err)
        return
    again = seat_record(found.recorder, record["seat"])  # what is accepted is the game
    assert {key: again[key] for key in changes} == changes
