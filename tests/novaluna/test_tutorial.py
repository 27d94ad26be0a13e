"""Nova Luna's tutorial (``games/novaluna/tutorial.py``), checked by the rules: every asked,
accepted and scripted action is legal where it is played and has the effect its text
teaches; each kind of wrong try gets a sentence that is true of it; every text is in the
German and Dutch catalogues."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from tabletop.core.game import get_game
from tabletop.core.tutorial import Lesson
from tabletop.games.novaluna.rules import Place, StandardResult, State, parse_action
from tabletop.games.novaluna.rules.display import cell_key
from tabletop.games.novaluna.tutorial import ALSO_FULFILS, TUTORIAL

LOCALES = Path(__file__).resolve().parents[2] / "src" / "tabletop" / "locale"
STEPS = {step.key: i for i, step in enumerate(TUTORIAL.steps)}


@pytest.fixture(scope="module")
def lesson() -> Lesson:
    return Lesson(get_game("nova-luna"))


def _played(upto: int) -> list[str]:
    return [step.ask for step in TUTORIAL.steps[:upto] if step.ask is not None]


def at(lesson: Lesson, key: str) -> State:
    """The rules' state at the start of step ``key``, the asked moves played before it."""
    index = STEPS[key]
    state = lesson.position(index, _played(index)).match.state
    assert isinstance(state, State)
    return state


def after(lesson: Lesson, key: str) -> State:
    """The state once step ``key`` is done (its action and its scripted moves)."""
    index = STEPS[key] + 1
    state = lesson.position(index, _played(index)).match.state
    assert isinstance(state, State)
    return state


def test_keys_are_unique_and_every_step_has_a_text() -> None:
    assert len(STEPS) == len(TUTORIAL.steps)
    assert all(step.say for step in TUTORIAL.steps)


@pytest.mark.parametrize("step", [s for s in TUTORIAL.steps if s.ask], ids=lambda s: s.key)
def test_each_action_step_marks_what_it_asks_for(step: Any) -> None:
    """The page reads the marks (a learner, and the browser test, follow them)."""
    action = parse_action(str(step.ask))
    if isinstance(action, Place):
        assert step.highlight["spaces"] == [action.space], step.key
        assert step.highlight["cell"] == [action.x, action.y], step.key
    else:
        assert step.highlight["button"] == {"refill": "refill", "end": "end-phase"}[step.ask]


def test_every_right_and_scripted_action_is_legal_where_it_is_played(lesson: Lesson) -> None:
    for index, step in enumerate(TUTORIAL.steps):
        state = lesson.position(index, _played(index)).match.state
        assert isinstance(state, State)
        legal = {str(a) for a in state.legal_actions(0)}
        assert set(step.right()) <= legal, step.key
        for action in step.accept:  # an accepted action leads on through the rest too
            played = _played(index) + [action]
            rest = [s.ask for s in TUTORIAL.steps[index + 1 :] if s.ask is not None]
            lesson.position(len(TUTORIAL.steps), played + rest)
        if step.ask is not None:
            state.apply(parse_action(step.ask))
        for seat, action in step.then:
            assert str(parse_action(action)) in {str(a) for a in state.legal_actions(seat)}
            state.apply(parse_action(action), seat)


def test_the_next_three_tiles_after_the_moon_figure(lesson: Lesson) -> None:
    state = at(lesson, "take")
    assert state.meeple == 0 and state.takeable_spaces() == [1, 2, 3]
    assert state.current_seat == 0  # on top of the start stack
    verdict = lesson.attempt(STEPS["take"], [], "5@0,0")
    assert verdict.kind == "not-next" and verdict.explanation is not None
    assert "next three" in verdict.explanation["key"]


def test_the_rearmost_marker_moves_even_twice_in_a_row(lesson: Lesson) -> None:
    first = at(lesson, "track")
    assert first.meeple == 2 and first.time == [1, 0] and first.current_seat == 1
    behind = at(lesson, "behind")
    assert behind.time == [1, 4] and behind.current_seat == 0
    assert 3 not in behind.takeable_spaces()  # behind the moon figure now
    again = at(lesson, "again")
    assert again.time == [3, 4] and again.current_seat == 0
    stack = at(lesson, "stack")
    assert stack.time == [4, 4] and stack.stamp[0] > stack.stamp[1] and stack.current_seat == 0
    ahead = at(lesson, "ahead")
    assert ahead.time == [7, 4] and ahead.current_seat == 1


def test_a_costly_tile_instead_would_let_lea_move(lesson: Lesson) -> None:
    state = at(lesson, "again")
    for space in (6, 8):  # the two other tiles: each takes you past Lea
        trial = state.clone()
        trial.apply(Place(space, 1, 1))
        assert trial.current_seat == 1


def _ranking(state: State) -> tuple[int, ...]:
    result = state.result()
    assert isinstance(result, StandardResult)
    return result.ranking


def _covers(state: State, action: str) -> list[tuple[int, int, int]]:
    parsed = parse_action(action)
    assert isinstance(parsed, Place)
    return state.preview(parsed)


def test_tasks_chains_and_two_discs_at_once(lesson: Lesson) -> None:
    state = at(lesson, "tasks")
    assert state.displays[0].is_covered(cell_key(0, 0), 1)  # the red 5's "1 yellow"
    assert _covers(at(lesson, "fulfil"), "4@0,1") == [(0, 0, 0)]  # "2 blue"
    chain = at(lesson, "chain")
    assert _covers(chain, "5@-1,2") == [(-1, 0, 0)]  # "3 red" through the chain
    yellow = cell_key(-1, 0)
    assert cell_key(-1, 2) not in (yellow + 1, yellow - 1, yellow + 256, yellow - 256)
    assert _covers(at(lesson, "two-tasks"), "6@0,2") == [(0, 2, 0), (0, 2, 1)]
    own = at(lesson, "own-tile")
    assert own.displays[0].count(cell_key(-1, 1), 0) == 1  # the red 2 sees one other red
    assert not own.displays[0].is_covered(cell_key(-1, 1), 0)


def test_refilling_fills_every_empty_space_after_the_moon_figure(lesson: Lesson) -> None:
    before = at(lesson, "refill")
    assert before.on_wheel == 2 and before.can_refill()
    top = before.pile_order()[before.drawn : before.drawn + 9]
    state = at(lesson, "refilled")
    empty = [s for s in (10, 11, 0, 1, 2, 3, 4, 5, 6, 7, 8) if not before.wheel[s]]
    assert [state.wheel[s] for s in empty] == list(top)
    assert state.wheel[state.meeple] == 0 and state.on_wheel == 11
    assert _covers(state, "10@0,1") == [(0, 0, 1)]


def test_the_last_disc_wins_at_once(lesson: Lesson) -> None:
    state = at(lesson, "last-disc")
    assert state.supply[0] == 1
    for action in TUTORIAL.steps[STEPS["last-disc"]].right():
        trial = state.clone()
        trial.apply(parse_action(action))
        assert trial.is_over and _ranking(trial)[0] == 0


def test_a_tie_goes_to_whoever_would_move_next(lesson: Lesson) -> None:
    start = at(lesson, "tie")
    assert start.pile_count == 0 and start.supply == [2, 2]
    end = after(lesson, "tie")
    assert end.is_over and end.supply == [2, 2] and end.time == [23, 24]
    assert _ranking(end) == (0, 1)
    # the cheap tile instead: you land on Lea, on top, take the 3 as well and lose
    other = start.clone()
    other.apply(Place(5, -1, 0))
    assert other.current_seat == 0
    other.apply(Place(3, 0, -1))
    assert other.is_over and _ranking(other) == (1, 0)


def test_the_solo_game_in_two_phases(lesson: Lesson) -> None:
    state = at(lesson, "solo")
    assert state.game.solo and state.discs_placed(0) == 7 and not state.can_refill()
    ended = at(lesson, "end-phase")
    assert ended.discs_placed(0) == 8 and ended.can_end_phase()
    phase2 = at(lesson, "phase-2")
    assert phase2.phase == 2 and phase2.phase1_score == 29 and phase2.on_wheel == 11
    assert _covers(phase2, "6@1,0") == [(0, 0, 0)]  # "3 cyan"


def _wrong_tries(lesson: Lesson, key: str) -> dict[str, list[str]]:
    """The step's legal tries that are not right, by kind."""
    index = STEPS[key]
    step = TUTORIAL.steps[index]
    state = at(lesson, key)
    kinds: dict[str, list[str]] = {}
    for action in map(str, state.legal_actions(0)):
        if action not in step.right():
            verdict = lesson.attempt(index, _played(index), action)
            assert not verdict.correct and verdict.explanation is not None
            kinds.setdefault(str(verdict.kind), []).append(action)
    return kinds


@pytest.mark.parametrize("key", [s.key for s in TUTORIAL.steps if s.ask is not None])
def test_each_wrong_try_is_explained_truly(lesson: Lesson, key: str) -> None:
    step = TUTORIAL.steps[STEPS[key]]
    state = at(lesson, key)
    asked = str(step.ask)
    taught = set(_covers(state, asked)) if isinstance(parse_action(asked), Place) else set()
    for kind, actions in _wrong_tries(lesson, key).items():
        said = TUTORIAL.explanation(step, kind)
        assert said is not None, (key, kind)
        for action in actions:
            covers = set(_covers(state, action))
            if said == ALSO_FULFILS:
                assert taught and taught <= covers, (key, action)
            if "fulfils no task" in said or "no task would be fulfilled" in said:
                assert not covers, (key, action)
            if "only one of its tasks" in said:
                assert len(covers) == 1, (key, action)
            if "one task at most" in said:
                assert len(covers) <= 1, (key, action)


def _catalogue(lang: str) -> set[str]:
    with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return {m.id for m in read_po(f, locale=lang) if isinstance(m.id, str) and m.string}


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_every_text_is_translated(lang: str) -> None:
    missing = set(TUTORIAL.msgids()) - _catalogue(lang)
    assert not missing


def test_the_page_gets_one_seat_in_the_solo_chapter(lesson: Lesson) -> None:
    from tabletop.core.tutorial import lesson_state

    index = STEPS["solo"]
    state: dict[str, Any] = lesson_state(lesson, index, lesson.position(index, _played(index)))
    assert [s["name"] for s in state["game"]["seats"]] == ["You"]
    assert state["tutorial"]["highlight"]["cell"] == [-2, 1]


def test_the_platform_checks_hold() -> None:
    from tutorial_support import check_script, check_translated

    game = get_game("nova-luna")
    check_script(game)
    check_translated(game)


#: Tries the rules refuse, per step, and the kind each is: never answered by a step's
#: "default" (worded for an allowed tile).
REFUSED = {
    "take": {"2@1,0": "first-cell", "5@0,0": "not-next", "0@0,0": "empty", "refill": "no-refill"},
    "behind": {"5@0,0": "taken", "5@3,3": "apart", "end": "no-end"},
    "solo": {"refill": "no-refill", "end": "no-end", "0@1,0": "empty"},
    "end-phase": {"4@0,0": "empty", "5@0,0": "taken"},
}


@pytest.mark.parametrize("key", sorted(REFUSED))
def test_a_refused_try_is_explained_by_the_rule_it_breaks(lesson: Lesson, key: str) -> None:
    index = STEPS[key]
    for action, kind in REFUSED[key].items():
        verdict = lesson.attempt(index, _played(index), action)
        assert (verdict.kind, verdict.explanation) == (
            kind,
            {"key": TUTORIAL.wrong[kind], "args": {}},
        )
