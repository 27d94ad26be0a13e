"""Game records (docs/records.md): writing, replaying and rejecting bad ones."""

from __future__ import annotations

import copy
import json
import random

import pytest

from tabletop.core.errors import RecordError
from tabletop.games.novaluna.bots import make_bot
from tabletop.games.novaluna.records import Recorder, replay
from tabletop.games.novaluna.rules import END_PHASE, REFILL, Game
from tabletop.records import dumps, read_records, save


def _played(players: int, seed: int, bot: str = "random", turns: int | None = None) -> Recorder:
    rec = Recorder.new(Game(players), [f"p{i}" for i in range(players)], seed=seed)
    bots = [make_bot(bot, seed=seed + i) for i in range(players)]
    while not rec.state.is_over and (turns is None or len(rec.turns) < turns):
        rec.apply(bots[rec.state.current_seat].choose(rec.state.view()))
    return rec


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_required_fields(players):
    record = _played(players, seed=11).to_record()
    for key in ("game", "format", "mode", "players", "first_game", "seed", "pile", "turns"):
        assert key in record
    assert record["game"] == "nova-luna" and record["format"] == 1
    assert record["mode"] == ("solo" if players == 1 else "standard")
    assert sorted(record["pile"]) == list(range(1, 69))
    assert ("start_stack" in record) == (players > 1)
    turn = record["turns"][0]
    assert {"seat", "refill", "space", "tile", "cell", "covered"} <= set(turn)
    assert turn["cell"] == [0, 0]
    assert ("phase" in turn) == (players == 1)
    result = record["result"]
    if players == 1:
        assert result["total"] == result["phase1"] + result["phase2"]
    else:
        assert sorted(result["ranking"]) == list(range(players))
        assert len(result["discs_left"]) == players


@pytest.mark.parametrize("players", [1, 2])
def test_a_turns_keys_come_in_the_documented_order(players):
    """Written records keep one key order (docs/records.md): seat, refill, the solo
    phase, then the take."""
    take = ["space", "tile", "cell", "covered"]
    head = ["seat", "refill", "phase"] if players == 1 else ["seat", "refill"]
    rec = _played(players, seed=4)
    assert all(list(turn) == head + take for turn in rec.to_record()["turns"])
    assert dumps(rec.to_record()).count('"turns":[{"seat":')  # compact, in that order


def test_pile_starts_with_the_wheel():
    """The first 11 pile tiles went onto spaces 1..11 in order."""
    rec = Recorder.new(Game(2), ["a", "b"], seed=5)
    record = rec.to_record()
    assert record["pile"][:11] == rec.state.wheel[1:]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_round_trip_through_json(players, seed):
    rec = _played(players, seed, bot="greedy" if seed == 3 else "random")
    text = dumps(rec.to_record())
    again = replay(json.loads(text))
    assert again.to_record()["turns"] == rec.to_record()["turns"]
    assert again.state.view().to_json() == rec.state.view().to_json()
    assert again.state.result() == rec.state.result()


def test_unfinished_game_with_pending_refill_round_trips():
    """A record written right after a chosen refill keeps the refill."""
    for seed in range(200):
        rec = Recorder.new(Game(2), ["a", "b"], seed=seed)
        rng = random.Random(seed)
        while not rec.state.is_over:
            if REFILL in rec.state.legal_actions():
                rec.apply(REFILL)
                record = rec.to_record()
                assert record["turns"][-1] == {"seat": rec.state.current_seat, "refill": True}
                again = replay(json.loads(json.dumps(record)))
                assert again.state.refilled and again.state.wheel == rec.state.wheel
                return
            rec.apply(rng.choice(rec.state.legal_actions()))
    pytest.fail("no refill choice came up")


def test_solo_phase_end_is_recorded_on_the_next_turn():
    rec = _played(1, seed=4, bot="greedy")
    turns = rec.to_record()["turns"]
    phases = [t["phase"] for t in turns]
    first2 = phases.index(2)
    assert phases == sorted(phases)
    assert turns[first2]["refill"] is True
    assert not any(t["refill"] for t in turns[:first2])


def test_replay_rejects_wrong_covered():
    record = _played(2, seed=21, bot="greedy").to_record()
    turn = next(t for t in record["turns"] if t["covered"])
    number = record["turns"].index(turn) + 1
    turn["covered"] = []
    with pytest.raises(RecordError, match=f"turn {number}: 'covered'"):
        replay(record)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(game="chess"), "not a Nova Luna record"),
        (lambda r: r.update(format=2), "unsupported record format"),
        (lambda r: r.update(players="ab"), "'players' must be a list"),
        (lambda r: r.update(mode="solo"), "'mode' is 'solo'"),
        (lambda r: r["pile"].pop(), "68"),
        (lambda r: r.update(seed=r["seed"] + 1), "does not match seed"),
        (lambda r: r.update(start_stack=[0, 0]), "start stack"),
        (lambda r: r["turns"][0].update(seat=1 - r["turns"][0]["seat"]), "turn 1: 'seat'"),
        (lambda r: r["turns"][0].update(cell=[1, 0]), "turn 1: .*first tile goes on cell 0,0"),
        (lambda r: r["turns"][0].update(space=0), "turn 1: 'tile'"),
        (lambda r: r["turns"][1].update(space=9), "turn 2: 'tile'"),
        (lambda r: r["turns"][2].update(cell=[5, 5]), "turn 3: .*does not touch"),
        (lambda r: r["turns"][2].update(refill="yes"), "turn 3: 'refill' must be"),
        (lambda r: r["turns"][2].update(refill=True), "turn 3: .*only allowed with 1 or 2"),
        (lambda r: r["turns"].append({"seat": 0}), "game was already over"),
        (lambda r: r["result"].update(ranking=r["result"]["ranking"][::-1]), "result 'ranking'"),
        (lambda r: r["turns"][3].update(covered="none"), "turn 4: 'covered'"),
    ],
)
def test_replay_names_the_first_violation(change, message):
    record = _played(2, seed=8, bot="greedy").to_record()
    bad = copy.deepcopy(record)
    change(bad)
    with pytest.raises(RecordError, match=message):
        replay(bad)
    replay(record)  # the original is still fine


def test_replay_rejects_a_missing_compulsory_refill_flag():
    rec = _played(2, seed=9)
    record = rec.to_record()
    turn = next(t for t in record["turns"][11:] if t["refill"])
    turn["refill"] = False
    with pytest.raises(RecordError, match="'refill' is false"):
        replay(record)


def test_solo_end_phase_too_early_is_rejected():
    record = _played(1, seed=2, bot="greedy").to_record()
    record["turns"][1]["refill"] = True
    with pytest.raises(RecordError, match="turn 2: phase 1 can end once 8 discs"):
        replay(record)


def test_save_and_read_back(tmp_path):
    rec = _played(3, seed=5, turns=10)
    path = tmp_path / "game.json"
    save(rec.to_record(), path)
    [(line, record)] = list(read_records(path))
    assert line == 1 and replay(record).state.turn == 10
    assert not list(tmp_path.glob("*.tmp"))


def test_read_jsonl(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(dumps(_played(2, s, turns=5).to_record()) for s in range(3)) + "\n")
    assert [line for line, _ in read_records(path)] == [1, 2, 3]


def test_read_garbage(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"game": "nova-luna"}\nnot json\n')
    with pytest.raises(RecordError, match="line 2 is not JSON"):
        list(read_records(path))


def test_end_phase_action_is_recorded_for_unfinished_solo():
    for seed in range(50):
        rec = Recorder.new(Game(1), ["me"], seed=seed)
        bot = make_bot("greedy", seed=1)
        while rec.state.phase == 1 and END_PHASE not in rec.state.legal_actions():
            rec.apply(bot.choose(rec.state.view()))
        if rec.state.phase == 1:
            break
    else:
        pytest.fail("greedy never reached 8 discs in phase 1")
    rec.apply(END_PHASE)
    record = rec.to_record()
    assert record["turns"][-1] == {"seat": 0, "refill": True, "phase": 2}
    assert replay(record).state.phase == 2
