"""NMBR 9 in a real browser: from the lobby to the end screen by clicking (against a bot
and solo) and by the keyboard alone (with each round's announcement), a game with a
friend in two browser contexts (pending placements stay hidden), take back, the ghost's
reasons, R, the lobby and hot seat (the board's pointer, zoom and hint:
test_browser_board.py). Screenshots go to test-output/screenshots/n9-*.jpg."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import (
    SIZES,
    api,
    checked_page,
    heard,
    no_horizontal_overflow,
    ply,
    press,
    record_announcements,
    running_server,
    shot,
    wait_for_ply_after,
)
from nmbr9_pages import (
    GREEDY,
    confirm_and_wait,
    confirm_by_hand,
    create_from_lobby,
    create_n9,
    ghost,
    open_lobby_nmbr9,
    seat_url,
    spot_name,
    tiles_on_board,
    wait_for_placing_or_end,
)

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("n9browser") / "games.db") as base:
        yield base


BOARD_TITLED = (
    "(title) => document.querySelector('[data-testid=board-title]')?.textContent === title"
)


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
            if not solo:  # the bot's board, large, then back to yours (each redrawn)
                press(page, size, "[data-testid=mini-board-1]")
                page.wait_for_function(BOARD_TITLED, arg="Greedy's board")
                assert page.locator("[data-testid=ghost]").count() == 0
                press(page, size, "[data-testid=own-board]")
                page.locator("[data-testid=ghost]").wait_for()
                page.wait_for_function(BOARD_TITLED, arg="Your board")
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


@pytest.mark.parametrize("size", ["desktop"])
def test_your_ghost_stays_while_you_look_at_a_board_that_changes(
    browser: Any, server: str, size: str
) -> None:
    """Ann moves her tile, looks at Bob's board, Bob places meanwhile: back on her own
    board her tile is where she left it (the state that said Bob had placed dropped it,
    until the next round)."""
    game = create_n9(server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    with checked_page(browser, **SIZES[size]) as ann:
        ann.goto(seat_url(server, game, 0))
        assert wait_for_placing_or_end(ann)
        ann.focus("[data-testid=board]")
        for key in ("ArrowRight", "ArrowDown"):
            ann.keyboard.press(key)
        moved = ghost(ann)
        press(ann, size, "[data-testid=mini-board-1]")
        ann.wait_for_function(BOARD_TITLED, arg="Bob's board")
        assert ann.locator("[data-testid=ghost]").count() == 0
        bob, path = game["seats"][1]["token"], f"/api/games/{game['id']}"
        state = api(server, path, token=bob)
        api(
            server,
            f"{path}/actions",
            {"action": state["choices"][0]["action"], "ply": state["ply"]},
            bob,
        )
        ann.wait_for_function(
            "() => document.querySelector('[data-testid=placed-1]')?.textContent === 'placed'"
        )
        press(ann, size, "[data-testid=own-board]")
        ann.locator("[data-testid=ghost]").wait_for()
        assert ghost(ann) == moved


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
    record_announcements(page)
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
        said = heard(page, heading)
        assert heading + mine in said and "; Greedy placed it at column" in said, said
        assert len(said) < 240  # short: one sentence a seat
        # the log says the same, with your name for "you"
        entry = page.locator("[data-testid=log-entry]", has_text=heading).last.inner_text()
        assert heading + name + mine.removeprefix("you") in entry, entry
        assert "placed the" not in entry.split(heading)[0], entry  # a row of its own
    page.locator("[data-testid=end-screen]").wait_for()
    # said once the sentence before it has had its moment (shell/announce.js)
    heard(page, "Game over:")
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
