"""What every game's tutorial is held to (``core.tutorial``), and a browser walker that
follows a tutorial's own prompts on the page (``shell/tutorial.js``).

A game's tests call ``check_script(game)`` and ``check_translated(game)`` for its step
data, and ``walk(page, server, game, lang, GameMoves)`` in its browser test, where the
game says how to read the page's highlight and make the move it asks for (and a wrong
one) in a small ``TutorialMoves`` of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from babel.messages.pofile import read_po

from tabletop.core.game import GameType
from tabletop.core.tutorial import LEARNER, Lesson, Tutorial

from browser_support import heard, press, record_announcements, shot

LOCALES = Path(__file__).resolve().parents[1] / "src" / "tabletop" / "locale"
LANGUAGE_KEY = "boardgames.language.v1"
PROGRESS_KEY = "boardgames.tutorial.v1."  # + the game's name
OFFER_KEY = "boardgames.tutorial-offer.v1"

#: What a step points at on a board: a ringed panel, a mark (a tile, a task, a button), a
#: display cell, an outlined placement; the first in the page's order is where its move
#: begins (``shell/tutorial.js`` scrolls that one into view on a phone).
TARGETS = ".lesson-focus, .tut-mark, [data-testid=tutorial-cell], [data-testid=lesson-outline]"

#: The boxes a phone's learner must see at once: the step's text (on screen, and the
#: element there at its middle: nothing covers it), the first target (on screen below the
#: lesson, which stays at the screen's top, and after it in the page's order), and a wrong
#: try's sentence when one shows.
_IN_VIEW = """(targets) => {
  const lesson = document.querySelector('[data-testid=lesson]');
  const panel = lesson.getBoundingClientRect();
  const onScreen = (r, top) => r.width > 0 && r.height > 0 && r.bottom > top
    && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
  const text = document.querySelector('[data-testid=lesson-text]');
  const t = text.getBoundingClientRect();
  const middle = document.elementFromPoint(t.left + t.width / 2,
    (Math.max(t.top, 0) + Math.min(t.bottom, innerHeight)) / 2);
  const target = document.querySelector(targets);
  const wrong = document.querySelector('[data-testid=lesson-wrong]:not([hidden])');
  return {
    text: onScreen(t, 0) && text.contains(middle),
    target: target === null ? null : onScreen(target.getBoundingClientRect(), panel.bottom - 1),
    wrong: wrong === null || onScreen(wrong.getBoundingClientRect(), 0),
    after: target !== null
      && !!(lesson.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING),
    scrolled: scrollY,
  };
}"""


# -- the step data ---------------------------------------------------------------------------


def paths(tutorial: Tutorial) -> Iterator[list[str]]:
    """Every way through the lesson the steps allow: the asked actions, and each
    accepted alternative in place of its step's asked one (the others asked)."""
    asked = [step.ask for step in tutorial.steps if step.ask is not None]
    yield asked
    action_steps = [step for step in tutorial.steps if step.ask is not None]
    for i, step in enumerate(action_steps):
        for other in step.accept:
            yield [*asked[:i], other, *asked[i + 1 :]]


def check_script(game: GameType, tutorial: Tutorial | None = None) -> None:
    """Each step's actions and scripted moves legal where they come, along every path;
    keys unique; the learner asked only while the rules let them act. ``tutorial``:
    another lesson than the game's own."""
    tutorial = tutorial or game.lesson()
    assert tutorial is not None, f"{game.title} has no tutorial"
    keys = [step.key for step in tutorial.steps]
    assert len(set(keys)) == len(keys), f"step keys repeat: {keys}"
    assert any(step.ask for step in tutorial.steps), "a tutorial asks for at least one move"
    lesson = Lesson(game, tutorial)
    for played in paths(tutorial):
        _follow(lesson, played)


def _follow(lesson: Lesson, played: list[str]) -> None:
    done: list[str] = []
    for index, step in enumerate(lesson.tutorial.steps):
        at = lesson.position(index, done)  # raises if a scripted move broke a rule
        if step.ask is None:
            continue
        match = at.match
        legal = {c["action"] for c in match.choices(LEARNER)}
        assert LEARNER in match.active_seats(), f"step {step.key}: the learner cannot act"
        action = played[len(done)]
        assert str(lesson.game.parse_action(action)) in legal, f"step {step.key}: {action}"
        assert lesson.attempt(index, done, action).correct, step.key
        done.append(action)
    lesson.position(len(lesson.tutorial.steps), done)  # the last step's moves too


def check_translated(game: GameType, languages: tuple[str, ...] = ("de", "nl")) -> None:
    """Every text of the tutorial translated in each catalogue, placeholders kept."""
    tutorial = game.lesson()
    assert tutorial is not None
    for lang in languages:
        with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
            catalogue = read_po(f, locale=lang)
        for msgid in tutorial.msgids():
            message = catalogue.get(msgid)
            assert message is not None and message.string, f"{lang}: {msgid!r} untranslated"
            assert isinstance(message.string, str), f"{lang}: {msgid!r} is no plural"
            assert _names(message.string) == _names(msgid), f"{lang}: placeholders of {msgid!r}"


def _names(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


# -- the browser -----------------------------------------------------------------------------


class TutorialMoves(Protocol):
    """How a game's browser test plays a step on the page: from what the page shows (its
    highlight of the asked move), never from a list of the tutorial's actions."""

    def right(self, page: Any) -> None:
        """Make the move the step's prompt and highlight ask for."""

    def wrong(self, page: Any) -> None:
        """Make a move the step does not ask for (the page must explain it)."""


@dataclass
class Walk:
    """What a walk saw: each step's key, prompt and wrong-try explanation."""

    prompts: list[str] = field(default_factory=list)
    explanations: dict[str, str] = field(default_factory=dict)
    keys: list[str] = field(default_factory=list)


def open_tutorial(page: Any, url: str, game: str, lang: str) -> None:
    """The tutorial's page in ``lang``, from its start."""
    page.goto(url + "/")
    page.evaluate(
        "([key, lang, progress]) => { localStorage.setItem(key, lang);"
        " localStorage.removeItem(progress); }",
        [LANGUAGE_KEY, lang, PROGRESS_KEY + game],
    )
    page.goto(f"{url}/learn/{game}")
    page.wait_for_selector("[data-testid=lesson][data-ready=true]")


def current(page: Any) -> dict[str, Any]:
    """The step on show: its index, key, kind ("info" or "action") and text."""
    panel = page.locator("[data-testid=lesson]")
    found: dict[str, Any] = panel.evaluate(
        "el => ({index: Number(el.dataset.step), key: el.dataset.key, kind: el.dataset.kind,"
        " count: Number(el.dataset.count),"
        " text: el.querySelector('[data-testid=lesson-text]').textContent})"
    )
    return found


def wait_step(page: Any, index: int) -> None:
    page.wait_for_selector(f"[data-testid=lesson][data-step='{index}'][data-ready=true]")


def walk(
    page: Any,
    url: str,
    game: str,
    lang: str,
    moves: TutorialMoves,
    *,
    size: str = "desktop",
    back_at: int = 2,
    reload_at: int = 3,
    shots: str | None = None,
) -> Walk:
    """Complete the tutorial on ``page`` by its own prompts: at each action step a wrong
    move first (its explanation must show), then the asked one; info steps go on with
    Space (on a phone a tap on *Go on*). Once, at step ``back_at``, step back and
    forward again; once, at step ``reload_at``, reload the page and check it resumes
    there. Each step's text and each wrong try's sentence must reach a screen reader
    (``_told``)."""
    record_announcements(page)
    open_tutorial(page, url, game, lang)
    seen = Walk()
    stepped_back = reloaded = False
    while True:
        now = current(page)
        wait_step(page, now["index"])
        if not stepped_back and now["index"] == back_at:
            stepped_back = True
            press(page, size, "[data-testid=lesson-back]")
            wait_step(page, back_at - 1)
            assert current(page)["index"] == back_at - 1
            _go_on(page, moves, size)
            wait_step(page, back_at)
            continue
        if not reloaded and now["index"] == reload_at:
            reloaded = True
            page.reload()
            wait_step(page, reload_at)
            assert current(page)["key"] == now["key"], "the reload resumed elsewhere"
        seen.keys.append(now["key"])
        seen.prompts.append(now["text"])
        _told(page, now)
        if size == "phone" and now["kind"] == "action":
            _in_view(page, now["key"])
        if shots and now["index"] in (1, reload_at):
            shot(page, f"{shots}-step{now['index']}")
        if now["kind"] == "action":
            seen.explanations[now["key"]] = _wrong_try(page, moves, size)
        finished = _go_on(page, moves, size)
        if finished:
            return seen
        wait_step(page, now["index"] + 1)


def _told(page: Any, now: dict[str, Any]) -> None:
    """A screen reader gets each step: a move step's text is announced (the board has
    the focus), an info step's text has the focus itself."""
    if now["kind"] == "action":
        heard(page, now["text"].strip())
    else:
        page.wait_for_function("() => document.activeElement?.dataset.testid === 'lesson-text'")


def _in_view(page: Any, key: str, *, wrong: bool = False) -> None:
    """On a phone: the step's text and what it points at both on the screen."""
    seen = page.evaluate(_IN_VIEW, TARGETS)
    assert seen["text"], f"step {key}: its text is off screen or covered ({seen})"
    assert seen["target"] is not None, f"step {key}: an action step points at nothing"
    assert seen["target"], f"step {key}: what it points at is off screen ({seen})"
    # the focus order as on the screen: from the step's text and buttons on to the board
    assert seen["after"], f"step {key}: the lesson comes after the board in the page's order"
    if wrong:
        assert seen["wrong"], f"step {key}: the wrong try's sentence is off screen ({seen})"


def _wrong_try(page: Any, moves: TutorialMoves, size: str = "desktop") -> str:
    before = current(page)["index"]
    moves.wrong(page)
    note = page.get_by_test_id("lesson-wrong")
    note.wait_for(state="visible")
    text: str = note.text_content() or ""
    assert text.strip(), "a wrong try was not explained"
    assert current(page)["index"] == before, "a wrong try moved the lesson on"
    heard(page, text.strip())  # and told why
    if size == "phone":
        _in_view(page, current(page)["key"], wrong=True)
    return text


def _go_on(page: Any, moves: TutorialMoves, size: str) -> bool:
    """Do the step (its asked move, or go on from an info step: Space where the lesson
    put the focus, on a phone a tap on *Go on*); True once the lesson is finished."""
    now = current(page)
    if now["kind"] == "action":
        moves.right(page)
    elif size == "phone":
        press(page, size, "[data-testid=lesson-next]")
    else:
        page.wait_for_function("() => document.activeElement?.dataset.testid === 'lesson-text'")
        page.keyboard.press("Space")
    if now["index"] == now["count"] - 1:
        page.wait_for_selector("[data-testid=lesson-done]")
        return True
    return False
