"""NMBR 9's board in a real browser: zoom and a tap, the ghost following the mouse,
panning limits, Ctrl+wheel and pinch zoom, the hint, the replay round by round.
Screenshots go to test-output/screenshots/n9-*.jpg."""

from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import (
    ply,
    running_server,
    wait_for_game,
    wait_until_over,
)
from nmbr9_pages import (
    GREEDY,
    confirm_by_hand,
    create_n9,
    ghost,
    seat_url,
    spot_name,
    wait_for_placing_or_end,
)

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("n9board") / "games.db") as base:
        yield base


#: The board's view width and the ghost's spot, read in the page (which redraws them
#: after a tap: a test waits for the change rather than reading at once)
VIEW_WIDTH = "parseFloat(document.querySelector('[data-testid=board] svg')"
VIEW_WIDTH += ".getAttribute('viewBox').split(' ')[2])"
GHOST_AT = "document.querySelector('[data-testid=ghost]')?.getAttribute('data-at')"


def view_width(page: Any) -> float:
    return float(page.get_attribute("[data-testid=board] svg", "viewBox").split()[2])


@pytest.mark.parametrize("size", ["phone"])
def test_zoom_and_a_tap_puts_the_ghost_there(page: Any, server: str) -> None:
    game = create_n9(server, [{"kind": "human", "name": "Ann"}, GREEDY], seed=5)
    page.goto(seat_url(server, game, 0))
    assert wait_for_placing_or_end(page)
    confirm_by_hand(page, "phone")
    assert wait_for_placing_or_end(page)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=round]').textContent.startsWith('Round 2')"
    )
    wide = view_width(page)
    page.locator("[data-testid=zoom-in]").tap()
    page.wait_for_function(f"() => ({VIEW_WIDTH}) < {wide}")  # the page redraws it
    page.locator("[data-testid=zoom-out]").tap()
    page.locator("[data-testid=zoom-out]").tap()
    page.wait_for_function(f"() => ({VIEW_WIDTH}) > {wide}")
    start = ghost(page)
    # the top-left corner, found and tapped in one step once the board holds still (a
    # position measured first may be stale: the bot's placement shifts the page)
    page.locator("[data-testid=board]").tap(position={"x": 12, "y": 12})
    at = f"{start['x']},{start['y']}"
    page.wait_for_function(f"() => ({GHOST_AT}) !== '{at}'")  # the ghost moved
    moved = ghost(page)
    assert moved["x"] < start["x"] and moved["y"] < start["y"]
    assert not moved["legal"]
    assert page.inner_text("[data-testid=ghost-status]").startswith("Not here:")


def ghost_centre(page: Any) -> tuple[float, float]:
    """The ghost's centre on the page, measured in one step in the page: every push redraws
    the board, so an element Playwright found a moment earlier may be gone by the time it
    measures it (``bounding_box()`` then answers None)."""
    centre = page.wait_for_function(
        """() => {
      const g = document.querySelector('[data-testid=ghost]');
      const r = g && g.getBoundingClientRect();
      return r && r.width > 0 ? [r.x + r.width / 2, r.y + r.height / 2] : null;
    }"""
    ).json_value()
    return centre[0], centre[1]


def start_round_two(page: Any, server: str, seed: int) -> dict[str, Any]:
    """A game against Greedy at its second round (a tile on your board), ghost shown."""
    game = create_n9(server, [{"kind": "human", "name": "Ann"}, GREEDY], seed=seed)
    page.goto(seat_url(server, game, 0))
    assert wait_for_placing_or_end(page)
    confirm_by_hand(page, "desktop" if page.viewport_size["width"] > 600 else "phone")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=round]').textContent.startsWith('Round 2')"
    )
    page.locator("[data-testid=ghost]").wait_for()
    return game


@pytest.mark.parametrize("size", ["desktop"])
def test_the_ghost_follows_the_mouse_and_stays_where_clicked(page: Any, server: str) -> None:
    game = start_round_two(page, server, seed=6)
    start = ghost(page)
    assert start["legal"]
    x, y = ghost_centre(page)
    board = page.locator("[data-testid=board]").bounding_box()
    page.mouse.move(board["x"] + 20, board["y"] + 20, steps=5)  # hover: it follows, snapped
    away = ghost(page)
    assert (away["x"], away["y"]) != (start["x"], start["y"])
    page.mouse.move(x, y, steps=5)
    assert ghost(page) == start  # back on the same squares
    page.mouse.click(x, y)  # pinned: moving on to Confirm across the board leaves it there
    pinned = page.locator("[data-testid=ghost]")
    assert pinned.get_attribute("data-pinned") == "true" and "Esc" in status_text(page)
    page.keyboard.press("Escape")  # let go: it follows the pointer again
    assert page.locator("[data-testid=ghost]").get_attribute("data-pinned") == "false"
    page.mouse.move(board["x"] + 20, board["y"] + 20, steps=5)
    assert ghost(page) != start
    page.mouse.move(x, y, steps=5)
    page.mouse.click(x, y)
    confirm = page.locator("[data-testid=confirm]").bounding_box()
    page.mouse.move(board["x"] + 30, board["y"] + board["height"] - 30, steps=8)
    page.mouse.move(confirm["x"] + 10, confirm["y"] + 10, steps=8)
    assert ghost(page) == start
    before = ply(page)
    page.mouse.click(confirm["x"] + 10, confirm["y"] + 10)
    # seat 0's own entry, not the ply: the bot's placement of the round grows it too,
    # and under load it can come between the click and the click's placement
    wait_for_game(
        server,
        game["id"],
        lambda s: any(entry["seat"] == 0 for entry in s["log"][before:]),
        "the click's placement",
    )


def status_text(page: Any) -> str:
    return str(page.inner_text("[data-testid=game] [data-testid=ghost-status]"))


def view_box(page: Any) -> list[float]:
    return [float(v) for v in page.get_attribute("[data-testid=board] svg", "viewBox").split()]


def tiles_in_view(page: Any) -> int:
    """The board's tiles that overlap the visible part of the board."""
    return page.evaluate(
        """() => {
      const view = document.querySelector('[data-testid=board]').getBoundingClientRect();
      return [...document.querySelectorAll('[data-testid=board] .n9-tile')].filter((t) => {
        const r = t.getBoundingClientRect();
        return r.right > view.left && r.left < view.right
          && r.bottom > view.top && r.top < view.bottom;
      }).length;
    }"""
    )


@pytest.mark.parametrize("size", ["desktop"])
def test_panning_far_keeps_the_board_in_view(page: Any, server: str) -> None:
    start_round_two(page, server, seed=7)
    board = page.locator("[data-testid=board]").bounding_box()
    cx, cy = board["x"] + board["width"] / 2, board["y"] + board["height"] / 2
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):  # drag far each way
        page.mouse.move(cx, cy)
        page.mouse.down()
        for _ in range(6):
            page.mouse.move(cx + dx * 2000, cy + dy * 2000, steps=4)
        page.mouse.up()
        assert tiles_in_view(page) >= 1, (dx, dy)
    # the arrow keys pan too, and stop at the same limit; the ghost stays within reach
    page.locator("[data-testid=board]").focus()
    for _ in range(40):
        page.keyboard.press("ArrowLeft")
    assert tiles_in_view(page) >= 1
    assert page.locator("[data-testid=ghost]").count() == 1


@pytest.mark.parametrize("size", ["desktop"])
def test_ctrl_wheel_zooms_and_the_board_stays_usable(page: Any, server: str) -> None:
    start_round_two(page, server, seed=8)
    wide, start = view_box(page)[2], ghost(page)
    page.mouse.move(*ghost_centre(page))  # the ghost follows the mouse: onto its own squares
    assert ghost(page) == start
    page.keyboard.down("Control")
    for _ in range(3):
        page.mouse.wheel(0, -100)
    page.keyboard.up("Control")
    page.wait_for_function(
        "(w) => parseFloat(document.querySelector("
        "'[data-testid=board] svg').getAttribute('viewBox').split(' ')[2]) < w",
        arg=wide,
    )
    assert view_box(page)[2] < wide * 0.9
    assert page.evaluate("() => window.scrollY") == 0  # Ctrl+wheel zooms the board, not the page
    page.keyboard.down("Control")
    for _ in range(30):
        page.mouse.wheel(0, 100)
    page.keyboard.up("Control")
    page.wait_for_function(  # out, to the limit
        "(w) => parseFloat(document.querySelector("
        "'[data-testid=board] svg').getAttribute('viewBox').split(' ')[2]) > w",
        arg=wide,
    )
    assert tiles_in_view(page) == 1
    page.locator("[data-testid=zoom-fit]").click()
    page.locator("[data-testid=board]").focus()
    page.keyboard.press("Enter")  # the ghost is still where it began: a legal spot
    page.wait_for_function(
        "() => document.querySelector('[data-testid=round]').textContent.startsWith('Round 3')"
    )


PINCH = """([x, y, from, to]) => {
  const el = document.querySelector('[data-testid=board]');
  const fire = (type, id, dx) => el.dispatchEvent(new PointerEvent(type, {
    pointerId: id, pointerType: 'touch', isPrimary: id === 11, bubbles: true,
    clientX: x + dx, clientY: y }));
  fire('pointerdown', 11, -from / 2);
  fire('pointerdown', 12, from / 2);
  for (let i = 1; i <= 5; i++) {
    const d = from + (to - from) * i / 5;
    fire('pointermove', 11, -d / 2);
    fire('pointermove', 12, d / 2);
  }
  fire('pointerup', 11, -to / 2);
  fire('pointerup', 12, to / 2);
}"""


@pytest.mark.parametrize("size", ["phone"])
def test_a_pinch_zooms_and_places_nothing(page: Any, server: str) -> None:
    start_round_two(page, server, seed=9)
    start, wide = ghost(page), view_box(page)[2]
    board = page.locator("[data-testid=board]").bounding_box()
    centre = [board["x"] + board["width"] / 2, board["y"] + board["height"] / 2]
    page.evaluate(PINCH, [*centre, 60, 150])  # fingers apart: in
    assert view_box(page)[2] < wide * 0.6
    page.evaluate(PINCH, [*centre, 200, 80])  # together: out
    assert view_box(page)[2] > wide * 0.6
    assert ghost(page) == start  # a pinch is no tap: the ghost did not move
    assert page.locator("[data-testid=confirm]").is_visible()  # nothing placed
    page.locator("[data-testid=confirm]").tap()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=round]').textContent.startsWith('Round 3')"
    )


@pytest.mark.parametrize("size", ["desktop"])
def test_a_hint_names_its_spot_as_the_keyboard_does_and_moves_the_ghost_there(
    page: Any, server: str
) -> None:
    start_round_two(page, server, seed=10)
    page.click("[data-testid=hint]")
    page.locator("[data-testid=play-hint]").wait_for()
    g = ghost(page)  # the ghost went to the suggestion
    text = page.inner_text("[data-testid=hint-box]")
    assert f"at {spot_name(g['x'], g['y'])}, on level" in text, text
    assert page.locator("[data-testid=hint-outline]").count() == 1


@pytest.mark.parametrize("size", ["desktop"])
def test_a_replay_steps_round_by_round(page: Any, server: str) -> None:
    """The replay counts NMBR 9's steps as rounds: the game's facts say so
    (``replay_step``), not a word in its page module."""
    game = create_n9(server, [GREEDY, {"kind": "bot", "bot": "random"}], options={"remove": 17})
    wait_until_over(server, game["id"])
    page.goto(f"{server}/replay/{game['id']}")
    counter = page.locator("[data-testid=replay-counter]")
    counter.wait_for()
    assert counter.inner_text().startswith("Start · 3 rounds")
    assert page.get_attribute("[data-testid=replay-slider]", "aria-label") == "Round"
    page.click("[data-testid=replay-next]")
    assert counter.inner_text().startswith("Round 1 of 3")
