"""Colour symbols, a colour-blind mode, in a real browser on a phone and on a desktop.

Tile colours and task dots used to differ by colour alone. The top bar's "Colour symbols"
switch gives each colour a shape (red triangle, blue square, cyan plus, yellow circle): on
every tile's corner, for every task dot and on the log's tile chips. It is on every page,
works at once, is remembered across reloads, and with it off the board looks as before.
Screenshots: test-output/screenshots/cb-phone*.jpg and cb-desktop*.jpg.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from browser_support import (
    api,
    create_game,
    no_horizontal_overflow,
    shot,
    wait_for_my_turn_or_end,
)

sync_api = pytest.importorskip("playwright.sync_api")

SHAPES = {"red": "triangle", "blue": "square", "cyan": "plus", "yellow": "circle"}
TOGGLE = "[data-testid=colour-symbols]"

# Everything on the game page that carries a tile colour, checked in one pass: the task
# dots and their shapes, the tiles and their corner symbols, the tile chips. The colour of a
# dot or tile is read from its fill, so a wrong data-color cannot pass unnoticed.
INSPECT = """([on, shapes]) => {
  const HEX = {"#d0563f": "red", "#3c6cc9": "blue", "#2fb0a5": "cyan", "#e9b93f": "yellow"};
  const CHIP_MARK = {red: "M10 2.3L", blue: "M3.25 3.25", cyan: "M6.85 2.5", yellow: "circle"};
  const shown = (el) =>
    getComputedStyle(el).display !== "none" && el.getBoundingClientRect().width > 0;
  const out = {tasks: 0, displayTasks: 0, dots: 0, tiles: 0, chips: 0, problems: []};
  const bad = (what, el) => out.problems.push(`${what}: ${el.outerHTML.slice(0, 160)}`);
  for (const task of document.querySelectorAll("[data-testid=game] .task")) {
    out.tasks++;
    if (task.closest("[data-testid=display]")) out.displayTasks++;
    const dots = [...task.querySelectorAll(".dot")];
    const marks = [...task.querySelectorAll(".dot-shape")];
    if (!dots.length || dots.length !== marks.length) {
      bad(`${dots.length} dots, ${marks.length} shapes`, task);
    }
    dots.forEach((dot, i) => {
      out.dots++;
      const colour = HEX[dot.getAttribute("fill")];
      const mark = marks[i];
      if (!colour || !mark) return bad("a dot without colour or shape", dot);
      const {color, shape} = mark.dataset;
      if (color !== colour) bad(`a ${colour} dot drawn as ${color}`, mark);
      if (shape !== shapes[colour]) bad(`a ${colour} dot drawn as a ${shape}`, mark);
      if (HEX[mark.getAttribute("fill")] !== colour) bad("a shape lost its colour", mark);
      if (shown(mark) !== on) bad(on ? "a hidden shape" : "a shape in the default look", mark);
      if (shown(dot) === on) bad(on ? "a plain dot beside its shape" : "a hidden dot", dot);
      if (!on) return;  // (a hidden element has no box)
      const box = mark.getBBox();
      const d = 2 * Number(dot.getAttribute("r"));
      if (box.width < d - 0.1 || box.height < d - 0.1) bad(`a shape under the dot's ${d}`, mark);
    });
  }
  for (const tile of document.querySelectorAll("[data-testid=game] g.tile[data-tile]")) {
    const body = tile.querySelector(":scope > .tile-body");
    if (!body) continue;
    out.tiles++;
    const colour = HEX[body.getAttribute("fill")];
    const symbol = tile.querySelector(":scope > .tile-symbol");
    if (!symbol) { bad("a tile without its symbol", tile); continue; }
    const {color, shape} = symbol.dataset;
    if (color !== colour || shape !== shapes[colour]) bad(`a ${colour} tile's symbol`, symbol);
    if (shown(symbol) !== on) bad(on ? "a hidden tile symbol" : "a symbol when off", symbol);
  }
  for (const chip of document.querySelectorAll("[data-testid=game] .tile-chip")) {
    if (!chip.getBoundingClientRect().width) continue;  // the hidden selection bar
    const colour = [...chip.classList].find((c) => c.startsWith("tc-"))?.slice(3);
    if (!(colour in CHIP_MARK)) continue;
    out.chips++;
    const after = getComputedStyle(chip, "::after");
    const has = after.content !== "none" && after.backgroundImage.includes(CHIP_MARK[colour]);
    if (has !== on) bad(on ? `a ${colour} chip, no shape` : "a chip's shape when off", chip);
  }
  return out;
}"""


def game_after_moves(base: str, moves: int) -> dict[str, Any]:
    """A game of a human against the greedy bot, ``moves`` of the human's turns played
    through the API (so both displays hold tiles with tasks); the human is to move."""
    game = create_game(base, [{"kind": "human", "name": "Cleo"}, {"kind": "bot", "bot": "greedy"}])
    token = game["seats"][0]["token"]
    path = f"/api/games/{game['id']}"
    played = 0
    deadline = time.monotonic() + 30
    while True:
        state = api(base, path, token=token)
        assert not state["over"]
        if state["acting"] == 0:
            if played == moves:
                return game
            place = next(c for c in state["choices"] if "space" in c)
            api(base, f"{path}/actions", {"action": place["action"], "ply": state["ply"]}, token)
            played += 1
        assert time.monotonic() < deadline, "the bot did not answer"
        time.sleep(0.05)


def toggle(page: Any, mobile: bool) -> None:
    button = page.locator(TOGGLE)
    if mobile:
        button.tap()
    else:
        button.click()


def inspect(page: Any, on: bool) -> dict[str, Any]:
    report = page.evaluate(INSPECT, [on, SHAPES])
    assert report["problems"] == [], report["problems"][:8]
    return report


def assert_mode(page: Any, on: bool) -> None:
    assert page.get_attribute(TOGGLE, "aria-pressed") == ("true" if on else "false")
    has_class = page.evaluate("() => document.documentElement.classList.contains('cb')")
    assert has_class is on


def test_colour_symbols_switch_on_every_tile_dot_and_chip(page: Any, size: str, server: str):
    name = size
    mobile = name == "phone"
    game = game_after_moves(server, 3)
    page.goto(server + game["seats"][0]["link"])
    assert wait_for_my_turn_or_end(page)
    page.locator("[data-testid=display] .task").first.wait_for()

    # the default look: plain dots, no symbols, the switch off — and the switch is there
    assert page.locator(TOGGLE).count() == 1, "no colour-symbols switch in the top bar"
    assert page.locator(TOGGLE).is_visible()
    assert page.locator(TOGGLE).bounding_box()["y"] < 80  # in the top bar
    assert_mode(page, False)
    off = inspect(page, False)
    assert off["displayTasks"] > 0 and off["tiles"] >= 4 and off["chips"] >= 3, off
    assert no_horizontal_overflow(page)

    # on, at once: every task dot is its colour's shape, every tile shows its symbol
    toggle(page, mobile)
    assert_mode(page, True)
    on = inspect(page, True)
    assert on["dots"] == off["dots"] and on["tiles"] == off["tiles"]
    assert no_horizontal_overflow(page)
    shot(page, f"cb-{name}")

    # the selection bar's chip carries the shape too
    page.locator("[data-testid=wheel] .space[data-takeable='1']").first.click()
    page.locator("[data-testid=select-bar]").wait_for()
    inspect(page, True)
    assert (
        page.locator("[data-testid=select-bar] .tile-chip")
        .evaluate("el => getComputedStyle(el, '::after').backgroundImage")
        .startswith('url("data:image/svg+xml')
    )
    shot(page, f"cb-{name}-select")
    page.keyboard.press("Escape")

    # remembered across a reload, and on the lobby and the replay pages
    page.reload()
    assert wait_for_my_turn_or_end(page)
    page.locator("[data-testid=display] .task").first.wait_for()
    assert_mode(page, True)
    inspect(page, True)
    for path in ("/", "/replay"):
        page.goto(server + path)
        page.locator("main#app > *").first.wait_for()
        assert page.locator(TOGGLE).is_visible()
        assert_mode(page, True)
        assert no_horizontal_overflow(page), path

    # off again: the default look, also after a reload
    page.goto(server + game["seats"][0]["link"])
    assert wait_for_my_turn_or_end(page)
    page.locator("[data-testid=display] .task").first.wait_for()
    toggle(page, mobile)
    assert_mode(page, False)
    inspect(page, False)
    page.reload()
    assert wait_for_my_turn_or_end(page)
    assert_mode(page, False)
    inspect(page, False)
    assert no_horizontal_overflow(page)
