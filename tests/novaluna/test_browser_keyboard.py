"""Nova Luna with the keyboard alone, and what a screen reader hears (issue 16), on a phone
(390×844) and a desktop (1400×900).

Once the page is open these tests only press keys (Tab, the arrows, Home, End, Enter,
Space, Escape): no clicks, and no API calls on the page's behalf. The API is read to check
where each tile went. Focus must never drop to <body>; the wheel's tiles, the legal cells
and the seat tabs each keep one stop in the tab order (arrows move within them); and one
move with the bot's reply is a few short sentences in the live region, not the whole page.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from browser_support import (
    api,
    create_game,
    ply,
    shot,
    wait_for_my_turn_or_end,
    wait_for_ply_after,
    wait_until_over,
)

sync_api = pytest.importorskip("playwright.sync_api")

GREEDY = {"kind": "bot", "bot": "greedy"}

ACTIVE = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return {body: true};
  return {body: false, tag: el.tagName.toLowerCase(), testid: el.getAttribute('data-testid'),
          id: el.id, takeable: el.getAttribute('data-takeable'),
          tabindex: el.getAttribute('tabindex')};
}"""

#: The legal cells in reading order (rows top down, each left to right), as [x, y].
CELLS = """() => [...document.querySelectorAll("[data-testid^='cell-']")]
  .map(c => c.dataset.cell.split(',').map(Number))
  .sort((a, b) => a[1] - b[1] || a[0] - b[0])"""

TAB_STOPS = """(selector) => [...document.querySelectorAll(selector)]
  .filter(e => e.getAttribute('tabindex') === '0').map(e => e.getAttribute('data-testid'))"""

#: Every change of a live region, as the text it adds (what a screen reader would read).
RECORD_LIVE = """() => {
  window.spoken = [];
  const live = '[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]';
  new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      if (!el || !el.closest(live)) continue;
      let text = '';
      if (r.type === 'characterData') text = r.target.data;
      else for (const n of r.addedNodes) text += n.textContent;
      text = text.trim();
      if (text) window.spoken.push(text);
    }
  }).observe(document.body, {childList: true, subtree: true, characterData: true});
}"""


def active(page: Any) -> dict[str, Any]:
    return page.evaluate(ACTIVE)


def focused_testid(page: Any) -> str:
    """The data-testid of the focused element; fails when focus is on <body>."""
    now = active(page)
    assert not now["body"], "focus dropped to <body>"
    return now["testid"] or ""


def key(page: Any, name: str, times: int = 1) -> None:
    for _ in range(times):
        page.keyboard.press(name)


def tab_to(page: Any, testid: str, limit: int = 40) -> None:
    """Press Tab until the element ``testid`` has focus."""
    for _ in range(limit):
        if active(page).get("testid") == testid:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {testid}; focus is on {active(page)}")


def wait_for_focus(page: Any, pattern: str) -> str:
    """Wait until the focused element's data-testid matches ``pattern``; return it."""
    page.wait_for_function(
        "(p) => new RegExp(p).test(document.activeElement?.getAttribute('data-testid') || '')",
        arg=pattern,
    )
    return focused_testid(page)


def step_cell(cells: list[list[int]], i: int, arrow: str) -> int:
    """Where an arrow key leads from cell ``i`` (the page's rule, in reading order)."""
    n = len(cells)
    if arrow == "ArrowRight":
        return (i + 1) % n
    if arrow == "ArrowLeft":
        return (i - 1) % n
    x, y = cells[i]
    rows = [c for c in cells if (c[1] < y if arrow == "ArrowUp" else c[1] > y)]
    if not rows:
        return i
    row = max(c[1] for c in rows) if arrow == "ArrowUp" else min(c[1] for c in rows)
    best = min((c for c in rows if c[1] == row), key=lambda c: (abs(c[0] - x), c[0]))
    return cells.index(best)


#: How each turn picks its cell: (keys pressed from the first legal cell), in rotation.
ROUTES = [["End"], ["ArrowRight", "ArrowRight"], ["ArrowDown"], ["End", "ArrowLeft"], []]


def keyboard_turn(
    page: Any, server: str, game_id: str, turn: int, want: dict[str, Any] | None = None
) -> None:
    """One turn by keyboard, from focus on the wheel: take the turn's marked tile, walk to
    the turn's cell with the arrow keys (``ROUTES``), choose it, place it; then check where
    it went. ``want``: a choice of the API's to walk to instead."""
    assert re.fullmatch(r"space-\d+", focused_testid(page)), active(page)
    assert active(page)["takeable"] == "1"  # the wheel's stop: the tile marked 1
    before = ply(page)
    marked = page.locator("[data-testid=wheel] .space.selectable").count()
    mark = turn % marked + 1
    if want:
        mark = int(page.get_attribute(f"[data-testid=space-{want['space']}]", "data-takeable"))
    key(page, "ArrowRight", mark - 1)
    space = focused_testid(page)
    assert active(page)["takeable"] == str(mark)
    key(page, "Enter" if turn % 2 else " ")  # Enter or Space take it
    first = wait_for_focus(page, r"^cell-")
    cells = page.evaluate(CELLS)
    assert first == "cell-{},{}".format(*cells[0])  # focus went on, to the first legal cell
    i = 0
    route = ROUTES[turn % len(ROUTES)]
    if want:
        j = cells.index(want["cell"])
        back = len(cells) - 1 - j
        route = ["ArrowRight"] * j if j <= back else ["End"] + ["ArrowLeft"] * back
    for arrow in route:
        key(page, arrow)
        ends = {"Home": 0, "End": len(cells) - 1}
        i = ends[arrow] if arrow in ends else step_cell(cells, i, arrow)
        assert focused_testid(page) == "cell-{},{}".format(*cells[i]), arrow
    target = cells[i]
    assert page.evaluate(TAB_STOPS, "[data-testid^='cell-']") == ["cell-{},{}".format(*target)]
    key(page, "Enter")
    assert wait_for_focus(page, "^confirm-place$") == "confirm-place"  # not another cell
    assert page.locator("[data-testid=display] .cell.chosen").get_attribute("data-cell") == (
        "{},{}".format(*target)
    )
    key(page, " " if turn % 2 else "Enter")
    wait_for_ply_after(page, before)
    entry = api(server, f"/api/games/{game_id}")["log"][before]
    assert entry["space"] == int(space.split("-")[1]), entry
    assert entry["cell"] == target, (entry, target)


def test_a_whole_game_against_a_bot_with_the_keyboard_alone(
    page: Any, size: str, server: str
) -> None:
    page.goto(server + "/")
    page.locator("[data-testid=create-form]").wait_for()
    tab_to(page, "seat-0-name")
    page.keyboard.type("Kim")
    tab_to(page, "create-game")
    key(page, "Enter")
    page.locator("[data-testid=share-panel]").wait_for()
    assert focused_testid(page) == "enter-game"  # on to the game, not back to the top
    key(page, "Enter")
    page.wait_for_url(re.compile(r"/g/[^#]+#seat="))
    game_id = re.search(r"/g/([A-Za-z0-9_-]+)", page.url).group(1)  # type: ignore[union-attr]
    turns = 0
    while wait_for_my_turn_or_end(page):
        wait_for_focus(page, r"^space-")  # your turn: focus on the wheel
        keyboard_turn(page, server, game_id, turns)
        assert not active(page)["body"]
        turns += 1
        assert turns < 60, "the game did not end"
    state = api(server, f"/api/games/{game_id}")
    assert state["over"]
    mine = [e for e in state["log"] if e["seat"] == 0]
    assert len(mine) == turns
    assert page.locator("[data-testid=end-screen]").is_visible()
    assert not active(page)["body"]  # the end dialog took focus
    shot(page, f"keyboard-game-end-{size}")


def test_a_solo_game_with_the_keyboard_alone_ends_phase_1_by_key(
    page: Any, size: str, server: str
) -> None:
    game = create_game(server, [{"kind": "human", "name": "Sol"}], seed=17)  # 8 discs early
    page.goto(server + game["seats"][0]["link"])
    turns = 0
    ended = False
    while wait_for_my_turn_or_end(page):
        focus = wait_for_focus(page, r"^(space-\d+|end-phase|refill)$")
        if page.locator("[data-testid=end-phase]").is_visible() and not ended:
            before = ply(page)
            tab_to(page, "end-phase")
            key(page, "Enter")
            wait_for_ply_after(page, before)
            ended = True
            continue
        assert focus.startswith("space-")
        state = api(server, f"/api/games/{game['id']}", token=game["seats"][0]["token"])
        places = [c for c in state["choices"] if "cell" in c]
        best = max(places, key=lambda c: len(c["covers"]))  # 8 discs before the wheel empties
        keyboard_turn(page, server, game["id"], turns, want=best)
        turns += 1
        assert turns < 40
    assert ended, "End phase 1 was never offered"
    assert api(server, f"/api/games/{game['id']}")["over"]


def test_focus_stays_on_a_sensible_control_after_every_action(
    page: Any, size: str, server: str
) -> None:
    game = create_game(server, [{"kind": "human", "name": "Ann"}, GREEDY], seed=11)
    page.goto(server + game["seats"][0]["link"])
    assert wait_for_my_turn_or_end(page)
    assert wait_for_focus(page, r"^space-")  # the page opens on your turn: the wheel
    keyboard_turn(page, server, game["id"], 0)  # a first tile
    assert wait_for_my_turn_or_end(page)
    assert wait_for_focus(page, r"^space-")  # the bot replied: back on the wheel
    # a tile chosen, then Escape: back on that tile
    key(page, "ArrowRight")
    space = focused_testid(page)
    key(page, "Enter")
    wait_for_focus(page, r"^cell-")
    key(page, "Escape")
    assert wait_for_focus(page, r"^space-") == space
    assert page.locator("[data-testid^='cell-']").count() == 0
    # Hint: focus on "Play it" (described by the suggestion); Dismiss: back on Hint
    tab_to(page, "hint")
    key(page, "Enter")
    assert wait_for_focus(page, "^play-hint$")
    described = page.get_attribute("[data-testid=play-hint]", "aria-describedby") or ""
    assert "Suggestion" in page.inner_text(f"#{described.split()[0]}")
    key(page, "Tab")
    assert focused_testid(page) == "dismiss-hint"
    key(page, "Enter")
    assert wait_for_focus(page, "^hint$")
    # Hint, then Play it: the move is made and focus comes back to the wheel
    key(page, "Enter")
    wait_for_focus(page, "^play-hint$")
    before = ply(page)
    key(page, "Enter")
    wait_for_ply_after(page, before)
    assert not active(page)["body"]
    assert wait_for_my_turn_or_end(page)
    assert wait_for_focus(page, r"^space-")
    # the seat tabs and the players' cards: focus stays on the one pressed
    tab_to(page, "tab-0")
    key(page, "ArrowRight")
    assert focused_testid(page) == "tab-1"
    tab_to(page, "player-0")
    key(page, "Enter")
    assert focused_testid(page) == "player-0"


def test_one_stop_per_group_in_the_tab_order_and_the_arrows_move_within(
    page: Any, size: str, server: str
) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, GREEDY]
    game = create_game(server, seats, seed=4)
    page.goto(server + game["seats"][0]["link"] + "," + game["seats"][1]["token"])
    assert wait_for_my_turn_or_end(page)
    wheel = "[data-testid=wheel] .space.selectable"
    assert page.evaluate(TAB_STOPS, wheel) == [focused_testid(page)]
    marks = {
        page.get_attribute(f"[data-testid={t}]", "data-takeable"): t
        for t in page.eval_on_selector_all(wheel, "els => els.map(e => e.dataset.testid)")
    }
    assert len(marks) == 3
    key(page, "End")
    assert focused_testid(page) == marks["3"]
    assert page.evaluate(TAB_STOPS, wheel) == [marks["3"]]
    key(page, "Home")
    assert focused_testid(page) == marks["1"]
    key(page, "ArrowLeft")  # wraps round
    assert focused_testid(page) == marks["3"]
    key(page, "ArrowDown")
    assert focused_testid(page) == marks["1"]
    key(page, "Tab")  # out of the wheel, not to its next tile
    assert focused_testid(page) not in marks.values()
    key(page, "Shift+Tab")
    assert focused_testid(page) == marks["1"]
    # first tiles have one legal cell: lay them until a display offers several
    for _ in range(4):
        key(page, "Enter")
        wait_for_focus(page, "^cell-")
        cells = page.evaluate(CELLS)
        if len(cells) > 1:
            break
        key(page, "Enter")
        wait_for_focus(page, "^confirm-place$")
        before = ply(page)
        key(page, "Enter")
        wait_for_ply_after(page, before)
        assert wait_for_my_turn_or_end(page)
        wait_for_focus(page, r"^space-")
    assert len(cells) >= 3
    names = ["cell-{},{}".format(*c) for c in cells]
    assert page.evaluate(TAB_STOPS, "[data-testid^='cell-']") == [names[0]]
    key(page, "End")
    assert focused_testid(page) == names[-1]
    assert page.evaluate(TAB_STOPS, "[data-testid^='cell-']") == [names[-1]]
    key(page, "Home")
    key(page, "ArrowRight")
    assert focused_testid(page) == names[1]
    previewing = page.locator("[data-testid=display] .cell.previewing")
    assert previewing.get_attribute("data-testid") == names[1]  # keyboard focus previews it
    key(page, "Tab")
    assert not focused_testid(page).startswith("cell-")
    key(page, "Escape")
    # the seat tabs: the ARIA tabs pattern
    tabs = page.locator("[role=tablist] [role=tab]")
    assert tabs.count() == 3
    panel_id = tabs.nth(0).get_attribute("aria-controls")
    panel = page.locator(f"#{panel_id}")
    assert panel.get_attribute("role") == "tabpanel"
    selected = page.evaluate(
        "() => [...document.querySelectorAll('[role=tab]')].map(t => t.ariaSelected)"
    )
    assert selected.count("true") == 1
    now = selected.index("true")
    assert page.evaluate(TAB_STOPS, "[role=tab]") == [f"tab-{now}"]
    assert panel.get_attribute("aria-labelledby") == tabs.nth(now).get_attribute("id")
    tab_to(page, f"tab-{now}")
    key(page, "ArrowRight")
    nxt = (now + 1) % 3
    assert focused_testid(page) == f"tab-{nxt}"
    assert tabs.nth(nxt).get_attribute("aria-selected") == "true"
    assert page.evaluate(TAB_STOPS, "[role=tab]") == [f"tab-{nxt}"]
    assert panel.get_attribute("aria-labelledby") == tabs.nth(nxt).get_attribute("id")
    assert page.get_attribute("[data-testid=display]", "data-seat") == str(nxt)
    key(page, "End")
    assert focused_testid(page) == "tab-2"
    assert tabs.nth(2).get_attribute("aria-selected") == "true"
    key(page, "Home")
    assert focused_testid(page) == "tab-0"
    key(page, "ArrowLeft")
    assert focused_testid(page) == "tab-2"
    shot(page, f"keyboard-tabs-{size}")


def test_one_move_and_the_bots_reply_are_a_few_short_sentences(
    page: Any, size: str, server: str
) -> None:
    game = create_game(server, [{"kind": "human", "name": "Ann"}, GREEDY], seed=3)
    page.goto(server + game["seats"][0]["link"])
    assert wait_for_my_turn_or_end(page)
    assert page.get_attribute("#app", "aria-live") is None
    assert page.get_attribute("[data-testid=turn-banner]", "aria-live") is None
    keyboard_turn(page, server, game["id"], 0)  # a first tile, so the next lies beside it
    assert wait_for_my_turn_or_end(page)
    wait_for_focus(page, r"^space-")
    page.evaluate(RECORD_LIVE)
    before = ply(page)
    keyboard_turn(page, server, game["id"], 1)
    assert wait_for_my_turn_or_end(page)
    state = api(server, f"/api/games/{game['id']}")
    bot = state["game"]["seats"][1]["name"]
    # each piece of news waits for the one before it to be said (shell/announce.js)
    page.wait_for_function(
        "(bot) => window.spoken.some((t) => t.includes(`${bot} took the`))"
        " && window.spoken.at(-1).endsWith('Your turn.')",
        arg=bot,
    )
    # and nothing more waits its turn (anything said late is counted too)
    page.wait_for_function("() => document.getElementById('announcer').dataset.waiting === '0'")
    spoken: list[str] = page.evaluate("window.spoken")
    moves = api(server, f"/api/games/{game['id']}")["log"][before:]
    assert 2 <= len(spoken) <= len(moves) + 1 <= 4, spoken
    assert all(len(text) <= 160 for text in spoken), spoken
    assert sum(map(len, spoken)) <= 400, spoken
    said = " ".join(spoken)
    took = r"You took the (red|blue|cyan|yellow) \d+ and laid it (right of|left of|above|below) the"
    assert re.search(took, said), said
    assert f"{bot} took the" in said, said
    assert said.rstrip().endswith("Your turn."), said
    assert not re.search(r"-?\d+,-?\d+", said), said  # board terms, not coordinates


def test_the_replay_says_each_turn_it_steps_to(page: Any, size: str, server: str) -> None:
    bots = [{"kind": "bot", "bot": "random", "name": name} for name in ("Ann", "Ben")]
    game = create_game(server, bots, seed=4)
    record = wait_until_over(server, game["id"])
    turns = len(record["log"])
    page.goto(server + f"/replay/{game['id']}")
    page.locator("[data-testid=replay-counter]").wait_for()
    page.evaluate(RECORD_LIVE)
    tab_to(page, "replay-next")
    key(page, "Enter")
    key(page, "End")
    # only the turns: the analysis offer may be announced meanwhile, once it has loaded
    page.wait_for_function("() => window.spoken.filter((t) => t.startsWith('Turn ')).length >= 2")
    spoken = [t for t in page.evaluate("window.spoken") if t.startswith("Turn ")]
    took = r"took the (red|blue|cyan|yellow) \d+"
    assert re.match(rf"Turn 1 of {turns}: (Ann|Ben) {took}", spoken[0]), spoken
    assert re.match(rf"Turn {turns} of {turns}: (Ann|Ben) .*Game over\.$", spoken[-1]), spoken
    assert len(spoken) == 2 and all(len(text) <= 160 for text in spoken), spoken
