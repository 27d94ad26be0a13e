"""A lean first load, on a phone (390×844) and a desktop (1400×900): each page downloads
only what it shows, every file from the current asset version.

The lobby shows the game's tagline, rules and a few tiles (the game's ``intro.js``,
``tiles.js`` and their styles) but never the board's code or styles; the replay upload
page shows nothing of the game; a game page loads the board.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlparse

import pytest

from browser_support import create_game

sync_api = pytest.importorskip("playwright.sync_api")

#: What only a board needs: the game's module, its parts and its stylesheet.
BOARD = {"index.js", "display.js", "wheel.js", "board.css"}
#: The shell's screens other than the lobby.
SCREENS = {"game.js", "replay.js", "connection.js"}


def record_requests(page: Any) -> list[str]:
    """The path of every request the page makes from now on."""
    paths: list[str] = []
    page.on("request", lambda request: paths.append(urlparse(request.url).path))
    return paths


def static_files(page: Any, paths: list[str]) -> list[str]:
    """The static files requested: every one under the page's asset version."""
    page.wait_for_load_state("networkidle")
    script = page.get_attribute("script[type=module]", "src")
    version = re.fullmatch(r"/static/([0-9a-f]+)/shell/main\.js", script)
    assert version, script
    files = [p for p in paths if p.startswith("/static/")]
    assert all(p.startswith(f"/static/{version[1]}/") for p in files), files
    return files


def names(files: list[str], under: str) -> set[str]:
    return {f.rsplit("/", 1)[1] for f in files if f"/{under}/" in f}


def test_the_lobby_loads_no_board_and_a_game_page_does(page: Any, size: str, server: str) -> None:
    paths = record_requests(page)
    page.goto(server + "/")
    page.locator("[data-testid=create-form]").wait_for()
    page.locator(".how-list").wait_for(state="attached")  # the game's own rules
    lobby = static_files(page, paths)
    assert "intro.js" in names(lobby, "games")
    assert not names(lobby, "games") & BOARD, lobby
    assert not names(lobby, "shell") & SCREENS, lobby
    # ...and its art is styled all the same: the gold moon, the tiles' cost badges.
    fill = "(selector) => getComputedStyle(document.querySelector(selector)).fill"
    assert page.evaluate(fill, ".hero-moon") == "rgb(242, 198, 109)"
    assert page.evaluate(fill, ".hero-art .cost-bg") == "rgb(21, 26, 58)"

    paths.clear()
    game = create_game(server, [{"kind": "human", "name": "Ann"}, {"kind": "human"}])
    page.goto(server + game["seats"][0]["link"])
    page.locator("[data-testid=wheel]").wait_for()
    assert names(static_files(page, paths), "games") >= BOARD


def test_the_replay_upload_page_loads_nothing_of_the_game(page: Any, server: str) -> None:
    paths = record_requests(page)
    page.goto(server + "/replay")
    page.locator("[data-testid=upload]").wait_for()
    files = static_files(page, paths)
    assert not names(files, "games"), files
    assert "replay.js" in names(files, "shell")


def test_a_page_whose_code_version_is_gone_says_to_reload(page: Any, server: str) -> None:
    """A page left open across an upgrade asks for files of its version, which the server
    no longer has: it says what helps instead of spinning for ever."""
    game = create_game(server, [{"kind": "human", "name": "Ann"}, {"kind": "human"}])
    page.route("**/games/nova-luna/index.js", lambda route: route.fulfill(status=404))
    page.goto(server + game["seats"][0]["link"])
    assert "Reload the page" in page.locator("[data-testid=fatal]").inner_text()
