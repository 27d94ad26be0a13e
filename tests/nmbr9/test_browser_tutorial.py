"""NMBR 9's tutorial in Chromium, followed by its own prompts: at each step the test reads
what the page shows — the outline of the asked placement, the step's text — and plays it
with the keyboard (on a phone: the keys to move, a tap to confirm), after one wrong try
whose explanation must appear. In English, German and Dutch on a desktop, German on a
phone; it steps back once and reloads mid-way (the lesson resumes). The lobby offers the
tutorial on a first visit, remembers a dismissal, and axe finds nothing on the page.

One server for the module, one page per walk; screenshots:
test-output/screenshots/tutorial-nmbr9-*.jpg.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from novaluna.test_browser_axe import check_axe

from browser_support import SIZES, checked_page, press, require_chromium, running_server, shot
from tutorial_support import OFFER_KEY, current, open_tutorial, walk

sync_api = pytest.importorskip("playwright.sync_api")

#: The support rule's sentences (the tutorial's own words), per language: the wrong try
#: on the level-1 step must be explained by one of them.
SUPPORT = {
    "en": ("rest on at least two tiles", "lie over nothing", "same height"),
    "de": ("mindestens zwei Plättchen", "über nichts", "gleich hoch"),
    "nl": ("minstens twee tegels", "boven niets", "even hoog"),
}
LESSON_TITLE = {
    "en": "Learn to play NMBR 9",
    "de": "NMBR 9 spielen lernen",
    "nl": "Leer NMBR 9 spelen",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    require_chromium()
    db: Path = tmp_path_factory.mktemp("tutorial") / "games.sqlite3"
    with running_server(db) as url:
        yield url


class Placing:
    """NMBR 9's moves as the page asks for them: the ghost tile moved onto the outline the
    step draws (``lesson-outline``: its rotation and square), read from the page."""

    def __init__(self, size: str) -> None:
        self.size = size

    def right(self, page: Any) -> None:
        outline = page.locator("[data-testid=lesson-outline]")
        rot = int(outline.get_attribute("data-rot"))
        x, y = (int(v) for v in outline.get_attribute("data-at").split(","))
        self._move_to(page, rot, x, y)
        self._confirm(page)

    def wrong(self, page: Any) -> None:
        """The outlined spot, turned a quarter: never the asked placement."""
        outline = page.locator("[data-testid=lesson-outline]")
        rot = int(outline.get_attribute("data-rot"))
        x, y = (int(v) for v in outline.get_attribute("data-at").split(","))
        self._move_to(page, rot, x, y)
        page.keyboard.press("r")
        self._confirm(page)

    def _move_to(self, page: Any, rot: int, x: int, y: int) -> None:
        page.get_by_test_id("board").focus()
        ghost = page.locator("[data-testid=ghost]")
        for _ in range(4):
            if int(ghost.get_attribute("data-rot")) == rot:
                break
            page.keyboard.press("r")
        for _ in range(40):
            gx, gy = (int(v) for v in ghost.get_attribute("data-at").split(","))
            if (gx, gy) == (x, y):
                return
            step = (
                "ArrowRight"
                if gx < x
                else "ArrowLeft"
                if gx > x
                else "ArrowDown"
                if gy < y
                else "ArrowUp"
            )
            page.keyboard.press(step)
        raise AssertionError(f"the ghost did not reach {x},{y}")

    def _confirm(self, page: Any) -> None:
        if self.size == "phone":
            press(page, self.size, "[data-testid=confirm]")
        else:
            page.keyboard.press("Enter")


def _language_page(browser: Any, size: str) -> Any:
    return checked_page(browser, **SIZES[size])


@pytest.mark.parametrize(
    ("lang", "size"), [("en", "desktop"), ("de", "desktop"), ("nl", "desktop"), ("de", "phone")]
)
def test_the_tutorial_is_completed_by_its_own_prompts(
    browser: Any, server: str, lang: str, size: str
) -> None:
    with _language_page(browser, size) as page:
        seen = walk(
            page,
            server,
            "nmbr9",
            lang,
            Placing(size),
            size=size,
            shots=f"tutorial-nmbr9-{lang}-{size}",
        )
        assert seen.keys == ["card", "first", "together", "touch", "higher", "up", "score", "end"]
        assert set(seen.explanations) == {"first", "touch", "up"}
        up = seen.explanations["up"]
        assert any(words in up for words in SUPPORT[lang]), up
        assert page.get_by_test_id("lesson").locator("h2").text_content() == LESSON_TITLE[lang]
        shot(page, f"tutorial-nmbr9-{lang}-{size}-done")
        # the lesson is done: its link leads to a real game
        page.get_by_test_id("lesson-play").click()
        page.wait_for_function("() => document.querySelector('.hero h1')?.textContent === 'NMBR 9'")


def test_the_lobby_offers_the_tutorial_once_and_axe_finds_nothing_on_it(
    browser: Any, server: str, axe_script: str
) -> None:
    with _language_page(browser, "desktop") as page:
        page.goto(server + "/")
        page.evaluate("(key) => localStorage.removeItem(key)", OFFER_KEY)
        page.evaluate("() => localStorage.setItem('boardgames.type', 'nmbr9')")
        page.reload()
        offer = page.get_by_test_id("learn-offer")
        offer.wait_for()
        page.get_by_test_id("learn-dismiss").click()
        offer.wait_for(state="detached")
        page.reload()
        page.get_by_test_id("learn-nmbr9").wait_for()  # a plain link now
        assert page.get_by_test_id("learn-offer").count() == 0
        page.get_by_test_id("learn-nmbr9").click()
        page.wait_for_selector("[data-testid=lesson][data-ready=true]")
        assert current(page)["index"] == 0
        check_axe(page, axe_script, "axe-tutorial-nmbr9-desktop")
    # an action step with a wrong try explained, on a phone in German
    with _language_page(browser, "phone") as page:
        open_tutorial(page, server, "nmbr9", "de")
        press(page, "phone", "[data-testid=lesson-next]")
        page.wait_for_selector("[data-testid=lesson][data-step='1'][data-ready=true]")
        Placing("phone").wrong(page)
        page.get_by_test_id("lesson-wrong").wait_for()
        check_axe(page, axe_script, "axe-tutorial-nmbr9-de-phone")
