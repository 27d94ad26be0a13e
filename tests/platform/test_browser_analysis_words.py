"""The analysis page in the game's words and the page's language (issue 44): marked
moves, the detail line and the graph's tooltips name moves as the log does ("Runde 5:
die 9 in Spalte −4, …"), never in engine notation; counts follow the language's plural
rules; opening the replay of a game nobody had analysed asks without a 404. English,
German and Dutch, at 1400×900 and on a 390×844 touch screen."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import (
    SIZES,
    api,
    checked_page,
    press,
    running_server,
    shot,
    wait_until_over,
)

sync_api = pytest.importorskip("playwright.sync_api")

OPTIONS = ("--analysis-budget", "60")
SEATS = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
NOTATION = re.compile(r"\br\d@-?\d+,-?\d+")
#: How each language names a round and a spot (the log's words).
WORDS = {
    "en": ("round", "column"),
    "de": ("Runde", "Spalte"),
    "nl": ("ronde", "kolom"),
}
#: "1 inaccuracy · 1 mistake · 1 blunder" and the plural, as each language says them.
COUNTS = {
    "en": ("1 inaccuracy · 1 mistake · 1 blunder", "2 inaccuracies · 2 mistakes · 2 blunders"),
    "de": (
        "1 Ungenauigkeit · 1 Fehler · 1 grober Fehler",
        "2 Ungenauigkeiten · 2 Fehler · 2 grobe Fehler",
    ),
    "nl": (
        "1 onnauwkeurigheid · 1 fout · 1 blunder",
        "2 onnauwkeurigheden · 2 fouten · 2 blunders",
    ),
}
LANGS = list(WORDS)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("analysis-words") / "games.db"
    with running_server(db, options=OPTIONS) as base:
        yield base


def _finished(server: str, seed: int) -> str:
    game_id: str = api(server, "/api/games", {"type": "nmbr9", "seats": SEATS, "seed": seed})["id"]
    wait_until_over(server, game_id, timeout=120)
    return game_id


@pytest.fixture(scope="module")
def analysed(server: str) -> dict[str, Any]:
    """A finished NMBR 9 game (greedy against random: it has marks), analysed."""
    game_id = _finished(server, 7)
    api(server, f"/api/games/{game_id}/analysis", {})
    return {"id": game_id}


@pytest.fixture(scope="module")
def never_analysed(server: str) -> str:
    return _finished(server, 8)


@pytest.fixture
def page(browser: Any, size: str, lang: str) -> Iterator[Any]:
    with checked_page(browser, **SIZES[size]) as page:
        page.add_init_script(f"localStorage.setItem('boardgames.language.v1', {lang!r})")
        yield page


def _analysis(page: Any, server: str, game_id: str) -> Any:
    page.goto(f"{server}/replay/{game_id}")
    # the seat cards come with the finished analysis (the graph fills in before it)
    page.get_by_test_id("analysis-seat-0").wait_for(timeout=180_000)
    return page.get_by_test_id("analysis")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", list(SIZES))
def test_marked_moves_are_in_the_words_and_language_of_the_page(
    page: Any, server: str, analysed: dict[str, Any], size: str, lang: str
) -> None:
    panel = _analysis(page, server, analysed["id"])
    round_word, spot_word = WORDS[lang]
    marked = panel.locator(".analysis-moves button")
    assert marked.count() >= 1
    first = marked.first.inner_text()
    assert not NOTATION.search(panel.inner_text()), panel.inner_text()
    assert re.search(rf"{round_word.capitalize()} \d+: .*{spot_word} −?\d+", first), first
    if lang != "en":
        assert "round" not in panel.inner_text()
    # the graph's tooltips say the same
    tips = page.locator("[data-testid=graph-mark]").evaluate_all(
        "(marks) => marks.map((mark) => mark.getAttribute('title'))"
    )
    assert tips and all(spot_word in tip and not NOTATION.search(tip) for tip in tips), tips
    # choosing the move: the detail line names played and best in words
    press(page, size, ".analysis-moves button")
    detail = page.get_by_test_id("analysis-detail")
    page.wait_for_function(
        "(w) => document.querySelector('[data-testid=analysis-detail]').innerText.includes(w)",
        arg=spot_word,
    )
    text = detail.inner_text()
    assert text.count(spot_word) >= 2 and not NOTATION.search(text), text
    shot(page, f"analysis-words-{lang}-{size}", full_page=True)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", list(SIZES))
def test_counts_of_marks_follow_the_plural_rules(
    page: Any, server: str, analysed: dict[str, Any], size: str, lang: str
) -> None:
    _analysis(page, server, analysed["id"])
    one, two = page.evaluate(
        """async () => {
          const main = document.querySelector("script[type=module][src*='main.js']").src;
          const { markCounts } = await import(new URL("analysis_values.js", main));
          const seat = (n) => ({ inaccuracies: n, mistakes: n, blunders: n });
          return [markCounts(seat(1)), markCounts(seat(2))];
        }"""
    )
    assert (one, two) == COUNTS[lang]
    # the page's own counts are written the same way
    shown = api(server, f"/api/games/{analysed['id']}/analysis")["analysis"]["seats"]
    for seat in shown:
        counts = page.get_by_test_id(f"analysis-counts-{seat['seat']}").inner_text()
        numbers = [int(n) for n in re.findall(r"\d+", counts)]
        assert numbers == [seat["inaccuracies"], seat["mistakes"], seat["blunders"]]
        for n, (singular, plural) in zip(
            numbers, zip(*(c.split(" · ") for c in COUNTS[lang]), strict=True), strict=True
        ):
            form = singular if n == 1 else plural
            assert re.sub(r"\d+", str(n), form) in counts, (counts, form)


@pytest.mark.parametrize("lang", ["en"])
@pytest.mark.parametrize("size", list(SIZES))
def test_a_game_nobody_analysed_opens_without_a_404(
    page: Any, server: str, never_analysed: str, size: str, lang: str
) -> None:
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("console", lambda m: failed.append(m.text) if m.type == "error" else None)
    page.goto(f"{server}/replay/{never_analysed}")
    page.get_by_test_id("analyse").wait_for()
    assert not failed, failed
