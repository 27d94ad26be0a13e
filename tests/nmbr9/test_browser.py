"""NMBR 9 in a real browser: from the lobby to the end screen by clicking (against a bot
and solo), a game with a friend in two browser contexts (pending placements stay
hidden), take back, the ghost's reasons, R and the keyboard. Screenshots go to
test-output/screenshots/n9-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    SIZES,
    api,
    checked_page,
    no_horizontal_overflow,
    ply,
    press,
    require_chromium,
    running_server,
    shot,
    wait_for_ply_after,
)

sync_api = pytest.importorskip("playwright.sync_api")

GREEDY = {"kind": "bot", "bot": "greedy"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("n9browser") / "games.db") as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    require_chromium()
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture(params=list(SIZES))
def size(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def page(browser: Any, size: str) -> Iterator[Any]:
    with checked_page(browser, **SIZES[size]) as page:
        yield page


def create_n9(base: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return api(base, "/api/games", {"type": "nmbr9", "seats": seats, **extra})


def seat_url(base: str, game: dict[str, Any], seat: int) -> str:
    return f"{base}/g/{game['id']}#t={game['seats'][seat]['token']}"


WAIT_FOR_PLACING = """() => {
  const game = document.querySelector('[data-testid=game]');
  if (!game) return false;
  const ghost = document.querySelector('[data-testid=ghost]');
  const placing = game.classList.contains('acting') && !!ghost;
  return placing || !!document.querySelector('[data-testid=end-screen]');
}"""


def wait_for_placing_or_end(page: Any) -> bool:
    """True when this page is to place a tile (the ghost is on the board), False at the end."""
    page.wait_for_function(WAIT_FOR_PLACING, timeout=30_000)
    return page.locator("[data-testid=end-screen]").count() == 0


def confirm_by_hand(page: Any, size: str) -> None:
    """Confirm the ghost where it begins (a legal spot) by a click or tap."""
    before = ply(page)
    assert page.get_attribute("[data-testid=ghost]", "data-legal") == "true"
    press(page, size, "[data-testid=confirm]")
    wait_for_ply_after(page, before)


def open_lobby_nmbr9(page: Any, server: str, size: str) -> None:
    page.goto(server + "/")
    press(page, size, "[data-testid=game-type-nmbr9]")
    page.wait_for_function("() => document.querySelector('.hero h1')?.textContent === 'NMBR 9'")


def create_from_lobby(page: Any, size: str, solo: bool) -> None:
    if solo:
        press(page, size, "[data-testid=seat-1-remove]")
    else:
        page.select_option("[data-testid=seat-1-bot]", "greedy")
    press(page, size, "[data-testid=create-game]")
    press(page, size, "[data-testid=enter-game]")
    page.locator("[data-testid=board]").wait_for()


@pytest.mark.parametrize("solo", [False, True], ids=["bot", "solo"])
def test_a_whole_game_from_the_lobby_by_clicking(
    page: Any, server: str, size: str, solo: bool
) -> None:
    open_lobby_nmbr9(page, server, size)
    assert page.locator("[data-testid=option-remove]").count() == 1
    assert page.locator("[data-testid=option-clock]").count() == 1
    if size == "desktop" and not solo:
        shot(page, f"n9-lobby-{size}")
    create_from_lobby(page, size, solo)
    rounds = 0
    while wait_for_placing_or_end(page):
        if rounds == 3:
            shot(page, f"n9-game-{'solo' if solo else 'bot'}-{size}", full_page=True)
            assert no_horizontal_overflow(page)
        confirm_by_hand(page, size)
        rounds += 1
        assert rounds <= 20
    assert rounds == 20
    end = page.locator("[data-testid=end-screen]")
    assert end.locator("[data-testid=rank-1]").count() == 1
    seats = 1 if solo else 2
    assert end.locator("[data-testid^=end-board-svg-]").count() == seats
    headline = page.inner_text("#end-title")
    assert ("Score:" in headline) if solo else ("wins" in headline or "share" in headline)
    shot(page, f"n9-end-{'solo' if solo else 'bot'}-{size}")
