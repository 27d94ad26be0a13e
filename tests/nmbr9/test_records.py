"""NMBR 9 records: the pinned format, round trips, and replay finding the first violation."""

from __future__ import annotations

import copy
import json

import pytest

from tabletop.core.errors import RecordError
from tabletop.games.nmbr9.bots import make_bot
from tabletop.games.nmbr9.records import Recorder, replay
from tabletop.games.nmbr9.rules import Game


def played(players: int = 2, seed: int = 5, remove: int | None = 0, rounds: int = 99) -> Recorder:
    rec = Recorder.new(
        Game(players=players, remove=remove), [f"P{i}" for i in range(players)], seed
    )
    bots = [make_bot("greedy", seed=seat) for seat in range(players)]
    while not rec.state.is_over and rec.state.round < rounds:
        for seat in rec.state.acting_seats():
            rec.apply(bots[seat].choose(rec.state.view(seat)), seat)
    return rec


def test_the_record_has_the_pinned_fields():
    record = played().to_record()
    assert record["game"] == "nmbr9" and record["format"] == 1
    assert record["players"] == ["P0", "P1"] and record["seed"] == 5
    assert sorted(record["deck"]) == sorted(list(range(10)) * 2) and record["removed"] == 0
    assert len(record["rounds"]) == 20
    for number, entry in enumerate(record["rounds"]):
        assert entry["card"] == record["deck"][number]
        assert len(entry["placements"]) == 2
        for p in entry["placements"]:
            assert set(p) == {"rotation", "x", "y", "level"} and 0 <= p["rotation"] <= 3
    result = record["result"]
    assert sorted(result["ranking"]) == [0, 1] and len(result["scores"]) == 2
    scores = result["scores"]
    assert scores[result["ranking"][0]] == max(scores)


def test_a_record_replays_to_the_same_boards_and_survives_json():
    rec = played(players=3, seed=11)
    record = json.loads(json.dumps(rec.to_record()))
    again = replay(record)
    for a, b in zip(again.state.boards, rec.state.boards, strict=True):
        assert a.tiles == b.tiles and a.score == b.score
    assert again.to_record() == rec.to_record()


def test_the_removed_cards_are_the_last_k_and_never_turned():
    rec = played(seed=2, remove=3)
    record = rec.to_record()
    assert record["removed"] == 3 and len(record["rounds"]) == 17
    assert [r["card"] for r in record["rounds"]] == record["deck"][:17]
    replay(record)


def test_a_random_removal_is_drawn_from_the_seed_and_checked():
    record = played(seed=9, remove=None).to_record()
    assert record["random_removal"] is True and 1 <= record["removed"] <= 4
    replay(record)
    record["removed"] += 1
    record["rounds"] = record["rounds"][: 20 - record["removed"]]
    del record["result"]
    with pytest.raises(RecordError, match="seed 9 removes"):
        replay(record)


def test_an_unfinished_game_records_a_partial_round():
    rec = played(players=2, rounds=4)
    rec.apply(rec.state.legal_actions(1)[0], 1)  # seat 2 places; seat 1 has not
    record = rec.to_record()
    assert record["over"] is False and "result" not in record
    assert record["rounds"][-1]["placements"][0] is None
    again = replay(record)
    assert again.state.acting_seats() == (0,) and again.state.round == 4


def test_take_back_removes_the_pending_placement_from_the_record_too():
    rec = played(players=2, rounds=3)
    rec.apply(rec.state.legal_actions(0)[0], 0)
    rec.take_back(0)
    assert len(rec.to_record()["rounds"]) == 3
    assert rec.state.acting_seats() == (0, 1)


def violation(record: dict, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        replay(record)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda r: r["rounds"][3]["placements"][1].update(level=5),
            r"round 4: seat 2 \(P1\): 'level' is 5",
        ),
        (lambda r: r["rounds"][6]["placements"][0].update(x=40), r"round 7: seat 1 \(P0\): r\d@40"),
        (
            lambda r: r["rounds"][2].update(card=(r["rounds"][2]["card"] + 1) % 10),
            "round 3: 'card'",
        ),
        (lambda r: r["deck"].reverse(), "does not match seed 5"),
        (lambda r: r["result"].update(scores=[0, 0]), "result 'scores'"),
        (lambda r: r["rounds"][1]["placements"].pop(), "one placement per seat"),
        (lambda r: r["rounds"][1]["placements"].__setitem__(0, None), "only the last round"),
        (lambda r: r["rounds"][0]["placements"][0].update(rotation=7), "'rotation' is 0-3"),
        (lambda r: r["rounds"][0]["placements"][0].update(x="0"), "integers"),
        (lambda r: r.update(game="nova-luna"), "not an NMBR 9 record"),
        (lambda r: r.update(format=2), "unsupported record format"),
        (lambda r: r.update(deck=[1] * 20), "two cards of each digit"),
        (lambda r: r.update(removed=20), "removed"),
        (lambda r: r.update(over=False), "'over' is False"),
        (lambda r: r["rounds"].append(r["rounds"][0]), "21 rounds recorded"),
    ],
)
def test_replay_names_the_first_violation(change, message):
    record = copy.deepcopy(played().to_record())
    change(record)
    violation(record, message)
