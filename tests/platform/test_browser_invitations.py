"""Invitations and the open games page in a real browser (issue 29), two people in two
browser contexts: Ann invites Ben to a seat from the lobby's form; the invitation
appears in Ben's *My games* without a reload, he accepts and lands in the game. The
open games page shows each game's creator and rating, its age and whether it is rated,
filters by game and time per move, and lets its creator withdraw it. Screenshots go to
test-output/screenshots/inv-*.jpg."""

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
    choose_game,
    no_horizontal_overflow,
    register_on_page,
    running_server,
    shot,
)

#: the full Chromium: the headless shell reports granted notifications as "denied"
CHROMIUM_EXECUTABLE = FULL_CHROMIUM

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("invitations") / "games.db") as base:
        yield base


def test_ann_invites_ben_who_accepts_from_my_games(browser: Any, server: str) -> None:
    with (
        checked_page(browser, **SIZES["desktop"]) as ann,
        checked_page(browser, **SIZES["phone"]) as ben,
    ):
        register_on_page(ann, server, "Ann")
        register_on_page(ben, server, "Ben")  # Ben's My games stays open: no reload below

        ann.goto(server + "/")
        choose_game(ann, "nmbr9", "NMBR 9")
        ann.get_by_test_id("seat-1-kind-invite").click()
        ann.get_by_test_id("seat-1-invite").fill("ben")  # found as at sign-in: any case
        shot(ann, "inv-create")
        ann.get_by_test_id("create-game").click()
        invited = ann.get_by_test_id("invited-seat-1")
        invited.wait_for()
        assert "Ben" in invited.inner_text()
        game_id = re.search(r"created=([\w-]+)", ann.url).group(1)

        item = ben.get_by_test_id(f"my-game-{game_id}")
        item.wait_for()
        assert "Ann invites you" in item.get_by_test_id("game-status").inner_text()
        shot(ben, "inv-my-games-phone")
        assert no_horizontal_overflow(ben)
        ben.get_by_test_id(f"accept-{game_id}").click()
        ben.wait_for_url(f"**/g/{game_id}")
        ben.get_by_test_id("turn-banner").wait_for()
        shot(ben, "inv-accepted-phone")

        ann.goto(f"{server}/g/{game_id}")
        ann.get_by_test_id("turn-banner").wait_for()
        assert "Waiting" not in ann.get_by_test_id("turn-banner").inner_text()


def test_a_declined_invitation_leaves_my_games(browser: Any, server: str) -> None:
    with (
        checked_page(browser, **SIZES["desktop"]) as cy,
        checked_page(browser, **SIZES["desktop"]) as dee,
    ):
        cy_api = register_on_page(cy, server, "Cy")
        register_on_page(dee, server, "Dee")
        seats = [{"kind": "human", "me": True}, {"kind": "human", "invite": "Dee"}]
        created = cy_api.post("/api/games", json={"type": "nova-luna", "seats": seats})
        game_id = created.json()["id"]
        dee.get_by_test_id(f"decline-{game_id}").click()
        dee.get_by_test_id(f"my-game-{game_id}").wait_for(state="detached")
        cy.goto(f"{server}/g/{game_id}")
        cy.get_by_test_id("turn-banner").wait_for()
        cy.goto(f"{server}/lobby")
        cy.get_by_test_id(f"open-game-{game_id}").wait_for()  # the seat is the lobby's now


def test_the_open_games_page_shows_filters_and_withdraws(browser: Any, server: str) -> None:
    with (
        checked_page(browser, **SIZES["phone"]) as eve,
        checked_page(browser, **SIZES["desktop"]) as fay,
    ):
        eve_api = register_on_page(eve, server, "Eve")
        register_on_page(fay, server, "Fay")
        mine = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
        daily = eve_api.post(
            "/api/games", json={"type": "nova-luna", "seats": mine, "time_limit": 86400}
        ).json()["id"]
        seeded = eve_api.post(
            "/api/games", json={"type": "nmbr9", "seats": mine, "seed": 9}
        ).json()["id"]

        fay.goto(f"{server}/lobby")
        item = fay.get_by_test_id(f"open-game-{daily}")
        item.wait_for()
        creator = item.get_by_test_id("open-game-creator").inner_text()
        assert "by Eve (not rated yet)" in creator and "ago" in creator and "more" in creator
        # rated (its time rule names unrated games, so look for the marker itself)
        assert "rated: no hints, no undo" in item.inner_text()
        assert "unrated:" not in item.inner_text()
        assert "chose the seed" in fay.get_by_test_id(f"open-game-{seeded}").inner_text()
        shot(fay, "inv-open-games")

        fay.get_by_test_id("filter-type").select_option("nmbr9")
        fay.get_by_test_id(f"open-game-{daily}").wait_for(state="detached")
        assert fay.get_by_test_id(f"open-game-{seeded}").is_visible()
        assert "type=nmbr9" in fay.url  # the choice can be shared as a link
        fay.get_by_test_id("filter-time_limit").select_option("86400")
        fay.get_by_test_id("no-open-games").wait_for()
        fay.get_by_test_id("filter-type").select_option("")
        fay.get_by_test_id(f"open-game-{daily}").wait_for()
        assert fay.get_by_test_id(f"open-game-{seeded}").count() == 0
        shot(fay, "inv-open-games-filtered")

        eve.goto(f"{server}/lobby")
        eve.get_by_test_id(f"withdraw-{daily}").click()
        eve.get_by_test_id(f"open-game-{daily}").wait_for(state="detached")
        shot(eve, "inv-withdrawn-phone")
        assert no_horizontal_overflow(eve)
        assert eve_api.get(f"/api/games/{daily}").status_code == 404


def test_an_open_seat_is_named_in_the_page_language(browser: Any, server: str) -> None:
    with checked_page(browser, **SIZES["phone"]) as gus:
        gus.add_init_script("localStorage.setItem('boardgames.language.v1', 'nl')")
        register_on_page(gus, server, "Gus")
        gus.goto(server + "/")
        choose_game(gus, "nmbr9", "NMBR 9")
        gus.get_by_test_id("seat-1-kind-open").click()
        open_seat = gus.get_by_test_id("seat-1-kind-open")
        gus.wait_for_function(
            "(e) => e.getAttribute('aria-pressed') === 'true'", arg=open_seat.element_handle()
        )
        gus.get_by_test_id("create-game").click()
        row = gus.get_by_test_id("share-seat-1")
        row.wait_for()
        # before: "Open seat", the server's English name, on a Dutch page
        assert "Open plaats" in row.inner_text() and "Open seat" not in row.inner_text()
        shot(gus, "inv-open-seat-nl-phone")


#: Records each notification the page shows (the real Notification, subclassed), and
#: lets the test hide the tab, as a tab in the background is (test_browser_turns.py).
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
HOSTILE = "CLICK evil.example NOW"


def test_strangers_invitations_make_one_notification_without_their_text(
    browser: Any, server: str
) -> None:
    """Issue 42: 20 invitations from strangers raised 20 notifications, carrying the
    text of the games' seats. Now one, replaced as more come, says only the count (or
    the one inviter's account name); Decline all and Block are on My games."""
    with checked_page(browser, **SIZES["desktop"], permissions=["notifications"]) as page:
        page.add_init_script(NOTIFICATIONS)
        nia = register_on_page(page, server, "Nia")
        page.reload()  # the init script in place
        page.get_by_test_id("notify-switch").click()
        page.locator("[data-testid=notify-switch][aria-pressed=true]").wait_for()
        page.evaluate("window.tabHidden = true")
        strangers = []
        for i in range(5):
            stranger = httpx.Client(base_url=server, timeout=30)
            body = {"name": f"Stranger{i}", "password": "correct horse"}
            assert stranger.post("/api/account/register", json=body).status_code == 201
            seats = [
                {"kind": "human", "me": True},
                {"kind": "human", "invite": "Nia"},
                {"kind": "bot", "bot": "greedy", "name": HOSTILE},
            ]
            game = {"type": "nmbr9", "seats": seats, "rated": False}
            assert stranger.post("/api/games", json=game).status_code == 201
            strangers.append(stranger)
        page.wait_for_function(
            "() => window.shownNotifications.some((n) => n.title === 'You have 5 new invitations')"
        )
        shown = page.evaluate("window.shownNotifications")
        assert all(n["tag"] == "invitations" for n in shown)  # each replaces the one before
        assert not [n for n in shown if "evil" in f"{n['title']} {n.get('body', '')}"]

        page.evaluate("window.tabHidden = false")
        page.get_by_test_id("block-" + nia.get("/api/account").json()["games"][0]["id"]).click()
        page.get_by_test_id("blocked").get_by_text("Stranger").wait_for()
        page.get_by_test_id("decline-all").click()
        page.wait_for_function("() => !document.querySelector('[data-testid^=accept-]')")
        shot(page, "inv-blocked-and-declined")
        assert not [g for g in nia.get("/api/account").json()["games"] if g["invited"]]
