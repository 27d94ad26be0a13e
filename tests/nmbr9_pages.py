"""What the NMBR 9 browser tests share: creating games, waiting for the page to place,
confirming a placement, the lobby, and reading the ghost and the boards."""

from __future__ import annotations

from typing import Any

from browser_support import api, press

GREEDY = {"kind": "bot", "bot": "greedy"}


def create_n9(base: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return api(base, "/api/games", {"type": "nmbr9", "seats": seats, **extra})


def seat_url(base: str, game: dict[str, Any], seat: int) -> str:
    return f"{base}/g/{game['id']}#seat={game['seats'][seat]['token']}"


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


PLACED = """([round, banner]) => !document.querySelector('[data-testid=ghost]')
  || document.querySelector('[data-testid=round]').textContent !== round
  || document.querySelector('[data-testid=banner-title]').textContent !== banner
  || !!document.querySelector('[data-testid=end-screen]')"""


def confirm_and_wait(page: Any, confirm: Any) -> None:
    """Call ``confirm()`` and wait until the page has this seat's placement: its ghost
    gone, the next round begun, or (hot-seat) the next seat's turn (a bot's placement
    also moves the ply on, so waiting for any new ply could let a test place twice)."""
    seen = [page.inner_text("[data-testid=round]"), page.inner_text("[data-testid=banner-title]")]
    confirm()
    page.wait_for_function(PLACED, arg=seen)


def confirm_by_hand(page: Any, size: str) -> None:
    """Confirm the ghost where it begins (a legal spot) by a click or tap."""
    assert page.get_attribute("[data-testid=ghost]", "data-legal") == "true"
    confirm_and_wait(page, lambda: press(page, size, "[data-testid=confirm]"))


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


def ghost(page: Any) -> dict[str, Any]:
    g = page.locator("[data-testid=ghost]")
    x, y = (int(v) for v in g.get_attribute("data-at").split(","))
    return {
        "rot": int(g.get_attribute("data-rot")),
        "x": x,
        "y": y,
        "legal": g.get_attribute("data-legal") == "true",
    }


def tiles_on_board(page: Any, seat: int) -> int:
    return page.locator(f"[data-testid=mini-svg-{seat}] .n9-tile").count()


def spot_name(x: int, y: int) -> str:
    """The page's name for a spot (see spotName in index.js)."""
    signed = lambda n: f"\u2212{-n}" if n < 0 else str(n)  # noqa: E731
    return f"column {signed(x)}, row {signed(y)}"
