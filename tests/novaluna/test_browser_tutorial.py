"""Nova Luna's tutorial in Chromium, followed by its own prompts: at each step the test
reads what the board marks (the wheel tile, the display cell, the button) and plays it,
after one wrong try whose explanation must appear — the first a tile that is not one of
the next three, which the rules refuse. In English, German and Dutch on a desktop, Dutch
on a phone; the walk steps back once and reloads mid-way (the lesson resumes). The marks
of each kind (moon track, a task, a cell, a button) are checked on a lesson resumed at
their steps, the solo chapter's one seat at the walk's end, and axe finds nothing on the
page on both sizes.

One server for the module (conftest.py), one page per walk; screenshots:
test-output/screenshots/tutorial-novaluna-*.jpg.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from novaluna.test_browser_axe import check_axe
from tabletop.games.novaluna.tutorial import TUTORIAL

from browser_support import SIZES, checked_page, press, shot
from tutorial_support import LANGUAGE_KEY, PROGRESS_KEY, walk

sync_api = pytest.importorskip("playwright.sync_api")

KEYS = [step.key for step in TUTORIAL.steps]
ASKING = {step.key for step in TUTORIAL.steps if step.ask is not None}

#: The rules' words for a tile that is not one of the next three (the first wrong try).
NEXT_THREE = {"en": "next three", "de": "nächsten drei", "nl": "volgende drie"}


#: The refill and end-phase buttons when a step asks for them.
BUTTONS = "[data-testid=refill].tut-mark, [data-testid=end-phase].tut-mark"


class Taking:
    """Nova Luna's moves as the page asks for them, read from the board's marks: a marked
    button is pressed; else the marked wheel tile is taken and laid on the marked cell (on
    a desktop by keyboard, on a phone: tap, tap, *Place here*). A wrong try, by pointer,
    takes another tile: first one the rules
    refuse (not one of the next three), then one of the three that is not asked (any of
    them where a button is asked)."""

    def __init__(self, size: str) -> None:
        self.size = size
        self.refused = False

    def right(self, page: Any) -> None:
        """On a desktop with the keyboard (Enter on the marked tile, then on the marked
        cell, then on *Place here*); on a phone with taps."""
        if page.locator(BUTTONS).count():
            self._activate(page, BUTTONS)
            return
        marked = page.locator("[data-testid=wheel] .space.tut-mark.selectable")
        assert marked.count() == 1, "an action step marks the one tile it asks for"
        space = f"[data-testid=wheel] .space[data-space='{marked.get_attribute('data-space')}']"
        cell = page.get_by_test_id("tutorial-cell").get_attribute("data-cell")
        cell = f"[data-testid='cell-{cell}']"
        if self.size == "phone":
            self._take(page, space, cell)
            return
        page.mouse.move(0, 0)  # off the display: a pointer over a cell previews that one
        self._activate(page, space)
        self._activate(page, cell)
        page.wait_for_function("() => document.activeElement?.dataset.testid === 'confirm-place'")
        page.keyboard.press("Enter")

    def _activate(self, page: Any, selector: str) -> None:
        if self.size == "phone":
            press(page, self.size, selector)
        else:
            page.locator(selector).first.focus()
            page.keyboard.press("Enter")

    def wrong(self, page: Any) -> None:
        far = page.locator("[data-testid=wheel] .space.selectable:not([data-takeable])")
        if not self.refused and far.count():
            self.refused = True
            self._take(
                page,
                f"[data-testid=wheel] .space[data-space='{far.first.get_attribute('data-space')}']",
                None,
            )
            return
        takeable = "[data-testid=wheel] .space.selectable[data-takeable]"
        if not page.locator(BUTTONS).count():  # a take is asked: another tile
            takeable += ":not(.tut-mark)"
        other = page.locator(takeable).first.get_attribute("data-space")
        self._take(page, f"[data-testid=wheel] .space[data-space='{other}']", None)

    def _take(self, page: Any, space: str, cell: str | None) -> None:
        """By pointer: the tile, then ``cell`` (default: the first legal one)."""
        press(page, self.size, space)
        target = cell or "[data-testid^='cell-']"
        page.locator(target).first.wait_for()
        press(page, self.size, target)
        if self.size == "phone":  # a tap previews; the button places
            press(page, self.size, "[data-testid=confirm-place]")


@pytest.mark.parametrize(
    ("lang", "size"), [("en", "desktop"), ("de", "desktop"), ("nl", "desktop"), ("nl", "phone")]
)
def test_the_tutorial_is_completed_by_its_own_prompts(
    browser: Any, server: str, lang: str, size: str
) -> None:
    with checked_page(browser, **SIZES[size]) as page:
        moves = Taking(size)
        seen = walk(
            page, server, "nova-luna", lang, moves, size=size, back_at=3, reload_at=9,
            shots=f"tutorial-novaluna-{lang}-{size}",
        )  # fmt: skip
        assert seen.keys == KEYS
        assert set(seen.explanations) == ASKING
        assert moves.refused and NEXT_THREE[lang] in seen.explanations["take"]
        assert len(set(seen.prompts)) == len(KEYS)  # every step says something of its own
        assert page.locator("[data-testid^=player-]").count() == 1  # solo: no phantom Lea
        shot(page, f"tutorial-novaluna-{lang}-{size}-done")


def _resume(page: Any, server: str, key: str, lang: str = "en") -> None:
    """The lesson opened at step ``key``, as a reload finds it (its asked moves played)."""
    index = KEYS.index(key)
    played = [step.ask for step in TUTORIAL.steps[:index] if step.ask is not None]
    page.goto(server + "/")
    page.evaluate(
        "([langKey, lang, key, progress]) => { localStorage.setItem(langKey, lang);"
        " localStorage.setItem(key, progress); }",
        [
            LANGUAGE_KEY,
            lang,
            PROGRESS_KEY + "nova-luna",
            json.dumps({"step": index, "played": played}),
        ],
    )
    page.goto(f"{server}/learn/nova-luna")
    page.wait_for_selector(f"[data-testid=lesson][data-step='{index}'][data-ready=true]")


def test_the_marks_of_each_kind_and_axe_on_both_sizes(
    browser: Any, server: str, axe_script: str
) -> None:
    source = axe_script
    with checked_page(browser, **SIZES["desktop"]) as page:
        _resume(page, server, "track")
        marked = page.locator("[data-testid=wheel] .track-space.tut-mark")
        assert sorted(int(m.get_attribute("data-track")) for m in marked.all()) == [0, 1]
        _resume(page, server, "fulfil")
        assert page.locator("[data-task='0,0,0'].tut-mark").count() == 1
        assert page.get_by_test_id("tutorial-cell").get_attribute("data-cell") == "0,1"
        check_axe(page, source, "axe-tutorial-novaluna-desktop")
    with checked_page(browser, **SIZES["phone"]) as page:
        _resume(page, server, "refill", "nl")
        assert page.locator("[data-testid=refill].tut-mark").is_visible()
        check_axe(page, source, "axe-tutorial-novaluna-nl-phone")
