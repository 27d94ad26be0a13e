"""E-mail notifications in a real browser (issue 29), with a real SMTP server the test
runs (aiosmtpd): the account page's settings (axe-checked in every language, used by
keyboard), the verification link opened in the browser, a "your turn" mail after the
opponent's move whose link opens the game at the player's seat, and the unsubscribe
link. Screenshots go to test-output/screenshots/mail-*.jpg."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from novaluna import test_browser_axe as axe_checks

from browser_support import (
    PAGE_PASSWORD,
    SIZES,
    checked_page,
    free_port,
    no_horizontal_overflow,
    register_on_page,
    running_server,
    shot,
)
from mail_support import Inbox, link, smtp_server

sync_api = pytest.importorskip("playwright.sync_api")
PASSWORD = PAGE_PASSWORD


@pytest.fixture(scope="module")
def inbox_and_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Inbox, str]]:
    port = free_port()
    with smtp_server() as (smtp_port, inbox):
        options = (
            *("--smtp", f"smtp://127.0.0.1:{smtp_port}"),
            *("--public-url", f"http://127.0.0.1:{port}", "--mail-delay", "0"),
        )
        db = tmp_path_factory.mktemp("mail") / "games.db"
        with running_server(db, port=port, options=options) as base:
            yield inbox, base


def register(page: Any, base: str, name: str) -> httpx.Client:
    """Register ``name`` on the page; an HTTP client with the same session."""
    return register_on_page(page, base, name, ready="mail-settings")


def act(player: httpx.Client, game_id: str) -> None:
    state = player.get(f"/api/games/{game_id}").json()
    move = {"action": state["choices"][0]["action"], "ply": state["ply"]}
    assert player.post(f"/api/games/{game_id}/actions", json=move).status_code == 200


def test_mail_settings_verification_and_a_turn_mail_that_opens_the_game(
    browser: Any, inbox_and_server: tuple[Inbox, str], size: str, axe_script: str
) -> None:
    inbox, base = inbox_and_server
    suffix = str(time.monotonic_ns() % 10**6)
    address = f"ann{suffix}@example.org"
    with checked_page(browser, **SIZES[size]) as page:
        ann = register(page, base, f"Ann{suffix}")
        # by keyboard: the address, then "when it is my turn", then Enter submits
        page.get_by_test_id("mail-address").fill(address)
        page.get_by_test_id("mail-mode-turn").focus()
        page.keyboard.press("Space")
        page.get_by_test_id("mail-address").press("Enter")
        page.get_by_test_id("mail-status").filter(has_text="not confirmed yet").wait_for()
        page.locator(".toast-close").click()  # the toast said to look in the inbox
        shot(page, f"mail-settings-{size}", full_page=True)
        for lang in ("en", "de", "nl"):
            page.select_option("[data-testid=language]", lang)
            page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
            page.get_by_test_id("mail-status").wait_for()
            assert no_horizontal_overflow(page)
            axe_checks.check_axe(page, axe_script, f"mail-axe-{lang}-{size}")
        page.select_option("[data-testid=language]", "en")

        (mail,) = inbox.wait(address, "Confirm")
        page.goto(link(mail, "/mail/verify"))
        assert address in page.get_by_test_id("mail-link-done").inner_text()
        shot(page, f"mail-verified-{size}")

        # Ben takes the open seat (a turn for both: Ann's first mail); Ann moves, then
        # Ben: the round is over and it is Ann's turn again: her second mail
        with httpx.Client(base_url=base, timeout=30) as ben:
            name = {"name": f"Ben{suffix}", "password": PASSWORD}
            assert ben.post("/api/account/register", json=name).status_code == 201
            seats = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
            game_id = ann.post("/api/games", json={"type": "nmbr9", "seats": seats}).json()["id"]
            assert ben.post(f"/api/games/{game_id}/join", json={}).status_code == 200
            inbox.wait(address, "Your turn")
            act(ann, game_id)
            act(ben, game_id)
        mails = inbox.wait(address, "Your turn", count=2)
        page.goto(link(mails[1], "/g/"))
        page.wait_for_url(f"{base}/g/{game_id}")
        page.locator("[data-testid=game].acting").wait_for()  # Ann's seat, her move
        shot(page, f"mail-turn-game-{size}")

        page.goto(link(mails[1], "/mail/unsubscribe"))
        assert address in page.get_by_test_id("mail-link-done").inner_text()
        page.goto(f"{base}/me")
        assert page.get_by_test_id("mail-mode-off").is_checked()


def test_bad_links_say_what_is_wrong(browser: Any, inbox_and_server: tuple[Inbox, str]) -> None:
    _, base = inbox_and_server
    with checked_page(browser, **SIZES["phone"]) as page:
        page.goto(f"{base}/mail/verify?token=garbage")
        assert "not valid" in page.get_by_test_id("mail-link-error").inner_text()
        page.goto(f"{base}/mail/unsubscribe?token=1.forged")
        assert "not valid" in page.get_by_test_id("mail-link-error").inner_text()
        shot(page, "mail-bad-link-phone")
