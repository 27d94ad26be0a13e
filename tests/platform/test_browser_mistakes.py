"""Learn from your mistakes in Chromium, at 1400×900 and 390×844 (touch): a player who
played a short NMBR 9 game by a seat link (badly on purpose: always the lowest level)
opens its analysis, finds the button for their seat, and walks through their marked
moves with the board's own controls: the best move solves a position, the move
played twice shows the best move marked on the board; the walk-through survives a
reload, ends with a summary and goes back to the analysis. Nova Luna's walk-through
by touch on a phone (a tile taken from the wheel and laid, as in a game). A signed-in
player finds the button by their account's seat, without a seat link. axe finds
nothing on the page in English, German and Dutch while a position is shown."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from novaluna import test_browser_axe as axe_checks

from browser_support import (
    SIZES,
    api,
    checked_page,
    press,
    register_on_page,
    running_server,
    shot,
)
from nmbr9_pages import ghost

sync_api = pytest.importorskip("playwright.sync_api")

#: A small budget: the page's behaviour, not the analysis's depth, is tested here.
OPTIONS = ("--analysis-budget", "60")
#: Five rounds of NMBR 9 on a deal whose lowest-level play has two marked placements.
DEAL = {"seed": 3, "options": {"remove": 15}}
#: bounds a hang only
HANG_SECONDS = 180.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("mistakes") / "games.db", options=OPTIONS) as base:
        yield base


def _lowest_level(choices: list[dict[str, Any]]) -> str:
    low = min(c["level"] for c in choices)
    action: str = [c["action"] for c in choices if c["level"] == low][-1]
    return action


def _nmbr9_game(server: str) -> tuple[str, str]:
    """Ann's solo game of NMBR 9, always at the lowest level she can: its id and her token."""
    seats = [{"kind": "human", "name": "Ann"}]
    game = api(server, "/api/games", {"type": "nmbr9", "seats": seats, **DEAL})
    token = game["seats"][0]["token"]
    while not (state := api(server, f"/api/games/{game['id']}", token=token))["over"]:
        body = {"action": _lowest_level(state["choices"]), "ply": state["ply"]}
        api(server, f"/api/games/{game['id']}/actions", body, token=token)
    return game["id"], token


def _nova_luna_game(server: str) -> tuple[str, str]:
    """A two-player Nova Luna first game, Ann always taking the last of her choices and
    Bob the first (the deal has marked moves for Ann): its id and Ann's token."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    body = {"type": "nova-luna", "seats": seats, "seed": 1, "options": {"first_game": True}}
    game = api(server, "/api/games", body)
    tokens = [seat["token"] for seat in game["seats"]]
    url = f"/api/games/{game['id']}"
    while not (state := api(server, url))["over"]:
        seat = state["to_move"]
        mine = api(server, url, token=tokens[seat])
        action = mine["choices"][-1 if seat == 0 else 0]["action"]
        api(server, f"{url}/actions", {"action": action, "ply": mine["ply"]}, token=tokens[seat])
    return game["id"], tokens[0]


@pytest.fixture(scope="module")
def games(server: str) -> dict[str, tuple[str, str]]:
    """Both games, played through the API (the setting up, not what is tested), their
    analyses asked for at once: Nova Luna's is worked out while NMBR 9's pages are tested."""
    games = {"nmbr9": _nmbr9_game(server), "nova-luna": _nova_luna_game(server)}
    for game_id, _ in games.values():
        api(server, f"/api/games/{game_id}/analysis", {})
    return games


def _analysed(server: str, game: tuple[str, str]) -> dict[str, Any]:
    game_id, token = game
    deadline = time.monotonic() + HANG_SECONDS
    while (shown := api(server, f"/api/games/{game_id}/analysis"))["status"] != "done":
        assert time.monotonic() < deadline, shown
        time.sleep(0.2)
    marked = [m for m in shown["analysis"]["seats"][0]["moves"] if m["mark"]]
    assert len(marked) >= 2, marked  # the deals are chosen for it
    return {"id": game_id, "token": token, "marked": marked}


@pytest.fixture(scope="module")
def played(server: str, games: dict[str, tuple[str, str]]) -> dict[str, Any]:
    return _analysed(server, games["nmbr9"])


@pytest.fixture(scope="module")
def nova_luna(server: str, games: dict[str, tuple[str, str]]) -> dict[str, Any]:
    return _analysed(server, games["nova-luna"])


def _open_as_the_player(
    page: Any, server: str, played: dict[str, Any], size: str, ready: str = "[data-testid=ghost]"
) -> None:
    """Ann's seat link (this browser now knows her seat), then the game's analysis."""
    page.goto(f"{server}/g/{played['id']}#seat={played['token']}")
    page.get_by_test_id("end-screen").wait_for()
    page.goto(f"{server}/replay/{played['id']}")
    button = page.get_by_test_id("learn-0")
    button.wait_for(timeout=HANG_SECONDS * 1000)
    button.scroll_into_view_if_needed()
    press(page, size, "[data-testid=learn-0]")
    page.get_by_test_id("learn-prompt").wait_for()
    page.locator(f"[data-testid=learn] {ready}").wait_for()


def _place(page: Any, action: str) -> None:
    """Steer the ghost to ``action`` (r<rotation>@x,y) with the keyboard and confirm it."""
    rotation, spot = action[1:].split("@")
    x, y = (int(v) for v in spot.split(","))
    page.locator("[data-testid=learn] [data-testid=board]").focus()
    while ghost(page)["rot"] != int(rotation):
        page.keyboard.press("r")
    for _ in range(60):
        at = ghost(page)
        if (at["x"], at["y"]) == (x, y):
            break
        key = (
            "ArrowRight"
            if at["x"] < x
            else "ArrowLeft"
            if at["x"] > x
            else "ArrowDown"
            if at["y"] < y
            else "ArrowUp"
        )
        page.keyboard.press(key)
    assert (ghost(page)["x"], ghost(page)["y"]) == (x, y)
    page.keyboard.press("Enter")


def _feedback(page: Any, text: str) -> str:
    page.wait_for_function(
        "(t) => document.querySelector('[data-testid=learn-feedback]').textContent.includes(t)",
        arg=text,
    )
    said: str = page.inner_text("[data-testid=learn-feedback]")
    return said


def _take_and_place(page: Any, action: str) -> None:
    """Nova Luna by touch: the tile on the wheel, the cell, then *Place here*."""
    if action in ("refill", "end"):
        page.locator(
            f"[data-testid=learn] [data-testid={'refill' if action == 'refill' else 'end-phase'}]"
        ).tap()
        return
    space, cell = action.split("@")
    page.locator(f"[data-testid=learn] [data-testid=space-{space}]").tap()
    page.locator(f"[data-testid=learn] [data-testid='cell-{cell}']").tap()
    page.locator("[data-testid=learn] [data-testid=confirm-place]").tap()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_walk_through_solves_one_position_and_is_shown_the_best_of_the_next(
    browser: Any, server: str, played: dict[str, Any], size: str
) -> None:
    first, second = played["marked"][:2]
    with checked_page(browser, **SIZES[size]) as page:
        _open_as_the_player(page, server, played, size)
        n = len(played["marked"])
        assert page.inner_text("[data-testid=learn-counter]") == f"Position 1 of {n}"
        assert "Find a better move" in page.inner_text("[data-testid=learn-prompt]")
        assert page.get_by_test_id("analysis").is_hidden()  # the replay stepped aside
        if size == "phone":  # the prompt and the board on the first screen
            board = page.locator("[data-testid=learn] [data-testid=board]").bounding_box()
            assert board is not None and board["y"] < 844 * 0.6, board
        shot(page, f"mistakes-position-{size}")
        _place(page, first["best"])
        assert "Solved" in _feedback(page, "Solved")
        # a reload carries on with the next position
        page.reload()
        page.get_by_test_id("learn-prompt").wait_for()
        assert page.inner_text("[data-testid=learn-counter]") == f"Position 2 of {n}"
        page.locator("[data-testid=learn] [data-testid=ghost]").wait_for()
        _place(page, second["played"])
        assert "Try again" in _feedback(page, "Try again")
        page.locator("[data-testid=learn] [data-testid=ghost]").wait_for()
        _place(page, second["played"])
        _feedback(page, "The best move was")
        page.locator("[data-testid=learn] [data-testid=move-highlight]").wait_for()
        shot(page, f"mistakes-best-{size}")
        for _ in range(n - 1):  # on to the end: skip what is left
            nxt = page.locator("[data-testid=learn-next], [data-testid=learn-skip]").first
            nxt.wait_for()
            press(page, size, "[data-testid=learn-next], [data-testid=learn-skip]")
        summary = page.get_by_test_id("learn-summary")
        summary.wait_for()
        assert summary.inner_text() == f"You found a better move in 1 of {n} positions."
        results = page.locator("[data-testid=learn-results] li")
        assert results.count() == n and "better move found" in results.first.inner_text()
        assert page.locator("[data-testid=learn-results] li.found").count() == 1
        assert results.nth(1).inner_text().endswith("best move shown")
        assert all(results.nth(i).inner_text().endswith("skipped") for i in range(2, n))
        shot(page, f"mistakes-summary-{size}")
        press(page, size, "[data-testid=learn-leave]")
        page.get_by_test_id("analysis").wait_for()
        assert page.get_by_test_id("learn").count() == 0
        assert "learn" not in page.url


def test_a_position_has_no_axe_violations_in_any_language(
    browser: Any, server: str, played: dict[str, Any], axe_script: str
) -> None:
    with checked_page(browser, **SIZES["phone"]) as page:
        _open_as_the_player(page, server, played, "phone")
        for lang in ("en", "de", "nl"):
            page.select_option("[data-testid=language]", lang)
            page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
            page.locator("[data-testid=learn] [data-testid=ghost]").wait_for()
            axe_checks.check_axe(page, axe_script, f"mistakes-axe-{lang}")


def test_nova_luna_on_a_phone_solves_a_position_and_ends_with_the_summary(
    browser: Any, server: str, nova_luna: dict[str, Any]
) -> None:
    n = len(nova_luna["marked"])
    with checked_page(browser, **SIZES["phone"]) as page:
        _open_as_the_player(page, server, nova_luna, "phone", ready="[data-testid=wheel]")
        assert page.inner_text("[data-testid=learn-counter]") == f"Position 1 of {n}"
        shot(page, "mistakes-novaluna-position-phone")
        _take_and_place(page, nova_luna["marked"][0]["best"])
        assert "Solved" in _feedback(page, "Solved")
        for _ in range(n):  # on to the end: the next position, then skip what is left
            press(page, "phone", "[data-testid=learn-next], [data-testid=learn-skip]")
        summary = page.get_by_test_id("learn-summary")
        summary.wait_for()
        assert summary.inner_text() == f"You found a better move in 1 of {n} positions."


def test_a_signed_in_player_learns_from_the_mistakes_of_their_accounts_seat(
    browser: Any, server: str
) -> None:
    """No seat link in this browser: the account says which seat is the player's."""
    with checked_page(browser, **SIZES["desktop"]) as page:
        person = register_on_page(page, server, "Learner")
        seats = [{"kind": "human", "me": True}]
        made = person.post("/api/games", json={"type": "nmbr9", "seats": seats, **DEAL})
        assert made.status_code == 201, made.text
        url = f"/api/games/{made.json()['id']}"
        while not (state := person.get(url).json())["over"]:
            body = {"action": _lowest_level(state["choices"]), "ply": state["ply"]}
            assert person.post(f"{url}/actions", json=body).status_code == 200
        person.post(f"{url}/analysis")
        page.goto(f"{server}/replay/{made.json()['id']}")
        page.get_by_test_id("learn-0").click(timeout=HANG_SECONDS * 1000)
        page.locator("[data-testid=learn] [data-testid=ghost]").wait_for()
        assert "Find a better move" in page.inner_text("[data-testid=learn-prompt]")
