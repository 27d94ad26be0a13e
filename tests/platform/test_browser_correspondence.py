"""A correspondence game in a real browser (issue 46): created from the lobby page with
two days per move and a seat open, shown among the open games with its days per move,
the page's reminder when the test clock brings its move near the deadline, played to
its end across a kill -9 of the server (the deadline is the stored one), and rated in
the correspondence pool of the leaderboard. Axe checks the changed pages (the new-game
form, the open games, the account page's reminder choices, the leaderboard's pool) in
English on a desktop and German and Dutch on a phone; the game itself is played once
(in English). Screenshots: test-output/screenshots/axe-corr-*.jpg."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from novaluna.test_browser_axe import check_axe, named

from browser_support import (
    SIZES,
    checked_page,
    choose_game,
    press,
    register_on_page,
    shot,
)
from clock_support import DAY, HOUR, TEST_CLOCK, advance_clock
from server_support import ServerProcess

sync_api = pytest.importorskip("playwright.sync_api")

LOOKS = [("en", "desktop"), ("de", "phone"), ("nl", "phone")]
#: "2 days per move" as each language's lobby says it
TWO_DAYS = {"en": "2 days per move", "de": "2 Tage pro Zug", "nl": "2 dagen per zet"}


@pytest.fixture(scope="module")
def process(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The server (killed with -9 and started again mid-game on the same database)."""
    folder = tmp_path_factory.mktemp("correspondence")
    proc = ServerProcess(folder / "games.sqlite3", options=TEST_CLOCK).start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def server(process: ServerProcess) -> str:
    return process.url


@pytest.fixture(scope="module")
def axe_source() -> str:
    from novaluna.test_browser_axe import AXE

    if not AXE.exists():
        pytest.fail("node_modules/axe-core is missing: run `npm ci`", pytrace=False)
    return AXE.read_text()


def play_out(game_id: str, players: list[httpx.Client], moves: int = 10**6) -> dict[str, Any]:
    """Every player takes its first choice until the end, or until ``moves`` were made
    (the deadline bounds a hang)."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        for player in players:
            state = player.get(f"/api/games/{game_id}").json()
            if state["over"] or moves <= 0:
                return dict(state)
            if state["acting"] is not None and state["choices"]:
                move = {"action": state["choices"][0]["action"], "ply": state["ply"]}
                made = player.post(f"/api/games/{game_id}/actions", json=move)
                moves -= made.status_code == 200
        time.sleep(0.02)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("look", LOOKS, ids=[f"{lang}-{size}" for lang, size in LOOKS])
def test_a_correspondence_game_from_the_lobby_page_to_its_end(
    browser: Any, process: ServerProcess, server: str, axe_source: str, look: tuple[str, str]
) -> None:
    lang, size = look
    with checked_page(browser, **SIZES[size]) as page:
        page.add_init_script(f"localStorage.setItem('boardgames.language.v1', {lang!r})")
        ann = register_on_page(page, server, f"Ann{lang}")
        page.goto(server + "/")
        choose_game(page, "nmbr9", "NMBR 9")
        press(page, size, "[data-testid=seat-1-kind-open]")
        page.get_by_test_id("days-per-move").select_option("2")
        assert page.get_by_test_id("on-timeout").is_visible()
        check_axe(page, axe_source, named("corr-create", size, lang))
        press(page, size, "[data-testid=create-game]")
        page.get_by_test_id("open-seat-1").wait_for()
        game_id = re.search(r"created=([\w-]+)", page.url).group(1)  # type: ignore[union-attr]

        page.goto(f"{server}/lobby")
        item = page.get_by_test_id(f"open-game-{game_id}")
        item.wait_for()
        assert TWO_DAYS[lang] in item.inner_text()
        check_axe(page, axe_source, named("corr-lobby", size, lang))

        page.goto(f"{server}/me")
        page.get_by_test_id("reminder-push").wait_for()
        assert page.get_by_test_id("reminder-push").is_checked()
        check_axe(page, axe_source, named("corr-me", size, lang))
        if lang != "en":
            page.goto(f"{server}/leaderboard/nmbr9?pool=correspondence")
            page.get_by_test_id("leaderboard-pool-correspondence").wait_for()
            check_axe(page, axe_source, named("corr-leaderboard", size, lang))
            return

        # the game, once: Ben takes the seat; two days later Ann's page reminds her
        ben = httpx.Client(base_url=server, timeout=30)
        registered = ben.post(
            "/api/account/register", json={"name": "Ben", "password": "moonlight 42"}
        )
        assert registered.status_code == 201, registered.text
        assert ben.post(f"/api/games/{game_id}/join", json={}).status_code == 200
        page.goto(f"{server}/g/{game_id}")
        page.get_by_test_id("turn-banner").wait_for()
        advance_clock(server, DAY + HOUR)  # two days per move: reminded a day before the end
        reminder = page.get_by_test_id("toast").filter(has_text="Your move in NMBR 9")
        reminder.wait_for()
        assert "left" in reminder.inner_text()
        assert "2 days per move" in page.get_by_test_id("time-limit-chip").inner_text()
        shot(page, "corr-reminder-desktop")  # (the game page's axe: its own tests)

        # a crash mid-game: the deadline is the stored one, the page reconnects, play goes on
        before = play_out(game_id, [ann, ben], moves=4)
        assert not before["over"] and before["time_left"]["deadline"]
        process.kill9()
        process.start()
        after = ann.get(f"/api/games/{game_id}").json()
        assert (after["ply"], after["time_left"]["deadline"]) == (
            before["ply"],
            before["time_left"]["deadline"],
        )
        page.wait_for_function("() => !document.querySelector('[data-testid=game].offline')")
        play_out(game_id, [ann, ben])
        page.get_by_test_id("end-screen").wait_for()

        # rated in the correspondence pool only
        page.goto(f"{server}/leaderboard/nmbr9?pool=correspondence")
        row = page.locator("[data-testid=rating-row-account]", has_text="Annen")
        row.wait_for()
        assert row.locator("[data-testid=rating-games]").inner_text() == "1"
        check_axe(page, axe_source, named("corr-leaderboard", size, lang))
        page.goto(f"{server}/leaderboard/nmbr9")
        page.get_by_test_id("leaderboard-pool-live").wait_for()
        assert page.locator("[data-testid=rating-row-account]", has_text="Annen").count() == 0
