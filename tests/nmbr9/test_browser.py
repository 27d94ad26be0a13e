"""NMBR 9 in a real browser: from the lobby to the end screen by clicking (against a bot
and solo) and by the keyboard alone (with each round's announcement), a game with a
friend in two browser contexts (pending placements stay hidden), take back, the ghost's
reasons, R, the ghost following the mouse, panning limits, Ctrl+wheel and pinch zoom, the
hint. Screenshots go to test-output/screenshots/n9-*.png."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import (
    SIZES,
    api,
    checked_page,
    no_horizontal_overflow,
    ply,
    press,
    running_server,
    shot,
    wait_for_ply_after,
    wait_until_over,
)

sync_api = pytest.importorskip("playwright.sync_api")

GREEDY = {"kind": "bot", "bot": "greedy"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("n9browser") / "games.db") as base:
        yield base


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


@pytest.mark.parametrize("solo", [False, True], ids=["bot", "solo"])
def test_a_whole_game_from_the_lobby_by_clicking(
    page: Any, server: str, size: str, solo: bool
) -> None:
    open_lobby_nmbr9(page, server, size)
    assert page.locator("[data-testid=option-remove]").count() == 1
    assert page.locator("[data-testid=option-time_limit]").count() == 1
    if size == "desktop" and not solo:
        shot(page, f"n9-lobby-{size}")
    create_from_lobby(page, size, solo)
    rounds = 0
    while wait_for_placing_or_end(page):
        if rounds == 3:
            shot(page, f"n9-game-{'solo' if solo else 'bot'}-{size}", full_page=True)
            assert no_horizontal_overflow(page)
            assert page.inner_text("[data-testid=turned]").split() != []
            assert page.locator("[data-testid=level-scores]").is_visible()
            said = page.inner_text("[data-testid=turn-banner]")  # worded for the input at hand
            assert ("tap your board" in said) == (size == "phone") and ("(R)" in said) != (
                size == "phone"
            ), said
            if not solo:  # the bot's board, large, then back to yours
                press(page, size, "[data-testid=mini-board-1]")
                assert page.inner_text("[data-testid=board-title]") == "Greedy's board"
                assert page.locator("[data-testid=ghost]").count() == 0
                press(page, size, "[data-testid=own-board]")
                page.locator("[data-testid=ghost]").wait_for()
                assert page.inner_text("[data-testid=board-title]") == "Your board"
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


@pytest.mark.parametrize("size", ["desktop"])
def test_a_friend_sees_no_pending_placement_until_both_have_placed(
    browser: Any, server: str, size: str
) -> None:
    game = create_n9(server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    with checked_page(browser, **SIZES[size]) as ann, checked_page(browser, **SIZES[size]) as bob:
        ann.goto(seat_url(server, game, 0))
        bob.goto(seat_url(server, game, 1))
        for p in (ann, bob):
            assert wait_for_placing_or_end(p)
        confirm_by_hand(ann, size)
        # Bob learns that Ann has placed, not where
        bob.wait_for_function(
            "() => document.querySelector('[data-testid=placed-0]')?.textContent === 'placed'"
        )
        assert tiles_on_board(bob, 0) == 0
        assert tiles_on_board(ann, 0) == 1  # Ann sees her own, dashed
        assert ann.locator("[data-testid=board] .n9-tile.pending").count() == 1
        assert "Waiting for Bob" in ann.inner_text("[data-testid=banner-title]")
        assert "take it back" in ann.inner_text("[data-testid=turn-banner]")
        shot(ann, f"n9-friend-waiting-{size}")
        # a spectator sees Ann's board as of the last round, and no ghost
        with checked_page(browser, **SIZES[size]) as watcher:
            watcher.goto(f"{server}/g/{game['id']}")
            watcher.locator("[data-testid=spectator-chip]").wait_for()
            assert watcher.inner_text("[data-testid=board-title]") == "Ann's board"
            assert watcher.locator("[data-testid=ghost]").count() == 0
            assert watcher.locator("[data-testid=board] .n9-tile").count() == 0
            assert watcher.inner_text("[data-testid=placed-0]") == "placed"
        confirm_by_hand(bob, size)
        for p in (ann, bob):
            p.wait_for_function(
                "() => document.querySelector('[data-testid=round]')"
                ".textContent.startsWith('Round 2')"
            )
            assert tiles_on_board(p, 0) == 1
            assert tiles_on_board(p, 1) == 1


@pytest.mark.parametrize("size", ["phone"])
def test_take_back_before_the_round_resolves(browser: Any, server: str, size: str) -> None:
    game = create_n9(server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    with checked_page(browser, **SIZES[size]) as ann:
        ann.goto(seat_url(server, game, 0))
        assert wait_for_placing_or_end(ann)
        start = ghost(ann)
        ann.focus("[data-testid=board]")
        for key in ("ArrowRight", "ArrowRight", "ArrowDown"):  # away from where it starts
            ann.keyboard.press(key)
        first = ghost(ann)
        assert (first["x"], first["y"]) == (start["x"] + 2, start["y"] + 1)
        confirm_by_hand(ann, size)
        assert ann.locator("[data-testid=ghost]").count() == 0
        undo = ann.locator("[data-testid=undo]")
        assert undo.inner_text() == "Take back"
        shot(ann, f"n9-placed-{size}", full_page=True)
        before = ply(ann)
        press(ann, size, "[data-testid=undo]")
        wait_for_ply_after(ann, before)
        assert wait_for_placing_or_end(ann)  # placing again, the same round
        assert ann.inner_text("[data-testid=round]").startswith("Round 1")
        assert ann.locator("[data-testid=board] .n9-tile").count() == 0
        assert ghost(ann) == first  # back where the tile was, not at a default spot
        assert api(server, f"/api/games/{game['id']}")["view"]["has_placed"] == [False, False]


def bot_has_placed(server: str, game: dict[str, Any]) -> None:
    """Wait until the bot has placed this round's tile (it does before the human, as a
    rule: then the human's Confirm resolves the round at once)."""
    for _ in range(300):
        if api(server, f"/api/games/{game['id']}")["active"] == [0]:
            return
        time.sleep(0.05)
    raise AssertionError("the bot never placed")


def test_against_a_bot_the_last_tile_is_taken_back_after_its_round_resolved(
    page: Any, server: str, size: str
) -> None:
    game = create_n9(server, [{"kind": "human", "name": "Ann"}, GREEDY], options={"remove": 16})
    page.goto(seat_url(server, game, 0))
    placed = []
    for number in (1, 2):
        assert wait_for_placing_or_end(page)
        assert page.inner_text("[data-testid=round]").startswith(f"Round {number}")
        bot_has_placed(server, game)
        placed.append((page.inner_text("[data-testid=current-card]"), ghost(page)))
        confirm_by_hand(page, size)  # the round resolves at once: the bot has placed
    assert wait_for_placing_or_end(page)
    assert page.inner_text("[data-testid=round]").startswith("Round 3")
    undo = page.locator("[data-testid=undo]")
    assert undo.inner_text() == "Take back last tile" and undo.is_visible()
    shot(page, f"n9-undo-before-{size}", full_page=True)
    before = ply(page)
    if size == "phone":
        press(page, size, "[data-testid=undo]")
    else:  # a button of its own: the keyboard reaches it
        undo.focus()
        page.keyboard.press("Enter")
    page.wait_for_function(
        "(p) => Number(document.querySelector('[data-testid=game]').dataset.ply) < p", arg=before
    )
    assert wait_for_placing_or_end(page)  # round 2 again, its card, the tile back in hand
    assert page.inner_text("[data-testid=round]").startswith("Round 2")
    assert page.inner_text("[data-testid=current-card]") == placed[1][0]
    assert page.locator("[data-testid=board] .n9-tile").count() == 1
    assert ghost(page) == placed[1][1]  # where the tile was
    page.get_by_text("Your tile was taken back").wait_for()
    state = api(server, f"/api/games/{game['id']}")
    assert state["view"]["round"] == 1 and state["view"]["has_placed"] == [False, True]
    assert [len(b["tiles"]) for b in state["view"]["boards"]] == [1, 1]  # the bot's: hidden
    assert undo.inner_text() == "Take back last tile"  # round 1's tile could go too
    shot(page, f"n9-undo-after-{size}", full_page=True)
    confirm_by_hand(page, size)  # placing again resolves round 2 with the bot's tile
    assert wait_for_placing_or_end(page)
    assert page.inner_text("[data-testid=round]").startswith("Round 3")
    assert page.locator("[data-testid=board] .n9-tile").count() == 2


def test_the_ghost_says_why_a_spot_is_illegal_and_r_turns_it(
    page: Any, server: str, size: str
) -> None:
    game = create_n9(server, [{"kind": "human", "name": "Ann"}, GREEDY], seed=3)
    page.goto(seat_url(server, game, 0))
    assert wait_for_placing_or_end(page)
    confirm_by_hand(page, "desktop")
    assert wait_for_placing_or_end(page)
    page.locator("[data-testid=board]").focus()
    start = ghost(page)
    page.keyboard.press("r")
    turned = ghost(page)
    assert turned["rot"] == (start["rot"] + 1) % 4
    page.keyboard.press("Shift+R")
    assert ghost(page)["rot"] == start["rot"]
    if size == "desktop":  # the mouse wheel turns it too
        box = page.locator("[data-testid=board]").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # pin
        before = ghost(page)
        page.mouse.wheel(0, 100)
        page.wait_for_function(
            "(r) => document.querySelector('[data-testid=ghost]').dataset.rot !== String(r)",
            arg=before["rot"],
        )
        page.locator("[data-testid=board]").focus()
    # far from the first tile: it touches nothing on the table
    for _ in range(12):
        page.keyboard.press("ArrowRight")
    assert not ghost(page)["legal"]
    status = page.inner_text("[data-testid=ghost-status]")
    assert "does not touch level 0" in status
    # on top of the only tile: it would rest on one tile, or overhang
    reasons = set()
    for _ in range(16):
        page.keyboard.press("ArrowLeft")
        g = ghost(page)
        if not g["legal"]:
            text = page.inner_text("[data-testid=ghost-status]")
            reasons.update(
                r for r in ("overhangs", "rests on one tile", "does not touch") if r in text
            )
    assert "overhangs" in reasons
    # Confirm on an illegal spot places nothing
    while ghost(page)["legal"]:
        page.keyboard.press("ArrowUp")
    before = ply(page)
    page.keyboard.press("Enter")
    page.click("[data-testid=confirm]", force=True)  # aria-disabled: it says why instead
    page.wait_for_function(  # the answer to the click: why not, and nothing sent
        "() => document.querySelector('[data-testid=ghost-status]').textContent"
        ".trim().startsWith('Not here:')"
    )
    assert ply(page) == before
    shot(page, f"n9-illegal-{size}")


def focused(page: Any) -> str:
    """The data-testid of the focused element; fails when focus is on <body>."""
    testid = page.evaluate(
        "() => document.activeElement === document.body ? null"
        " : document.activeElement.getAttribute('data-testid') || ''"
    )
    assert testid is not None, "focus dropped to <body>"
    return testid


def tab_to(page: Any, testid: str, limit: int = 40) -> None:
    """Press Tab until the element ``testid`` has focus (at first it may be on <body>)."""
    for _ in range(limit):
        if page.evaluate("() => document.activeElement?.getAttribute('data-testid')") == testid:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {testid}")


#: The arrow keys of a square spiral outwards: 1 right, 1 down, 2 left, 2 up, 3 right, …
SPIRAL = [
    arrow
    for n in range(1, 13)
    for arrow in (
        ["ArrowRight"] * n + ["ArrowDown"] * n if n % 2 else ["ArrowLeft"] * n + ["ArrowUp"] * n
    )
]


def walk_to_a_legal_spot(page: Any) -> None:
    """Arrow keys (and R, when a whole spiral finds nothing) until the ghost is legal."""
    for _turn in range(4):
        for arrow in SPIRAL:
            if ghost(page)["legal"]:
                return
            page.keyboard.press(arrow)
        page.keyboard.press("r")
    raise AssertionError("no legal spot within reach of the ghost")


def spot_name(x: int, y: int) -> str:
    """The page's name for a spot (see spotName in index.js)."""
    signed = lambda n: f"\u2212{-n}" if n < 0 else str(n)  # noqa: E731
    return f"column {signed(x)}, row {signed(y)}"


def keyboard_round(page: Any, number: int) -> str:
    """One round by keys alone, from focus on the board: R a few times, the arrows to a
    legal spot, Enter. Returns the words the round's announcement must hold for you."""
    assert focused(page) == "board"
    start = ghost(page)
    for _ in range(number % 4):
        page.keyboard.press("r")
    assert ghost(page)["rot"] == (start["rot"] + number % 4) % 4
    walk_to_a_legal_spot(page)
    spot = ghost(page)
    status = page.inner_text("[data-testid=ghost-status]")
    level = int(status.split("level ")[1].split(",")[0])
    where = spot_name(spot["x"], spot["y"]) if number else spot_name(0, 0)  # the first: 0,0
    confirm_and_wait(page, lambda: page.keyboard.press("Enter"))
    return f"you placed it at {where}, on level {level}"


def test_a_whole_game_against_a_bot_with_the_keyboard_alone(
    page: Any, server: str, size: str
) -> None:
    """From the lobby (the shortest game it offers: cards removed) to the end screen with
    Tab, Enter, the arrows and R only; each round is announced once it resolves, saying
    where each tile went, in the log's own words."""
    page.goto(server + "/")
    page.locator("[data-testid=create-form]").wait_for()
    tab_to(page, "game-type-nova-luna")  # the games are one tab stop: arrows choose
    page.keyboard.press("ArrowRight")
    assert focused(page) == "game-type-nmbr9"
    page.keyboard.press("Enter")
    page.locator("[data-testid=option-remove]").wait_for()
    tab_to(page, "option-remove")
    page.keyboard.press("ArrowDown")  # a random number of cards, 1 to 4, removed
    chosen = page.eval_on_selector("[data-testid=option-remove]", "e => e.selectedOptions[0].text")
    assert chosen == "a random number, 1 to 4"
    tab_to(page, "create-game")
    page.keyboard.press("Enter")
    page.locator("[data-testid=share-panel]").wait_for()
    assert focused(page) == "enter-game"
    page.keyboard.press("Enter")
    page.locator("[data-testid=board]").wait_for()
    game_id = page.url.split("/g/")[1].split("#")[0]
    start = api(server, f"/api/games/{game_id}")
    rounds, name = start["view"]["rounds"], start["game"]["seats"][0]["name"]
    assert 16 <= rounds <= 19
    for number in range(rounds):
        assert wait_for_placing_or_end(page)
        page.wait_for_function("() => document.activeElement?.dataset.testid === 'board'")
        card = int(page.inner_text("[data-testid=current-card] strong").split()[-1])
        if number == 8 and size == "phone":
            shot(page, "n9-keyboard-mid-game-phone", full_page=True)
            assert no_horizontal_overflow(page)
        mine = keyboard_round(page, number)
        heading = f"Round {number + 1}, the {card}: "
        page.wait_for_function(
            "(h) => document.getElementById('announcer').textContent.includes(h)", arg=heading
        )
        said = page.locator("[data-testid=announcement]", has_text=heading).inner_text()
        assert heading + mine in said and "; Greedy placed it at column" in said, said
        assert len(said) < 240  # short: one sentence a seat
        # the log says the same, with your name for "you"
        entry = page.locator("[data-testid=log-entry]", has_text=heading).last.inner_text()
        assert heading + name + mine.removeprefix("you") in entry, entry
        assert "placed the" not in entry.split(heading)[0], entry  # a row of its own
    page.locator("[data-testid=end-screen]").wait_for()
    # said once the sentence before it has had its moment (shell/announce.js)
    page.wait_for_function(
        "() => document.getElementById('announcer').textContent.includes('Game over:')"
    )
    assert focused(page) in ("", "play-again", "close-end")  # the dialog's headline, or a button
    tab_to(page, "close-end")
    shot(page, f"n9-keyboard-end-{size}")
    page.keyboard.press("Enter")
    page.locator("[data-testid=end-screen]").wait_for(state="detached")
    assert focused(page) == "show-result"
    state = api(server, f"/api/games/{game_id}")
    assert state["over"] and len(state["view"]["boards"][0]["tiles"]) == rounds
    # the replay says each round once: "Round 1 of 17, the 7: Ann placed it at …"
    page.goto(server + f"/replay/{game_id}")
    page.locator("[data-testid=replay-counter]").wait_for()
    tab_to(page, "replay-next")
    page.keyboard.press("Enter")
    said = page.locator("[data-testid=announcement]", has_text="Round 1 of").inner_text()
    assert said.startswith(f"Round 1 of {rounds}, the ") and "Round 1," not in said, said
    assert f"{name} placed it at column" in said, said
    assert len(page.inner_text("[data-testid=turned]").split()) == 1  # played, not the next


@pytest.mark.parametrize("size", ["desktop"])
def test_the_lobby_offers_nmbr9_without_its_board_code(page: Any, server: str) -> None:
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(server + "/")
    assert page.inner_text("[data-testid=brand]") == "Tabletop"
    symbols = page.locator("[data-testid=colour-symbols]")
    page.click("[data-testid=game-type-nova-luna]")
    symbols.wait_for(state="visible")  # Nova Luna draws a shape per colour
    page.click("[data-testid=game-type-nmbr9]")
    page.locator("[data-testid=option-remove]").wait_for()
    symbols.wait_for(state="hidden")  # NMBR 9 has no colours to mark: no idle switch
    assert page.get_attribute("[data-testid=game-type-nmbr9]", "aria-checked") == "true"
    assert page.title() == "NMBR 9 · Tabletop"
    # the choice options, as the server describes them
    assert "a random number, 1 to 4" in page.inner_text("[data-testid=option-remove]")
    assert "30 s" in page.inner_text("[data-testid=option-time_limit]")
    page.wait_for_load_state("networkidle")
    assert any(url.endswith("/games/nmbr9/intro.js") for url in fetched)
    assert not any("/games/nmbr9/index.js" in url or "board.css" in url for url in fetched)
    # and creates an NMBR 9 game with the options chosen
    page.select_option("[data-testid=option-remove]", label="a random number, 1 to 4")
    page.select_option("[data-testid=option-time_limit]", label="60 s")
    page.click("[data-testid=create-game]")
    page.click("[data-testid=enter-game]")
    page.locator("[data-testid=clock]").wait_for()
    assert "left this round" in page.inner_text("[data-testid=clock]")
    assert "NMBR 9" in page.title()
    assert symbols.is_hidden()
    game_id = page.url.split("/g/")[1].split("#")[0]
    state = api(server, f"/api/games/{game_id}")
    assert state["game"]["type"] == "nmbr9"
    assert state["time_left"]["seconds"] == 60 and state["game"]["time_limit"] == 60


@pytest.mark.parametrize("size", ["phone"])
def test_hot_seat_places_for_each_seat_in_turn(page: Any, server: str) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    game = create_n9(server, seats)
    tokens = ",".join(s["token"] for s in game["seats"])
    page.goto(f"{server}/g/{game['id']}#seat={tokens}")
    for name in ("Ann", "Bob"):
        assert wait_for_placing_or_end(page)
        page.wait_for_function(
            "(n) => document.querySelector('[data-testid=banner-title]').textContent"
            " === `${n}, your turn`",
            arg=name,
        )
        assert page.inner_text("[data-testid=board-title]") == f"{name}'s board"
        confirm_by_hand(page, "phone")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=round]').textContent.startsWith('Round 2')"
    )
    assert tiles_on_board(page, 0) == 1 and tiles_on_board(page, 1) == 1


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
    assert view_width(page) < wide
    page.locator("[data-testid=zoom-out]").tap()
    page.locator("[data-testid=zoom-out]").tap()
    assert view_width(page) > wide
    start = ghost(page)
    box = page.locator("[data-testid=board]").bounding_box()
    page.touchscreen.tap(box["x"] + 12, box["y"] + 12)  # the top-left corner
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
    wait_for_ply_after(page, before)
    mine = api(server, f"/api/games/{game['id']}")["log"][before]
    assert mine["seat"] == 0


def status_text(page: Any) -> str:
    return str(page.inner_text("#n9-status"))


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
