"""Chat in a game in a real browser (issue 46): Ann (English, desktop) and Ben (German,
phone) chat in their game from two browser contexts while Cy (Dutch, phone) watches and
chats with the spectators apart; a quick phrase Ann sends reads in German on Ben's
page (and his screen reader hears it); hostile text stays inert text; Ann mutes Ben
and his messages leave her page at once; Ben reports one of Ann's messages. axe-core
checks the pages with the chat in the three languages (en-desktop, de-phone with the
report dialog open, nl-phone).

The report goes to the real ``POST /api/reports``: the test checks what the dialog sent
and what the server stored (the message and the chat before it; the moderators' page
that shows it is test_browser_moderation.py's). Screenshots:
test-output/screenshots/chat-*.jpg and axe-chat-*.jpg.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest

from novaluna.test_browser_axe import check_axe

from browser_support import (
    SIZES,
    checked_page,
    heard,
    no_horizontal_overflow,
    record_announcements,
    register_on_page,
    running_server,
    shot,
)

sync_api = pytest.importorskip("playwright.sync_api")
HOSTILE = '<img src=x onerror="alert(1)"> see https://evil.example/x'


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("chat") / "games.db"


@pytest.fixture(scope="module")
def server(database: Path) -> Iterator[str]:
    with running_server(database) as base:
        yield base


def in_language(page: Any, lang: str) -> Any:
    page.add_init_script(f"localStorage.setItem('boardgames.language.v1', {lang!r})")
    return page


def finish_a_game(client: httpx.Client) -> None:
    """A game with a seat link for a friend, resigned: the account has finished a game
    (it may chat among strangers, the spectators)."""
    seats = [{"kind": "human", "me": True}, {"kind": "human"}]
    game_id = client.post("/api/games", json={"type": "nmbr9", "seats": seats}).json()["id"]
    assert client.post(f"/api/games/{game_id}/resign", json={}).status_code == 200


def messages(page: Any) -> Any:
    return page.get_by_test_id("chat-list").get_by_test_id("chat-message")


def wait_for_message(page: Any, text: str) -> Any:
    found = messages(page).filter(has_text=text)
    found.first.wait_for()
    return found


def stored_report(database: Path, report_id: int) -> tuple[Any, ...]:
    """A stored report's reason, game, message and context (JSON text)."""
    with closing(sqlite3.connect(database)) as db:
        row = db.execute(
            "SELECT reason, game_id, message_id, context FROM reports WHERE id = ?",
            (report_id,),
        ).fetchone()
    assert row is not None, report_id
    return tuple(row)


def test_two_players_chat_a_spectator_apart_a_mute_and_a_report(
    browser: Any, server: str, database: Path, axe_script: str
) -> None:
    with (
        checked_page(browser, **SIZES["desktop"]) as ann,
        checked_page(browser, **SIZES["phone"]) as ben,
        checked_page(browser, **SIZES["phone"]) as cy,
    ):
        in_language(ben, "de")
        record_announcements(ben)
        in_language(cy, "nl")
        ann_api = register_on_page(ann, server, "Ann")
        ben_api = register_on_page(ben, server, "Ben")
        cy_api = register_on_page(cy, server, "Cy")
        finish_a_game(cy_api)
        seats = [{"kind": "human", "me": True}, {"kind": "human", "invite": "Ben"}]
        game_id = ann_api.post("/api/games", json={"type": "nmbr9", "seats": seats}).json()["id"]
        accepted = ben_api.post(f"/api/games/{game_id}/invitation", json={"accept": True})
        assert accepted.status_code == 200, accepted.text
        for page in (ann, ben, cy):
            page.goto(f"{server}/g/{game_id}")
            page.get_by_test_id("chat-form").wait_for()

        # Ann writes from the keyboard; Ben reads it as plain text, Cy never sees it
        ann.get_by_test_id("chat-input").fill(HOSTILE)
        ann.get_by_test_id("chat-input").press("Enter")
        said = wait_for_message(ben, "evil.example")
        assert said.get_by_test_id("chat-text").text_content() == HOSTILE
        assert said.locator("a, img").count() == 0
        ann.get_by_test_id("chat-phrase-well-played").click()
        wait_for_message(ben, "Gut gespielt")  # Ben's page is German
        assert heard(ben, "Gut gespielt") == "Ann: Gut gespielt"  # for a screen reader
        wait_for_message(ann, "Well played")
        assert no_horizontal_overflow(ben)  # a long link-like text wraps on the phone

        cy.get_by_test_id("chat-input").fill("Mooi spel!")
        cy.get_by_test_id("chat-input").press("Enter")
        wait_for_message(cy, "Mooi spel!")
        assert messages(cy).count() == 1  # the players' chat never reaches a spectator
        assert messages(ann).filter(has_text="Mooi spel!").count() == 0  # not asked for
        ann.get_by_test_id("chat-show-spectators").check()
        wait_for_message(ann, "Mooi spel!")
        shot(ann, "chat-desktop")
        check_axe(ann, axe_script, "axe-chat-desktop")
        check_axe(cy, axe_script, "axe-chat-nl-phone")

        ben.get_by_test_id("chat-input").fill("Hallo Ann")
        ben.get_by_test_id("chat-send").click()
        wait_for_message(ann, "Hallo Ann")
        messages(ann).filter(has_text="Hallo Ann").get_by_test_id("chat-mute").click()
        ann.get_by_test_id("toast").filter(has_text="no longer see").wait_for()
        assert messages(ann).filter(has_text="Hallo Ann").count() == 0
        ben.get_by_test_id("chat-input").fill("Noch da?")
        ben.get_by_test_id("chat-send").click()
        wait_for_message(ben, "Noch da?")
        ann.get_by_test_id("chat-input").fill("after the mute")
        ann.get_by_test_id("chat-input").press("Enter")
        wait_for_message(ann, "after the mute")
        assert messages(ann).filter(has_text="Noch da?").count() == 0

        wait_for_message(ben, "after the mute")
        mine = messages(ben).filter(has_text="Noch da?")
        assert mine.get_by_test_id("chat-report").count() == 0  # not on your own
        messages(ben).filter(has_text="evil.example").get_by_test_id("chat-report").click()
        dialog = ben.get_by_test_id("report-dialog")
        dialog.wait_for()
        dialog.get_by_test_id("report-reason-abuse").check()
        dialog.get_by_test_id("report-text").fill("ein Link zu einer fremden Seite")
        check_axe(ben, axe_script, "axe-chat-report-de-phone")
        with ben.expect_response("**/api/reports") as filed:
            dialog.get_by_test_id("report-send").click()
        dialog.wait_for(state="detached")
        assert filed.value.status == 201
        report = json.loads(filed.value.request.post_data)
        message_id = int(said.get_attribute("data-id"))
        assert report == {
            "account": "Ann",
            "reason": "abuse",
            "text": "ein Link zu einer fremden Seite",
            "game": game_id,
            "message": message_id,
        }
        shot(ben, "chat-reported-de-phone")
        stored = stored_report(database, filed.value.json()["report"])
        assert stored[:3] == ("abuse", game_id, message_id)
        assert [m["text"] for m in json.loads(stored[3])["messages"]] == [HOSTILE]
