"""Friends in a real browser (issue 46): Ann follows Ben from his profile, sees him
online and the game he plays on her friends page (a spectator's link), invites him to a
new game with one click (it reaches his *My games* live), and opens a friends-only game
that Ben sees in the lobby and a stranger does not. axe finds nothing on the friends page
in English on a desktop and in German and Dutch on a phone, the follow made there by
keyboard (desktop) or a tap (phone). Screenshots: test-output/screenshots/friends-*.jpg
and axe-friends-*.jpg."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from novaluna.test_browser_axe import check_axe

from browser_support import (
    SIZES,
    checked_page,
    choose_game,
    no_horizontal_overflow,
    press,
    register_on_page,
    running_server,
    shot,
)

sync_api = pytest.importorskip("playwright.sync_api")

GREEDY = {"kind": "bot", "bot": "greedy"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("friends") / "games.db") as base:
        yield base


def register(base: str, name: str) -> httpx.Client:
    """A client signed in to a new account (no page)."""
    client = httpx.Client(base_url=base, timeout=30)
    made = client.post("/api/account/register", json={"name": name, "password": "moonlight 42"})
    assert made.status_code == 201, made.text
    return client


def account_socket(base: str, who: httpx.Client) -> ClientConnection:
    """``who`` online: its account socket open (as a tab of it would hold)."""
    url = base.replace("http://", "ws://") + "/api/account/ws"
    headers = {"Cookie": f"session={who.cookies['session']}"}
    ws = connect(url, additional_headers=headers, open_timeout=10).__enter__()
    ws.recv(timeout=30)  # its games: counted online before this is sent
    return ws


def against_a_bot(who: httpx.Client) -> str:
    seats = [{"kind": "human", "me": True}, GREEDY]
    made = who.post("/api/games", json={"type": "nova-luna", "seats": seats})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def test_ann_follows_ben_sees_him_play_and_invites_him(browser: Any, server: str) -> None:
    with (
        checked_page(browser, **SIZES["desktop"]) as ann,
        checked_page(browser, **SIZES["phone"]) as ben,
    ):
        register_on_page(ann, server, "Ann")
        ben_api = register_on_page(ben, server, "Ben")  # his My games stays open: online
        playing = against_a_bot(ben_api)

        ann.goto(f"{server}/u/Ben")
        ann.get_by_test_id("follow").click()
        ann.wait_for_function(
            "() => document.querySelector('[data-testid=follow]').ariaPressed === 'true'"
        )
        ann.get_by_test_id("nav-friends").click()
        friend = ann.get_by_test_id("friend-Ben")
        friend.wait_for()
        assert friend.get_attribute("data-online") == "yes"
        assert ann.get_by_test_id("friend-state-Ben").inner_text() == "online"
        watch = ann.get_by_test_id(f"watch-{playing}")
        assert watch.get_attribute("href") == f"/g/{playing}"  # no seat link
        shot(ann, "friends-list")

        ann.get_by_test_id("invite-Ben-nmbr9").click()  # one click: a game, Ben invited
        ann.wait_for_url(re.compile(r"/g/[\w-]+#seat="))
        invited = ann.url.split("/g/")[1].split("#")[0]
        ben.get_by_test_id(f"accept-{invited}").wait_for()  # live, no reload
        shot(ben, "friends-invited-phone")

        ann.goto(server + "/")
        choose_game(ann, "nmbr9", "NMBR 9")
        ann.get_by_test_id("seat-1-kind-open").click()
        ann.get_by_test_id("friends-only").check()
        ann.get_by_test_id("create-game").click()
        ann.wait_for_url(re.compile(r"created="))
        only = re.search(r"created=([\w-]+)", ann.url).group(1)  # type: ignore[union-attr]
        ben.goto(f"{server}/lobby")
        listed = ben.get_by_test_id(f"open-game-{only}")
        listed.wait_for()
        assert "friends only" in listed.inner_text()
        assert no_horizontal_overflow(ben)
        shot(ben, "friends-only-lobby-phone")
        stranger = register(server, "Cy")
        assert only not in [g["id"] for g in stranger.get("/api/lobby").json()["games"]]
        refused = stranger.post(f"/api/games/{only}/join", json={})
        assert refused.status_code == 409 and "no open seat" in refused.json()["error"]


LOOKS = [("en", "desktop"), ("de", "phone"), ("nl", "phone")]


@pytest.mark.parametrize(("lang", "size"), LOOKS, ids=[f"{lang}-{size}" for lang, size in LOOKS])
def test_the_friends_page_passes_axe(
    browser: Any, server: str, axe_script: str, lang: str, size: str
) -> None:
    star = register(server, f"Star{lang}")
    against_a_bot(star)
    online = account_socket(server, star)
    try:
        with checked_page(browser, **SIZES[size]) as page:
            page.add_init_script(f"localStorage.setItem('boardgames.language.v1', {lang!r})")
            register_on_page(page, server, f"Fan{lang}")
            page.goto(f"{server}/friends")
            page.get_by_test_id("no-friends").wait_for()
            page.get_by_test_id("follow-name").fill(f"Star{lang}")
            if size == "phone":
                press(page, size, "[data-testid=follow-submit]")
            else:
                page.get_by_test_id("follow-name").press("Enter")  # the keyboard's way
            page.locator(f"[data-testid=friend-Star{lang}][data-online=yes]").wait_for()
            assert no_horizontal_overflow(page)
            name = f"axe-friends-{size}" if lang == "en" else f"axe-friends-{lang}-{size}"
            check_axe(page, axe_script, name)
    finally:
        online.close()
