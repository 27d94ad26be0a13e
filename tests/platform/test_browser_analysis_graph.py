"""The analysis's evaluation graph in Chromium, at 1400×900 and on a 390×844 touch
screen: a value axis in the game's unit with ticks, "up is better" in every game (Nova
Luna solo's lower-is-better score drawn upside down, and saying so), a legend naming
the lines, the values under the pointer and at the frame the keyboard stepped to, in
English, German and Dutch, with nothing axe finds; marks large enough to tap (24 px, 44
on a touch screen); and the graph drawn from the first judged moves while the rest is
still being judged (the server's test gate holds the analysis at a known move)."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from novaluna import test_browser_axe as axe_checks

from browser_support import (
    SIZES,
    api,
    checked_page,
    no_horizontal_overflow,
    running_server,
    shot,
    wait_until_over,
)
from gate_support import SearchGate

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.whole_unit  # the gate's state passes from test to test

#: A small budget: the page's behaviour, not the analysis's depth, is tested here.
BUDGET = "20"
RANDOM = {"kind": "bot", "bot": "random"}
SEATS = {
    "solo": ("nova-luna", [RANDOM]),
    "nmbr9": ("nmbr9", [{"kind": "bot", "bot": "greedy"}, RANDOM]),
}
#: bounds a hang only (a loaded machine): an analysis at this budget takes seconds
HANG_SECONDS = 300.0
#: the value axis's label and the readout's first words, per language
AXIS = {
    "solo": {
        "en": "Points · fewer is better, so the scale runs downward: up is better",
        "de": "Punkte · weniger ist besser, darum läuft die Skala nach unten: oben ist besser",
        "nl": "Punten · minder is beter, dus de schaal loopt omlaag: boven is beter",
    },
    "nmbr9": {
        "en": "Points · up is better",
        "de": "Punkte · oben ist besser",
        "nl": "Punten · boven is beter",
    },
}
FIRST_MOVE = {"en": "Move 1 of {n}: ", "de": "Zug 1 von {n}: ", "nl": "Zet 1 van {n}: "}
GRAPH = "[data-testid=analysis-graph]"
#: how many decisions the gate lets be judged before the partial graph is looked at
JUDGED_FIRST = 8


@pytest.fixture(scope="module")
def gate(tmp_path_factory: pytest.TempPathFactory) -> SearchGate:
    return SearchGate(tmp_path_factory.mktemp("graph-gate"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, gate: SearchGate) -> Iterator[str]:
    db = tmp_path_factory.mktemp("graph") / "games.db"
    with running_server(db, options=("--analysis-budget", BUDGET, *gate.options)) as base:
        yield base


def _finished_game(server: str, kind: str, seed: int) -> str:
    game_type, seats = SEATS[kind]
    game_id: str = api(server, "/api/games", {"type": game_type, "seats": seats, "seed": seed})[
        "id"
    ]
    wait_until_over(server, game_id, timeout=HANG_SECONDS)
    return game_id


def _analysis_until(server: str, game_id: str, until: Any) -> dict[str, Any]:
    """Poll the analysis until ``until(answer)`` holds (the gate decides when)."""
    deadline = time.monotonic() + HANG_SECONDS
    while True:
        shown: dict[str, Any] = api(server, f"/api/games/{game_id}/analysis")
        if until(shown):
            return shown
        assert time.monotonic() < deadline, f"the analysis never got there: {shown}"
        time.sleep(0.1)


@pytest.fixture(scope="module")
def analysed(server: str) -> dict[str, str]:
    """A finished, analysed game per kind: Nova Luna solo, NMBR 9 for two."""
    games = {kind: _finished_game(server, kind, seed=7) for kind in SEATS}
    for game_id in games.values():
        api(server, f"/api/games/{game_id}/analysis", {})
        _analysis_until(server, game_id, lambda shown: shown["status"] == "done")
    return games


@contextmanager
def _page(browser: Any, size: str, lang: str = "en") -> Iterator[Any]:
    """A page at ``size`` in ``lang`` from its first load (the remembered choice)."""
    with checked_page(browser, **SIZES[size]) as page:
        page.add_init_script(f"localStorage.setItem('boardgames.language.v1', {lang!r})")
        yield page


def _open_graph(page: Any, server: str, game_id: str) -> None:
    page.goto(f"{server}/replay/{game_id}")
    page.get_by_test_id("analysis-seat-0").wait_for()


def _ticks(page: Any) -> list[float]:
    """The value axis's ticks from the top down."""
    found: list[tuple[float, float]] = page.eval_on_selector_all(
        "[data-testid=graph-ticks] span",
        "(spans) => spans.map((s) => [s.getBoundingClientRect().top, Number(s.dataset.value)])",
    )
    return [value for _, value in sorted(found)]


def _centre(box: dict[str, float] | None) -> tuple[float, float]:
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _away(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def _press_at(page: Any, size: str, point: tuple[float, float]) -> None:
    """Tap on a phone, click on a desktop, at a point of the page."""
    if size == "phone":
        page.touchscreen.tap(*point)
    else:
        page.mouse.click(*point)


def _wait_for_step(page: Any, frame: str | None) -> None:
    """Until the replay (as the graph's slider tells it) is at ``frame``."""
    page.wait_for_function(
        "(frame) => document.querySelector('[data-testid=graph-focus]')"
        ".getAttribute('aria-valuenow') === frame",
        arg=frame,
    )


def _readout(page: Any) -> str:
    text: str = page.get_by_test_id("graph-readout").inner_text()
    return text


@pytest.mark.parametrize("size", list(SIZES))
def test_the_graph_has_an_axis_ticks_a_legend_and_a_readout_in_three_languages(
    browser: Any, server: str, analysed: dict[str, str], size: str, axe_script: str
) -> None:
    for lang in ("en", "de", "nl"):
        with _page(browser, size, lang) as page:
            for kind, game_id in analysed.items():
                _open_graph(page, server, game_id)
                assert page.get_by_test_id("graph-axis").inner_text() == AXIS[kind][lang]
                ticks = _ticks(page)
                assert len(ticks) >= 3
                # up is better: a lower-is-better score's ticks grow downward
                assert ticks == sorted(ticks, reverse=kind == "nmbr9")
                legend = page.locator("[data-testid=graph-legend] li").all_inner_texts()
                cards = page.locator(".analysis-seat h3").all_inner_texts()
                assert legend == cards and all(name.strip() for name in legend)
                # the keyboard steps the replay from the graph; the readout says the values
                focus = page.get_by_test_id("graph-focus")
                focus.focus()
                page.keyboard.press("Home")
                page.keyboard.press("ArrowRight")
                steps = focus.get_attribute("aria-valuemax")
                assert focus.get_attribute("aria-valuenow") == "1"  # one step, not two
                said = _readout(page)
                assert said.startswith(FIRST_MOVE[lang].format(n=steps)), said
                assert legend[0] in said and focus.get_attribute("aria-valuetext") == said
                assert no_horizontal_overflow(page)
                if kind == "solo":
                    axe_checks.check_axe(page, axe_script, f"analysis-graph-{kind}-{lang}-{size}")
                else:
                    shot(page, f"analysis-graph-{kind}-{lang}-{size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_marks_are_large_enough_to_tap_and_step_the_replay_there(
    browser: Any, server: str, analysed: dict[str, str], size: str
) -> None:
    least = 44 if size == "phone" else 24
    with _page(browser, size) as page:
        _open_graph(page, server, analysed["solo"])
        page.get_by_test_id("graph-focus").scroll_into_view_if_needed()
        marks = page.get_by_test_id("graph-mark")
        assert marks.count() >= 1
        for box in (marks.nth(i).bounding_box() for i in range(marks.count())):
            assert box is not None and box["width"] >= least and box["height"] >= least
        frames = [marks.nth(i).get_attribute("data-frame") for i in range(marks.count())]
        # every mark steps the replay to its move, even where targets overlap (a phone
        # then scrolls to the move's detail: back to the graph before the next press)
        for i, frame in enumerate(frames):
            page.get_by_test_id("graph-focus").scroll_into_view_if_needed()
            _press_at(page, size, _centre(marks.nth(i).bounding_box()))
            _wait_for_step(page, frame)
        page.get_by_test_id("graph-focus").scroll_into_view_if_needed()
        centres = [_centre(marks.nth(i).bounding_box()) for i in range(marks.count())]
        # a press near the edge of a target, well off its dot, takes the nearest mark: the
        # mark's own on the side away from its neighbours
        first = centres[0]
        sides = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        reach = least / 2 - 2  # the largest dot reaches 9.5 px from its centre
        edges = [(first[0] + dx * reach, first[1] + dy * reach) for dx, dy in sides]
        edge = max(edges, key=lambda p: min(_away(p, c) for c in centres[1:]) if centres[1:] else 0)
        nearest = min(range(len(centres)), key=lambda i: _away(edge, centres[i]))
        assert _away(edge, centres[nearest]) <= least / 2
        _press_at(page, size, edge)
        _wait_for_step(page, frames[nearest])
        shot(page, f"analysis-graph-mark-{size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_values_under_the_pointer_are_shown(
    browser: Any, server: str, analysed: dict[str, str], size: str
) -> None:
    with _page(browser, size) as page:
        _open_graph(page, server, analysed["nmbr9"])
        focus = page.get_by_test_id("graph-focus")
        focus.scroll_into_view_if_needed()
        steps = int(focus.get_attribute("aria-valuemax") or "0")
        box = focus.bounding_box()
        assert box is not None
        # a point off every mark's target, a quarter of the way along
        marks = page.get_by_test_id("graph-mark")
        centres = [_centre(marks.nth(i).bounding_box()) for i in range(marks.count())]
        reach = (44 if size == "phone" else 24) / 2 + 1
        x = box["x"] + box["width"] / 4
        free = [
            (x, box["y"] + dy)
            for dy in range(2, int(box["height"]) - 1, 4)
            if all(_away((x, box["y"] + dy), c) > reach for c in centres)
        ]
        assert free, "every point a quarter of the way along is a mark's"
        x, y = free[0]
        frame = math.floor(steps / 4 + 0.5)  # as the page rounds
        if size == "phone":
            _press_at(page, size, (x, y))  # a finger has no hover: the tap steps the replay
            _wait_for_step(page, str(frame))
        else:
            page.mouse.move(x, y)
            assert page.locator(".graph-hover.shown").count() == 1  # a line marks the step
        assert _readout(page).startswith(f"Move {frame} of {steps}: ")
        shot(page, f"analysis-graph-pointer-{size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_graph_is_drawn_from_the_first_judged_moves_while_the_rest_runs(
    browser: Any,
    server: str,
    gate: SearchGate,
    analysed: dict[str, str],
    size: str,
    axe_script: str,
) -> None:
    game_id = _finished_game(server, "solo", seed=31 + list(SIZES).index(size))
    gate.close(passes=1 + JUDGED_FIRST)  # the list of decisions, then the first moves
    try:
        with _page(browser, size) as page:
            page.goto(f"{server}/replay/{game_id}?analyse")  # as the end screen's Analyse
            gate.wait_until_held()  # the next judgement waits: the first ones are stored
            shown = api(server, f"/api/games/{game_id}/analysis")
            assert shown["status"] == "running" and shown["done"] == JUDGED_FIRST
            total = shown["total"]
            progress = page.get_by_test_id("analysis-progress")
            page.wait_for_function(
                "(text) => document.querySelector('[data-testid=analysis-progress]')"
                "?.textContent.includes(text)",
                arg=f"{JUDGED_FIRST} of {total}",
            )
            page.get_by_test_id("analysis-graph").wait_for()
            assert progress.is_visible() and page.get_by_test_id("analysis-seat-0").count() == 0
            judged = [m for seat in shown["partial"]["seats"] for m in seat["moves"]]
            marked = [m for m in judged if m["mark"]]
            assert page.get_by_test_id("graph-mark").count() == len(marked)
            points = page.eval_on_selector_all(
                ".graph-lines polyline", "(ls) => ls.map((l) => l.points.numberOfItems)"
            )
            assert sum(points) == JUDGED_FIRST
            # the first judged move reads already; a move beyond says it is not judged
            focus = page.get_by_test_id("graph-focus")
            focus.focus()
            page.keyboard.press("Home")
            page.keyboard.press("ArrowRight")
            assert _readout(page).startswith(f"Move 1 of {focus.get_attribute('aria-valuemax')}")
            # (axe at the first step: at the last the replay's end banner overlaps the board)
            axe_checks.check_axe(page, axe_script, f"analysis-graph-partial-{size}")
            focus.focus()
            page.keyboard.press("End")
            assert _readout(page).endswith("not judged yet")
            page.evaluate(f"() => {{ window.partialGraph = document.querySelector({GRAPH!r}); }}")
            gate.open()
            page.get_by_test_id("analysis-seat-0").wait_for(timeout=HANG_SECONDS * 1000)
            # the same graph, filled in, still focused; the progress gone
            assert page.evaluate(
                f"() => window.partialGraph === document.querySelector({GRAPH!r})"
                " && document.activeElement.dataset.testid === 'graph-focus'"
            )
            assert progress.count() == 0
            assert not _readout(page).endswith("not judged yet")
    finally:  # the next test finds the gate open and no analysis of this one running
        gate.open()
        _analysis_until(server, game_id, lambda shown: shown["status"] != "running")
