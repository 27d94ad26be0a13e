"""What a player notices on the Nova Luna page, on a phone (390×844) and a desktop (1400×900).

Each test runs at both sizes and saves a screenshot (test-output/screenshots/page-*.jpg):
fair seeds, the turn brought into view, the numbered moon track, other players' moves
shown, the hint in board terms, long names, and task dots legible on a full display.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from browser_support import (
    SIZES,
    api,
    checked_page,
    create_game,
    no_horizontal_overflow,
    place_by_hand,
    press,
    shot,
    wait_for_my_turn_or_end,
)

sync_api = pytest.importorskip("playwright.sync_api")

GREEDY = {"kind": "bot", "bot": "greedy"}
WHERE = r"(right of|left of|above|below) (the|your) (red|blue|cyan|yellow) \d|as the first tile"


def in_view(page: Any, selector: str) -> dict[str, float]:
    return page.eval_on_selector(
        selector,
        """el => { const r = el.getBoundingClientRect();
                   const bar = document.querySelector('.topbar').getBoundingClientRect();
                   return {top: r.top, bottom: r.bottom, bar: bar.bottom,
                           height: innerHeight}; }""",
    )


# -- fair seeds ---------------------------------------------------------------------------


def test_every_seat_sees_that_the_creator_fixed_the_seed(page: Any, size: str, server: str) -> None:
    game = create_game(server, [{"kind": "human", "name": "Ann"}, {"kind": "human"}], seed=42)
    page.goto(server + game["seats"][1]["link"])  # not the creator's seat, before any move
    chip = page.locator("[data-testid=fixed-seed]")
    chip.wait_for()
    assert "42" in chip.inner_text()
    note = page.locator("[data-testid=fixed-seed-note]")
    assert note.is_visible() and "42" in note.inner_text() and "creator" in note.inner_text()
    assert no_horizontal_overflow(page)
    shot(page, f"page-fixed-seed-{size}")
    drawn = create_game(server, [{"kind": "human", "name": "Ann"}, GREEDY])
    page.goto(server + drawn["seats"][0]["link"])
    page.locator("[data-testid=turn-banner]").wait_for()
    assert page.locator("[data-testid=fixed-seed]").count() == 0
    assert not page.locator("[data-testid=fixed-seed-note]").is_visible()


# -- your turn, in view -------------------------------------------------------------------


def test_your_next_turn_brings_the_banner_and_wheel_into_view(
    page: Any, size: str, server: str
) -> None:
    game = create_game(server, [{"kind": "human", "name": "Pia"}, GREEDY], seed=3)
    page.goto(server + game["seats"][0]["link"])
    for _ in range(3):
        assert wait_for_my_turn_or_end(page)
        banner = in_view(page, "[data-testid=turn-banner]")
        wheel = in_view(page, "[data-testid=wheel]")
        assert banner["bar"] - 1 <= banner["top"] and banner["bottom"] <= banner["height"]
        assert wheel["top"] < wheel["height"] - 200  # the marked tiles can be reached
        place_by_hand(page, size)
    shot(page, f"page-next-turn-{size}")


# -- the moon track -----------------------------------------------------------------------


def test_the_moon_track_is_numbered_and_the_players_panel_says_where_each_marker_is(
    page: Any, size: str, server: str
) -> None:
    game = create_game(server, [{"kind": "human", "name": "Ann"}, GREEDY, GREEDY], seed=5)
    page.goto(server + game["seats"][0]["link"])
    assert wait_for_my_turn_or_end(page)
    place_by_hand(page, size)
    assert wait_for_my_turn_or_end(page)
    numbers = page.eval_on_selector_all(
        "[data-testid=wheel] .track-num", "els => els.map(e => e.textContent)"
    )
    assert numbers == [str(k) for k in range(24)]
    state = api(server, f"/api/games/{game['id']}")
    times = [seat["time"] for seat in state["view"]["seats"]]
    for i, time in enumerate(times):
        text = page.inner_text(f"[data-testid=track-pos-{i}]")
        assert f"Moon track {time % 24}" in text
        assert (f"{time - min(times)} ahead" in text) == (time > min(times))
    page.locator("[data-testid=wheel]").scroll_into_view_if_needed()
    shot(page, f"page-moon-track-{size}")
    page.locator("[data-testid=players]").scroll_into_view_if_needed()
    shot(page, f"page-players-{size}")


# -- other players' moves -----------------------------------------------------------------

WATCH_FLIGHTS = """() => {
  window.flights = 0;
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes)
      if (n.classList && n.classList.contains('flying-tile')) window.flights++;
  }).observe(document.body, {childList: true});
}"""


def test_a_bots_move_is_shown_where_it_lands(browser: Any, size: str, server: str) -> None:
    # the tile's flight is motion: a page of a player who has not asked for less of it
    with checked_page(browser, reduced_motion="no-preference", **SIZES[size]) as page:
        _bots_moves_are_shown(page, size, server)


def _bots_moves_are_shown(page: Any, size: str, server: str) -> None:
    game = create_game(server, [{"kind": "human", "name": "Ann"}, GREEDY], seed=8)
    page.goto(server + game["seats"][0]["link"])
    for _ in range(2):
        assert wait_for_my_turn_or_end(page)
        page.evaluate(WATCH_FLIGHTS)
        place_by_hand(page, size)
        page.wait_for_function("() => window.flights > 0")  # the bot's tile flew
        page.locator("[data-testid=player-1].just-moved").wait_for()
    page.locator("[data-testid=player-1] .mini-last").wait_for()
    state = api(server, f"/api/games/{game['id']}")
    bot_name = state["game"]["seats"][1]["name"]
    bot_entries = [
        t for t in page.locator("[data-testid=log-entry]").all_inner_texts() if bot_name in t
    ]
    assert bot_entries and all(re.search(WHERE, t) for t in bot_entries), bot_entries
    assert not any(re.search(r"-?\d+,-?\d+", t) for t in bot_entries)
    shot(page, f"page-bot-move-{size}")


def test_with_less_motion_a_bots_move_lands_without_a_flight(
    page: Any, size: str, server: str
) -> None:
    """The suite's pages ask for less motion (``REDUCED_MOTION``), as a player may: the
    bot's move is still marked, but no tile flies."""
    assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
    game = create_game(server, [{"kind": "human", "name": "Ann"}, GREEDY], seed=8)
    page.goto(server + game["seats"][0]["link"])
    assert wait_for_my_turn_or_end(page)
    page.evaluate(WATCH_FLIGHTS)
    place_by_hand(page, size)
    page.locator("[data-testid=player-1].just-moved").wait_for()
    assert page.evaluate("() => window.flights") == 0


# -- the hint -----------------------------------------------------------------------------


def test_the_hint_is_shown_on_the_board_in_board_terms(page: Any, size: str, server: str) -> None:
    game = create_game(server, [{"kind": "human", "name": "Ann"}, GREEDY], seed=11)
    page.goto(server + game["seats"][0]["link"])
    assert wait_for_my_turn_or_end(page)
    place_by_hand(page, size)  # a tile to lay the next one beside
    assert wait_for_my_turn_or_end(page)
    press(page, size, "[data-testid=hint]")
    box = page.locator("[data-testid=hint-box]")
    box.wait_for()
    text = box.inner_text()
    assert re.search(r"marked [123] on the wheel", text), text
    assert re.search(WHERE.replace("(the|your)", "your"), text), text
    assert not re.search(r"-?\d+,-?\d+", text), text
    assert page.locator("[data-testid=wheel] .space.hinted").count() == 1
    assert page.locator("[data-testid=display] .cell.hinted").count() == 1
    shot(page, f"page-hint-{size}")


# -- long names ---------------------------------------------------------------------------

LONG = "Maximiliane-Wilhelmina-von-Sachsen-Gotha"  # 40 characters, no break


def test_long_names_wrap_in_full_and_only_a_tab_cuts_one_past_every_bots_name(
    page: Any, size: str, server: str
) -> None:
    """The players' panel and the log wrap a long name (issue 30: "Gulzig (ontspannen)"
    was cut); only a display's tab, in a row, cuts a name longer than every bot's, with
    the full name in its tooltip."""
    assert len(LONG) == 40
    seats = [{"kind": "human", "name": LONG}, {"kind": "human", "name": LONG[::-1]}]
    game = create_game(server, seats + [dict(GREEDY, name="Greedy " + "X" * 33)])
    page.goto(server + game["seats"][0]["link"] + "," + game["seats"][1]["token"])
    page.locator("[data-testid=players]").wait_for()
    for _ in range(2):
        assert wait_for_my_turn_or_end(page)
        assert no_horizontal_overflow(page)
        place_by_hand(page, size)
    assert no_horizontal_overflow(page)
    shown = "el => ({title: el.title, cut: el.scrollWidth > el.clientWidth + 1})"
    name = page.eval_on_selector("[data-testid=player-0] .player-name strong", shown)
    assert name == {"title": LONG, "cut": False}
    for entry in page.locator("[data-testid=log] strong").all():
        assert not entry.evaluate("el => el.scrollWidth > el.clientWidth + 1")
    assert page.eval_on_selector("[data-testid=tab-0] .tab-name", shown) == {
        "title": LONG,
        "cut": True,
    }
    bot = page.eval_on_selector("[data-testid=tab-2] .tab-name", shown)
    assert bot == {"title": "Greedy " + "X" * 33, "cut": True}
    shot(page, f"page-long-names-{size}", full_page=True)


# -- a full display -----------------------------------------------------------------------


def play_solo_tiles(server: str, tiles: int) -> dict[str, Any]:
    """A solo game with ``tiles`` tiles laid, each as close to the first as it can go
    (a compact display, as players build them)."""
    game = create_game(server, [{"kind": "human", "name": "Sol"}], seed=2)
    token = game["seats"][0]["token"]
    while True:
        state = api(server, f"/api/games/{game['id']}", token=token)
        if len(state["view"]["seats"][0]["tiles"]) >= tiles:
            return game
        places = sorted(
            (c for c in state["choices"] if "cell" in c),
            key=lambda c: (max(abs(c["cell"][0]), abs(c["cell"][1])), c["action"]),
        )
        action = (places or state["choices"])[0]["action"]
        body = {"action": action, "ply": state["ply"]}
        api(server, f"/api/games/{game['id']}/actions", body, token=token)


DOT_SIZES = """() => [...document.querySelectorAll('[data-testid=display] .placed .dot')]
  .map(d => d.getBoundingClientRect()).filter(r => r.width > 0).map(r => r.width)"""


def test_task_dots_stay_legible_with_18_tiles(page: Any, size: str, server: str) -> None:
    game = play_solo_tiles(server, 18)
    page.goto(server + game["seats"][0]["link"])
    assert wait_for_my_turn_or_end(page)
    page.locator("[data-testid=display]").scroll_into_view_if_needed()
    assert min(page.evaluate(DOT_SIZES)) >= 7.5
    shot(page, f"page-18-tiles-{size}")
    press(page, size, "[data-testid=wheel] .space[data-takeable='1']")  # cells widen it
    page.locator("[data-testid^='cell-']").first.wait_for()
    page.locator("[data-testid=display]").scroll_into_view_if_needed()
    assert min(page.evaluate(DOT_SIZES)) >= 7.5
    assert no_horizontal_overflow(page)
    shot(page, f"page-18-tiles-placing-{size}")
    if page.locator("[data-testid=pan-note]").is_visible():  # too big to fit: all on request
        press(page, size, "[data-testid=fit]")
        page.wait_for_function("() => document.querySelector('[data-testid=pan-note]').hidden")
