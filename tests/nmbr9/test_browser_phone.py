"""NMBR 9 on a phone (390×844, touch) and a desktop (1400×900), measured in Chromium
(issue 30): a whole game by taps alone never shows a square under 28 px nor a control
under 44×44 px and always shows the card being placed, with Confirm on screen; every
control of the lobby and both games' pages is 44×44 px at least on a touch screen; the
end screen shows each player's score per level, legible boards, the winner and the
margin, and shares the result (the Web Share API, else the clipboard). Screenshots go to
test-output/screenshots/n9-phone-*.jpg and n9-end-*.jpg."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import SIZES, api, checked_page, running_server, shot
from nmbr9_support import package_tiles_json

sync_api = pytest.importorskip("playwright.sync_api")

TILES = {int(digit): rows for digit, rows in package_tiles_json().items()}
GREEDY = {"kind": "bot", "bot": "greedy"}
#: the smallest square a finger can aim at, and the smallest control (WCAG 2.5.5)
SQUARE_PX = 28
TARGET_PX = 44
#: how many squares each digit's tile has (RULES.md's shapes)
SQUARES = {digit: sum(row.count("#") for row in rows) for digit, rows in TILES.items()}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("n9phone") / "games.db") as base:
        yield base


#: Every control a finger could aim at that is drawn (not hidden, not ``display: none``)
#: and smaller than ``min`` either way: a checkbox counts as its label, the language
#: select as the code it lies over (see shell.css).
SMALL_TARGETS = """(min) => {
  const sel = 'a[href], button, select, input:not([type=hidden]), textarea, summary, '
    + '[role=button], [role=radio], [role=tab]';
  const small = [];
  for (const el of document.querySelectorAll(sel)) {
    if (el.closest('[hidden], .visually-hidden') || !el.checkVisibility()) continue;
    const target = el.matches('input[type=checkbox], input[type=radio]')
      && el.closest('label') || el;
    const r = target.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.width < min - 0.5 || r.height < min - 0.5) {
      const name = el.dataset.testid || el.getAttribute('aria-label') || el.className
        || el.tagName;
      small.push(`${name}: ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return small;
}"""

SQUARE = """() => {
  const svg = document.querySelector('[data-testid=board] svg');
  const w = parseFloat(svg.getAttribute('viewBox').split(' ')[2]);
  return svg.getBoundingClientRect().width / w;
}"""

IN_VIEW = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight
    && r.right <= innerWidth;
}"""

PLACING = """() => !!document.querySelector('[data-testid=end-screen]')
  || (document.querySelector('[data-testid=game]')?.classList.contains('acting')
      && document.querySelector('[data-testid=ghost]')?.dataset.legal === 'true')"""


def small_targets(page: Any) -> list[str]:
    return page.evaluate(SMALL_TARGETS, TARGET_PX)


def in_view(page: Any, selector: str) -> bool:
    return page.evaluate(IN_VIEW, selector)


def tap_ghost(page: Any) -> None:
    """Tap the ghost's middle square (a tap puts the ghost there: where it already is)."""
    centre = page.evaluate(
        """() => { const r = document.querySelector('[data-testid=ghost]').getBoundingClientRect();
                   return [r.x + r.width / 2, r.y + r.height / 2]; }"""
    )
    page.touchscreen.tap(*centre)


@pytest.mark.parametrize("size", ["phone"])
def test_a_whole_game_on_a_phone_by_taps_keeps_squares_targets_and_the_card_in_reach(
    page: Any, server: str
) -> None:
    page.goto(server + "/")
    page.locator("[data-testid=game-type-nmbr9]").tap()
    page.locator("[data-testid=option-remove]").wait_for()
    assert small_targets(page) == [], "the lobby"
    page.select_option("[data-testid=seat-1-bot]", "greedy")
    page.locator("[data-testid=create-game]").tap()
    page.locator("[data-testid=enter-game]").tap()
    page.locator("[data-testid=board]").wait_for()
    game_id = page.url.split("/g/")[1].split("#")[0]
    squares = []
    for number in range(20):
        page.wait_for_function(PLACING, timeout=30_000)
        assert page.locator("[data-testid=end-screen]").count() == 0, number
        card = api(server, f"/api/games/{game_id}")["view"]["card"]
        strip = page.locator("[data-testid=card-strip]")
        assert strip.get_attribute("data-card") == str(card)
        assert strip.locator("[data-testid=card-strip-shape] rect").count() == SQUARES[card]
        assert in_view(page, "[data-testid=card-strip]"), f"round {number + 1}: the card"
        assert in_view(page, "[data-testid=confirm]"), f"round {number + 1}: Confirm"
        assert in_view(page, "[data-testid=ghost]"), f"round {number + 1}: the ghost"
        square = page.evaluate(SQUARE)
        squares.append(round(square, 1))
        assert square >= SQUARE_PX, f"round {number + 1}: {square:.1f} px a square"
        assert small_targets(page) == [], f"round {number + 1}"
        if number in (0, 9, 19):
            shot(page, f"n9-phone-round-{number + 1}")
        tap_ghost(page)
        assert page.get_attribute("[data-testid=ghost]", "data-legal") == "true"
        seen = page.inner_text("[data-testid=round]")
        page.locator("[data-testid=confirm]").tap()
        page.wait_for_function(
            "(r) => document.querySelector('[data-testid=round]').textContent !== r"
            " || !!document.querySelector('[data-testid=end-screen]')",
            arg=seen,
            timeout=30_000,
        )
    page.locator("[data-testid=end-screen]").wait_for(timeout=30_000)
    assert small_targets(page) == [], "the end screen"
    shot(page, "n9-phone-end")
    print("px a square, round by round:", squares)


def compact(choices: list[dict[str, Any]]) -> dict[str, Any]:
    """The highest placement, of those the one nearest the first tile: a board as a player
    builds it (the first choice of each round would lay a line across the table)."""

    def distance(choice: dict[str, Any]) -> int:
        x, y = (int(v) for v in choice["action"].split("@")[1].split(","))
        return x * x + y * y

    return max(choices, key=lambda c: (c["level"], -distance(c)))


@pytest.mark.parametrize("size", ["phone"])
def test_every_control_of_the_lobby_and_both_games_is_44_px_on_a_touch_screen(
    page: Any, server: str
) -> None:
    page.goto(server + "/")
    page.locator("[data-testid=create-form]").wait_for()
    page.locator(".advanced summary").tap()  # the options behind it too
    page.locator(".how summary").tap()
    assert small_targets(page) == [], "the lobby, Nova Luna"
    page.locator("[data-testid=game-type-nmbr9]").tap()
    page.locator("[data-testid=option-remove]").wait_for()
    assert small_targets(page) == [], "the lobby, NMBR 9"
    game = api(server, "/api/games", {"type": "nova-luna", "seats": [{"kind": "human"}, GREEDY]})
    page.goto(server + game["seats"][0]["link"])
    page.locator("[data-testid=wheel] .space[data-takeable='1']").first.tap()
    page.locator("[data-testid^='cell-']").first.wait_for()
    assert small_targets(page) == [], "Nova Luna's page"
    shot(page, "n9-phone-targets-novaluna", full_page=True)
    game = api(server, "/api/games", {"type": "nmbr9", "seats": [{"kind": "human"}, GREEDY]})
    page.goto(server + game["seats"][0]["link"])
    page.locator("[data-testid=ghost]").wait_for()
    page.locator("[data-testid=hint]").tap()
    page.locator("[data-testid=play-hint]").wait_for()
    assert small_targets(page) == [], "NMBR 9's page with a hint"
    page.goto(server + "/daily")
    page.locator("[data-testid=daily-day]").wait_for()
    assert small_targets(page) == [], "the daily challenge"


def finish_by_api(base: str, game: dict[str, Any]) -> None:
    """Play seat 0 of ``game`` to the end through the API (``compact``'s choice each round)."""
    token = game["seats"][0]["token"]
    path = f"/api/games/{game['id']}"
    deadline = time.monotonic() + 90
    while True:
        state = api(base, path, token=token)
        if state["over"]:
            return
        if state["acting"] == 0:
            body = {"action": compact(state["choices"])["action"], "ply": state["ply"]}
            api(base, f"{path}/actions", body, token)
        else:
            time.sleep(0.05)
        assert time.monotonic() < deadline, "the game did not end"


@pytest.fixture(scope="module")
def finished(server: str) -> dict[str, Any]:
    seats = [{"kind": "human", "name": "Ann"}, GREEDY]
    game = api(server, "/api/games", {"type": "nmbr9", "seats": seats, "seed": 12})
    finish_by_api(server, game)
    return game


#: navigator.share, recorded (a phone's share sheet cannot be driven from a test)
FAKE_SHARE = "navigator.share = async (data) => { window.shared = data; };"
#: no Web Share API (as on a desktop Chromium): the page falls back on the clipboard
NO_SHARE = "delete Navigator.prototype.share; delete navigator.share;"


def test_the_end_screen_shows_levels_boards_margin_and_shares_the_result(
    browser: Any, server: str, size: str, finished: dict[str, Any]
) -> None:
    state = api(server, f"/api/games/{finished['id']}")
    result, boards = state["result"], state["view"]["boards"]
    context: dict[str, Any] = dict(SIZES[size])
    if size == "desktop":
        context["permissions"] = ["clipboard-read", "clipboard-write"]
    with checked_page(browser, **context) as page:
        page.add_init_script(FAKE_SHARE if size == "phone" else NO_SHARE)
        page.goto(server + finished["seats"][0]["link"])
        end = page.locator("[data-testid=end-screen]")
        end.locator("[data-testid=result]").wait_for()
        names = [seat["name"] for seat in state["game"]["seats"]]
        winner = result["ranking"][0]
        margin = result["scores"][winner] - result["scores"][result["ranking"][1]]
        assert margin > 0  # this seed has a winner
        said = end.inner_text()
        points = "point" if margin == 1 else "points"
        assert f"{names[winner]} wins" in said and f"by {margin} {points}" in said, said
        # each player's score per level, totalled
        for seat, board in enumerate(boards):
            levels: dict[int, int] = {}
            for tile in board["tiles"]:
                levels[tile["level"]] = levels.get(tile["level"], 0) + tile["digit"] * tile["level"]
            for level in range(1, max(levels) + 1):
                cell = end.locator(f"[data-testid=end-level-{seat}-{level}]")
                assert cell.inner_text() == str(levels.get(level, 0)), (seat, level)
            assert end.locator(f"[data-testid=end-total-{seat}]").inner_text() == str(
                board["score"]
            )
        # boards large enough to read: every square 20 px at least (its digit 15 px)
        for seat in range(2):
            square = page.evaluate(
                """(s) => { const svg = document.querySelector(`[data-testid=end-board-svg-${s}]`);
                  const [, , w, h] = svg.getAttribute('viewBox').split(' ').map(parseFloat);
                  const r = svg.getBoundingClientRect();
                  return Math.min(r.width / w, r.height / h); }""",
                seat,
            )
            assert square >= 20, (seat, square)
        for testid in ("play-again", "download-record", "end-replay", "share-result"):
            assert end.locator(f"[data-testid={testid}]").is_visible(), testid
        if size == "phone":
            assert small_targets(page) == []
        shot(page, f"n9-end-screen-{size}", full_page=True)
        end.locator("[data-testid=share-result]").click()
        if size == "phone":
            page.wait_for_function("() => !!window.shared")
            text = page.evaluate("() => window.shared.text")
        else:
            page.locator("[data-testid=toast]", has_text="Copied").wait_for()
            text = page.evaluate("() => navigator.clipboard.readText()")
        assert text.startswith(f"NMBR 9: {names[winner]} wins"), text
        for seat in range(2):
            assert f"{names[seat]}: {boards[seat]['score']}" in text, text
        assert f"/replay/{finished['id']}" in text, text
