"""The page in German and Dutch (docs/web.md, "Languages"): chosen in the top bar,
remembered across reloads, first taken from Accept-Language; a game played in each
language shows its words, and screenshots of both games in each language at both sizes
(test-output/screenshots/i18n-*) are for looking at: German words are long."""

from __future__ import annotations

import re
from typing import Any

import pytest

from browser_support import (
    SIZES,
    api,
    checked_page,
    create_game,
    no_horizontal_overflow,
    play_one_turn,
    ply,
    shot,
    wait_for_my_turn_or_end,
    wait_for_ply_after,
    wait_until_over,
)

# A few words each language must show, in the rulebooks' terms.
WORDS = {
    "de": {
        "nav": "Neues Spiel",
        "create": "Spiel erstellen",
        "turn": "Du bist dran",
        "took": "nahm",
    },
    "nl": {
        "nav": "Nieuw spel",
        "create": "Spel aanmaken",
        "turn": "Jij bent aan de beurt",
        "took": "nam",
    },
}


def choose_language(page: Any, lang: str) -> None:
    page.select_option("[data-testid=language]", lang)
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)


def show_lobby_of(page: Any, game: str, title: str) -> None:
    page.click(f"[data-testid=game-type-{game}]")
    hero = "(t) => document.querySelector('.hero h1')?.textContent === t"
    page.wait_for_function(hero, arg=title)


@pytest.mark.parametrize("size", ["desktop"])
@pytest.mark.parametrize("lang", ["de", "nl"])
def test_a_game_in_another_language_and_the_choice_is_remembered(
    page: Any, server: str, lang: str
) -> None:
    words = WORDS[lang]
    page.goto(server + "/")
    page.locator("[data-testid=create-form]").wait_for()
    assert page.inner_text("[data-testid=nav-lobby]") == "New game"
    choose_language(page, lang)
    page.wait_for_function(
        "(w) => document.querySelector('[data-testid=nav-lobby]').textContent === w",
        arg=words["nav"],
    )
    assert page.inner_text("[data-testid=create-game]") == words["create"]
    page.click("[data-testid=game-type-nova-luna]")
    page.fill("[data-testid=seat-0-name]", "Ann")
    page.select_option("[data-testid=seat-1-bot]", "greedy")
    page.click("[data-testid=create-game]")
    page.click("[data-testid=enter-game]")
    page.wait_for_url(re.compile(r"/g/[^#]+#seat="))
    for _ in range(3):
        assert wait_for_my_turn_or_end(page)
        assert words["turn"] in page.inner_text("[data-testid=banner-title]")
        play_one_turn(page)
    log = page.inner_text("[data-testid=log]")
    assert words["took"] in log and " took " not in log
    # switching redraws the game at once, in the other language
    other = "nl" if lang == "de" else "de"
    choose_language(page, other)
    page.wait_for_function(
        "(w) => document.querySelector('[data-testid=banner-title]')?.textContent.includes(w)",
        arg=WORDS[other]["turn"],
    )
    assert WORDS[other]["took"] in page.inner_text("[data-testid=log]")
    choose_language(page, lang)
    # the choice is remembered: a reload (and a new game page) speaks the same language
    page.reload()
    page.locator("[data-testid=turn-banner]").wait_for()
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.inner_text("[data-testid=nav-lobby]") == words["nav"]
    page.wait_for_function(
        "(w) => document.querySelector('[data-testid=log]').textContent.includes(w)",
        arg=words["took"],
    )


def test_accept_language_picks_the_first_language(browser: Any, server: str) -> None:
    headers = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
    with checked_page(browser, **SIZES["desktop"], extra_http_headers=headers) as page:
        page.goto(server + "/")
        page.locator("[data-testid=create-form]").wait_for()
        assert page.evaluate("document.documentElement.lang") == "de"
        assert page.inner_text("[data-testid=create-game]") == "Spiel erstellen"
        assert page.input_value("[data-testid=language]") == "de"
        # a choice made on the page wins over the browser's
        choose_language(page, "nl")
        page.reload()
        page.locator("[data-testid=create-form]").wait_for()
        assert page.inner_text("[data-testid=create-game]") == "Spel aanmaken"


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_screenshots_of_nova_luna_in_each_language(
    page: Any, server: str, size: str, lang: str
) -> None:
    page.goto(server + "/")
    page.locator("[data-testid=create-form]").wait_for()
    choose_language(page, lang)
    show_lobby_of(page, "nova-luna", "Nova Luna")
    shot(page, f"i18n-nova-luna-lobby-{lang}-{size}", full_page=True)
    assert no_horizontal_overflow(page)
    game = create_game(
        server,
        [
            {"kind": "human", "name": "Annemarie"},
            {"kind": "bot", "bot": "greedy", "name": "Greedy"},
        ],
        seed=7,
    )
    page.goto(f"{server}/g/{game['id']}#seat={game['seats'][0]['token']}")
    for _ in range(4):
        assert wait_for_my_turn_or_end(page)
        play_one_turn(page)
    assert wait_for_my_turn_or_end(page)
    page.click("[data-testid=wheel] .space[data-takeable='1']")
    page.locator("[data-testid^='cell-']").first.hover()
    shot(page, f"i18n-nova-luna-game-{lang}-{size}", full_page=True)
    assert no_horizontal_overflow(page)


WAIT_FOR_PLACING = """() => {
  const game = document.querySelector('[data-testid=game]');
  if (!game) return false;
  const ghost = document.querySelector('[data-testid=ghost]');
  const placing = game.classList.contains('acting') && !!ghost;
  return placing || !!document.querySelector('[data-testid=end-screen]');
}"""

# NMBR 9's words in each language (the Yucata page's German: Ebene, Zahlenplättchen).
N9_WORDS = {"en": "Level", "de": "Ebene", "nl": "Niveau"}


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_screenshots_of_nmbr9_in_each_language(
    page: Any, server: str, size: str, lang: str
) -> None:
    page.goto(server + "/")
    page.locator("[data-testid=create-form]").wait_for()
    choose_language(page, lang)
    show_lobby_of(page, "nmbr9", "NMBR 9")
    shot(page, f"i18n-nmbr9-lobby-{lang}-{size}", full_page=True)
    assert no_horizontal_overflow(page)
    game = api(
        server,
        "/api/games",
        {
            "type": "nmbr9",
            "seats": [
                {"kind": "human", "name": "Annemarie"},
                {"kind": "bot", "bot": "greedy", "name": "Greedy"},
            ],
            "seed": 3,
        },
    )
    page.goto(f"{server}/g/{game['id']}#seat={game['seats'][0]['token']}")
    for _ in range(4):
        page.wait_for_function(WAIT_FOR_PLACING, timeout=30_000)
        before = ply(page)
        page.click("[data-testid=confirm]")
        wait_for_ply_after(page, before)
    page.wait_for_function(WAIT_FOR_PLACING, timeout=30_000)
    assert N9_WORDS[lang] in page.inner_text("[data-testid=level-scores]")
    shot(page, f"i18n-nmbr9-game-{lang}-{size}", full_page=True)
    assert no_horizontal_overflow(page)


@pytest.mark.parametrize("lang", ["de", "nl"])
@pytest.mark.parametrize("game_type", ["nova-luna", "nmbr9"])
def test_screenshots_of_the_end_screen_and_replay_in_each_language(
    page: Any, server: str, size: str, lang: str, game_type: str
) -> None:
    bots = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
    game = api(server, "/api/games", {"type": game_type, "seats": bots, "seed": 11})
    wait_until_over(server, game["id"])
    page.goto(server + "/")
    page.locator("[data-testid=create-form]").wait_for()
    choose_language(page, lang)
    page.goto(f"{server}/g/{game['id']}")
    page.locator("[data-testid=end-screen]").wait_for()
    shot(page, f"i18n-{game_type}-end-{lang}-{size}")
    assert no_horizontal_overflow(page)
    page.goto(f"{server}/replay/{game['id']}")
    page.locator("[data-testid=replay-bar]").wait_for()
    for _ in range(5):
        page.click("[data-testid=replay-next]")
    counter = page.inner_text("[data-testid=replay-counter]")
    assert counter.startswith({"de": ("Zug", "Runde"), "nl": ("Zet", "Ronde")}[lang])
    shot(page, f"i18n-{game_type}-replay-{lang}-{size}", full_page=True)
    assert no_horizontal_overflow(page)


@pytest.mark.parametrize("size", ["desktop"])
def test_server_errors_are_shown_in_the_pages_language(page: Any, server: str) -> None:
    page.goto(server + "/")
    page.locator("[data-testid=create-form]").wait_for()
    choose_language(page, "de")
    page.goto(server + "/g/no-such-game")
    fatal = page.locator("[data-testid=fatal]")
    fatal.wait_for()
    assert "Dieses Spiel gibt es nicht" in fatal.inner_text()
    assert "Zu diesem Link gibt es kein Spiel" in fatal.inner_text()  # the server's key
