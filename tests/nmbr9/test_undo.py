"""NMBR 9's undo through the game interface (``GamePage.undo``): against bots, a seat's
placement of the last resolved round goes, the bots' placements of that round stay, and
the card turned next goes back; and the sequential games' undo (``undo_last_move``)."""

from __future__ import annotations

from tabletop.core.match import TAKE_BACK, Match
from tabletop.core.page import Step, Undo, undo_last_move
from tabletop.games.nmbr9.gametype import GAME
from tabletop.games.nmbr9.records import replay

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]


def new_match() -> Match:
    return GAME.new_match(2, GAME.check_setup(SEATS, {}), seed=11)


def play(actions: list[tuple[int, str]]) -> tuple[Match, list[Step]]:
    """A match with ``actions`` applied, and its steps as the server keeps them."""
    match, steps = new_match(), []
    for seat, action in actions:
        steps.append(Step(seat, match.apply(seat, action).reveals))
    return match, steps


def first(match: Match, seat: int) -> str:
    return str(match.choices(seat)[0]["action"])


def rounds(order: list[int], count: int) -> list[tuple[int, str]]:
    """``count`` rounds of first choices, the seats placing in ``order`` each round."""
    match, actions = new_match(), []
    for _ in range(count):
        for seat in order:
            actions.append((seat, first(match, seat)))
            match.apply(seat, actions[-1][1])
    return actions


def undone(actions: list[tuple[int, str]], plan: Undo) -> Match:
    """The match the server rebuilds after ``plan``."""
    kept = actions[: plan.start] + [actions[p] for p in plan.keep]
    return play(kept)[0]


def test_the_bots_placement_stays_and_the_next_card_is_not_turned() -> None:
    actions = rounds([1, 0], 2)  # the bot places first, as it does on the server
    before, _ = play(actions[:3])  # round 2: the bot has placed, seat 0 not yet
    match, steps = play(actions)
    actions.append((1, first(match, 1)))  # the bot has placed in round 3 already
    match.apply(*actions[-1])
    steps.append(Step(1, False))
    plan = match.undo(steps, 0)
    assert plan == Undo(2, (2,))
    after = undone(actions, plan)
    assert after.view(0) == before.view(0) and after.view(None) == before.view(None)
    assert after.active_seats() == {0} and after.has_pending(1)
    assert after.view(0)["card"] == match.view(0)["turned"][1]  # the same card again
    assert after.view(0)["boards"][1]["tiles"] == before.view(0)["boards"][1]["tiles"]
    record = after.record(["Ann", "Bot"])
    assert record["rounds"][1]["placements"][0] is None
    assert (
        record["rounds"][1]["placements"][1]
        == match.record(["A", "B"])["rounds"][1]["placements"][1]
    )
    assert replay(record).state.round == 1  # the record checks out


def test_a_bots_placement_that_resolved_the_round_stays_too() -> None:
    seat_first = rounds([0, 1], 2)  # seat 0 placed first: the bot's placement resolved it
    match, steps = play(seat_first)
    plan = match.undo(steps, 0)
    assert plan == Undo(2, (3,))
    after = undone(seat_first, plan)
    bot_first = [seat_first[i] for i in (1, 0, 3)]
    assert after.view(0) == play(bot_first)[0].view(0)
    assert after.record(["A", "B"])["rounds"] == play(bot_first)[0].record(["A", "B"])["rounds"]


def test_a_take_back_in_the_round_goes_with_the_placement() -> None:
    actions = rounds([0, 1], 1)
    other = str(new_match().choices(0)[-1]["action"])
    actions = [actions[0], (0, TAKE_BACK), (0, other), actions[1]]
    match, steps = play(actions)
    plan = match.undo(steps, 0)
    assert plan == Undo(0, (3,))
    after = undone(actions, plan)
    assert after.active_seats() == {0} and after.view(0)["round"] == 0
    assert after.view(0)["boards"][0]["tiles"] == []


def test_undo_goes_back_one_round_at_a_time_and_not_before_the_first() -> None:
    actions = rounds([1, 0], 2)
    match, steps = play(actions)
    once = match.undo(steps, 0)
    assert isinstance(once, Undo)
    kept = actions[: once.start] + [actions[p] for p in once.keep]
    again_match, again_steps = play(kept)
    twice = again_match.undo(again_steps, 0)
    assert twice == Undo(0, (0,))
    assert undone(kept, twice).view(0)["round"] == 0
    fresh, none = play(actions[:1])  # the bot's placement only: nothing of seat 0's
    assert fresh.undo(none, 0) == "no round has resolved yet: you have no placement to undo"


def test_a_sequential_undo_takes_the_last_move_and_never_crosses_a_reveal() -> None:
    revealed = "something came to light"
    steps = [Step(0, False), Step(1, False), Step(0, False), Step(1, False)]
    assert undo_last_move(steps, 0, revealed) == Undo(2)
    assert undo_last_move(steps[:2] + [Step(0, False), Step(1, True)], 0, revealed) == revealed
    assert undo_last_move(steps[1:2], 0, revealed) == "you have not moved yet"
