"""The shell pages on a phone (390×844, touch) and on a desktop (1400×900), in Chromium.

Two findings of a phone review, checked by measuring boxes in a real browser:

- the replay bar used to be wider than a phone (its slider, Next and Last were off-screen):
  every control must lie inside the viewport, be big enough to tap, and work;
- the bot drop-down of a seat in the lobby used to be narrower than its label ("MCTS hard
  (3 s a move)" was cut off): the select must lie inside its card and be at least as wide
  as the browser needs to show the chosen label whole.

Screenshots go to test-output/screenshots/ (replay-*, lobby-bots-*).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from browser_support import (
    api,
    create_game,
    no_horizontal_overflow,
    shot,
    wait_until_over,
)

sync_api = pytest.importorskip("playwright.sync_api")

TOUCH_TARGET = 40  # px, the smallest button a finger can hit reliably
REPLAY_CONTROLS = ["replay-first", "replay-prev", "replay-slider", "replay-next", "replay-last"]


@pytest.fixture(scope="module")
def finished_game(server: str) -> dict[str, Any]:
    game = create_game(
        server, [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}], seed=5
    )
    wait_until_over(server, game["id"])
    return game


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found, f"{selector} is not rendered"
    return found


def right(b: dict[str, float]) -> float:
    return b["x"] + b["width"]


def middle(b: dict[str, float]) -> float:
    return b["y"] + b["height"] / 2


def inside(inner: dict[str, float], left: float, right_edge: float) -> bool:
    return inner["x"] >= left - 0.5 and right(inner) <= right_edge + 0.5


# -- the replay bar ------------------------------------------------------------------------


def turn_of(page: Any) -> int:
    text = page.inner_text("[data-testid=replay-counter]")
    if text.startswith("Start"):
        return 0
    match = re.match(r"Turn (\d+) of (\d+)", text)
    assert match, text
    return int(match.group(1))


def press(page: Any, size: str, testid: str) -> None:
    button = page.locator(f"[data-testid={testid}]")
    if size == "phone":
        button.tap()
    else:
        button.click()


def drag_slider(page: Any, size: str, fraction: float) -> None:
    """Drag the slider's thumb from its start to ``fraction`` of its width: a finger on the
    phone (touch events through the DevTools protocol), the mouse on the desktop."""
    slider = box(page, "[data-testid=replay-slider]")
    y = middle(slider)
    start, end = slider["x"] + 4, slider["x"] + slider["width"] * fraction
    steps = [start + (end - start) * k / 8 for k in range(9)]
    if size == "phone":
        cdp = page.context.new_cdp_session(page)
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": "touchStart", "touchPoints": [{"x": start, "y": y}]},
        )
        for x in steps[1:]:
            cdp.send(
                "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
            )
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()
    else:
        page.mouse.move(start, y)
        page.mouse.down()
        for x in steps[1:]:
            page.mouse.move(x, y)
        page.mouse.up()


def test_replay_bar_fits_and_works(
    page: Any, size: str, server: str, finished_game: dict[str, Any]
) -> None:
    page.goto(server + f"/replay/{finished_game['id']}")
    page.locator("[data-testid=replay-counter]").wait_for()
    page.locator("[data-testid=wheel]").wait_for()
    width = page.viewport_size["width"]
    bar = box(page, "[data-testid=replay-bar]")
    boxes = {t: box(page, f"[data-testid={t}]") for t in [*REPLAY_CONTROLS, "replay-counter"]}
    boxes["title"] = box(page, "[data-testid=replay-bar] .replay-title strong")
    for name, b in boxes.items():
        assert inside(b, 0, width), f"{name} lies outside the {width} px viewport: {b}"
        assert inside(b, bar["x"], right(bar)), f"{name} lies outside the replay bar: {b}, {bar}"
        assert b["width"] > 0 and b["height"] > 0, name
    for testid in REPLAY_CONTROLS:
        b = boxes[testid]
        assert b["height"] >= TOUCH_TARGET, f"{testid} is {b['height']} px tall"
        if testid != "replay-slider":
            assert b["width"] >= TOUCH_TARGET, f"{testid} is {b['width']} px wide"
    # the buttons and the slider share one line, in order
    order = [boxes[t] for t in REPLAY_CONTROLS]
    assert all(abs(middle(b) - middle(order[0])) <= 2 for b in order)
    assert all(right(a) <= b["x"] + 0.5 for a, b in zip(order, order[1:], strict=False))
    slider = boxes["replay-slider"]
    if size == "phone":
        # the title and the counter on the first line, the controls on the next
        assert abs(middle(boxes["title"]) - middle(boxes["replay-counter"])) <= 4
        assert boxes["replay-counter"]["y"] + boxes["replay-counter"]["height"] <= order[0]["y"]
        assert slider["width"] >= 120, f"the slider is only {slider['width']} px wide"
    else:
        # one row: title, controls, counter
        for name, b in boxes.items():
            assert abs(middle(b) - middle(order[0])) <= 4, f"{name} is not on the bar's row"
        assert right(boxes["title"]) < boxes["replay-first"]["x"]
        assert right(boxes["replay-last"]) < boxes["replay-counter"]["x"]
        assert slider["width"] >= width / 2, f"the slider is only {slider['width']} px wide"
    assert no_horizontal_overflow(page)

    n = int(re.search(r"(\d+) turns", page.inner_text("[data-testid=replay-counter]")).group(1))
    assert turn_of(page) == 0 and n > 10
    press(page, size, "replay-next")
    assert turn_of(page) == 1
    press(page, size, "replay-next")
    assert turn_of(page) == 2
    press(page, size, "replay-prev")
    assert turn_of(page) == 1
    press(page, size, "replay-last")
    assert turn_of(page) == n
    press(page, size, "replay-first")
    assert turn_of(page) == 0
    drag_slider(page, size, 0.5)
    assert abs(turn_of(page) - n / 2) <= max(2, n / 10), (turn_of(page), n)
    assert page.input_value("[data-testid=replay-slider]") == str(turn_of(page))
    page.fill("[data-testid=replay-slider]", "7")
    assert turn_of(page) == 7
    assert no_horizontal_overflow(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, f"replay-{size}")


def test_replay_of_an_uploaded_record_fits(
    page: Any, size: str, server: str, finished_game: dict[str, Any], tmp_path: Path
) -> None:
    """An uploaded record's title also holds an "Another file" button: the tightest bar."""
    path = tmp_path / "a-rather-long-record-file-name-from-last-night.json"
    path.write_text(json.dumps(api(server, f"/api/games/{finished_game['id']}/record")))
    page.goto(server + "/replay")
    page.set_input_files("[data-testid=record-file]", str(path))
    page.locator("[data-testid=replay-counter]").wait_for()
    width = page.viewport_size["width"]
    selectors = [f"[data-testid={t}]" for t in [*REPLAY_CONTROLS, "replay-counter"]]
    selectors += [".replay-title strong", ".replay-title .btn"]
    for selector in selectors:
        b = box(page, selector)
        assert inside(b, 0, width) and b["width"] > 0, f"{selector}: {b}"
    press(page, size, "replay-last")
    assert turn_of(page) > 10
    press(page, size, "replay-prev")
    assert no_horizontal_overflow(page)
    shot(page, f"replay-upload-{size}")


# -- the bot drop-downs in the lobby -----------------------------------------------------

MEASURE_SELECT = """(select) => {
  const b = select.getBoundingClientRect();
  const card = select.closest('[data-testid=create-form]').getBoundingClientRect();
  const label = select.selectedOptions[0].text;
  const style = getComputedStyle(select);
  const context = document.createElement('canvas').getContext('2d');
  context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  // what the browser itself needs to show this label whole: a select holding only it,
  // at its natural width (text, padding and the arrow)
  const probe = document.createElement('select');
  probe.append(new Option(label));
  probe.style.position = 'absolute';
  probe.style.visibility = 'hidden';
  select.parentElement.append(probe);
  const needed = probe.getBoundingClientRect().width;
  probe.remove();
  return {
    label, left: b.left, right: b.right, width: b.width,
    cardLeft: card.left, cardRight: card.right,
    content: select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
    text: context.measureText(label).width, needed,
  };
}"""


def test_lobby_bot_selects_show_their_whole_label(page: Any, size: str, server: str) -> None:
    page.goto(server + "/")
    page.locator("[data-testid=create-form]").wait_for()
    while page.locator("[data-testid^=seat-row-]").count() < 4:
        page.click("[data-testid=add-seat]")
    page.click("[data-testid=seat-0-kind-bot]")
    width = page.viewport_size["width"]
    checked = set()
    for seat in range(4):
        select = page.locator(f"[data-testid=seat-{seat}-bot]")
        values = select.evaluate("s => [...s.options].map(o => o.value)")
        assert len(values) >= 3
        for value in values:
            select.select_option(value)
            m = select.evaluate(MEASURE_SELECT)
            where = f"seat {seat + 1}, {m['label']!r}: {m}"
            assert m["left"] >= m["cardLeft"] and m["right"] <= m["cardRight"], where
            assert m["left"] >= 0 and m["right"] <= width, where
            assert m["width"] + 0.5 >= m["needed"], f"the label is cut off ({where})"
            assert m["content"] + 0.5 >= m["text"], f"the label is cut off ({where})"
            checked.add(m["label"])
    assert "MCTS hard (3 s a move)" in checked
    # a mix of bots for the picture, the longest label among them
    for seat, value in enumerate(["mcts:hard", "random", "greedy", "mcts:hard"]):
        page.select_option(f"[data-testid=seat-{seat}-bot]", value)
    page.click("[data-testid=seat-1-kind-human]")
    page.fill("[data-testid=seat-1-name]", "Pia")
    name = box(page, "[data-testid=seat-1-name]")
    card = box(page, "[data-testid=create-form]")
    assert inside(name, card["x"], right(card)) and inside(name, 0, width)
    assert no_horizontal_overflow(page)
    page.evaluate("() => window.scrollTo(0, 0)")  # a sticky top bar in a full-page shot
    shot(page, f"lobby-bots-{size}", full_page=True)
