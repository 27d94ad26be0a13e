"""Tournaments in a real browser (issue 47): Ann creates an arena in the form on a
desktop, Ben joins it on a phone; the event page counts down to the start; the test
moves the server's clock past it (``--test-clock``), the director pairs the two, and
both pages go to their game by themselves. Ben withdraws mid-game (his game resigned);
Ann, still on her finished game's page, is sent on to her next pairing, against the bot
the organiser adds. The list and the event page pass axe at both sizes (1400×900 and
390×844), and render in German and Dutch.
Screenshots: test-output/screenshots/tournament-*.jpg and axe-tournament*.jpg."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from novaluna.test_browser_axe import check_axe

from browser_support import (
    SIZES,
    checked_page,
    no_horizontal_overflow,
    press,
    register_on_page,
    running_server,
    shot,
)

sync_api = pytest.importorskip("playwright.sync_api")
#: an organiser's name for the event, shown as text only
HOSTILE = '<img src=x onerror="document.title=1"> Friday arena'
GAME_URL = re.compile(r".*/g/[A-Za-z0-9_-]+$")
EVENT_URL = re.compile(r".*/t/([A-Za-z0-9_-]+)$")


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tournaments") / "games.db"


@pytest.fixture(scope="module")
def server(db: Path) -> Iterator[str]:
    with running_server(db, options=("--test-clock",)) as base:
        yield base


def make_moderator(db: Path, name: str) -> None:
    command = [sys.executable, "-m", "tabletop.cli", "novaluna", "moderator", "grant", name]
    done = subprocess.run(
        [*command, "--db", str(db)], capture_output=True, text=True, env=os.environ.copy()
    )
    assert done.returncode == 0, done.stderr


def clock_text(page: Any) -> str:
    text: str = page.get_by_test_id("tournament-clock").inner_text()
    return text


def create_in_the_form(page: Any) -> str:
    """Fill the form as a person would (an NMBR 9 arena of 10 minutes, 3 min + 2 s, in
    5 minutes); the event's id from the page it leads to."""
    page.get_by_test_id("nav-tournaments").click()
    page.get_by_test_id("tournament-name").fill(HOSTILE)
    page.get_by_test_id("tournament-kind-arena").check()
    page.get_by_test_id("tournament-game").select_option("nmbr9")
    page.get_by_test_id("tournament-players").select_option("2")
    page.get_by_test_id("tournament-minutes").select_option("10")
    page.get_by_test_id("clock-choice").select_option("180+2")
    page.get_by_test_id("tournament-starts-in").select_option("300")
    assert page.get_by_test_id("tournament-moderator").count() == 0  # not a moderator
    page.get_by_test_id("tournament-create").click()
    page.wait_for_url(EVENT_URL)
    found = EVENT_URL.match(page.url)
    assert found is not None
    return found.group(1)


def test_an_arena_made_in_the_form_pairs_its_entrants_and_sends_both_to_their_game(
    browser: Any, server: str, axe_script: str
) -> None:
    with (
        checked_page(browser, **SIZES["desktop"]) as ann,
        checked_page(browser, **SIZES["phone"]) as ben,
    ):
        ann_api = register_on_page(ann, server, "Ann")
        event_id = create_in_the_form(ann)
        title = ann.get_by_test_id("tournament-title")
        assert title.inner_text() == HOSTILE and title.locator("img").count() == 0
        assert "Arena" in ann.get_by_test_id("tournament-facts").inner_text()
        ann.wait_for_function(
            "() => /^Starts in [45] min/.test("
            "document.querySelector('[data-testid=tournament-clock]').textContent)"
        )
        ann.get_by_test_id("tournament-join").click()
        ann.get_by_test_id("tournament-withdraw").wait_for()

        ben.goto(f"{server}/t/{event_id}")  # the link, before he has an account
        ben.get_by_test_id("tournament-sign-in").wait_for()
        assert ben.get_by_test_id("tournament-join").count() == 0
        register_on_page(ben, server, "Ben")
        ben.goto(f"{server}/t/{event_id}")
        press(ben, "phone", "[data-testid=tournament-join]")
        ben.get_by_test_id("tournament-me").wait_for()
        ann.get_by_test_id("standing-2").wait_for()  # Ann's page asked again by itself
        assert clock_text(ben).startswith("Starts in")
        assert no_horizontal_overflow(ben)
        shot(ann, "tournament-upcoming-desktop")
        shot(ben, "tournament-upcoming-phone")
        check_axe(ann, axe_script, "axe-tournament-event-en-desktop")
        check_axe(ben, axe_script, "axe-tournament-event-en-phone")

        moved = httpx.post(f"{server}/api/test/clock", json={"seconds": 301})
        assert moved.status_code == 200, moved.text
        ann.wait_for_url(GAME_URL)  # paired: each page goes to the game by itself
        ben.wait_for_url(GAME_URL)
        event = httpx.get(f"{server}/api/tournaments/{event_id}").json()
        assert event["status"] == "running"
        [game] = event["games"]
        assert ann.url.endswith(f"/g/{game['id']}") and ben.url.endswith(f"/g/{game['id']}")
        assert sorted(game["names"]) == ["Ann", "Ben"]

        # back on the event page the game is offered, not forced: the page sent you once
        ann.goto(f"{server}/t/{event_id}")
        ann.get_by_test_id("your-game-link").wait_for()
        ann.get_by_test_id("running-game").wait_for()
        assert ann.url.endswith(f"/t/{event_id}")
        ann.get_by_test_id("entrant-2").focus()  # a name, chosen by keyboard: Ben's games
        ann.keyboard.press("Enter")
        ann.get_by_test_id("entrant-games").get_by_test_id("entrant-game").wait_for()
        assert ann.get_by_test_id("entrant-2").get_attribute("aria-expanded") == "true"
        assert ann.evaluate("() => document.activeElement.dataset.testid") == "entrant-2"
        check_axe(ann, axe_script, "axe-tournament-running-en-desktop")
        ben.goto(f"{server}/tournaments")
        ben.get_by_test_id(f"tournament-link-{event_id}").wait_for()
        assert no_horizontal_overflow(ben)
        check_axe(ben, axe_script, "axe-tournaments-en-phone")

        # Ben withdraws mid-game (asked twice: it resigns his game); Ann, on her finished
        # game's page, is sent on to her next pairing, with the bot the organiser adds
        ann.goto(f"{server}/g/{game['id']}")
        ben.get_by_test_id(f"tournament-link-{event_id}").click()
        press(ben, "phone", "[data-testid=tournament-withdraw]")
        press(ben, "phone", "[data-testid=tournament-withdraw-confirm]")
        ben.get_by_test_id("tournament-join").wait_for()  # he may come back
        ann.wait_for_function("() => document.title.includes('Game over')")  # her page knows
        bot = ann_api.get(f"/api/tournaments/{event_id}").json()["bots"][0]
        added = ann_api.post(f"/api/tournaments/{event_id}/bots", json={"bot": bot})
        assert added.status_code == 200, added.text
        ann.wait_for_url(lambda url: GAME_URL.match(url) and not url.endswith(game["id"]))
        event = httpx.get(f"{server}/api/tournaments/{event_id}").json()
        latest = event["games"][0]
        assert ann.url.endswith(f"/g/{latest['id']}") and "Ann" in latest["names"]
        assert event["standings"][0]["name"] == "Ann"  # Ben's resignation: her win


@pytest.mark.parametrize(
    ("lang", "size", "heading"),
    [("de", "desktop", "Turniere"), ("nl", "phone", "Toernooien")],
    ids=["de-desktop", "nl-phone"],
)
def test_the_list_and_an_event_in_german_and_dutch(
    browser: Any, server: str, db: Path, axe_script: str, lang: str, size: str, heading: str
) -> None:
    """The German organiser is a moderator: the form offers them a public, repeating
    event; the Dutch one is not. Each adds our bot, and the German one calls it off."""
    moderator = lang == "de"
    with checked_page(browser, **SIZES[size]) as page:
        page.add_init_script(f"localStorage.setItem('boardgames.language.v1', {lang!r})")
        register_on_page(page, server, f"Org{lang}")
        if moderator:
            make_moderator(db, f"Org{lang}")
        page.goto(f"{server}/tournaments")  # a fresh load asks who you are (a moderator now)
        page.get_by_role("heading", name=heading, exact=True).wait_for()
        assert page.get_by_test_id("tournament-moderator").count() == int(moderator)
        page.get_by_test_id("tournament-kind-swiss").check()
        page.get_by_test_id("tournament-rounds").select_option("3")
        page.get_by_test_id("tournament-game").select_option("nova-luna")
        if moderator:
            page.get_by_test_id("tournament-public").check()
            page.get_by_test_id("tournament-recurring").select_option("daily")
        page.get_by_test_id("tournament-create").click()
        page.wait_for_url(EVENT_URL)
        page.get_by_test_id("tournament-join").click()
        page.get_by_test_id("tournament-add-bot").click()  # the organiser adds our bot
        page.get_by_test_id("standing-2").wait_for()
        press(page, size, "[data-testid=toast] .toast-close")  # "the bot takes part", read
        assert no_horizontal_overflow(page)
        check_axe(page, axe_script, f"axe-tournament-event-{lang}-{size}")
        page.get_by_test_id("nav-tournaments").click()
        upcoming = page.get_by_test_id("tournaments-upcoming")
        upcoming.get_by_test_id("tournament-item").first.wait_for()
        assert no_horizontal_overflow(page)
        check_axe(page, axe_script, f"axe-tournaments-{lang}-{size}")
        listed = httpx.get(f"{server}/api/tournaments").json()["upcoming"]  # nobody's list
        assert [e["recurring"] for e in listed if e["creator"] == f"Org{lang}"] == (
            ["daily"] if moderator else []
        )
        if moderator:  # called off by its organiser, asked twice
            upcoming.get_by_test_id("tournament-item").first.get_by_role("link").click()
            press(page, size, "[data-testid=tournament-cancel]")
            press(page, size, "[data-testid=tournament-cancel-confirm]")
            page.get_by_test_id("tournament-status").filter(has_text="Abgesagt").wait_for()
