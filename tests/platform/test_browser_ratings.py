"""Ratings that mean something, in a real browser (issue 29): the leaderboard explains
itself in plain words, tells a signed-in player how to get ranked and pages; the game
page offers no hint in a rated game and hints in an unrated one; a player who
runs out of time in a rated game is told they lost, by name, on the page, in the log
and on the end screen. Screenshots go to test-output/screenshots/ratings-*.jpg."""

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
from clock_support import HOUR, TEST_CLOCK, advance_clock, until_a_person_acts

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # a clock the tests move on lets them see a time per move run out
    with running_server(
        tmp_path_factory.mktemp("ratings") / "games.db", options=TEST_CLOCK
    ) as base:
        yield base


def register(page: Any, base: str, prefix: str) -> httpx.Client:
    """Register a new account in the page; an HTTP client with its session cookie."""
    return register_on_page(page, base, f"{prefix}{time.monotonic_ns() % 10**6}")


def new_game(player: httpx.Client, **extra: Any) -> str:
    seats = [{"kind": "human", "me": True}, {"kind": "bot", "bot": "random"}]
    r = player.post("/api/games", json={"type": "nova-luna", "seats": seats, **extra})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


@pytest.mark.parametrize("size", list(SIZES))
def test_the_leaderboard_explains_itself_pages_and_says_how_to_get_ranked(
    browser: Any, server: str, size: str, axe_script: str
) -> None:
    with checked_page(browser, **SIZES[size]) as page:
        register(page, server, "Lea")
        page.goto(f"{server}/leaderboard/nmbr9?per=2")
        intro = page.get_by_test_id("leaderboard-intro").inner_text()
        assert "goes up when you beat" in intro and "sigma" not in intro
        assert not page.get_by_test_id("leaderboard-rules").evaluate("d => d.open")  # folded
        standing = page.get_by_test_id("your-standing").inner_text()
        assert standing.startswith("You are not rated yet") and "3 different opponents" in standing
        first = page.locator("[data-testid=rating-table-ranked] tbody tr").all_inner_texts()
        assert len(first) == 2 and first[0].startswith("1")
        assert page.get_by_test_id("leaderboard-previous").count() == 0
        assert no_horizontal_overflow(page)
        axe_checks.check_axe(page, axe_script, f"ratings-leaderboard-{size}")
        page.get_by_test_id("leaderboard-next").click()
        page.wait_for_url("**/leaderboard/nmbr9?page=2&per=2")
        page.get_by_test_id("leaderboard-previous").wait_for()
        second = page.locator("[data-testid=rating-table-ranked] tbody tr").all_inner_texts()
        assert len(second) == 2 and second[0].startswith("3") and second != first
        page.get_by_test_id("leaderboard-rules").locator("summary").click()
        assert "mu − 3 sigma" in page.get_by_test_id("leaderboard-rules").inner_text()
        axe_checks.check_axe(page, axe_script, f"ratings-leaderboard-page2-{size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_rated_game_offers_no_hint_and_an_unrated_one_does(
    browser: Any, server: str, size: str
) -> None:
    with checked_page(browser, **SIZES[size]) as page:
        player = register(page, server, "Hin")
        game_id = new_game(player)
        page.goto(f"{server}/g/{game_id}")
        page.wait_for_function("() => document.title.includes('Your turn')")
        note = page.get_by_test_id("rated-note").inner_text()
        # against a bot running out hands the seat to the default bot: no loss to announce
        assert note == "Rated game: no hints, no undo"
        assert page.get_by_test_id("hint").is_hidden()  # fair play: no help in a rated game
        shot(page, f"ratings-rated-no-hint-{size}")
        casual = new_game(player, rated=False)
        page.goto(f"{server}/g/{casual}")
        page.wait_for_function("() => document.title.includes('Your turn')")
        assert page.get_by_test_id("rated-note").inner_text() == (
            "Unrated game: hints and undo allowed"
        )
        page.get_by_test_id("hint").click()
        page.get_by_test_id("play-hint").wait_for()
        shot(page, f"ratings-unrated-hint-{size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_running_out_of_time_in_a_rated_game_says_who_lost(
    browser: Any, server: str, size: str
) -> None:
    with checked_page(browser, **SIZES[size]) as page:
        player = register(page, server, "Slo")
        name = player.get("/api/account").json()["account"]["name"]
        game_id = new_game(player, time_limit=HOUR, on_timeout="abandon")
        page.goto(f"{server}/g/{game_id}")
        assert (
            "whoever runs out of time loses" in page.get_by_test_id("time-limit-chip").inner_text()
        )
        until_a_person_acts(server, game_id, {0})
        advance_clock(server, HOUR + 1)
        end = page.get_by_test_id("end-screen")
        end.wait_for()
        assert f"{name} ran out of time and lost" in end.inner_text()
        assert "Rated game" in page.get_by_test_id("rating-changes").inner_text()
        assert page.get_by_test_id("end-replay").count() == 0  # an unfinished game has none
        shot(page, f"ratings-timeout-end-{size}")
        page.get_by_test_id("close-end").click()
        title = page.get_by_test_id("banner-title").inner_text()
        assert title == f"{name} ran out of time and lost"
        assert page.get_by_test_id("log-timeout").inner_text() == f"{name} ran out of time"
        assert page.get_by_test_id("show-result").is_visible()
        shot(page, f"ratings-timeout-page-{size}")
