"""Issue 30, "Both games": what a keyboard, a screen reader and a reader of German or
Dutch meet on every page. The end-of-game dialog keeps focus inside while it is open and
gives it back when it closes; the lobby's game picker is a radio group (a screen reader
hears "radio button, checked, 1 of 2"; the arrow keys choose); the live region holds one
announcement at a time; numbers and dates are written in the page's language whatever
the browser's own (a German page on an en-US browser); bots keep their translated names
in My games, uncut on a phone; German says "Punkte" for a score and "Wertungszahl" for a
rating; Dutch labels begin with a capital; the replay's tab title ends in "· Tabletop".
Screenshots: test-output/screenshots/a11y-*.jpg."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from account_support import play_out
from novaluna.test_browser_axe import create_n9, finish_by_api, n9_confirm_rounds

from browser_support import (
    SIZES,
    api,
    checked_page,
    choose_game,
    create_game,
    running_server,
    shot,
)

sync_api = pytest.importorskip("playwright.sync_api")

KINDS = ["nova-luna", "nmbr9"]
GREEDY = {"kind": "bot", "bot": "greedy"}
#: named as the lobby's list of bots labels it: "Gulzig (ontspannen)" in Dutch
GREEDY_CASUAL = {**GREEDY, "name": "Greedy (casual)"}
LANGUAGE_KEY = "boardgames.language.v1"
#: The language the page is set to, and the browser's own, which must not leak in.
BROWSER = {"locale": "en-US", "timezone_id": "Europe/Amsterdam"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    options = ("--analysis-budget", "40")  # the analysis's numbers, soon
    with running_server(tmp_path_factory.mktemp("a11y") / "games.db", options=options) as base:
        yield base


def create(base: str, kind: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return (
        create_game(base, seats, **extra)
        if kind == "nova-luna"
        else create_n9(base, seats, **extra)
    )


@pytest.fixture(scope="module")
def finished(server: str) -> dict[str, dict[str, Any]]:
    """Per game: a finished game of a seat link (Ann) against the greedy bot."""
    games = {}
    for kind in KINDS:
        game = create(server, kind, [{"kind": "human", "name": "Ann"}, GREEDY_CASUAL], seed=21)
        finish_by_api(server, game)
        games[kind] = game
    return games


@pytest.fixture(scope="module")
def account(server: str) -> dict[str, Any]:
    """An account that finished a rated game of each kind against the greedy bot; its
    session cookie, name and game ids."""
    name = f"Rita{time.monotonic_ns() % 10**6}"
    with httpx.Client(base_url=server, timeout=30) as player:
        r = player.post("/api/account/register", json={"name": name, "password": "moonlight 42"})
        assert r.status_code == 201, r.text
        ids = {}
        for kind in KINDS:
            seats = [{"kind": "human", "me": True}, GREEDY]
            r = player.post("/api/games", json={"type": kind, "seats": seats})
            assert r.status_code == 201, r.text
            ids[kind] = r.json()["id"]
            state = play_out(ids[kind], [player])
            assert state["ratings"], "a game of an account against a bot is rated"
        return {"session": player.cookies["session"], "name": name, "games": ids}


def signed_in(page: Any, base: str, account: dict[str, Any]) -> None:
    page.context.add_cookies([{"name": "session", "value": account["session"], "url": base}])


def in_language(page: Any, lang: str) -> None:
    """The page's language chosen (as the top bar's select remembers it) before it loads."""
    page.add_init_script(f"localStorage.setItem({LANGUAGE_KEY!r}, {lang!r})")


def focused(page: Any) -> str:
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return e ? (e.dataset.testid || e.id || e.tagName) : ''; }"
    )


# -- 1. the end dialog keeps focus ---------------------------------------------------------

INSIDE_DIALOG = "() => !!document.activeElement?.closest('[data-testid=end-screen]')"


@pytest.mark.parametrize("size", ["desktop"])
@pytest.mark.parametrize("kind", KINDS)
def test_the_end_dialog_keeps_focus_inside_and_gives_it_back(
    page: Any, server: str, finished: dict[str, dict[str, Any]], kind: str
) -> None:
    page.goto(server + finished[kind]["seats"][0]["link"])
    dialog = page.get_by_test_id("end-screen")
    dialog.wait_for()
    assert dialog.get_attribute("aria-modal") == "true"
    assert page.evaluate(INSIDE_DIALOG), "the dialog takes focus when it opens"
    stops = dialog.locator("a[href], button").count()
    for key in ("Tab", "Shift+Tab"):  # round and round: never out to the page under it
        for _ in range(2 * stops + 2):
            page.keyboard.press(key)
            assert page.evaluate(INSIDE_DIALOG), f"{key} left the dialog for {focused(page)}"
    # the page under it is out of reach of a screen reader's reading cursor too
    assert page.evaluate("() => document.querySelector('main').inert")
    page.keyboard.press("Escape")  # closes it, focus back where it can open it again
    dialog.wait_for(state="detached")
    assert focused(page) == "show-result"
    assert not page.evaluate("() => document.querySelector('main').inert")
    page.keyboard.press("Enter")
    dialog.wait_for()
    assert page.evaluate(INSIDE_DIALOG)
    page.get_by_test_id("close-end").click()
    dialog.wait_for(state="detached")
    assert focused(page) == "show-result", "focus goes back to the button that opened it"


# -- 2. the game picker: a radio group --------------------------------------------------


@pytest.mark.parametrize("size", ["desktop"])
def test_the_game_picker_is_a_radio_group(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.get_by_test_id("create-form").wait_for()
    group = page.get_by_role("radiogroup", name="Game")
    radios = group.get_by_role("radio")
    assert radios.count() == 2
    # what a screen reader is told: two radio buttons, the one on show checked
    assert group.aria_snapshot() == (
        '- radiogroup "Game":\n  - radio "Nova Luna" [checked]\n  - radio "NMBR 9"'
    )
    luna, n9 = page.get_by_test_id("game-type-nova-luna"), page.get_by_test_id("game-type-nmbr9")
    assert [luna.get_attribute("tabindex"), n9.get_attribute("tabindex")] == ["0", "-1"]
    luna.focus()
    page.keyboard.press("ArrowRight")  # moves and chooses, as radio buttons do
    page.get_by_test_id("option-remove").wait_for()
    assert focused(page) == "game-type-nmbr9"
    assert n9.get_attribute("aria-checked") == "true"
    assert luna.get_attribute("aria-checked") == "false"
    assert [luna.get_attribute("tabindex"), n9.get_attribute("tabindex")] == ["-1", "0"]
    assert page.title() == "NMBR 9 · Tabletop"
    page.keyboard.press("ArrowDown")  # wraps round to the first
    page.get_by_test_id("option-remove").wait_for(state="detached")
    assert focused(page) == "game-type-nova-luna"
    assert luna.get_attribute("aria-checked") == "true"
    page.keyboard.press("End")
    page.get_by_test_id("option-remove").wait_for()
    assert focused(page) == "game-type-nmbr9"
    # one tab stop: Shift+Tab from the next control lands on the checked radio
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "game-type-nmbr9"
    shot(page, "a11y-picker-desktop")


# -- 3. one announcement at a time ---------------------------------------------------------


@pytest.mark.parametrize("size", ["desktop"])
@pytest.mark.parametrize("kind", KINDS)
def test_the_live_region_holds_one_announcement(
    page: Any, server: str, finished: dict[str, dict[str, Any]], kind: str
) -> None:
    page.goto(server + f"/replay/{finished[kind]['id']}")
    page.get_by_test_id("replay-counter").wait_for()
    said = []
    for step in range(3):
        page.get_by_test_id("replay-next").click()
        page.wait_for_function(
            "(n) => document.querySelector('[data-testid=replay-slider]').value == n", arg=step + 1
        )
        region = page.get_by_test_id("announcer")
        page.wait_for_function(
            "(old) => { const r = document.getElementById('announcer');"
            " return r.textContent && !old.includes(r.textContent); }",
            arg=said,
        )
        assert region.locator("> *").count() == 1, region.inner_html()
        said.append(region.inner_text())
    assert len(set(said)) == 3  # each step said, alone


# -- 4. numbers and dates in the page's language ----------------------------------------

#: "26.11.2026, 10:21" and "26 nov 2026, 10:21": the date and time of the page's language
DATES = {
    "de": r"^\d{1,2}\.\d{1,2}\.\d{4}, \d{2}:\d{2}$",
    "nl": r"^\d{1,2} \w{3}\.? \d{4}(,| om) \d{2}:\d{2}$",
}
#: a decimal with a comma, as German and Dutch write it: "0,8", "-1,2", "+0,8"
DECIMAL = r"[-+−]?\d+,\d"


def no_dot_decimals(text: str) -> None:
    assert not re.search(r"\d\.\d", text), f"a decimal point in {text!r}"


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_numbers_and_dates_follow_the_page_language_not_the_browser(
    browser: Any, server: str, account: dict[str, Any], lang: str
) -> None:
    with checked_page(browser, **SIZES["desktop"], **BROWSER) as page:
        in_language(page, lang)
        signed_in(page, server, account)
        game_id = account["games"]["nmbr9"]
        # the end screen's ratings: "0,0 → 0,8"
        page.goto(f"{server}/g/{game_id}")
        changes = page.get_by_test_id("rating-changes")
        changes.wait_for()
        text = changes.inner_text()
        assert re.search(rf"{DECIMAL} → {DECIMAL}", text), text
        no_dot_decimals(text)
        shot(page, f"a11y-end-ratings-{lang}-desktop")
        # My games: its date and each finished game's rating
        page.goto(f"{server}/me")
        page.get_by_test_id("game-status").first.wait_for()
        for item in page.locator("[data-testid^=my-game-]").all():
            when = item.locator("small.muted").inner_text()
            assert re.match(DATES[lang], when), when
            status = item.get_by_test_id("game-status").inner_text()
            assert re.search(rf"{DECIMAL} \({DECIMAL}\)", status), status
            no_dot_decimals(status)
        shot(page, f"a11y-my-games-{lang}-desktop")
        # the leaderboard and the profile
        page.goto(f"{server}/leaderboard/nmbr9")
        page.get_by_test_id("leaderboard").wait_for()
        ratings = page.locator("[data-testid=leaderboard] [data-testid=rating]").all_inner_texts()
        assert ratings and all(re.fullmatch(DECIMAL, r) for r in ratings), ratings
        no_dot_decimals(page.get_by_test_id("leaderboard").inner_text())
        page.goto(f"{server}/u/{account['name']}")
        rating = page.get_by_test_id("profile-rating-nmbr9")
        rating.wait_for()
        assert re.fullmatch(DECIMAL, rating.inner_text()), rating.inner_text()
        # the analysis: accuracy and average loss
        api(server, f"/api/games/{game_id}/analysis", {})
        page.goto(f"{server}/replay/{game_id}")
        seat = page.get_by_test_id("analysis-seat-0")
        seat.wait_for(timeout=180_000)
        text = seat.locator("p").first.inner_text()
        assert re.search(rf"{DECIMAL} %", text), text
        no_dot_decimals(text)
        bot = page.get_by_test_id("analysis-seat-1").locator("h3").inner_text()
        assert bot == {"de": "Gierig (locker)", "nl": "Gulzig (ontspannen)"}[lang], bot
        shot(page, f"a11y-analysis-{lang}-desktop", full_page=True)


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_a_hint_and_the_lobby_write_numbers_in_the_page_language(
    browser: Any, server: str, lang: str
) -> None:
    with checked_page(browser, **SIZES["desktop"], **BROWSER) as page:
        in_language(page, lang)
        # the lobby's own list of games on this device, with its date
        page.goto(server + "/")
        choose_game(page, "nmbr9", "NMBR 9")
        page.get_by_test_id("option-remove").wait_for()
        page.get_by_test_id("seat-0-name").fill("Ann")
        page.get_by_test_id("create-game").click()
        page.get_by_test_id("enter-game").wait_for()
        page.goto(server + "/")
        when = page.locator("[data-testid^=game-item-] small.muted").first.inner_text()
        assert re.match(DATES[lang], when.split(" — ")[0]), when
        # NMBR 9's hint, from the planner: "a mean final score of 33,5 …"
        page.locator("[data-testid^=game-item-] a.game-open").first.click()
        n9_confirm_rounds(page, "desktop", 1)  # the first tile's hint has no numbers
        page.get_by_test_id("hint").click()
        reason = page.get_by_test_id("hint-reason")
        reason.wait_for(timeout=60_000)
        reason = reason.inner_text()
        assert re.search(DECIMAL, reason), reason
        no_dot_decimals(reason)


# -- 5. bots' names in My games ----------------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_my_games_name_bots_in_the_page_language_uncut_on_a_phone(
    browser: Any, server: str, account: dict[str, Any], lang: str
) -> None:
    greedy = {"de": "Gierig", "nl": "Gulzig"}[lang]
    with checked_page(browser, **SIZES["phone"], **BROWSER) as page:
        in_language(page, lang)
        signed_in(page, server, account)
        page.goto(f"{server}/me")
        page.get_by_test_id("game-status").first.wait_for()
        for item in page.locator("[data-testid^=my-game-] strong").all():
            text = item.inner_text()
            assert greedy in text and "Greedy" not in text, text
            assert item.evaluate("(e) => e.scrollWidth <= e.clientWidth"), f"{text} is cut"
        shot(page, f"a11y-my-games-{lang}-phone", full_page=True)


# -- 6. words: score and rating, capitals, names uncut, the replay's title ----------------


@pytest.mark.parametrize("size", list(SIZES))
def test_german_tells_score_from_rating(
    browser: Any, server: str, account: dict[str, Any], size: str
) -> None:
    with checked_page(browser, **SIZES[size], **BROWSER) as page:
        in_language(page, "de")
        signed_in(page, server, account)
        page.goto(f"{server}/g/{account['games']['nmbr9']}")
        end = page.get_by_test_id("end-screen")
        end.get_by_test_id("rating-changes").wait_for()
        headers = end.locator("th").all_inner_texts()
        assert "Punkte" in headers, headers
        changes = end.get_by_test_id("rating-changes").inner_text()
        assert changes.startswith("Gewertete Partie. Wertungszahlen:"), changes
        # "Wertung" alone says neither: it is not used on the screen
        assert not re.search(r"\bWertung(en)?\b", end.inner_text()), end.inner_text()
        shot(page, f"a11y-de-end-{size}")


#: the elements that show "Gulzig (ontspannen)" cut short (an ellipsis, a clipped box)
CUT_NAMES = """() => [...document.querySelectorAll('body *')].filter((e) =>
  !e.closest('.visually-hidden') && e.checkVisibility()
  && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.includes('Gulzig'))
  && getComputedStyle(e).overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1
).map((e) => e.outerHTML.slice(0, 120))"""


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("kind", KINDS)
def test_dutch_names_are_not_cut_and_labels_begin_with_a_capital(
    browser: Any, server: str, finished: dict[str, dict[str, Any]], size: str, kind: str
) -> None:
    with checked_page(browser, **SIZES[size], **BROWSER) as page:
        in_language(page, "nl")
        page.goto(server + finished[kind]["seats"][0]["link"])
        end = page.get_by_test_id("end-screen")
        end.get_by_test_id("result").wait_for()
        assert "Gulzig (ontspannen)" in end.inner_text()
        assert not page.evaluate(CUT_NAMES), "cut off on the end screen"
        shot(page, f"a11y-nl-end-{kind}-{size}")
        page.get_by_test_id("close-end").click()
        end.wait_for(state="detached")
        assert not page.evaluate(CUT_NAMES), "cut off on the board under it"
        shot(page, f"a11y-nl-board-{kind}-{size}", full_page=True)
        if kind == "nova-luna":  # "Maanspoor 11": a label of its own, a capital
            track = page.get_by_test_id("track-pos-0").inner_text()
            assert track.startswith("Maanspoor "), track


@pytest.mark.parametrize("size", ["desktop"])
@pytest.mark.parametrize("kind", KINDS)
def test_the_replay_and_game_titles_end_in_the_site_name(
    page: Any, server: str, finished: dict[str, dict[str, Any]], kind: str
) -> None:
    page.goto(server + f"/replay/{finished[kind]['id']}")
    page.get_by_test_id("replay-counter").wait_for()
    page.wait_for_function("() => document.title.endsWith(' · Tabletop')")
    assert page.title().startswith("Replay"), page.title()
    page.goto(server + finished[kind]["seats"][0]["link"])
    page.get_by_test_id("end-screen").wait_for()
    assert page.title().endswith(" · Tabletop"), page.title()
