"""A real-time game in Chromium (issue 46): two players in two browser contexts (English
on a desktop, German on a phone) and a Dutch spectator see the same clocks, ticking; the
server is killed with -9 mid-game and the clocks go on where they were; the game ends
when the test clock makes one side's time run out. One lean module: one server, one
game, the new-game form's clock checked on the way."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from novaluna.test_browser_axe import check_axe

from browser_support import SIZES, checked_page, place_by_hand, ply, shot, wait_for_ply_after
from clock_support import TEST_CLOCK, advance_clock
from server_support import Api, ServerProcess

pytest.importorskip("playwright.sync_api")

#: a displayed clock read on one page lies between two reads of the same clock on
#: another, give or take its tick (100 ms) and rounding
TICK_MS = 250
#: a page's expression for the time it shows for a seat, in ms
SHOWN_MS = "((s) => Number(document.querySelector(`[data-testid=clock-time-${s}]`).dataset.ms))"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("realtime")
    proc = ServerProcess(folder / "games.sqlite3", options=TEST_CLOCK).start()
    yield proc
    proc.stop()


def shown_ms(page: Any, seat: int) -> int:
    """The time left the page shows for ``seat`` (its last tick's, in ms)."""
    return int(page.get_attribute(f"[data-testid=clock-time-{seat}]", "data-ms"))


def same_clock(first: Any, second: Any, seat: int) -> None:
    """``second`` shows what ``first`` showed just before and just after: the same
    clock, whatever the time between the reads."""
    before = shown_ms(first, seat)
    other = shown_ms(second, seat)
    after = shown_ms(first, seat)
    assert after - TICK_MS <= other <= before + TICK_MS, (before, other, after)


def running(page: Any) -> list[int]:
    rows = page.locator("[data-testid^=clock-].clock.running")
    return sorted(int(str(r.get_attribute("data-testid")).split("-")[1]) for r in rows.all())


def open_page(page: Any, base: str, path: str, lang: str) -> None:
    page.add_init_script(f"localStorage.setItem('boardgames.language.v1', {lang!r})")
    page.goto(base + path)
    page.locator("[data-testid=clock-time-0]").wait_for()


def test_the_form_offers_a_clock(browser: Any, server: ServerProcess, axe_script: str) -> None:
    with checked_page(browser, **SIZES["phone"]) as page:
        page.goto(server.url + "/")
        page.get_by_test_id("clock-choice").select_option("custom")
        page.get_by_test_id("clock-minutes").fill("2")
        page.get_by_test_id("clock-increment").fill("1")
        page.get_by_test_id("clock-increment").dispatch_event("change")
        assert page.get_by_test_id("time-limit").is_disabled()  # not both
        check_axe(page, axe_script, "realtime-clock-form-phone")
        with page.expect_request("**/api/games") as sent:
            page.get_by_test_id("create-game").click()
        body = json.loads(sent.value.post_data or "{}")
        assert (body["clock_base"], body["clock_increment"]) == (120, 1)
        assert "time_limit" not in body
        faces = page.evaluate(
            "() => import('/static/shell/clocks.js')"
            ".then((m) => [9_449, 10_000, 65_000, 3_723_000, -5].map(m.clockFace))"
        )
        assert faces == ["0:09.4", "0:10", "1:05", "1:02:03", "0:00.0"]


def test_two_browsers_and_a_spectator_see_the_same_clocks(
    browser: Any, server: ServerProcess, axe_script: str
) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]
    extra = {"type": "nova-luna", "clock_base": 300, "clock_increment": 3}
    created = Api(server).create(seats, on_timeout="abandon", **extra)
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    with (
        checked_page(browser, **SIZES["desktop"]) as ann,
        checked_page(browser, **SIZES["phone"]) as ben,
        checked_page(browser, **SIZES["desktop"]) as spectator,
    ):
        pages = {0: (ann, "desktop"), 1: (ben, "phone")}
        open_page(ann, server.url, f"/g/{game_id}#seat={tokens[0]}", "en")
        open_page(ben, server.url, f"/g/{game_id}#seat={tokens[1]}", "de")
        open_page(spectator, server.url, f"/g/{game_id}", "nl")
        for _ in range(2):  # moves through the pages, each by whoever is to move
            (mover,) = running(ann)
            before = ply(ann)
            place_by_hand(*pages[mover])
            for page in (ann, ben, spectator):
                wait_for_ply_after(page, before)
        (mover,) = running(ann)
        waiting = 1 - mover
        stopped = shown_ms(ann, waiting)
        # the stopped clock shows the same everywhere, to the millisecond; the running one
        # ticks down on every page alike
        assert shown_ms(ben, waiting) == shown_ms(spectator, waiting) == stopped
        for other in (ben, spectator):
            same_clock(ann, other, mover)
        ticking = shown_ms(spectator, mover)
        spectator.wait_for_function(f"() => {SHOWN_MS}({mover}) < {ticking}")
        check_axe(ann, axe_script, "realtime-clock-desktop-en")
        check_axe(ben, axe_script, "realtime-clock-phone-de")

        # a crash: the pages reconnect to the server started again on the same database
        left_before = shown_ms(ann, mover)
        for page in (ann, ben, spectator):  # a new frame draws the clocks anew
            page.evaluate("() => document.querySelector('[data-testid=clocks]').append('old')")
        server.kill9()
        server.start()
        for page in (ann, ben, spectator):  # a fresh frame: the connection is back
            page.wait_for_function(
                "() => !document.querySelector('[data-testid=clocks]').textContent.endsWith('old')"
                " && !document.querySelector('[data-testid=game].offline')"
            )
        assert shown_ms(ann, waiting) == shown_ms(ben, waiting) == stopped
        assert shown_ms(ann, mover) <= left_before  # it went on, not back to the start
        same_clock(ann, ben, mover)

        # the test clock runs the mover's time out: abandoned, their clock at zero
        advance_clock(server, 400)
        for page in (ann, ben, spectator):
            page.locator(f"[data-testid=clock-{mover}].out").wait_for()
            assert page.get_attribute(f"[data-testid=clock-time-{mover}]", "data-ms") == "0"
        assert shown_ms(ben, waiting) == stopped
        shot(ben, "realtime-clock-out-phone-de")
        shot(spectator, "realtime-clock-out-spectator-nl")
