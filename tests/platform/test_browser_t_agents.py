"""An event's start notice on the entrants' open pages (issue 47): five minutes before
the start (the test clock brings it) each entrant's page shows a notice in its own
language (English, German, Dutch; a desktop and a phone), the opted-in page a browser
notification too, and at the start the notice that it has started."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

from browser_support import (
    FULL_CHROMIUM,
    SIZES,
    checked_page,
    register_on_page,
    running_server,
    shot,
)
from clock_support import HOUR, TEST_CLOCK, advance_clock

#: the full Chromium: the headless shell reports granted notifications as "denied"
CHROMIUM_EXECUTABLE = FULL_CHROMIUM

pytest.importorskip("playwright.sync_api")

#: records each notification the page shows (the real Notification, subclassed)
NOTIFICATIONS = """
window.shownNotifications = [];
if (window.Notification) {
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) {
      super(title, options);
      window.shownNotifications.push({ title, ...options });
    }
  };
}
"""
#: per language: the page's size, how the notice five minutes before begins, and the
#: notice at the start
PAGES = {
    "en": (
        "desktop",
        "The tournament Moon Cup starts in 4 min",
        "The tournament Moon Cup has started",
    ),
    "de": ("phone", "Das Turnier Moon Cup beginnt in 4 Min", "Das Turnier Moon Cup hat begonnen"),
    "nl": (
        "desktop",
        "Het toernooi Moon Cup begint over 4 min",
        "Het toernooi Moon Cup is begonnen",
    ),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("t-agents") / "games.db"
    with running_server(db, options=TEST_CLOCK) as base:
        yield base


def entrant_page(browser: Any, stack: Any, lang: str) -> Any:
    size = PAGES[lang][0]
    page = stack.enter_context(checked_page(browser, **SIZES[size], permissions=["notifications"]))
    page.add_init_script(f"localStorage.setItem('boardgames.language.v1', {lang!r})")
    page.add_init_script(NOTIFICATIONS)
    return page


def test_each_entrant_sees_the_start_notice_in_its_language(browser: Any, server: str) -> None:
    with ExitStack() as stack:
        pages = {lang: entrant_page(browser, stack, lang) for lang in PAGES}
        clients = {lang: register_on_page(p, server, f"Moon{lang}") for lang, p in pages.items()}
        pages["de"].get_by_test_id("notify-switch").click()  # opted in on this browser
        pages["de"].locator("[data-testid=notify-switch][aria-pressed=true]").wait_for()
        body = {"kind": "swiss", "type": "nmbr9", "name": "Moon Cup", "players": 2,
                "rounds": 1, "starts_in": HOUR}  # fmt: skip
        made = clients["en"].post("/api/tournaments", json=body)
        assert made.status_code == 201, made.text
        event_id = made.json()["id"]
        for client in clients.values():
            joined = client.post(f"/api/tournaments/{event_id}/join", json={})
            assert joined.status_code == 200, joined.text

        advance_clock(server, HOUR - 290)
        for lang, page in pages.items():
            notice = page.get_by_test_id("toast").filter(has_text=PAGES[lang][1])
            notice.wait_for()
            text = notice.locator(".toast-text").inner_text()
            assert re.fullmatch(rf"{PAGES[lang][1]}\.? \d+ s", text), text  # 4 min 50 s
        shot(pages["de"], "tournament-notice-de-phone")
        (shown,) = pages["de"].evaluate("window.shownNotifications")
        assert shown["title"] == "Turnier · NMBR 9" and shown["tag"] == f"{event_id}:soon"
        assert shown["body"].startswith(PAGES["de"][1])
        assert pages["en"].evaluate("window.shownNotifications") == []  # not opted in

        advance_clock(server, 290)
        for lang, page in pages.items():
            page.get_by_test_id("toast").filter(has_text=PAGES[lang][2]).wait_for()
        shot(pages["en"], "tournament-notice-en-desktop")
