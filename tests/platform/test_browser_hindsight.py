"""The hindsight game and the daily bot's game, replayed beside your own (issue 44), in
Chromium at 1400×900 and 390×844 (touch): the analysis offers "Replay the hindsight
game", which shows that game under your board, stepped round by round with the same
controls to the score the analysis states; the Daily page, once you finished and the bot
has played the deal, links to your game's replay with the bot's game beside it, stepped
to the bot's score. The labels are checked in German and Dutch too. Screenshots go to
test-output/screenshots/hindsight-*.jpg."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from novaluna import test_browser_axe as axe_checks

from browser_support import (
    SIZES,
    api,
    checked_page,
    no_horizontal_overflow,
    press,
    running_server,
    shot,
    wait_until_over,
)

sync_api = pytest.importorskip("playwright.sync_api")

#: A small analysis budget and a quick daily bot: the page is tested, not the search.
OPTIONS = (
    "--analysis-budget",
    "8",
    "--daily-bot",
    "nmbr9=greedy",
    "--daily-bot",
    "nova-luna=greedy",
)
LABELS = {
    "en": ("Replay the hindsight game", "The best game with hindsight", "Replay the bot's game"),
    "de": (
        "Die beste Partie im Nachhinein nachspielen",
        "Die beste Partie im Nachhinein",
        "Die Partie des Bots neben deiner nachspielen",
    ),
    "nl": ("Het spel achteraf afspelen", "Het beste spel achteraf", "Het spel van de bot naast"),
}
ROUNDS = 20


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("hindsight") / "games.db", options=OPTIONS) as base:
        yield base


@pytest.fixture(scope="module")
def analysed(server: str) -> tuple[str, int]:
    """A finished NMBR 9 game between greedy and random, analysed: its id and the
    score of the best game with hindsight."""
    seats = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    game_id = api(server, "/api/games", {"type": "nmbr9", "seats": seats, "seed": 7})["id"]
    wait_until_over(server, game_id, timeout=120)
    api(server, f"/api/games/{game_id}/analysis", {})
    shown = wait_for(lambda: done(api(server, f"/api/games/{game_id}/analysis")))
    return game_id, shown["analysis"]["hindsight"]["score"]


def done(shown: dict[str, Any]) -> dict[str, Any] | None:
    return shown if shown["status"] == "done" else None


def wait_for(ready: Any) -> Any:
    """Poll ``ready()`` until it gives something (the server works in the background)."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        found = ready()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError("the server's background work never finished")


def beside_score(page: Any) -> int:
    return int(page.locator("[data-testid=replay-beside] [data-testid=board-score]").inner_text())


def tiles(page: Any) -> int:
    """The tiles on the board of the game beside."""
    count: int = page.locator("[data-testid=replay-beside] [data-testid=board] .n9-tile").count()
    return count


def step_to(page: Any, size: str, button: str, counter: str) -> None:
    press(page, size, f"[data-testid={button}]")
    page.wait_for_function(
        "(text) => document.querySelector('[data-testid=replay-beside-counter]')"
        "?.textContent === text",
        arg=counter,
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_step_through_the_hindsight_game_beside_yours_to_its_score(
    browser: Any, server: str, analysed: tuple[str, int], size: str
) -> None:
    game_id, score = analysed
    with checked_page(browser, **SIZES[size]) as page:
        page.goto(f"{server}/replay/{game_id}")
        offer = page.get_by_test_id("replay-hindsight")
        offer.wait_for()
        assert offer.inner_text() == LABELS["en"][0]
        offer.scroll_into_view_if_needed()
        press(page, size, "[data-testid=replay-hindsight]")
        beside = page.get_by_test_id("replay-beside")
        beside.wait_for()
        assert (
            page.get_by_test_id("replay-beside-title").inner_text() == f"{LABELS['en'][1]}: {score}"
        )
        assert page.get_by_test_id("replay-beside-counter").inner_text() == "Start · 20 rounds"
        step_to(page, size, "replay-next", f"Round 1 of {ROUNDS}")
        assert tiles(page) == 1  # the first round's placement
        step_to(page, size, "replay-beside-next", f"Round 2 of {ROUNDS}")  # its own buttons
        assert page.get_by_test_id("replay-counter").inner_text() == f"Round 2 of {ROUNDS}"
        assert tiles(page) == 2
        step_to(page, size, "replay-last", f"Round {ROUNDS} of {ROUNDS}")
        assert beside_score(page) == score  # the stated score, reached by the placements
        assert tiles(page) == ROUNDS
        assert page.get_by_test_id("replay-counter").inner_text() == f"Round 20 of {ROUNDS}"
        assert no_horizontal_overflow(page)
        shot(page, f"hindsight-replay-{size}", full_page=True)
        page.get_by_test_id("replay-beside-close").click()
        beside.wait_for(state="detached")


def play_daily(server: str, kind: str) -> tuple[str, str]:
    """Today's deal of ``kind`` played to its end without an account: its id and seat
    link."""
    made = api(server, f"/api/daily/{kind}", {})
    game_id, token = made["id"], made["seats"][0]["token"]
    while not (state := api(server, f"/api/games/{game_id}", token=token))["over"]:
        move = {"action": state["choices"][0]["action"], "ply": state["ply"]}
        api(server, f"/api/games/{game_id}/actions", move, token=token)
    return game_id, made["seats"][0]["link"]


def finished_daily(server: str, kind: str) -> tuple[str, str, int]:
    """A finished uncounted daily game, its seat link and the bot's score on the deal."""
    game_id, link = play_daily(server, kind)
    board = wait_for(
        lambda: (
            (b := api(server, f"/api/daily/{kind}/{today()}?game={game_id}"))["planner"]["status"]
            == "done"
            and b
        )
    )
    return game_id, link, board["planner"]["score"]


@pytest.fixture(scope="module")
def daily(server: str) -> tuple[str, str, int]:
    return finished_daily(server, "nmbr9")


def today() -> str:
    return datetime.now(UTC).date().isoformat()


def remember_daily(page: Any, game_id: str, link: str, kind: str = "nmbr9") -> None:
    """This browser played the day's game (as the Daily page remembers it on Play)."""
    entry = json.dumps({f"{kind} {today()}": {"id": game_id, "link": link}})
    page.add_init_script(f"localStorage.setItem('tabletop.daily.v1', {json.dumps(entry)})")


@pytest.mark.parametrize("size", list(SIZES))
def test_step_through_the_daily_bots_game_beside_yours_to_its_score(
    browser: Any, server: str, daily: tuple[str, str, int], size: str
) -> None:
    game_id, link, score = daily
    with checked_page(browser, **SIZES[size]) as page:
        remember_daily(page, game_id, link)
        page.goto(f"{server}/daily")
        offer = page.get_by_test_id("daily-replay-bot-nmbr9")
        offer.wait_for()
        assert offer.inner_text().startswith(LABELS["en"][2])
        shot(page, f"hindsight-daily-link-{size}", full_page=True)
        offer.scroll_into_view_if_needed()
        press(page, size, "[data-testid=daily-replay-bot-nmbr9]")
        page.wait_for_url(f"{server}/replay/{game_id}?*")
        beside = page.get_by_test_id("replay-beside")
        beside.wait_for()
        title = page.get_by_test_id("replay-beside-title").inner_text()
        assert title == f"The strong bot's game: Greedy (casual), {score}"  # its name, not spec
        step_to(page, size, "replay-last", f"Round {ROUNDS} of {ROUNDS}")
        assert beside_score(page) == score
        step_to(page, size, "replay-first", "Start · 20 rounds")
        assert beside_score(page) == 0
        assert no_horizontal_overflow(page)
        shot(page, f"hindsight-daily-bot-{size}", full_page=True)


@pytest.mark.parametrize("size", list(SIZES))
def test_step_through_the_nova_luna_daily_bots_game_to_its_end(
    browser: Any, server: str, size: str
) -> None:
    """Nova Luna has no hindsight game, but the bot's game replays beside yours; the
    two take different numbers of turns, and the steps run to the longer's end."""
    game_id, link, score = finished_daily(server, "nova-luna")
    bot = api(server, f"/api/daily/nova-luna/{today()}/bot?game={game_id}")
    turns = len(bot["frames"]) - 1
    with checked_page(browser, **SIZES[size]) as page:
        remember_daily(page, game_id, link, "nova-luna")
        page.goto(f"{server}/daily")
        offer = page.get_by_test_id("daily-replay-bot-nova-luna")
        offer.wait_for()
        offer.scroll_into_view_if_needed()
        press(page, size, "[data-testid=daily-replay-bot-nova-luna]")
        page.get_by_test_id("replay-beside").wait_for()
        title = page.get_by_test_id("replay-beside-title").inner_text()
        assert title.endswith(f", {score}") and "solo" not in title
        step_to(page, size, "replay-last", f"Turn {turns} of {turns}")
        mine = len(api(server, f"/api/games/{game_id}/replay")["frames"]) - 1
        last = max(mine, turns)
        assert page.get_by_test_id("replay-slider").get_attribute("max") == str(last)
        assert page.get_by_test_id("replay-counter").inner_text() == f"Turn {mine} of {mine}"
        assert no_horizontal_overflow(page)
        shot(page, f"hindsight-daily-bot-nova-luna-{size}", full_page=True)


@pytest.mark.parametrize("lang", ["de", "nl"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_replay_offers_speak_german_and_dutch(
    browser: Any,
    server: str,
    analysed: tuple[str, int],
    daily: tuple[str, str, int],
    size: str,
    lang: str,
    axe_script: str,
) -> None:
    (game_id, score), (daily_id, link, _) = analysed, daily
    offer_text, title, bot_link = LABELS[lang]
    with checked_page(browser, **SIZES[size]) as page:
        page.add_init_script(f"localStorage.setItem('boardgames.language.v1', {lang!r})")
        remember_daily(page, daily_id, link)
        page.goto(f"{server}/replay/{game_id}")
        offer = page.get_by_test_id("replay-hindsight")
        offer.wait_for()
        assert offer.inner_text() == offer_text
        offer.scroll_into_view_if_needed()
        press(page, size, "[data-testid=replay-hindsight]")
        page.get_by_test_id("replay-beside").wait_for()
        heading = page.get_by_test_id("replay-beside-title").inner_text()
        assert heading == f"{title}: {score}"
        axe_checks.check_axe(page, axe_script, f"hindsight-axe-{lang}-{size}")  # shoots too
        page.goto(f"{server}/daily")
        daily_offer = page.get_by_test_id("daily-replay-bot-nmbr9")
        daily_offer.wait_for()
        assert daily_offer.inner_text().startswith(bot_link)
