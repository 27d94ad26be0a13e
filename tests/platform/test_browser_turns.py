"""Knowing when it is your turn, in two browsers (issue 29): two accounts play each
other; "your turn" appears in the other's My games, top bar and tab title without a
reload; the time left is shown in words in English, German and Dutch; an opted-in
browser notification while the tab is hidden."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from browser_support import (
    FULL_CHROMIUM,
    SIZES,
    checked_page,
    register_on_page,
    running_server,
    shot,
)

#: the full Chromium: the headless shell reports granted notifications as "denied"
CHROMIUM_EXECUTABLE = FULL_CHROMIUM

sync_api = pytest.importorskip("playwright.sync_api")
TWO_DAYS = 2 * 86400

#: Records each notification the page shows (the real Notification, subclassed), and
#: lets the test say when the tab is hidden, as a tab in the background is.
NOTIFICATIONS = """
window.shownNotifications = [];
window.tabHidden = false;
Object.defineProperty(document, "hidden", { get: () => window.tabHidden });
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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("turns") / "games.db") as base:
        yield base


def register(page: Any, base: str, name: str) -> httpx.Client:
    """Register ``name`` on the page; an HTTP client with the same session."""
    return register_on_page(page, base, name)


def move(player: httpx.Client, game_id: str) -> None:
    state = player.get(f"/api/games/{game_id}").json()
    action = {"action": state["choices"][0]["action"], "ply": state["ply"]}
    assert player.post(f"/api/games/{game_id}/actions", json=action).status_code == 200


def test_your_turn_appears_without_a_reload_with_the_time_left(browser: Any, server: str) -> None:
    with (
        checked_page(browser, **SIZES["desktop"], permissions=["notifications"]) as ann,
        checked_page(browser, **SIZES["phone"], permissions=["notifications"]) as ben,
    ):
        for page in (ann, ben):
            page.add_init_script(NOTIFICATIONS)
        players = {
            "Ann": (ann, register(ann, server, "Ann")),
            "Ben": (ben, register(ben, server, "Ben")),
        }
        for page in (ann, ben):
            page.reload()  # the init script in place
            page.get_by_test_id("notify-switch").click()  # opt in: asks the permission now
            page.locator("[data-testid=notify-switch][aria-pressed=true]").wait_for()

        # Ann opens a game (2 days per move); Ben takes the seat: both /me pages follow
        seats = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
        body = {"type": "nova-luna", "seats": seats, "time_limit": TWO_DAYS}
        game_id = players["Ann"][1].post("/api/games", json=body).json()["id"]
        ann.get_by_test_id(f"my-game-{game_id}").wait_for()  # pushed: no reload
        assert "waiting for players" in ann.get_by_test_id(f"my-game-{game_id}").inner_text()
        assert players["Ben"][1].post(f"/api/games/{game_id}/join", json={}).status_code == 200
        ben.get_by_test_id(f"my-game-{game_id}").wait_for()

        # whoever moves first moves; the other's page says "your turn" without a reload
        state = players["Ann"][1].get(f"/api/games/{game_id}").json()
        first = state["game"]["seats"][state["to_move"]]["name"]
        other = "Ben" if first == "Ann" else "Ann"
        page, _ = players[other]
        item = page.get_by_test_id(f"my-game-{game_id}")
        item.get_by_text("in play").wait_for()
        assert not page.title().startswith("(")
        page.evaluate("window.tabHidden = true")
        move(players[first][1], game_id)
        item.get_by_text("your turn").wait_for()
        page.wait_for_function("() => document.title.startsWith('(1) ')")
        assert page.get_by_test_id("nav-me").inner_text() == f"{other} (1 to play)"
        shown = page.evaluate("window.shownNotifications")
        assert [n["title"] for n in shown] == ["Your turn · Nova Luna"]

        # the time left in words, in each language: 2 days per move, so "1 day 23 h"
        assert re.fullmatch(r"1 day 23 h left", item.get_by_test_id("time-left").inner_text())
        shot(page, f"turn-my-games-{other.lower()}")
        shot(players[first][0], f"turn-my-games-{first.lower()}")  # the other size
        for lang, words in [("de", "noch 1 Tag 23 Std."), ("nl", "nog 1 dag 23 u")]:
            page.select_option("#language", lang)
            left = page.get_by_test_id(f"my-game-{game_id}").get_by_test_id("time-left")
            left.get_by_text(words, exact=True).wait_for()  # redrawn in the language
            assert page.title().startswith("(1) ")
        page.select_option("#language", "en")
        page.get_by_test_id(f"my-game-{game_id}").get_by_text("your turn").wait_for()

        # the game page: each seat to move and its time left
        page.evaluate("window.tabHidden = false")
        page.get_by_test_id(f"my-game-{game_id}").get_by_role("link").click()
        left = page.get_by_test_id("seat-time-left")
        left.wait_for()
        assert re.fullmatch(rf"{other}: 1 day 23 h left", left.inner_text()), left.inner_text()
        assert page.title().startswith("(1) Your turn")
        shot(page, f"turn-game-{other.lower()}")
