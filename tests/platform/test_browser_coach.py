"""A coached game in Chromium at 1400×900 and 390×844: the lobby's Coach option (said in
English, German and Dutch; greyed out where it cannot be had), a solo Nova Luna game
played on the page until the coach notes a move, the note's cost in points, the
better move drawn beside the one played, the note still there after a reload, and
axe finding nothing on the page with the note open."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from novaluna import test_browser_axe as axe_checks

from browser_support import (
    SIZES,
    checked_page,
    no_horizontal_overflow,
    place_by_hand,
    press,
    running_server,
    shot,
    wait_for_my_turn_or_end,
)

sync_api = pytest.importorskip("playwright.sync_api")

#: A deal whose first moves, made as ``place_by_hand`` makes them, cost points.
SEED = "11"
#: Moves played at most before the coach must have noted one (a hang's bound).
MOST_MOVES = 8
#: The option's words in each language.
COACH = {"en": "Coach", "de": "Trainer", "nl": "Coach"}
UNAVAILABLE = {
    "en": "Only in an unrated game",
    "de": "Nur in einer ungewerteten Partie",
    "nl": "Alleen in een niet-beoordeelde partij",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("coach") / "games.db") as base:
        yield base


def _lobby_says_coach_in_each_language(page: Any) -> None:
    """The option, offered against a bot, greyed out with two people, in each language."""
    assert "null" not in page.inner_text("[data-testid=create-form]")  # signed out: no Rated box
    for lang in ("de", "nl", "en"):
        page.select_option("[data-testid=language]", lang)
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        assert COACH[lang] in page.inner_text("label[for=coach]")
        assert page.get_by_test_id("coach-option").is_enabled()
        page.click("[data-testid=seat-1-kind-human]")
        assert page.get_by_test_id("coach-option").is_disabled()
        assert UNAVAILABLE[lang] in page.inner_text("[data-testid=coach-note]")
        page.click("[data-testid=seat-1-kind-bot]")
        if lang == "de":
            page.locator("label[for=coach]").scroll_into_view_if_needed()
            shot(page, "coach-lobby-de-desktop")


def _create_coached_solo_game(page: Any, server: str, size: str) -> None:
    page.goto(server + "/")
    page.get_by_test_id("create-form").wait_for()
    if size == "desktop":
        _lobby_says_coach_in_each_language(page)
    press(page, size, "[data-testid=seat-1-remove]")  # alone: Nova Luna's solo game
    press(page, size, "[data-testid=coach-option]")
    assert page.get_by_test_id("coach-option").is_checked()
    page.locator("details.advanced summary").click()
    page.fill("[data-testid=seed]", SEED)
    press(page, size, "[data-testid=create-game]")
    press(page, size, "[data-testid=enter-game]")
    page.wait_for_url(re.compile(r"/g/[^#]+#seat="))
    page.get_by_test_id("coach").wait_for()


def _play_until_noted(page: Any, size: str) -> None:
    """Move on the page until the coach notes a move (its judgement comes while the
    game goes on: each move waits only for the one before to be judged)."""
    notes = page.locator("[data-testid=coach-notes] li")
    for _ in range(MOST_MOVES):
        assert wait_for_my_turn_or_end(page)
        place_by_hand(page, size)
        page.wait_for_function(
            "() => document.querySelector('[data-testid=coach]').dataset.waiting === '0'"
        )
        if notes.count():
            return
    raise AssertionError(f"no note in {MOST_MOVES} moves")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_coached_game_notes_a_costly_move_and_shows_the_better_one(
    browser: Any, server: str, size: str, axe_script: str
) -> None:
    with checked_page(browser, **SIZES[size]) as page:
        _create_coached_solo_game(page, server, size)
        _play_until_noted(page, size)
        note = page.locator("[data-testid=coach-notes] li").first
        assert re.search(r"cost you \d+(\.\d)? points", note.inner_text()), note.inner_text()
        assert note.get_attribute("data-mark") in ("inaccuracy", "mistake", "blunder")
        note.scroll_into_view_if_needed()
        press(page, size, "[data-testid^=coach-show-]")
        both = page.get_by_test_id("analysis-compare")
        both.wait_for()
        assert "Best:" in both.text_content()
        assert page.locator(".coach-box [data-testid=compare-best]").is_visible()
        assert no_horizontal_overflow(page)
        axe_checks.check_axe(page, axe_script, f"coach-note-{size}")
        noted = note.inner_text()
        page.reload()  # the note is kept with the game
        page.get_by_test_id("coach-notes").locator("li").first.wait_for()
        kept = page.locator("[data-testid=coach-notes] li").first.inner_text()
        assert kept.split(".")[0] == noted.split(".")[0]
