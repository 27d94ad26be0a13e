"""NMBR 9's tutorial (``games/nmbr9/tutorial.py``) as data: every scripted step's move
legal where it comes, every text translated, and each rule's typical mistake explained
in the tutorial's own words."""

from __future__ import annotations

import pytest

from tabletop.core.game import get_game
from tabletop.core.tutorial import Lesson, TutorialError

from tutorial_support import check_script, check_translated

GAME = get_game("nmbr9")


def test_every_scripted_move_is_legal_where_it_comes() -> None:
    check_script(GAME)


def test_every_text_is_translated() -> None:
    check_translated(GAME)


def test_the_steps_teach_each_rule_in_order() -> None:
    keys = [step.key for step in Lesson(GAME).tutorial.steps]
    assert keys == ["card", "first", "together", "touch", "higher", "up", "score", "end"]


@pytest.mark.parametrize(
    ("step", "action", "kind"),
    [
        ("first", "r1@0,0", "legal"),  # turned: allowed, not the outline
        ("touch", "r0@5,5", "apart"),  # off on its own on the table
        ("up", "r0@0,0", "alone"),  # on the 9 alone
        ("up", "r0@1,0", "overhang"),  # hangs over the edge of the 9
        ("up", "r0@5,-1", "legal"),  # on the table beside the 8: allowed, scores nothing
    ],
)
def test_a_wrong_try_is_explained_in_the_tutorials_words(step: str, action: str, kind: str) -> None:
    lesson = Lesson(GAME)
    steps = lesson.tutorial.steps
    index = next(i for i, s in enumerate(steps) if s.key == step)
    played = [s.ask for s in steps[:index] if s.ask is not None]
    verdict = lesson.attempt(index, played, action)
    assert (verdict.correct, verdict.kind) == (False, kind)
    assert verdict.explanation is not None
    expected = steps[index].wrong.get(kind) or lesson.tutorial.wrong[kind]
    assert verdict.explanation["key"] == expected


def test_the_position_replays_the_learners_moves_and_the_others() -> None:
    lesson = Lesson(GAME)
    at = lesson.position(4, ["r0@0,0", "r0@3,-1"])
    view = at.match.view(0)
    assert view["round"] == 2 and view["card"] == 8
    assert [len(board["tiles"]) for board in view["boards"]] == [2, 2]  # Ada placed too


@pytest.mark.parametrize(
    ("step", "played"),
    [(-1, []), (99, []), ("1", []), (True, []), (2, []), (2, ["r0@5,5"]), (0, "r0@0,0")],
)
def test_a_position_the_steps_do_not_lead_to_is_refused(step: object, played: object) -> None:
    with pytest.raises(TutorialError):
        Lesson(GAME).position(step, played)


def test_an_info_step_takes_no_try() -> None:
    with pytest.raises(TutorialError):
        Lesson(GAME).attempt(0, [], "r0@0,0")
