"""The web page in a real browser (Chromium through Playwright) against a real server.

Every move here is made by clicking tiles and cells, as a player would; the JSON API is
only used to set games up quickly and to check that the page shows what the server says.
Screenshots of the main screens go to test-output/screenshots/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import (
    TIMEOUT_MS,
    api,
    checked_page,
    create_game,
    free_port,
    no_horizontal_overflow,
    play_one_turn,
    ply,
    previewed_tasks,
    running_server,
    shot,
    wait_for_my_turn_or_end,
    wait_for_ply_after,
    wait_until_over,
)

sync_api = pytest.importorskip("playwright.sync_api")

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A desktop page (these tests predate the phone/desktop pairs of the other modules)."""
    with checked_page(browser, viewport=DESKTOP, accept_downloads=True) as page:
        yield page


def token_of(page: Any) -> str:
    match = re.search(r"#seat=([^,&]+)", page.url)
    assert match, page.url
    return match.group(1)


def game_id_of(page: Any) -> str:
    match = re.search(r"/g/([A-Za-z0-9_-]+)", page.url)
    assert match, page.url
    return match.group(1)


def check_preview(page: Any, base: str) -> bool:
    """Select a tile, hover its cells: the glowing tasks are the action's ``covers``.

    True once a cell whose placement covers at least one task was checked."""
    state = api(base, f"/api/games/{game_id_of(page)}", token=token_of(page))
    covering = [c for c in state["choices"] if c.get("covers")]
    if not covering:
        return False
    target = covering[0]
    page.click(f"[data-testid=space-{target['space']}]")
    for choice in [c for c in state["choices"] if c.get("space") == target["space"]][:6] + [target]:
        x, y = choice["cell"]
        page.hover(f"[data-testid='cell-{x},{y}']")
        expected = {tuple(c) for c in choice["covers"]}
        page.wait_for_function(
            "(n) => document.querySelectorAll('[data-testid=display] .task.preview').length === n",
            arg=len(expected),
        )
        assert previewed_tasks(page) == expected, choice
    assert "covers" in page.inner_text("[data-testid=preview-text]")
    shot(page, "03-tile-selected-preview")
    page.click("[data-testid=cancel-select]")
    return True


# -- 1: a whole game against a bot, made in the lobby ------------------------------------


def test_lobby_game_against_a_bot_to_the_end(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.fill("[data-testid=seat-0-name]", "Ann")
    page.select_option("[data-testid=seat-1-bot]", "greedy")
    shot(page, "01-lobby")
    page.click("[data-testid=create-game]")
    page.locator("[data-testid=share-panel]").wait_for()
    link = page.input_value("[data-testid=seat-link-0]")
    assert "#seat=" in link
    assert "#seat=" not in page.input_value("[data-testid=spectator-link]")
    shot(page, "01b-game-created")
    page.click("[data-testid=enter-game]")
    page.wait_for_url(re.compile(r"/g/[^#]+#seat="))
    game_id = game_id_of(page)

    checked_preview = False
    turns = 0
    while wait_for_my_turn_or_end(page):
        if not checked_preview:
            checked_preview = check_preview(page, server)
        if turns == 4:
            shot(page, "02-game-desktop")
        play_one_turn(page)
        turns += 1
        assert turns < 60
    assert checked_preview, "no turn offered a placement that covers a task"

    # the end screen
    end = page.locator("[data-testid=end-screen]")
    assert end.is_visible()
    result = api(server, f"/api/games/{game_id}")["result"]
    ranking = page.locator("[data-testid=result] tbody tr")
    assert ranking.count() == 2
    winner = ["Ann", "Greedy"][result["ranking"][0]]
    assert winner in ranking.nth(0).inner_text()
    assert str(result["discs_left"][result["ranking"][0]]) in ranking.nth(0).inner_text()
    shot(page, "05-end-screen")
    with page.expect_download() as info:
        page.click("[data-testid=download-record]")
    record = json.loads(Path(info.value.path()).read_text())
    assert record["game"] == "nova-luna" and record["players"] == ["Ann", "Greedy"]
    log = api(server, f"/api/games/{game_id}")["log"]
    assert len(record["turns"]) == sum(e["kind"] == "place" for e in log)  # refill + take: 1 turn

    # play again: same seats, a new game, this browser still plays Ann
    page.click("[data-testid=play-again]")
    page.wait_for_url(lambda url: game_id not in url and "#seat=" in url)
    page.locator("[data-testid=turn-banner]").wait_for()
    new_state = api(server, f"/api/games/{game_id_of(page)}", token=token_of(page))
    assert [s["name"] for s in new_state["game"]["seats"]] == ["Ann", "Greedy"]
    assert new_state["you"] == [0]

    # the lobby lists both games
    page.goto(server + "/")
    games = page.locator("[data-testid=your-games] .game-item")
    games.nth(1).wait_for()
    assert games.count() >= 2
    # each game's status is asked of the server after the list is drawn: wait for it
    page.locator(f"[data-testid=game-item-{game_id}]", has_text="finished").wait_for()


# -- 2: two humans in two browsers ---------------------------------------------------------


def test_two_humans_see_each_others_moves_live(browser: Any, server: str) -> None:
    game = create_game(
        server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], seed=11
    )
    pages = []
    contexts = []
    for seat in game["seats"]:
        context = browser.new_context(viewport=DESKTOP)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        p = context.new_page()
        p.goto(server + seat["link"])
        p.locator("[data-testid=turn-banner]").wait_for()
        pages.append(p)
    try:
        for _ in range(3):
            state = api(server, f"/api/games/{game['id']}")
            mover, waiter = pages[state["to_move"]], pages[1 - state["to_move"]]
            assert "Your turn" in mover.inner_text("[data-testid=banner-title]")
            name = ["Ann", "Bob"][state["to_move"]]
            assert f"Waiting for {name}" in waiter.inner_text("[data-testid=banner-title]")
            before = ply(waiter)
            entries = waiter.locator("[data-testid=log-entry]").count()
            play_one_turn(mover)
            wait_for_ply_after(waiter, before)  # no reload
            assert waiter.locator("[data-testid=log-entry]").count() == entries + 1
            assert name in waiter.locator("[data-testid=log-entry]").last.inner_text()
        # both are shown online to each other
        assert pages[0].locator("[data-testid=player-1] .presence.on").count() == 1
    finally:
        for context in contexts:
            context.close()


def test_hot_seat_two_humans_in_one_browser(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.fill("[data-testid=seat-0-name]", "Ann")
    page.click("[data-testid=seat-1-kind-human]")
    page.fill("[data-testid=seat-1-name]", "Bob")
    page.click("[data-testid=create-game]")
    page.check("[data-testid=play-here-1]")
    page.click("[data-testid=enter-game]")
    page.wait_for_url(re.compile(r"#seat=[^,]+,[^,]+$"))
    game_id = game_id_of(page)
    for turn in range(4):
        assert wait_for_my_turn_or_end(page)
        state = api(server, f"/api/games/{game_id}")
        name = ["Ann", "Bob"][state["to_move"]]
        assert page.inner_text("[data-testid=banner-title]") == f"{name}, your turn"
        tab = page.locator(f"[data-testid=tab-{state['to_move']}]")
        assert tab.get_attribute("aria-selected") == "true"
        if turn == 3:
            shot(page, "08-hot-seat")
        play_one_turn(page)
    # the lobby remembers that this browser plays both seats
    page.goto(server + "/")
    item = page.locator(f"[data-testid=game-item-{game_id}]")
    assert "you: Ann, Bob" in item.inner_text()


# -- 3: solo ----------------------------------------------------------------------------


def play_best_turn(page: Any, base: str) -> str:
    """Click the placement that covers the most tasks (or 'End phase 1' when offered)."""
    before = ply(page)
    state = api(base, f"/api/games/{game_id_of(page)}", token=token_of(page))
    if any(c["action"] == "end" for c in state["choices"]):
        page.click("[data-testid=end-phase]")
        wait_for_ply_after(page, before)
        return "end"
    best = max((c for c in state["choices"] if "covers" in c), key=lambda c: len(c["covers"]))
    page.click(f"[data-testid=space-{best['space']}]")
    x, y = best["cell"]
    page.click(f"[data-testid='cell-{x},{y}']")
    wait_for_ply_after(page, before)
    return best["action"]


def test_solo_game_to_the_end(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.fill("[data-testid=seat-0-name]", "Sol")
    page.click("[data-testid=seat-1-remove]")
    assert page.locator("[data-testid=option-first_game]").is_disabled()
    assert "solo" in page.inner_text("[data-testid=create-form]")
    page.click("summary")
    page.fill("[data-testid=seed]", "17")  # a deal where 8 discs come before the wheel is empty
    page.click("[data-testid=create-game]")
    page.click("[data-testid=enter-game]")
    page.wait_for_url(re.compile(r"#seat="))
    page.locator("[data-testid=solo-scores]").wait_for()
    ended_phase = False
    turns = 0
    while wait_for_my_turn_or_end(page):
        if page.locator("[data-testid=end-phase]").is_visible():
            assert "8 discs placed" in page.inner_text("[data-testid=game]")
            shot(page, "06a-solo-end-phase-offered")
        if play_best_turn(page, server) == "end":
            ended_phase = True
            page.locator("[data-testid=solo-phase1]").wait_for()
        turns += 1
        assert turns < 40
    assert ended_phase, "the 'End phase 1' button was never offered"
    state = api(server, f"/api/games/{game_id_of(page)}")
    result = state["result"]
    assert page.inner_text("[data-testid=score-total]").startswith(str(result["total"]))
    assert page.inner_text("[data-testid=score-phase1]").startswith(str(result["phase1"]))
    assert page.inner_text("[data-testid=score-phase2]").startswith(str(result["phase2"]))
    assert "100" in page.inner_text("[data-testid=verdict]")
    assert any(e["kind"] == "end" for e in state["log"])
    shot(page, "06-solo-end")


# -- 4: the replay page ------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished_game(server: str) -> dict[str, Any]:
    game = create_game(
        server, [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}], seed=3
    )
    state = wait_until_over(server, game["id"])
    return {"id": game["id"], "turns": len(state["log"])}


def test_replay_steps_through_a_stored_game(page: Any, server: str, finished_game: dict) -> None:
    page.goto(server + f"/replay/{finished_game['id']}")
    counter = page.locator("[data-testid=replay-counter]")
    counter.wait_for()
    assert "Start" in counter.inner_text()
    assert page.locator("[data-testid=log-entry]").count() == 0
    page.click("[data-testid=replay-next]")
    assert counter.inner_text().startswith("Turn 1 of")
    assert page.locator("[data-testid=log-entry]").count() == 1
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert counter.inner_text().startswith("Turn 3 of")
    page.keyboard.press("ArrowLeft")
    assert counter.inner_text().startswith("Turn 2 of")
    page.fill("[data-testid=replay-slider]", "10")
    assert counter.inner_text().startswith("Turn 10 of")
    page.click("[data-testid=replay-last]")
    last = page.locator("[data-testid=log-entry]").count()
    assert last >= finished_game["turns"] - 1 and last > 10
    assert "wins" in page.inner_text("[data-testid=banner-title]")
    shot(page, "07-replay")
    page.click("[data-testid=replay-first]")
    assert page.locator("[data-testid=log-entry]").count() == 0


def test_replay_of_an_uploaded_record(
    page: Any, server: str, finished_game: dict, tmp_path: Path
) -> None:
    record = api(server, f"/api/games/{finished_game['id']}/record")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    page.goto(server + "/replay")
    page.set_input_files("[data-testid=record-file]", str(path))
    page.locator("[data-testid=replay-counter]").wait_for()
    page.keyboard.press("End")
    assert page.locator("[data-testid=log-entry]").count() == len(record["turns"])
    # a broken record: a polite message, not JSON
    record["turns"][3]["tile"] = 999
    path.write_text(json.dumps(record))
    page.goto(server + "/replay")
    page.set_input_files("[data-testid=record-file]", str(path))
    toast = page.locator("[data-testid=toast]")
    toast.wait_for()
    assert "invalid record" in toast.inner_text().lower()
    assert "{" not in toast.inner_text()


# -- 5: a phone ----------------------------------------------------------------------------


def test_phone_layout_and_tapping(browser: Any, server: str) -> None:
    game = create_game(server, [{"kind": "human", "name": "Pia"}, {"kind": "bot", "bot": "greedy"}])
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(server + "/")
        page.locator("[data-testid=create-form]").wait_for()
        assert no_horizontal_overflow(page)
        shot(page, "04a-phone-lobby", full_page=True)
        page.goto(server + game["seats"][0]["link"])
        for _ in range(3):
            assert wait_for_my_turn_or_end(page)
            assert no_horizontal_overflow(page)
            before = ply(page)
            space = page.locator("[data-testid=wheel] .space[data-takeable='1']")
            space.tap()
            cell = page.locator("[data-testid^='cell-']").first
            cell.wait_for()
            cell.tap()  # a tap previews ...
            confirm = page.locator("[data-testid=confirm-place]")
            confirm.wait_for()
            assert ply(page) == before
            if _ == 2:
                shot(page, "04-phone-game")
            confirm.tap()  # ... and the confirm button places
            wait_for_ply_after(page, before)
        assert no_horizontal_overflow(page)
        shot(page, "04b-phone-game-full", full_page=True)
    finally:
        context.close()


# -- 6: spectators -------------------------------------------------------------------------


def test_spectator_is_read_only(page: Any, server: str) -> None:
    game = create_game(server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    page.goto(server + game["url"])
    page.locator("[data-testid=spectator-chip]").wait_for()
    assert "Waiting for" in page.inner_text("[data-testid=banner-title]")
    assert page.locator("[data-testid=wheel] .space.selectable").count() == 0
    page.locator("[data-testid=wheel] .space[data-takeable='1']").click()
    assert page.locator("[data-testid^='cell-']").count() == 0
    assert not page.locator("[data-testid=hint]").is_visible()
    assert not page.locator("[data-testid=undo]").is_visible()
    assert not page.locator("[data-testid=refill]").is_visible()
    # the players' moves still arrive
    state = api(server, f"/api/games/{game['id']}")
    assert state["choices"] == []
    mover = game["seats"][state["to_move"]]
    seat_state = api(server, f"/api/games/{game['id']}", token=mover["token"])
    api(
        server,
        f"/api/games/{game['id']}/actions",
        {"action": seat_state["choices"][0]["action"], "ply": 0},
        token=mover["token"],
    )
    wait_for_ply_after(page, 0)
    assert page.locator("[data-testid=log-entry]").count() == 1


def test_refill_prompts_optional_and_compulsory(page: Any, server: str) -> None:
    game = create_game(
        server, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], seed=7
    )
    tokens = [seat["token"] for seat in game["seats"]]
    path = f"/api/games/{game['id']}"
    seen_choice = False
    for _ in range(40):
        token = tokens[api(server, path)["to_move"]]
        state = api(server, path, token=token)
        if state["view"]["can_refill"] and not seen_choice:
            # 1 or 2 tiles left: the mover may refill, and the page says so
            page.goto(f"{server}{game['url']}#seat={token}")
            page.locator("[data-testid=refill]").wait_for()
            assert "you may refill it" in page.inner_text("body")
            shot(page, "13-refill-choice")
            seen_choice = True
        place = next(c["action"] for c in state["choices"] if "space" in c)
        api(server, f"{path}/actions", {"action": place, "ply": state["ply"]}, token=token)
        if api(server, path)["log"][-1]["drawn"]:
            break  # the wheel ran empty and was refilled: no choice
    else:
        raise AssertionError("the wheel never ran empty")
    assert seen_choice
    page.goto(f"{server}{game['url']}")
    notice = page.locator("[data-testid=refill-notice]")
    notice.wait_for()
    assert "It ran empty, so it was filled again from the pile" in notice.inner_text()
    assert not page.locator("[data-testid=refill]").is_visible()


def test_the_page_reconnects_after_a_server_restart(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "restart.db"
    port = free_port()
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        with running_server(db, port) as base:
            seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]
            game = create_game(base, seats)
            page.goto(base + game["seats"][0]["link"])
            assert wait_for_my_turn_or_end(page)
        page.locator("#conn:not([hidden])").wait_for()  # the server is gone: "reconnecting"
        with running_server(db, port):
            page.locator("#conn").wait_for(state="hidden", timeout=30_000)
            assert wait_for_my_turn_or_end(page)
            play_one_turn(page)
    finally:
        context.close()


# -- 7: errors -----------------------------------------------------------------------------


def test_server_errors_are_shown_politely(page: Any, server: str) -> None:
    game = create_game(server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    page.goto(server + f"/g/{game['id']}#seat=not-a-real-token")
    fatal = page.locator("[data-testid=fatal]")
    fatal.wait_for()
    assert "not valid" in fatal.inner_text()
    toast = page.locator("[data-testid=toast]").first
    assert "not valid" in toast.inner_text() and "{" not in toast.inner_text()
    page.click("[data-testid=spectate-instead]")
    page.locator("[data-testid=spectator-chip]").wait_for()

    page.goto(server + "/g/no-such-game")
    page.locator("[data-testid=fatal]").wait_for()
    assert "No such game" in page.inner_text("[data-testid=fatal]")

    # the server refuses a setup: its message, politely
    page.goto(server + "/")
    page.click("[data-testid=seat-1-remove]")
    page.click("summary")
    page.fill("[data-testid=seed]", "99999999999999999999")
    page.click("[data-testid=create-game]")
    toast = page.locator("[data-testid=toast]").first
    toast.wait_for()
    assert "seed" in toast.inner_text() and "{" not in toast.inner_text()
    assert page.locator("[data-testid=create-form]").is_visible()


def test_hint_suggests_and_plays_a_move(page: Any, server: str) -> None:
    game = create_game(server, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
    page.goto(server + game["seats"][0]["link"])
    assert wait_for_my_turn_or_end(page)
    before = ply(page)
    page.click("[data-testid=hint]")
    box = page.locator("[data-testid=hint-box]")
    box.wait_for()
    assert box.inner_text().startswith("Suggestion")
    assert page.locator("[data-testid=wheel] .space.hinted").count() == 1
    assert page.locator("[data-testid=display] .cell.hinted").count() == 1
    page.click("[data-testid=play-hint]")
    wait_for_ply_after(page, before)
    assert page.locator("[data-testid=log-entry]").count() >= 1
    # undo takes the move (and the bot's answer) back
    assert wait_for_my_turn_or_end(page)
    page.locator("[data-testid=undo]").click()
    page.wait_for_function(
        "(p) => Number(document.querySelector('[data-testid=game]').dataset.ply) === p",
        arg=before,
    )
    assert page.locator("[data-testid=log-entry]").count() == before
