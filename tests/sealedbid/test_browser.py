"""Sealed Bids in Chromium, as a player meets it: the lobby offers it (its intro module,
loaded from what the server describes), a game against a bot is created by clicking,
a bid is made with the card buttons and undone with the shell's Undo button (the
bot's bid of the round stays), the bot answers every round, the end screen shows the
result, and the replay steps through the rounds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from sealedbid.support import hosting

from browser_support import (
    TIMEOUT_MS,
    api,
    ply,
    press,
    running_server,
    wait_for_my_turn_or_end,
    wait_for_ply_after,
)

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("sealedbrowser")
    with hosting(), running_server(folder / "games.db") as base:
        yield base


SETTLED_HAND = """() => {
  if (document.querySelector('[data-testid=end-screen]')) return [];
  const cards = [...document.querySelectorAll('.sealed-hand button')];
  const ready = (b) => !b.disabled && !b.classList.contains('pending');
  const settled = cards.length > 0 && cards.every(ready);
  return settled ? cards.map((b) => Number(b.textContent)) : false;
}"""


def enabled_cards(page: Any) -> list[int]:
    """The hand once every card in it can be bid, read in the same step that saw it
    settled. Reading it afterwards raced the next update (the bot's bid re-renders the
    hand): under load a read found no enabled card left (an empty hand)."""
    settled = page.wait_for_function(SETTLED_HAND, timeout=TIMEOUT_MS)
    return [int(card) for card in settled.json_value()]


def test_a_game_against_a_bot_from_the_lobby_to_the_replay(
    page: Any, size: str, server: str
) -> None:
    page.goto(server + "/")
    press(page, size, "[data-testid=game-type-sealed-bids]")
    page.wait_for_selector("h1:text('Sealed Bids')")
    assert "highest bid takes it" in page.inner_text(".hero .lead")
    press(page, size, "[data-testid=create-game]")
    press(page, size, "[data-testid=enter-game]")
    page.wait_for_selector("[data-testid=card-1]")
    assert page.locator("link[href$='/games/sealed-bids/sealed.css']").count() == 1
    rounds = 0
    while wait_for_my_turn_or_end(page):
        before = ply(page)
        cards = enabled_cards(page)
        if rounds == 0:  # the bot bid first: this bid resolves the round; undo it
            press(page, size, f"[data-testid=card-{cards[0]}]")
            wait_for_ply_after(page, before)
            page.wait_for_selector(f"[data-testid=card-{cards[0]}]", state="detached")
            press(page, size, "[data-testid=undo]")
            page.wait_for_selector(f"[data-testid=card-{cards[0]}]:not([disabled])")
            wait_for_my_turn_or_end(page)
            before = ply(page)
        press(page, size, f"[data-testid=card-{cards[-1]}]")
        rounds += 1
        wait_for_ply_after(page, before)
    assert rounds == 6
    end = page.locator("[data-testid=end-screen]")
    assert end.is_visible() and page.locator("[data-testid=result] tr").count() == 2
    game_id = page.url.split("/g/")[1].split("#")[0]
    state = api(server, f"/api/games/{game_id}")
    assert state["over"] and state["view"]["cards"] == [[], []]
    press(page, size, "[data-testid=end-replay]")
    page.wait_for_selector("[data-testid=replay-slider]")
    page.keyboard.press("End")
    assert page.inner_text("[data-testid=prize]") == "No prize left"
