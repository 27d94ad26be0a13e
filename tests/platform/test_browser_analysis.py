"""Post-game analysis in Chromium, for both games: a finished game's end screen
offers Analyse, the replay page shows the evaluation graph and marked moves at
1400×900 and 390×844, choosing a marked move steps the replay there and draws the
board after the best move beside the one played; a keyboard reaches every control,
and axe-core finds nothing on the page in English, German and Dutch."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from novaluna import test_browser_axe as axe_checks

from browser_support import (
    FULL_CHROMIUM,
    SIZES,
    api,
    checked_page,
    no_horizontal_overflow,
    running_server,
    shot,
    wait_until_over,
)

sync_api = pytest.importorskip("playwright.sync_api")

#: the full Chromium: in the headless shell, the axe test's wait for the page's language
#: after choosing it timed out (60 s) in two of three loaded runs of the whole suite,
#: never alone nor in the full browser; not yet understood
CHROMIUM_EXECUTABLE = FULL_CHROMIUM

#: A small budget: the page's behaviour, not the analysis's depth, is tested here.
OPTIONS = ("--analysis-budget", "60")
#: Seats whose games have costly moves: greedy against random in NMBR 9; in Nova
#: Luna two random bots (against greedy, random's chance soon is nil whatever it does).
BOTS = {
    "nmbr9": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
    "nova-luna": [{"kind": "bot", "bot": "random"}] * 2,
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("analysis") / "games.db", options=OPTIONS) as base:
        yield base


@pytest.fixture(scope="module")
def finished(server: str) -> dict[str, str]:
    """A finished game between greedy and random per game type."""
    games = {}
    for kind in ("nmbr9", "nova-luna"):
        game_id = api(server, "/api/games", {"type": kind, "seats": BOTS[kind], "seed": 7})["id"]
        wait_until_over(server, game_id, timeout=120)
        games[kind] = game_id
    return games


@pytest.mark.parametrize("kind", ["nmbr9", "nova-luna"])
@pytest.mark.parametrize("size", list(SIZES))
def test_analyse_a_finished_game_see_the_graph_and_a_marked_move(
    browser: Any, server: str, finished: dict[str, str], kind: str, size: str
) -> None:
    with checked_page(browser, **SIZES[size]) as page:
        page.goto(f"{server}/g/{finished[kind]}")
        page.get_by_test_id("end-screen").wait_for()
        page.get_by_test_id("end-analyse").click()
        # the finished analysis (the graph shows already while it runs)
        page.get_by_test_id("analysis-seat-1").wait_for(timeout=180_000)
        assert "Accuracy" in page.inner_text("[data-testid=analysis-seat-1]")
        assert page.get_by_test_id("graph-mark").count() >= 1 and "%" in page.inner_text(
            ".analysis"
        )
        marked = page.locator(".analysis-moves button").first
        marked.scroll_into_view_if_needed()
        marked.click()
        detail = page.get_by_test_id("analysis-detail")
        assert "best was" in detail.inner_text()
        detail.locator("button").first.click()
        both = page.get_by_test_id("analysis-compare")
        both.wait_for()
        assert "Best:" in both.text_content()  # on a phone behind the Played / Best switch
        assert no_horizontal_overflow(page)
        shot(page, f"analysis-{kind}-{size}", full_page=True)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_analysis_has_no_axe_violations_and_works_by_keyboard(
    browser: Any, server: str, finished: dict[str, str], size: str, axe_script: str
) -> None:
    game_id = finished["nmbr9"]
    api(server, f"/api/games/{game_id}/analysis", {})  # asked for once; later viewers see it
    with checked_page(browser, **SIZES[size]) as page:
        for lang in ("en", "de", "nl"):
            page.goto(f"{server}/replay/{game_id}")
            page.select_option("[data-testid=language]", lang)
            page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
            page.get_by_test_id("analysis-seat-1").wait_for(timeout=180_000)
            axe_checks.check_axe(page, axe_script, f"analysis-axe-{lang}-{size}")
        # the keyboard reaches a marked move and opens it with Enter
        marked = page.locator("[data-testid=analysis-seat-1] .analysis-moves button").first
        for _ in range(60):
            page.keyboard.press("Tab")
            if marked.evaluate("(el) => el === document.activeElement"):
                break
        assert marked.evaluate("(el) => el === document.activeElement")
        page.keyboard.press("Enter")
        assert page.get_by_test_id("analysis-detail").inner_text()
