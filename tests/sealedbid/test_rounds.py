"""Sealed Bids' rounds through the platform (``tabletop.core.rounds``, ``Match``): a
pending bid shows only as "has bid", is taken back as if never made, its round's log
entry comes when the round resolves; undo against a bot takes the seat's bid of the
last resolved round back and keeps the bot's; the replay shows one frame per round."""

from __future__ import annotations

import json

import pytest

from sealedbid.gametype import GAME
from tabletop.core.errors import ActionRejected
from tabletop.core.match import TAKE_BACK, Match
from tabletop.core.page import Step, Undo

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]


def new_match(seed: int = 11) -> Match:
    return GAME.new_match(2, GAME.check_setup(SEATS, {}), seed=seed)


def play(actions: list[tuple[int, str]]) -> tuple[Match, list[Step]]:
    """A match with ``actions`` applied, and its steps as the server keeps them."""
    match, steps = new_match(), []
    for seat, action in actions:
        steps.append(Step(seat, match.apply(seat, action).reveals))
    return match, steps


def test_a_bid_is_logged_without_its_card_until_the_round_resolves() -> None:
    match = new_match()
    prize = match.view(None)["prize"]
    applied = match.apply(0, "bid 5")
    assert not applied.reveals and applied.log["kind"] == "bid" and "5" not in applied.log["text"]
    assert applied.log == {**applied.log, "seat": 0, "round": 0, "prize": prize}
    assert match.view(1)["acted"] == [True, False] and match.view(1)["pending"] is None
    assert match.view(1) == new_match().view(1) | {"acted": [True, False]}
    resolved = match.apply(1, "bid 2")
    assert resolved.reveals
    assert resolved.log["resolved"] == {
        **resolved.log["resolved"],
        "kind": "round",
        "bids": [5, 2],
        "winner": 0,
    }
    assert match.view(1)["won"] == [[prize], []] and match.view(1)["round"] == 1


def test_a_take_back_is_as_if_the_bid_was_never_made() -> None:
    match, fresh = new_match(), new_match()
    match.apply(1, "bid 3")
    log = match.apply(1, TAKE_BACK).log
    assert log["kind"] == TAKE_BACK and log["text"].startswith("took back their bid")
    assert [match.view(s) for s in (None, 0, 1)] == [fresh.view(s) for s in (None, 0, 1)]
    assert match.record(["A", "B"])["rounds"] == []
    assert not match.has_pending(1) and match.active_seats() == {0, 1}


def test_only_a_pending_bid_can_be_taken_back() -> None:
    match = new_match()
    for actions in ([], [(0, "bid 1"), (1, "bid 2")]):  # none yet; the round resolved
        for seat, action in actions:
            match.apply(seat, action)
        with pytest.raises(ActionRejected, match="nothing to take back"):
            match.apply(0, TAKE_BACK)


def test_undo_against_a_bot_takes_the_seats_bid_back_and_keeps_the_bots() -> None:
    actions = [(1, "bid 6"), (0, "bid 1"), (1, "bid 2"), (0, "bid 3")]
    before, _ = play(actions[:3])  # round 2: the bot has bid, the seat not yet
    match, steps = play(actions)
    plan = match.undo(steps, 0)
    assert plan == Undo(2, (2,))
    kept = actions[: plan.start] + [actions[p] for p in plan.keep]
    after, _ = play(kept)
    assert after.view(0) == before.view(0) and after.active_seats() == {0}
    assert after.has_pending(1)
    assert GAME.verify(after.record(["Ann", "Bot"])).startswith("unfinished after 1 round")


def test_undo_before_any_round_resolved_says_why_not() -> None:
    match, steps = play([(1, "bid 4")])
    assert match.undo(steps, 0) == "no round has resolved yet: you have nothing to undo"


def test_the_replay_shows_a_frame_per_round_with_the_round_log() -> None:
    match = new_match(3)
    while not match.is_over():
        for seat in sorted(match.active_seats()):
            match.apply(seat, match.choices(seat)[-1]["action"])
    record = json.loads(json.dumps(match.record(["A", "B"])))
    frames = GAME.replay(record)
    assert len(frames) == 7 and [len(f["log"]) for f in frames] == list(range(7))
    assert frames[-1]["view"] == match.view(None)
    assert all(entry["kind"] == "round" for entry in frames[-1]["log"])
    assert frames[1]["log"][0]["text"].endswith("a tie: nobody takes it")  # both bid 6
