"""The account page's controls in a real browser (issue 29), at 1400×900 and 390×844: a
new password (typed and sent with the keyboard; the other device is signed out), the
download of one's data, deleting the account (a wrong password refused and said so);
a 10,000-character name pasted into the sign-in form is refused with the reason, never
cut and registered; axe-core finds nothing on the account card in English, German and
Dutch. Screenshots go to test-output/screenshots/accctl-*.jpg."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from novaluna import test_browser_axe as axe_checks

from browser_support import SIZES, checked_page, no_horizontal_overflow, running_server, shot

sync_api = pytest.importorskip("playwright.sync_api")
PASSWORD = "moonlight 42"
NEW_PASSWORD = "sunrise 43 over the wheel"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("accctl") / "games.db") as base:
        yield base


def unique(prefix: str) -> str:
    return f"{prefix}{time.monotonic_ns() % 10**7}"


def register(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/me")
    page.get_by_test_id("account-name").fill(name)
    page.get_by_test_id("account-password").fill(PASSWORD)
    page.get_by_test_id("register").click()
    page.get_by_test_id("account-settings").wait_for()


def login(base: str, name: str, password: str) -> httpx.Client:
    """Another device signed in to the account."""
    c = httpx.Client(base_url=base, timeout=30)
    assert c.post("/api/account/login", json={"name": name, "password": password}).is_success
    return c


@pytest.mark.parametrize("size", list(SIZES))
def test_a_new_password_my_data_and_deleting_the_account(
    browser: Any, server: str, size: str, tmp_path: Path
) -> None:
    name = unique("Ctl")
    with checked_page(browser, **SIZES[size]) as page:
        register(page, server, name)
        other = login(server, name, PASSWORD)

        # a new password, with the keyboard: the other device is signed out
        page.get_by_test_id("current-password").focus()
        page.keyboard.type(PASSWORD)
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "new-password"
        page.keyboard.type(NEW_PASSWORD)
        page.keyboard.press("Enter")
        status = page.get_by_test_id("change-password-status")
        status.filter(has_text="Password changed").wait_for()
        assert status.inner_text() == "Password changed; 1 other session was ended."
        assert other.get("/api/account").json()["account"] is None
        assert no_horizontal_overflow(page)
        shot(page, f"accctl-password-{size}")

        # my data: a JSON file of the account, its games and ratings
        with page.expect_download() as download:
            page.get_by_test_id("download-data").click()
        saved = tmp_path / "data.json"
        download.value.save_as(saved)
        data = json.loads(saved.read_text())
        assert data["account"]["name"] == name and "games" in data and "ratings" in data

        # deleting: a wrong password is refused on the form, the right one deletes
        page.get_by_test_id("delete-password").fill("not my password")
        page.get_by_test_id("delete-account-submit").click()
        refused = page.get_by_test_id("delete-account-status")
        refused.filter(has_text="That is not your current password").wait_for()
        shot(page, f"accctl-delete-refused-{size}")
        page.get_by_test_id("delete-password").fill(NEW_PASSWORD)
        page.get_by_test_id("delete-account-submit").click()
        page.get_by_test_id("sign-in-form").wait_for()
        assert page.get_by_test_id("nav-sign-in").is_visible()
        shot(page, f"accctl-deleted-{size}")
        gone = httpx.post(
            f"{server}/api/account/login", json={"name": name, "password": NEW_PASSWORD}
        )
        assert gone.status_code == 401


def test_a_pasted_long_name_is_refused_with_the_reason(browser: Any, server: str) -> None:
    with checked_page(browser, **SIZES["desktop"]) as page:
        page.goto(f"{server}/me")
        page.get_by_test_id("account-name").fill("A" * 10_000)
        page.get_by_test_id("account-password").fill(PASSWORD)
        page.get_by_test_id("register").click()
        toast = page.get_by_test_id("toast").filter(has_text="this one has 10000")
        toast.wait_for()
        text = toast.locator(".toast-text").inner_text()
        assert text == "A name is 2 to 24 characters long; this one has 10000"
        shot(page, "accctl-long-name")
        assert page.get_by_test_id("nav-sign-in").is_visible()  # nothing was registered
        answer = httpx.get(f"{server}/api/players/{'A' * 24}")
        assert answer.status_code == 404


@pytest.mark.parametrize("size", list(SIZES))
def test_the_account_card_has_no_axe_violations_in_any_language(
    browser: Any, server: str, size: str, axe_script: str
) -> None:
    with checked_page(browser, **SIZES[size]) as page:
        register(page, server, unique("Axe"))
        page.get_by_test_id("delete-password").fill("wrong password")
        page.get_by_test_id("delete-account-submit").click()  # an error on the card too
        page.locator("[data-testid=delete-account-status].error").wait_for()
        for lang in ("en", "de", "nl"):
            page.select_option("[data-testid=language]", lang)
            page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
            page.get_by_test_id("account-settings").wait_for()
            assert no_horizontal_overflow(page)
            axe_checks.check_axe(page, axe_script, f"accctl-axe-{lang}-{size}")
