"""Blocks, reports and the moderators' page in a real browser (issue 46), by mouse, touch
and keyboard: Ann blocks and
unblocks Bad from his player page and reports him there; the report reaches the
moderator's page with Ann's words as inert text; the moderator warns Bad (the warning
appears on Bad's open page at once, and goes when he acknowledges it), mutes his chat
for a day and closes his account (his session ends). axe-core finds nothing on the
moderators' page in English on a desktop and in German and Dutch on a phone, nor on a
player page's Block and Report controls (German, phone).
Screenshots: test-output/screenshots/moderation-*.jpg and axe-moderation-*.jpg."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from novaluna.test_browser_axe import check_axe

from browser_support import SIZES, checked_page, no_horizontal_overflow, press, running_server, shot

sync_api = pytest.importorskip("playwright.sync_api")
PASSWORD = "correct horse"
HOSTILE = '<img src=x onerror="document.title=1"> mean words'
LOOKS = [("en", "desktop"), ("de", "phone"), ("nl", "phone")]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("moderation") / "games.db"


@pytest.fixture(scope="module")
def server(db: Path) -> Iterator[str]:
    with running_server(db) as base:
        yield base


def account(server: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server, timeout=30)
    made = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return client


@pytest.fixture(scope="module")
def moderator(server: str, db: Path) -> httpx.Client:
    mod = account(server, "Mo")
    command = [sys.executable, "-m", "tabletop.cli", "novaluna", "moderator", "grant", "Mo"]
    done = subprocess.run(
        [*command, "--db", str(db)], capture_output=True, text=True, env=os.environ.copy()
    )
    assert done.returncode == 0, done.stderr
    return mod


def signed_in(page: Any, server: str, who: httpx.Client) -> None:
    """The page's browser holds ``who``'s session."""
    cookie = who.cookies.get("session")
    page.context.add_cookies([{"name": "session", "value": cookie, "url": server}])


def test_a_report_from_a_player_page_reaches_the_moderator_who_acts(
    browser: Any, server: str, moderator: httpx.Client
) -> None:
    ann, bad = account(server, "Ann"), account(server, "Bad")
    with (
        checked_page(browser, **SIZES["desktop"]) as ann_page,
        checked_page(browser, **SIZES["phone"]) as bad_page,
        checked_page(browser, **SIZES["desktop"]) as mod_page,
    ):
        for page, who in ((ann_page, ann), (bad_page, bad), (mod_page, moderator)):
            signed_in(page, server, who)
        bad_page.goto(f"{server}/me")  # his page stays open: the warning comes to it
        bad_page.get_by_test_id("my-games").wait_for()

        ann_page.goto(f"{server}/u/Bad")
        toggle = ann_page.get_by_test_id("block-toggle")
        toggle.click()
        ann_page.wait_for_function(
            "() => document.querySelector('[data-testid=block-toggle]').ariaPressed === 'true'"
        )
        assert ann.get("/api/account/blocks").json()["blocked"] == [{"name": "Bad"}]
        toggle.click()
        ann_page.wait_for_function(
            "() => document.querySelector('[data-testid=block-toggle]').ariaPressed === 'false'"
        )
        assert ann.get("/api/account/blocks").json()["blocked"] == []
        ann_page.get_by_test_id("report-open").click()
        ann_page.get_by_test_id("report-reason").select_option("abuse")
        ann_page.get_by_test_id("report-text").fill(HOSTILE)
        shot(ann_page, "moderation-report-form")
        ann_page.get_by_test_id("report-send").click()
        ann_page.get_by_text("the moderators will look at your report").wait_for()

        ann_page.get_by_test_id("nav-friends").wait_for()  # the account's top bar is drawn
        assert ann_page.get_by_test_id("nav-moderation").count() == 0  # not a moderator
        mod_page.goto(f"{server}/lobby")
        mod_page.get_by_test_id("nav-moderation").click()  # a moderator's top bar has it
        words = mod_page.get_by_test_id("report-words")
        words.wait_for()
        assert words.inner_text() == HOSTILE and words.locator("img").count() == 0
        report_id = mod_page.locator("[data-testid^=report-]").first.get_attribute("data-testid")
        number = report_id.split("-")[1]
        shot(mod_page, "moderation-page")
        # by keyboard: the warning's field, then Tab to its button and Enter
        mod_page.get_by_test_id(f"warn-text-{number}").fill("Please keep it friendly.")
        mod_page.keyboard.press("Tab")
        assert mod_page.evaluate("() => document.activeElement.dataset.testid") == f"warn-{number}"
        mod_page.keyboard.press("Enter")
        mod_page.get_by_test_id("no-reports").wait_for()  # acting on it closed it

        warning = bad_page.get_by_test_id("warning-text")  # at once, without a reload
        warning.wait_for()
        assert warning.inner_text() == "Please keep it friendly."
        shot(bad_page, "moderation-warning-phone")
        assert no_horizontal_overflow(bad_page)
        press(bad_page, "phone", "[data-testid=warning-ack]")
        bad_page.get_by_test_id("warnings").wait_for(state="detached")
        assert bad.get("/api/account/warnings").json() == {"warnings": []}

        for _ in range(2):  # two more reports: the mute and the closing act on one each
            ann.post("/api/reports", json={"account": "Bad", "reason": "spam"})
        mod_page.reload()
        first = mod_page.locator("[data-testid^=mute-hours-]").first
        number = first.get_attribute("data-testid").rsplit("-", 1)[1]
        first.select_option("24")
        mod_page.get_by_test_id(f"mute-{number}").click()
        mod_page.get_by_test_id("log-line").filter(has_text="Muted").wait_for()
        press(mod_page, "desktop", "[data-testid^=close-]")
        mod_page.locator("[data-testid^=close-confirm-]").click()
        mod_page.get_by_test_id("no-reports").wait_for()
        mod_page.get_by_test_id("log-line").filter(has_text="Closed the account").wait_for()
        shot(mod_page, "moderation-log", full_page=True)
        assert bad.get("/api/account").json()["account"] is None  # his session ended
        refused = httpx.post(
            f"{server}/api/account/login", json={"name": "Bad", "password": PASSWORD}
        )
        assert refused.status_code == 403


@pytest.mark.parametrize(("lang", "size"), LOOKS, ids=[f"{lang}-{size}" for lang, size in LOOKS])
def test_the_moderators_page_passes_axe(
    browser: Any, server: str, moderator: httpx.Client, axe_script: str, lang: str, size: str
) -> None:
    reporter = account(server, f"Rita{lang}{size}")
    account(server, f"Troll{lang}{size}")
    filed = reporter.post(
        "/api/reports",
        json={"account": f"Troll{lang}{size}", "reason": "abuse", "text": "Rude\nagain"},
    )
    assert filed.status_code == 201, filed.text
    with checked_page(browser, **SIZES[size]) as page:
        page.add_init_script(f"localStorage.setItem('boardgames.language.v1', {lang!r})")
        signed_in(page, server, moderator)
        page.goto(f"{server}/moderation")
        page.get_by_test_id("report-words").first.wait_for()
        assert no_horizontal_overflow(page)
        check_axe(page, axe_script, f"axe-moderation-{lang}-{size}")
        if (lang, size) == ("de", "phone"):  # the player page's controls, German's long words
            page.goto(f"{server}/u/Troll{lang}{size}")
            page.get_by_test_id("report-open").click()
            page.get_by_test_id("report-send").wait_for()
            assert no_horizontal_overflow(page)
            check_axe(page, axe_script, "axe-moderation-player-de-phone")
