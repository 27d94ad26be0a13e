"""Sealed Bids in Chromium, as a player meets it: the lobby offers it (its intro module,
loaded from what the server describes), a game against a bot is created by clicking,
a bid is made with the card buttons and undone with the shell's Undo button (the
bot's bid of the round stays), the bot answers every round, the end screen shows the
result, and the replay steps through the rounds."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sealedbid.support import hosting

from browser_support import (
    TIMEOUT_MS,
    api,
    press,
    running_server,
    wait_for_my_turn_or_end,
)

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server_and_log(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("sealedbrowser")
    with hosting(), running_server(folder / "games.db") as base:
        yield base, folder / "games.log"


#: Every state the page's socket receives, in a few fields (``window.__states``): what a
#: failure prints, with the server's log, to show what the page was shown and when.
RECORD_STATES = """(() => {
  const states = (window.__states = []);
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const m = JSON.parse(event.data);
        if (m.type !== "state") return;
        const v = m.view || {};
        states.push({ at: Math.round(performance.now()), ply: m.ply, acting: m.acting,
          cards: v.cards, pending: v.pending, acted: v.acted, prize: v.prize,
          choices: m.choices && m.choices.map((c) => c.card) });
      });
    }
  };
})();"""


@contextlib.contextmanager
def told_on_failure(page: Any, log: Path) -> Iterator[None]:
    """On a failure, print the states the page received and the server's log: a CI
    failure can then be read without running it again."""
    try:
        yield
    except BaseException:
        states = page.evaluate("() => window.__states || []")
        print("states the page received:", *map(json.dumps, states), sep="\n  ")
        print("the server's log:", log.read_text(errors="replace")[-20_000:], sep="\n")
        raise


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


BID_MADE = """(card) => !document.querySelector(`[data-testid=card-${card}]:not(.pending)`)"""


def bid(page: Any, size: str, card: int) -> None:
    """Bid ``card`` and wait until the page shows the bid made: pending, or spent in the
    round it resolved. (Waiting for the ply to grow was not enough: the bot's bid of the
    round grows it too, and under load it came between the tap and ours, so the next
    round's reading saw this hand again and tapped a card that this bid then spent.)"""
    press(page, size, f"[data-testid=card-{card}]")
    page.wait_for_function(BID_MADE, arg=card, timeout=TIMEOUT_MS)


def play_highest_cards(page: Any, size: str) -> int:
    """Bid the highest card every round until the end; in the first, bid the lowest,
    take it back with the shell's Undo, then bid the highest. The rounds played."""
    rounds = 0
    while wait_for_my_turn_or_end(page):
        cards = enabled_cards(page)
        if rounds == 0:  # a bid, undone (resolved if the bot bid first, else pending)
            press(page, size, f"[data-testid=card-{cards[0]}]")
            page.wait_for_selector(f"[data-testid=card-{cards[0]}]", state="detached")
            press(page, size, "[data-testid=undo]")
            page.wait_for_selector(f"[data-testid=card-{cards[0]}]:not([disabled])")
            wait_for_my_turn_or_end(page)
        bid(page, size, cards[-1])
        rounds += 1
    return rounds


def test_a_game_against_a_bot_from_the_lobby_to_the_replay(
    page: Any, size: str, server_and_log: tuple[str, Path]
) -> None:
    server, log = server_and_log
    page.add_init_script(RECORD_STATES)
    page.goto(server + "/")
    press(page, size, "[data-testid=game-type-sealed-bids]")
    page.wait_for_selector("h1:text('Sealed Bids')")
    assert "highest bid takes it" in page.inner_text(".hero .lead")
    press(page, size, "[data-testid=create-game]")
    press(page, size, "[data-testid=enter-game]")
    page.wait_for_selector("[data-testid=card-1]")
    assert page.locator("link[href$='/games/sealed-bids/sealed.css']").count() == 1
    with told_on_failure(page, log):
        rounds = play_highest_cards(page, size)
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
