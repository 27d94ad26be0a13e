"""The Daily page in a real browser (issue 28), at 1400×900 and 390×844: an account
reaches today's NMBR 9 Play with Tab and starts it with Enter, the game is played to
its end (the moves over the API with the page's session, the end on the page), the
board shows your row, the strong bot's score appears beside it, and the result to
share is copied with one click (to the clipboard; and where the clipboard refuses, the
text is selected instead). axe-core finds nothing on the page in English, German and
Dutch. Screenshots go to test-output/screenshots/daily-*.jpg."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from novaluna import test_browser_axe as axe_checks

from browser_support import (
    SIZES,
    checked_page,
    no_horizontal_overflow,
    register_on_page,
    running_server,
    shot,
)

sync_api = pytest.importorskip("playwright.sync_api")
DAILY_BOTS = ("--daily-bot", "nmbr9=greedy", "--daily-bot", "nova-luna=greedy")
CLIPBOARD = ["clipboard-read", "clipboard-write"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("daily") / "games.db", options=DAILY_BOTS) as base:
        yield base


def register(page: Any, base: str, name: str) -> httpx.Client:
    """Register ``name`` on the page; an HTTP client with the same session."""
    return register_on_page(page, base, name)


def unique(prefix: str) -> str:
    return f"{prefix}{time.monotonic_ns() % 10**7}"


def play_out(player: httpx.Client, game_id: str) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        state = player.get(f"/api/games/{game_id}").json()
        if state["over"]:
            return
        if state["choices"]:
            move = {"action": state["choices"][0]["action"], "ply": state["ply"]}
            player.post(f"/api/games/{game_id}/actions", json=move)
    raise AssertionError("the game did not end")


def tab_to(page: Any, testid: str, most: int = 40) -> None:
    """Press Tab until the element ``testid`` has focus (as a keyboard user would)."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement?.dataset?.testid") == testid:
            return
    raise AssertionError(f"{testid} never took focus with Tab")


def wait_for_planner(page: Any, base: str) -> None:
    """Reload the Daily page until the bot's game on the deal is shown."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        text = page.get_by_test_id("daily-planner-nmbr9").inner_text()
        if "scored" in text:
            return
        time.sleep(0.5)
        page.goto(f"{base}/daily")
    raise AssertionError("the bot's daily score never appeared")


@pytest.mark.parametrize("size", list(SIZES))
def test_play_the_nmbr9_daily_see_the_board_and_copy_the_result(
    browser: Any, server: str, size: str
) -> None:
    with checked_page(browser, **SIZES[size], permissions=CLIPBOARD) as page:
        player = register(page, server, unique("Day"))
        page.goto(f"{server}/")
        page.get_by_test_id("nav-daily").click()
        page.get_by_test_id("daily-play-nmbr9").wait_for()
        assert page.get_by_test_id("daily-counted-nmbr9").inner_text() == "counted"
        assert no_horizontal_overflow(page)
        shot(page, f"daily-before-{size}")
        page.evaluate("() => document.activeElement?.blur()")
        tab_to(page, "daily-play-nmbr9")
        page.keyboard.press("Enter")
        page.wait_for_url(f"{server}/g/*")
        game_id = page.url.rsplit("/", 1)[-1].split("#")[0]
        play_out(player, game_id)
        page.reload()
        page.get_by_test_id("end-screen").wait_for()  # the page shows the end
        shot(page, f"daily-game-over-{size}")
        page.goto(f"{server}/daily")
        row = page.get_by_test_id("daily-row-you")
        row.wait_for()
        assert row.get_attribute("aria-current") == "true"
        wait_for_planner(page, server)
        share = page.get_by_test_id("daily-share-text-nmbr9").inner_text()
        score = row.get_by_test_id("daily-score").inner_text()
        assert share.startswith("NMBR 9 daily ") and f": {score}\nlevel 0: " in share
        assert share.count("\u25a0") == 20
        page.get_by_test_id("daily-copy-nmbr9").click()
        page.wait_for_function("() => document.querySelector('[data-testid=toast]')")
        assert page.evaluate("() => navigator.clipboard.readText()") == share
        assert no_horizontal_overflow(page)
        shot(page, f"daily-board-{size}", full_page=True)
        # Where the clipboard refuses: the text is selected, ready to copy by hand.
        page.evaluate(
            "() => { navigator.clipboard.writeText = () => Promise.reject(new Error('no')); }"
        )
        page.get_by_test_id("daily-copy-nmbr9").click()
        page.wait_for_function(
            "() => document.querySelector('[data-testid=daily-share-text-nmbr9]')"
            ".dataset.selected === 'true'"
        )
        assert page.evaluate("() => window.getSelection().toString()") == share
        # Play again the same day: back to the same game, never a second attempt.
        page.get_by_test_id("daily-play-nmbr9").click()
        page.wait_for_url(f"{server}/g/{game_id}")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_daily_page_has_no_axe_violations_in_any_language(
    browser: Any, server: str, size: str, axe_script: str
) -> None:
    with checked_page(browser, **SIZES[size]) as page:
        player = register(page, server, unique("Axe"))
        game_id = player.post("/api/daily/nmbr9").json()["id"]
        play_out(player, game_id)
        for lang in ("en", "de", "nl"):
            page.goto(f"{server}/daily")
            page.select_option("[data-testid=language]", lang)
            page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
            page.get_by_test_id("daily-row-you").wait_for()
            page.get_by_test_id("daily-share-text-nmbr9").wait_for()
            assert no_horizontal_overflow(page)
            axe_checks.check_axe(page, axe_script, f"daily-axe-{lang}-{size}")
