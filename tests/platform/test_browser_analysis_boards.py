"""The analysis's "Show both boards" in Chromium, for NMBR 9 and Nova Luna at 1400×900
and on a 390×844 touch screen: the two boards are titled "Played: …" and "Best: …" (in
English, German and Dutch), each marks exactly the tile its move laid (the one tile
that differs between them), the replay's players panel is not repeated; on a phone
the comparison is one screen (a Played / Best switch) with the marked tile in view,
and a tapped mark brings its detail, and the game under it, into view."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from novaluna import test_browser_axe as axe_checks
from tabletop.games.nmbr9.rules import SHAPES

from browser_support import (
    SIZES,
    api,
    checked_page,
    no_horizontal_overflow,
    press,
    running_server,
    shot,
    wait_until_over,
)

sync_api = pytest.importorskip("playwright.sync_api")

#: A small budget: the page's behaviour, not the analysis's depth, is tested here.
OPTIONS = ("--analysis-budget", "60")
#: Seats whose games have costly moves (as in test_browser_analysis.py).
BOTS = {
    "nmbr9": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}],
    "nova-luna": [{"kind": "bot", "bot": "random"}] * 2,
}
KINDS = list(BOTS)
#: The titles' beginnings and the switch's words, per language.
WORDS = {
    "en": ("Played: ", "Best: ", "Played", "Best"),
    "de": ("Gespielt: ", "Am besten: ", "Gespielt", "Am besten"),
    "nl": ("Gespeeld: ", "Het beste: ", "Gespeeld", "Het beste"),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("boards") / "games.db", options=OPTIONS) as base:
        yield base


@pytest.fixture(scope="module")
def analysed(server: str) -> dict[str, tuple[str, dict[str, Any]]]:
    """Per game type a finished game and its finished analysis."""
    games = {}
    for kind in KINDS:
        game_id = api(server, "/api/games", {"type": kind, "seats": BOTS[kind], "seed": 7})["id"]
        wait_until_over(server, game_id, timeout=120)
        games[kind] = game_id
    return {kind: (game_id, finished_analysis(server, game_id)) for kind, game_id in games.items()}


def finished_analysis(server: str, game_id: str) -> dict[str, Any]:
    """Ask for the game's analysis and wait for the server to say it is done."""
    url = f"/api/games/{game_id}/analysis"
    shown = api(server, url, {})
    deadline = time.monotonic() + 240
    while shown["status"] != "done":
        assert shown["status"] == "running", shown
        assert time.monotonic() < deadline, f"the analysis of {game_id} did not finish"
        time.sleep(0.5)
        shown = api(server, url)
    analysis: dict[str, Any] = shown["analysis"]
    return analysis


def differing_move(analysis: dict[str, Any]) -> dict[str, Any]:
    """A marked move whose best move is another: the first of a seat's costliest (in view
    in its seat's list, not folded away)."""
    for seat in analysis["seats"]:
        for index in seat["costliest"]:
            move: dict[str, Any] = next(m for m in seat["moves"] if m["index"] == index)
            if move["mark"] and move["played"] != move["best"]:
                return move
    raise AssertionError("the game has no costly move to compare")


def laid_cells(kind: str, data: dict[str, Any], side: str) -> set[str]:
    """The squares ("x,y") of the tile on ``side``'s board that the other board lacks:
    the tile that move laid."""
    other = "best" if side == "played" else "played"
    if kind == "nmbr9":
        tiles = [data[k]["view"]["boards"][data["seat"]]["tiles"] for k in (side, other)]
        laid = [tile for tile in tiles[0] if tile not in tiles[1]]
        assert len(laid) == 1, laid
        t = laid[0]
        shape = SHAPES[t["digit"]][t["rotation"]]
        return {f"{t['x'] + dx},{t['y'] + dy}" for dx, dy in shape.cells}
    tiles = [
        {(tuple(t["cell"]), t["tile"]) for t in data[k]["view"]["seats"][data["seat"]]["tiles"]}
        for k in (side, other)
    ]
    laid_nl = tiles[0] - tiles[1]
    assert len(laid_nl) == 1, laid_nl
    (x, y), _ = next(iter(laid_nl))
    return {f"{x},{y}"}


def open_replay(page: Any, server: str, game_id: str, lang: str = "en") -> None:
    page.add_init_script(f"localStorage.setItem('boardgames.language.v1', {lang!r})")
    page.goto(f"{server}/replay/{game_id}")
    page.get_by_test_id("analysis-graph").wait_for(timeout=60_000)


def open_comparison(page: Any, size: str, move: dict[str, Any]) -> Any:
    """Choose the move's mark, then "Show both boards"; the comparison's locator."""
    press(page, size, f"[data-testid=analysis-move-{move['index']}]")
    press(page, size, f"[data-testid=show-best-{move['index']}]")
    both = page.get_by_test_id("analysis-compare")
    both.wait_for()
    return both


def box(locator: Any) -> dict[str, float]:
    found: dict[str, float] = locator.bounding_box()
    assert found is not None, "not laid out (hidden)"
    return found


def top_bar_bottom(page: Any) -> float:
    """Where the window's view begins: under the top bar where it stays (sticky), else 0
    (a phone's NMBR 9 page lets it scroll away)."""
    bottom: float = page.evaluate(
        """() => {
          const bar = document.querySelector('.topbar');
          const sticky = getComputedStyle(bar).position === 'sticky';
          return sticky ? bar.getBoundingClientRect().bottom : 0;
        }"""
    )
    return max(bottom, 0)


def in_view(page: Any, found: dict[str, float]) -> bool:
    """Whether a bounding box lies in the window, below the sticky top bar."""
    height = page.viewport_size["height"]
    return bool(
        found["y"] >= top_bar_bottom(page) - 1 and found["y"] + found["height"] <= height + 1
    )


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        inner["x"] >= outer["x"] - 1
        and inner["y"] >= outer["y"] - 1
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1
    )


#: The ids that aria attributes name, each with how many elements carry it.
ARIA_IDS = """() => {
  const names = ['aria-describedby', 'aria-labelledby', 'aria-controls'];
  const named = [...document.querySelectorAll(names.map((n) => `[${n}]`).join(','))]
    .flatMap((el) => names.flatMap((n) => (el.getAttribute(n) || '').split(/\\s+/)))
    .filter(Boolean);
  const count = (id) => document.querySelectorAll(`[id="${id}"]`).length;
  return Object.fromEntries(named.map((id) => [id, count(id)]));
}"""


def surface_of(kind: str) -> str:
    """The board's drawing area (what it shows of the board)."""
    return "[data-testid=board]" if kind == "nmbr9" else "[data-testid=display]"


def check_marked(page: Any, kind: str, board: Any, cells: set[str]) -> None:
    """The board marks exactly ``cells`` once, inside what it shows and in the window."""
    marks = board.get_by_test_id("move-highlight")
    assert marks.count() == 1
    assert set(marks.get_attribute("data-cells").split()) == cells
    mark = box(marks)
    assert inside(mark, box(board.locator(surface_of(kind))))
    assert in_view(page, mark), (mark, page.viewport_size)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("size", list(SIZES))
def test_both_boards_are_titled_played_and_best_and_mark_the_tile_that_differs(
    browser: Any,
    server: str,
    analysed: dict[str, tuple[str, dict[str, Any]]],
    kind: str,
    size: str,
    axe_script: str,
) -> None:
    game_id, analysis = analysed[kind]
    move = differing_move(analysis)
    data = api(server, f"/api/games/{game_id}/analysis/{move['index']}")
    with checked_page(browser, **SIZES[size]) as page:
        open_replay(page, server, game_id)
        both = open_comparison(page, size, move)
        played, best = both.get_by_test_id("compare-played"), both.get_by_test_id("compare-best")
        detail = page.get_by_test_id("analysis-detail").inner_text()
        # titled by what was played and what was best, each move as the detail words it
        played_title, best_title = (b.locator("h3").inner_text() for b in (played, best))
        assert played_title.startswith("Played: ") and best_title.startswith("Best: ")
        assert played_title.removeprefix("Played: ") != best_title.removeprefix("Best: ")
        assert played_title.removeprefix("Played: ") in detail
        assert best_title.removeprefix("Best: ") in detail
        # no board's own heading ("Player 1's board"), no second players panel or note
        assert both.get_by_test_id("board-title").filter(visible=True).count() == 0
        assert both.get_by_test_id("players").count() == 0
        assert page.get_by_test_id("players").count() == 1
        assert page.get_by_text("Other boards show the last completed round.").count() <= 1
        assert no_horizontal_overflow(page)
        if size == "desktop":
            # side by side, each marking its own move's tile
            assert abs(box(played)["y"] - box(best)["y"]) < 1
            check_marked(page, kind, played, laid_cells(kind, data, "played"))
            check_marked(page, kind, best, laid_cells(kind, data, "best"))
            shot(page, f"boards-{kind}-{size}")
            # three boards on the page (the replay's, these two): an id that aria names
            # is one element's, and axe finds nothing else
            named = page.evaluate(ARIA_IDS)
            assert named and all(count == 1 for count in named.values()), named
            axe_checks.check_axe(page, axe_script, f"boards-axe-{kind}-{size}")
            return
        # a phone: one board at a time, the comparison one screen, opened in view
        height = page.viewport_size["height"]
        assert box(both)["height"] <= height - top_bar_bottom(page)
        assert in_view(page, box(both))
        assert best.is_hidden()
        check_marked(page, kind, played, laid_cells(kind, data, "played"))
        shot(page, f"boards-{kind}-{size}-played")
        press(page, size, "[data-testid=compare-show-best]")
        assert played.is_hidden()
        assert page.get_by_test_id("compare-show-best").get_attribute("aria-pressed") == "true"
        check_marked(page, kind, best, laid_cells(kind, data, "best"))
        shot(page, f"boards-{kind}-{size}-best")


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_the_boards_titles_and_switch_speak_german_and_dutch(
    browser: Any, server: str, analysed: dict[str, tuple[str, dict[str, Any]]], lang: str
) -> None:
    game_id, analysis = analysed["nmbr9"]
    move = differing_move(analysis)
    played_word, best_word, played_switch, best_switch = WORDS[lang]
    with checked_page(browser, **SIZES["phone"]) as page:
        open_replay(page, server, game_id, lang)
        both = open_comparison(page, "phone", move)
        title = both.get_by_test_id("compare-played").locator("h3").inner_text()
        assert title.startswith(played_word)
        assert page.get_by_test_id("compare-show-played").inner_text() == played_switch
        assert page.get_by_test_id("compare-show-best").inner_text() == best_switch
        press(page, "phone", "[data-testid=compare-show-best]")
        assert both.get_by_test_id("compare-best").locator("h3").inner_text().startswith(best_word)
        shot(page, f"boards-nmbr9-{lang}-phone")


@pytest.mark.parametrize("kind", KINDS)
def test_a_tapped_mark_brings_its_detail_and_the_board_into_view_on_a_phone(
    browser: Any, server: str, analysed: dict[str, tuple[str, dict[str, Any]]], kind: str
) -> None:
    game_id, analysis = analysed[kind]
    move = differing_move(analysis)
    with checked_page(browser, **SIZES["phone"]) as page:
        open_replay(page, server, game_id)
        press(page, "phone", f"[data-testid=analysis-move-{move['index']}]")
        detail = page.get_by_test_id("analysis-detail")
        page.get_by_test_id(f"show-best-{move['index']}").wait_for()
        assert in_view(page, box(detail))
        # the replay's game (NMBR 9: its board; Nova Luna: the wheel, then the display)
        # begins on the same screen, under the detail, not a screen or more below it
        game = box(page.get_by_test_id("game"))
        assert game["y"] < page.viewport_size["height"] - 200, game
        if kind == "nmbr9":
            board = box(page.locator(f"[data-testid=game] {surface_of(kind)}"))
            assert board["y"] < page.viewport_size["height"] - 200, board
        shot(page, f"boards-{kind}-mark-phone")
