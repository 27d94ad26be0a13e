"""Sealed Bids' seat records (what the bot API sends a program playing one seat): the
prizes not yet turned and the other seats' pending bids stay out (``"hidden"``); a
state determinized from one shows the seat what the real game does, its hidden bids
drawn from the seed; a spoilt one is refused."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from sealedbid.gametype import GAME
from sealedbid.records import read_seat_record
from sealedbid.rules import CARDS, State
from tabletop.core.errors import RecordError
from tabletop.core.match import Match
from tabletop.core.rounds import HIDDEN


def random_match(players: int, seed: int, steps: int) -> Match:
    rng = random.Random(seed)
    match = GAME.new_match(players, {}, seed)
    for _ in range(steps):
        if match.is_over():
            break
        seat = rng.choice(sorted(match.active_seats()))
        match.apply(seat, rng.choice(match.choices(seat))["action"])
    return match


def test_a_pending_bid_shows_only_as_hidden_to_the_other_seats() -> None:
    match = GAME.new_match(3, {}, seed=1)
    match.apply(0, "bid 6")
    match.apply(2, "bid 1")
    assert GAME.seat_record(match.recorder, 1)["rounds"][-1]["bids"] == [HIDDEN, None, HIDDEN]
    assert GAME.seat_record(match.recorder, 0)["rounds"][-1]["bids"] == [6, None, HIDDEN]
    text = json.dumps(GAME.seat_record(match.recorder, 1))
    assert "prizes" not in text and "seed" not in text


@pytest.mark.parametrize("players", [2, 3])
def test_a_determinized_state_is_the_real_one_to_the_seat(players: int) -> None:
    for seed in range(12):
        match = random_match(players, seed, steps=seed * 2)
        real = match.state
        assert isinstance(real, State)  # the game's own
        for seat in range(players):
            record = json.loads(json.dumps(GAME.seat_record(match.recorder, seat)))
            assert record["revealed"] == real.revealed()
            state = GAME.determinize(record, seed)
            assert state.view(seat) == real.view(seat)
            assert state.acting_seats() == real.acting_seats()
            assert state.prizes[: len(record["revealed"])] == record["revealed"]


def test_hidden_bids_and_the_unseen_prizes_come_from_the_seed() -> None:
    match = GAME.new_match(2, {}, seed=4)
    match.apply(0, "bid 3")
    record = GAME.seat_record(match.recorder, 1)
    drawn = {tuple(GAME.determinize(record, s).bids) for s in range(30)}
    assert len(drawn) > 1 and all(bids[1] is None for bids in drawn)  # seat 0's varies
    orders = {tuple(GAME.determinize(record, s).prizes) for s in range(30)}
    assert len(orders) > 1 and {o[0] for o in orders} == {record["revealed"][0]}
    assert GAME.determinize(record, 7) == GAME.determinize(record, 7)


def spoilt(record: dict[str, Any]) -> list[dict[str, Any]]:
    seat, last = record["seat"], record["rounds"][-1]
    own = [HIDDEN if s == seat else b for s, b in enumerate(last["bids"])]
    return [
        {**record, "rounds": [*record["rounds"][:-1], {**last, "bids": own}]},
        {**record, "rounds": [{**last, "bids": [HIDDEN] * 2}, *record["rounds"]]},
        {**record, "rounds": [*record["rounds"][:-1], {**last, "prize": 99}]},
        {**record, "revealed": [*record["revealed"], record["revealed"][0]]},
        {**record, "revealed": list(range(1, CARDS + 2))},
        {**record, "revealed": []},
        {**record, "prizes": list(range(1, CARDS + 1))},
    ]


def test_a_spoilt_seat_record_is_refused() -> None:
    match = random_match(2, 3, steps=5)  # round 3, seat 0's bid pending
    assert match.has_pending(0) and not match.has_pending(1)
    record = GAME.seat_record(match.recorder, 1)
    for bad in spoilt(record):
        with pytest.raises(RecordError):
            read_seat_record(bad, 1)
