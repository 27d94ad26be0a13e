"""A bot account's API tokens on the account page (issue 42), in a real browser: its
password form keeps the tokens only when asked ("Keep my API tokens"), else a new
password revokes them, and "Revoke all tokens" (asked twice) ends every one at once.
Screenshots go to test-output/screenshots/tokens-*.jpg."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from bot_support import wait_until
from novaluna import test_browser_axe as axe_checks

from browser_support import (
    PAGE_PASSWORD,
    SIZES,
    checked_page,
    register_on_page,
    running_server,
    shot,
)

pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("tokens") / "games.db") as base:
        yield base


def new_token(page: httpx.Client, name: str) -> str:
    made = page.post("/api/account/tokens", json={"name": name})
    assert made.status_code == 201, made.text
    return str(made.json()["token"])


def works(server: str, secret: str) -> bool:
    answer = httpx.get(f"{server}/api/account", headers={"Authorization": f"Bearer {secret}"})
    return answer.status_code == 200


def change_password(owner: Any, old: str, new: str, keep: bool) -> str:
    owner.get_by_test_id("current-password").fill(old)
    owner.get_by_test_id("new-password").fill(new)
    owner.get_by_test_id("keep-tokens").set_checked(keep)
    owner.get_by_test_id("change-password-submit").click()
    status = owner.get_by_test_id("change-password-status")
    wait_until(lambda: "Password changed" in status.inner_text())
    return str(status.inner_text())


def test_a_new_password_revokes_tokens_unless_kept_and_all_can_be_revoked(
    browser: Any, server: str, axe_script: str
) -> None:
    with checked_page(browser, **SIZES["desktop"]) as owner:
        http = register_on_page(owner, server, "Tokbot")
        assert http.post("/api/account/bot", json={"password": PAGE_PASSWORD}).is_success
        first = new_token(http, "laptop")
        owner.reload()
        owner.get_by_test_id("token-table").wait_for()

        said = change_password(owner, PAGE_PASSWORD, "a second long secret", keep=True)
        assert "revoked" not in said and works(server, first)
        said = change_password(owner, "a second long secret", "a third long secret", keep=False)
        assert "1 API token was revoked." in said
        assert not works(server, first)

        secrets = [new_token(http, "box one"), new_token(http, "box two")]
        owner.reload()
        owner.get_by_test_id("token-table").wait_for()
        owner.get_by_test_id("revoke-all-tokens").click()
        owner.get_by_test_id("revoke-all-cancel").click()  # asked twice: nothing yet
        assert all(works(server, s) for s in secrets)
        owner.get_by_test_id("revoke-all-tokens").click()
        shot(owner, "tokens-revoke-all")
        axe_checks.check_axe(owner, axe_script, "tokens-axe-revoke-all")
        owner.get_by_test_id("revoke-all-confirm").click()
        owner.get_by_test_id("no-tokens").wait_for()
        assert not any(works(server, s) for s in secrets)


def test_a_persons_password_form_has_no_token_box(browser: Any, server: str) -> None:
    with checked_page(browser, **SIZES["desktop"]) as person:
        register_on_page(person, server, "Tokless")
        person.get_by_test_id("change-password").wait_for()
        assert person.get_by_test_id("keep-tokens").count() == 0
