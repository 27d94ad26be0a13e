"""The platform's tutorial driver (``core.tutorial``) on a lesson of Toy Draft's: steps as
data, replayed for each request, the others' scripted moves, alternatives taken as
right, and the order in which a wrong try's sentence is chosen. And the checks every
game's lesson gets (``tutorial_support.check_script``) catch a broken script."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.core.errors import ActionRejected, IllegalActionError
from tabletop.core.game import State, get_game
from tabletop.core.tutorial import NOT_ASKED, Lesson, Step, Tutorial, TutorialError

from tutorial_support import check_script, paths

TOY = get_game("toy")


def deal() -> Any:
    return TOY.new_recorder(2, {}, ["You", "Bot"], seed=4)


def by_slot(state: State, seat: int, action: Any, error: IllegalActionError | None) -> str:
    return f"slot {action.slot + 1}"


LESSON = Tutorial(
    players=("You", "Bot"),
    start=deal,
    wrong={"slot 3": "the third slot is kept for later", "default": "the lesson's own word"},
    classify=by_slot,
    steps=(
        Step("look", "the market"),
        Step(
            "take", "take the first tile", ask="take 1", accept=("take 2",), then=((1, "take 3"),)
        ),
        Step(
            "again",
            "take the second",
            ask="take 2",
            wrong={"slot 1": "not the first again"},
            then=((1, "take 2"),),
        ),
        Step("plain", "take the third", ask="take 3", then=((1, "take 1"),)),
    ),
)
PLAIN = Tutorial(players=("You", "Bot"), start=deal, steps=(Step("take", "take 1", ask="take 1"),))


def test_the_script_holds_and_every_path_is_followed() -> None:
    check_script(TOY, LESSON)
    assert list(paths(LESSON)) == [
        ["take 1", "take 2", "take 3"],
        ["take 2", "take 2", "take 3"],
    ]


def test_the_position_replays_the_learners_moves_and_the_scripted_ones() -> None:
    lesson = Lesson(TOY, LESSON)
    at = lesson.position(2, ["take 2"])  # the alternative: the lesson goes on from it
    assert [entry["seat"] for entry in at.log] == [0, 1]
    assert at.match.active_seats() == {0}
    assert lesson.position(4, ["take 1", "take 2", "take 3"]).match.active_seats() == {0}


def test_a_wrong_try_is_explained_by_the_step_then_the_tutorial_then_its_default() -> None:
    lesson = Lesson(TOY, LESSON)
    step_own = lesson.attempt(2, ["take 1"], "take 1")
    assert (step_own.kind, step_own.explanation) == (
        "slot 1",
        {"key": "not the first again", "args": {}},
    )
    tutorials = lesson.attempt(2, ["take 1"], "take 3")
    assert tutorials.explanation == {"key": "the third slot is kept for later", "args": {}}
    default = lesson.attempt(1, [], "take 3")
    assert default.kind == "slot 3" and default.explanation is not None
    assert default.explanation["key"] == "the third slot is kept for later"
    other = lesson.attempt(3, ["take 1", "take 2"], "take 1")
    assert other.explanation == {"key": "the lesson's own word", "args": {}}


def test_without_words_of_its_own_a_legal_try_gets_the_platforms_sentence() -> None:
    verdict = Lesson(TOY, PLAIN).attempt(0, [], " take 2 ")
    assert (verdict.correct, verdict.kind) == (False, "legal")
    assert verdict.explanation == {"key": NOT_ASKED, "args": {}}
    assert Lesson(TOY, PLAIN).attempt(0, [], " TAKE 1").correct  # the notation, not the text


@pytest.mark.parametrize("action", ["grab", "take 9", 3, None, "take 1" * 8])
def test_a_try_in_no_notation_is_refused(action: object) -> None:
    with pytest.raises((TutorialError, ActionRejected)):
        Lesson(TOY, PLAIN).attempt(0, [], action)


def test_a_game_without_a_lesson_has_no_tutorial() -> None:
    with pytest.raises(TutorialError):
        Lesson(TOY)


def test_a_broken_script_is_caught() -> None:
    wrong_seat = Tutorial(
        players=("You", "Bot"),
        start=deal,
        steps=(Step("take", "take", ask="take 1", then=((0, "take 1"),)),),  # not seat 0's turn
    )
    with pytest.raises(ActionRejected):
        check_script(TOY, wrong_seat)
    not_yours = Tutorial(
        players=("You", "Bot"),
        start=deal,
        steps=(Step("a", "a", ask="take 1"), Step("b", "b", ask="take 1")),  # the bot's turn
    )
    with pytest.raises(AssertionError):
        check_script(TOY, not_yours)
    twice = Tutorial(players=("You", "Bot"), start=deal, steps=(Step("a", "a"), Step("a", "b")))
    with pytest.raises(AssertionError, match="repeat"):
        check_script(TOY, twice)
