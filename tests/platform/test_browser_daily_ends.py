"""The daily challenge's loose ends in a real browser (issue 44), at 1400×900 and at
390×844 on a touch screen, in English, German and Dutch, signed out and signed in:

* the day's game page says it is the daily, shows the day's seed exactly (a 62-bit
  number a JavaScript number would round: another deck), whether it counts and, while
  it counts, that a hint or a take-back will mark it "with help" before either is used;
  never "the creator chose this seed";
* signed out, Continue opens your game as its player (its seat link), not read-only;
* the end screen leads back to the day's results;
* a practice day shows your result to a player who also played today;
* the day is written in the page's language in titles and the share text, and the
  strong bot by its name, never its spec.

Screenshots: test-output/screenshots/daily-ends-*.jpg."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import httpx
import pytest

from novaluna import test_browser_axe as axe_checks
from tabletop.daily import daily_seed, today
from tabletop.i18n import translate

from browser_support import (
    SIZES,
    checked_page,
    no_horizontal_overflow,
    press,
    register_on_page,
    running_server,
    shot,
)

sync_api = pytest.importorskip("playwright.sync_api")
DAILY_BOTS = ("--daily-bot", "nmbr9=greedy", "--daily-bot", "nova-luna=greedy")
LANGUAGES = ("en", "de", "nl")
MONTHS = {
    "en": "January February March April May June July August September October November December",
    "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember",
    "nl": "januari februari maart april mei juni juli augustus september oktober november december",
}
COUNTS = 'It counts on the day\'s board. A hint or a take-back marks your result "with help".'
NOT_COUNTED = (
    "This game is not counted on the day's board: a practice game, or one played without an "
    "account."
)
CREATOR_CHOSE = (
    "The creator chose this game's seed ({seed}): they can know the hidden order of the deal."
)


def in_words(day: date, lang: str) -> str:
    """The day as the page writes it in ``lang`` (Intl's long date)."""
    month = MONTHS[lang].split()[day.month - 1]
    if lang == "en":
        return f"{month} {day.day}, {day.year}"
    return f"{day.day}. {month} {day.year}" if lang == "de" else f"{day.day} {month} {day.year}"


def tr(lang: str, msgid: str, **args: Any) -> str:
    text = translate(lang, msgid)
    for name, value in args.items():
        text = text.replace("{" + name + "}", str(value))
    return text


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("daily-ends") / "games.db"
    with running_server(db, options=DAILY_BOTS) as base:
        yield base


@contextlib.contextmanager
def page_in(browser: Any, size: str, lang: str) -> Iterator[Any]:
    """A checked page at ``size`` in ``lang`` from its first load."""
    with checked_page(browser, **SIZES[size]) as page:
        page.add_init_script(f"localStorage.setItem('boardgames.language.v1', {lang!r})")
        yield page


def game_id_of(page: Any) -> str:
    return str(page.url.split("/g/", 1)[1].split("#")[0])


def play_out(player: httpx.Client, game_id: str, headers: dict[str, str] | None = None) -> None:
    """Every move the first choice, over the API (the page follows by its socket)."""
    state = player.get(f"/api/games/{game_id}", headers=headers).json()
    while not state["over"]:
        move = {"action": state["choices"][0]["action"], "ply": state["ply"]}
        answer = player.post(f"/api/games/{game_id}/actions", json=move, headers=headers)
        assert answer.status_code == 200, answer.text
        state = player.get(f"/api/games/{game_id}", headers=headers).json()


def wait_for_bot(base: str, day: date, game_id: str) -> None:
    """Until the day's bot game is worked out (it starts once a player finished)."""
    deadline = time.monotonic() + 120  # bounds a hang only: the greedy bot takes a second
    while time.monotonic() < deadline:
        board = httpx.get(f"{base}/api/daily/nmbr9/{day.isoformat()}?game={game_id}").json()
        if board["planner"] and board["planner"]["status"] == "done":
            return
        time.sleep(0.2)
    raise AssertionError("the day's bot game was never worked out")


def note_of(page: Any) -> str:
    note = page.get_by_test_id("fixed-seed-note")
    note.wait_for()
    return str(note.inner_text())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("size", list(SIZES))
def test_signed_out_the_daily_is_played_as_its_player_and_says_what_it_is(
    browser: Any, server: str, size: str, lang: str
) -> None:
    with page_in(browser, size, lang) as page:
        day = today()
        page.goto(f"{server}/daily")
        title = page.locator("#daily-title-nmbr9")
        title.wait_for()
        assert title.inner_text() == f"NMBR 9, {in_words(day, lang)}"
        press(page, size, "[data-testid=daily-play-nmbr9]")
        page.wait_for_url(re.compile(r".*/g/[^/#]+#seat=.+"))
        game_id = game_id_of(page)
        token = page.url.split("#seat=", 1)[1]
        note = note_of(page)
        seed = str(daily_seed("nmbr9", day))  # exactly: the page must not round it
        intro = tr(
            lang,
            "Daily challenge of {day}: the day's deal (seed {seed}), the same for everyone.",
            day=in_words(day, lang),
            seed=seed,
        )
        assert note == f"{intro} {tr(lang, NOT_COUNTED)}"
        assert tr(lang, CREATOR_CHOSE, seed=seed) not in page.content()
        chip = page.get_by_test_id("daily-chip").inner_text()
        assert in_words(day, lang) in chip and tr(lang, "not counted") in chip
        shot(page, f"daily-ends-game-signed-out-{lang}-{size}", full_page=size == "phone")
        # Continue from the daily page: the same game, as its player (not "read only")
        page.goto(f"{server}/daily")
        play = page.get_by_test_id("daily-play-nmbr9")
        play.wait_for()
        assert play.inner_text() == tr(lang, "Continue")
        press(page, size, "[data-testid=daily-play-nmbr9]")
        page.wait_for_url(re.compile(rf".*/g/{game_id}#seat=.+"))
        page.get_by_test_id("fixed-seed-note").wait_for()
        assert page.get_by_test_id("spectator-chip").count() == 0
        assert "spectator" not in (page.get_by_test_id("game").get_attribute("class") or "")
        with httpx.Client(base_url=server, timeout=30) as seat:
            play_out(seat, game_id, {"Authorization": f"Bearer {token}"})
        back = page.get_by_test_id("end-daily-results")
        back.wait_for()
        assert back.inner_text() == tr(lang, "The day's results")
        shot(page, f"daily-ends-end-screen-{lang}-{size}")
        wait_for_bot(server, day, game_id)
        press(page, size, "[data-testid=end-daily-results]")
        page.wait_for_url(f"{server}/daily?day={day.isoformat()}")
        share = page.get_by_test_id("daily-share-text-nmbr9")
        share.wait_for()
        assert in_words(day, lang) in share.inner_text()
        assert day.isoformat() not in share.inner_text()
        bot = page.get_by_test_id("daily-planner-nmbr9").inner_text()
        named = tr(lang, "Greedy (casual)").split(" (")[0]  # the name, not the spec
        assert f"({named})" in bot and "greedy" not in bot
        assert no_horizontal_overflow(page)
        shot(page, f"daily-ends-results-signed-out-{lang}-{size}", full_page=True)


@pytest.mark.parametrize(
    ("size", "lang"), [("desktop", "en"), ("phone", "en"), ("desktop", "de"), ("phone", "nl")]
)
def test_signed_in_the_counted_daily_warns_before_help_and_a_practice_day_shows_its_result(
    browser: Any, server: str, size: str, lang: str, axe_script: str
) -> None:
    with page_in(browser, size, lang) as page:
        player = register_on_page(page, server, f"Ends{size[0]}{lang}{time.monotonic_ns() % 10**6}")
        day, yesterday = today(), today() - timedelta(days=1)
        counted = player.post("/api/daily/nmbr9", json={}).json()["id"]
        page.goto(f"{server}/g/{counted}")
        note = note_of(page)
        assert note.endswith(tr(lang, COUNTS))  # said before any hint or take-back
        assert str(daily_seed("nmbr9", day)) in note
        assert page.get_by_test_id("hint").get_attribute("aria-describedby") == "seed-note"
        chip = page.get_by_test_id("daily-chip").inner_text()
        assert tr(lang, "counted") in chip and tr(lang, "not counted") not in chip
        assert no_horizontal_overflow(page)
        axe_checks.check_axe(page, axe_script, f"daily-ends-game-counted-axe-{lang}-{size}")
        play_out(player, counted)
        back = page.get_by_test_id("end-daily-results")
        back.wait_for()
        assert back.get_attribute("href") == f"/daily?day={day.isoformat()}"
        # Yesterday's deal for practice, after today's attempt: its result is shown.
        page.goto(f"{server}/daily?day={yesterday.isoformat()}")
        page.get_by_test_id("daily-play-nmbr9").wait_for()
        assert page.locator("#daily-title-nmbr9").inner_text().endswith(in_words(yesterday, lang))
        assert in_words(yesterday, lang) in page.title()
        press(page, size, "[data-testid=daily-play-nmbr9]")
        page.wait_for_url(re.compile(r".*/g/.+"))
        practice = game_id_of(page)
        assert note_of(page).endswith(tr(lang, NOT_COUNTED))
        play_out(player, practice)
        page.get_by_test_id("end-daily-results").wait_for()
        page.goto(f"{server}/daily?day={yesterday.isoformat()}")
        share = page.get_by_test_id("daily-share-text-nmbr9")
        share.wait_for()
        assert in_words(yesterday, lang) in share.inner_text()
        assert page.get_by_test_id("daily-planner-nmbr9").count() == 1
        shot(page, f"daily-ends-practice-results-{lang}-{size}", full_page=True)
