"""Toy Draft in Chromium, as a player meets it: the lobby offers it beside the shipped
games (its intro module, loaded from what the server describes), a game against a bot
is created by clicking, each tile is taken by a click or tap and the bot answers, the
end screen shows the result, and the replay steps through it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from toygame.support import hosting

from browser_support import (
    api,
    ply,
    press,
    running_server,
    shot,
    wait_for_my_turn_or_end,
    wait_for_ply_after,
    wait_until_over,
)

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with hosting(), running_server(tmp_path_factory.mktemp("toybrowser") / "games.db") as base:
        yield base


def test_a_game_against_a_bot_from_the_lobby_to_the_replay(
    page: Any, size: str, server: str
) -> None:
    page.goto(server + "/")
    press(page, size, "[data-testid=game-type-toy]")
    page.wait_for_selector("h1:text('Toy Draft')")
    assert "highest sum" in page.inner_text(".hero .lead")
    assert page.input_value("[data-testid=seat-1-bot]") == "greedy"
    press(page, size, "[data-testid=create-game]")
    press(page, size, "[data-testid=enter-game]")
    page.wait_for_selector("[data-testid=market-0]")
    assert page.locator("link[href$='/games/toy/toy.css']").count() == 1
    taken = 0
    while wait_for_my_turn_or_end(page):
        before = ply(page)
        tiles = [int(page.inner_text(f"[data-testid=market-{slot}]")) for slot in range(3)]
        slot = tiles.index(max(tiles))
        press(page, size, f"[data-testid=market-{slot}]")
        taken += 1
        wait_for_ply_after(page, before)
        assert str(max(tiles)) in page.inner_text("[data-testid=hand-0]")
        if taken == 1:  # the bot answers: its tile shows in its hand and in the log
            page.wait_for_function(
                "() => document.querySelectorAll('[data-testid=log-entry]').length >= 2"
            )
            assert page.locator("[data-testid=hand-1] .toy-chip").count() == 1
    assert taken == 4
    end = page.locator("[data-testid=end-screen]")
    assert end.is_visible() and page.locator("[data-testid=result] tr").count() == 2
    assert page.locator("[data-testid=log-entry]").count() == 8
    game_id = page.url.split("/g/")[1].split("#")[0]
    state = api(server, f"/api/games/{game_id}")
    assert state["over"] and len(state["view"]["hands"][0]) == 4
    press(page, size, "[data-testid=end-replay]")
    page.wait_for_selector("[data-testid=replay-slider]")
    assert "Start · 8 turns" in page.inner_text("[data-testid=replay-counter]")
    page.keyboard.press("End")
    assert "Turn 8 of 8" in page.inner_text("[data-testid=replay-counter]")
    assert page.locator("[data-testid=hand-1] .toy-chip").count() == 4


def test_a_finished_game_is_analysed_on_its_replay_page(page: Any, size: str, server: str) -> None:
    """The end screen's Analyse opens the replay and starts the analysis; the graph
    and a marked move show, and choosing the move steps the replay to it."""
    bots = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    game_id = _finished_bot_game(server, bots)
    page.goto(f"{server}/replay/{game_id}?analyse")
    # the finished analysis (the graph shows already while it runs)
    page.wait_for_selector("[data-testid=analysis-seat-0]", timeout=60_000)
    assert page.locator("[data-testid=analysis-graph]").is_visible()
    assert "Accuracy 100.0 %" in page.inner_text("[data-testid=analysis-seat-0]")
    marked = page.locator("[data-testid=analysis-seat-1] .analysis-moves button")
    assert marked.count() >= 1 and page.locator("[data-testid=graph-mark]").count() >= 1
    first = marked.first
    first.scroll_into_view_if_needed()
    first.click()
    assert "best was" in page.inner_text("[data-testid=analysis-detail]")
    page.locator("[data-testid=analysis-detail] button").first.click()
    both = page.locator("[data-testid=analysis-compare]")
    both.wait_for()
    # the toy's board marks no move: its hands stay beside each board (on a phone the
    # best one behind the Played / Best switch)
    assert "Best: take" in both.text_content() and both.locator(".toy-chip").count() >= 2
    assert "Start" not in page.inner_text("[data-testid=replay-counter]")
    shot(page, f"toy-analysis-{size}", full_page=True)
    # a later visitor sees the stored analysis at once, without asking
    page.goto(f"{server}/replay/{game_id}")
    page.wait_for_selector("[data-testid=analysis-graph]", timeout=10_000)
    assert page.locator("[data-testid=analyse]").count() == 0


def _finished_bot_game(server: str, bots: list[dict[str, Any]]) -> str:
    game_id: str = api(server, "/api/games", {"type": "toy", "seats": bots, "seed": 2})["id"]
    wait_until_over(server, game_id)
    return game_id
