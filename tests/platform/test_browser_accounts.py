"""Accounts in a real browser, two people in two browser contexts (issue 19): register,
open an NMBR 9 game to the lobby, the second account takes the open seat with one
click, the game is finished (its moves sent over the API with each account's session
cookie: the page's own play is covered by the games' browser tests), both ratings
change on the leaderboard, and log out everywhere. Also: claiming a seat link's seat.
Screenshots go to test-output/screenshots/acc-*.jpg."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from browser_support import (
    SIZES,
    api,
    checked_page,
    choose_game,
    no_horizontal_overflow,
    register_on_page,
    running_server,
    shot,
)
from clock_support import HOUR, TEST_CLOCK, advance_clock, until_a_person_acts

sync_api = pytest.importorskip("playwright.sync_api")
PASSWORD = "moonlight 42"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # a clock the tests move on lets them see a time per move run out
    db = tmp_path_factory.mktemp("accounts") / "games.db"
    with running_server(db, options=TEST_CLOCK) as base:
        yield base


def register(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/me")
    page.get_by_test_id("account-name").fill(name)
    page.get_by_test_id("account-password").fill(PASSWORD)
    page.get_by_test_id("register").click()
    page.get_by_test_id("my-games").wait_for()
    assert page.get_by_test_id("nav-me").inner_text() == name


def session_client(page: Any, base: str) -> httpx.Client:
    """An HTTP client with the page's session cookie: the same account."""
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    return httpx.Client(base_url=base, cookies={"session": cookies["session"]}, timeout=30)


def play_out(game_id: str, players: list[httpx.Client]) -> None:
    """The first account takes its first choice, the second its last, until the end."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for pick, player in zip((0, -1), players, strict=True):
            state = player.get(f"/api/games/{game_id}").json()
            if state["over"]:
                return
            if state["acting"] is not None and state["choices"]:
                move = {"action": state["choices"][pick]["action"], "ply": state["ply"]}
                player.post(f"/api/games/{game_id}/actions", json=move)
        time.sleep(0.02)
    raise AssertionError("the game did not end")


def ratings(page: Any) -> dict[str, tuple[float, int]]:
    """The leaderboard's accounts: name -> (rating, games)."""
    rows = page.locator("[data-testid=rating-row-account]")
    out = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td").all_inner_texts()
        out[cells[1]] = (float(cells[2]), int(cells[3]))
    return out


def test_register_open_join_finish_rate_and_log_out_everywhere(browser: Any, server: str) -> None:
    with (
        checked_page(browser, **SIZES["desktop"]) as ann,
        checked_page(browser, **SIZES["phone"]) as ben,
    ):
        register(ann, server, "Ann")
        shot(ann, "acc-registered")
        register(ben, server, "Ben")

        # Ann opens an NMBR 9 game with a seat for the lobby and a day per move
        ann.goto(server + "/")
        choose_game(ann, "nmbr9", "NMBR 9")
        assert ann.get_by_test_id("seat-0-me").inner_text() == "Ann (you)"
        ann.get_by_test_id("seat-1-kind-open").click()
        assert ann.get_by_test_id("on-timeout").is_hidden()  # no time limit: nothing to choose
        ann.get_by_test_id("option-time_limit").select_option(label="1 day")  # the game's one clock
        assert ann.get_by_test_id("on-timeout").is_visible()
        shot(ann, "acc-create-open-game")
        ann.get_by_test_id("create-game").click()
        ann.get_by_test_id("open-seat-1").wait_for()
        game_id = re.search(r"created=([\w-]+)", ann.url).group(1)

        # Ben finds it among the open games and takes the seat with one click
        ben.get_by_test_id("nav-open-games").click()
        ben.get_by_test_id(f"open-game-{game_id}").wait_for()
        assert "1 day per move" in ben.get_by_test_id(f"open-game-{game_id}").inner_text()
        shot(ben, "acc-open-games-phone")
        assert no_horizontal_overflow(ben)
        ben.get_by_test_id(f"join-{game_id}").click()
        ben.wait_for_url(f"**/g/{game_id}")
        ben.get_by_test_id("turn-banner").wait_for()
        # "(1) Your turn · NMBR 9": the count of games waiting for him first (issue 29)
        ben.wait_for_function("() => document.title.includes('Your turn')")
        assert "1 day per move" in ben.get_by_test_id("time-limit-chip").inner_text()
        shot(ben, "acc-game-joined-phone")
        assert game_id not in [g["id"] for g in api(server, "/api/lobby")["games"]]

        # Ann's "my games" on this device: her turn
        ann.goto(server + "/me")
        assert "your turn" in ann.get_by_test_id(f"my-game-{game_id}").inner_text()

        ann.goto(server + "/leaderboard/nmbr9")
        before = ratings(ann)
        play_out(game_id, [session_client(ann, server), session_client(ben, server)])
        ben.get_by_test_id("end-screen").wait_for()
        assert "Rated game" in ben.get_by_test_id("rating-changes").inner_text()
        shot(ben, "acc-game-over-phone")

        ann.goto(server + "/leaderboard/nmbr9")
        ann.get_by_test_id("leaderboard").wait_for()
        after = ratings(ann)
        shot(ann, "acc-leaderboard")
        assert after["Ann"][1] == after["Ben"][1] == 1
        assert "Ann" not in before and "Ben" not in before  # unrated until now
        # rated, but two newcomers lift nobody: only a tested opponent moves a rating
        # (docs/web.md, "Fair play"); the server tests see ratings move against them
        assert after["Ann"][0] == after["Ben"][0] == 0.0
        ann.goto(server + "/me")
        assert "rating" in ann.get_by_test_id(f"my-game-{game_id}").inner_text()
        shot(ann, "acc-my-games")

        # a second session of Ann's (another device), then log out everywhere
        other = httpx.Client(base_url=server, timeout=30)
        other.post("/api/account/login", json={"name": "ann", "password": PASSWORD})
        assert other.get("/api/account").json()["account"] == {"name": "Ann"}
        ann.get_by_test_id("logout-everywhere").click()
        ann.get_by_test_id("sign-in-form").wait_for()
        assert ann.get_by_test_id("nav-sign-in").is_visible()
        assert other.get("/api/account").json()["account"] is None
        assert session_client(ben, server).get("/api/account").json()["account"]["name"] == "Ben"
        shot(ann, "acc-logged-out")


def test_a_seat_link_opened_while_signed_in_can_be_claimed(browser: Any, server: str) -> None:
    game = api(
        server,
        "/api/games",
        {
            "type": "nmbr9",
            "seats": [{"kind": "human", "name": "Guest"}, {"kind": "bot", "bot": "greedy"}],
        },
    )
    with checked_page(browser, **SIZES["desktop"]) as page:
        register(page, server, "Cleo")
        page.goto(f"{server}/g/{game['id']}#seat={game['seats'][0]['token']}")
        page.get_by_test_id("claim-seat").click()
        # the button goes once the server has answered (its own text names Cleo too)
        page.get_by_test_id("claim-seat").wait_for(state="detached")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=game]')?.textContent.includes('Cleo')"
        )
        shot(page, "acc-seat-claimed")
        state = api(server, f"/api/games/{game['id']}")
        assert state["game"]["seats"][0] == {
            **state["game"]["seats"][0],
            "name": "Cleo",
            "account": True,
        }
        page.goto(server + "/me")
        page.get_by_test_id(f"my-game-{game['id']}").wait_for()


def test_a_game_whose_time_ran_out_shows_it_was_abandoned(browser: Any, server: str) -> None:
    seats = [{"kind": "human", "name": "Slow"}, {"kind": "bot", "bot": "random"}]
    body = {"type": "nova-luna", "seats": seats, "time_limit": HOUR, "on_timeout": "abandon"}
    game = api(server, "/api/games", body)
    with checked_page(browser, **SIZES["phone"]) as page:
        page.goto(f"{server}/g/{game['id']}#seat={game['seats'][0]['token']}")
        assert (
            "whoever runs out of time loses" in page.get_by_test_id("time-limit-chip").inner_text()
        )
        until_a_person_acts(server, game["id"], {0})
        advance_clock(server, HOUR + 1)
        page.wait_for_function(
            "() => document.querySelector('[data-testid=banner-title]')?.textContent"
            ".startsWith('Abandoned')"
        )
        assert page.get_by_test_id("end-screen").count() == 0  # no result to show
        assert page.get_by_test_id("show-result").is_hidden()
        assert "acting" not in (page.get_by_test_id("game").get_attribute("class") or "")
        shot(page, "acc-abandoned-phone")


def test_my_games_says_who_ran_out_of_time(browser: Any, server: str) -> None:
    with checked_page(browser, **SIZES["phone"]) as page:
        client = register_on_page(page, server, "Tardy")
        seats = [{"kind": "human", "me": True}, {"kind": "bot", "bot": "random"}]
        body = {"type": "nova-luna", "seats": seats, "time_limit": HOUR, "on_timeout": "abandon"}
        game_id = client.post("/api/games", json=body).json()["id"]
        until_a_person_acts(server, game_id, {0})
        advance_clock(server, HOUR + 1)
        deadline = time.monotonic() + 60  # only bounds a hang
        while not client.get(f"/api/games/{game_id}").json()["abandoned"]:
            assert time.monotonic() < deadline, "the clock never ran out"
            time.sleep(0.2)
        page.goto(f"{server}/me")
        status = page.get_by_test_id(f"my-game-{game_id}").get_by_test_id("game-status")
        # before: "abandoned", never whose time ran out nor the rating it cost
        assert "Tardy ran out of time and lost · rating" in status.inner_text()
        shot(page, "acc-my-games-timed-out-phone")
        assert no_horizontal_overflow(page)
