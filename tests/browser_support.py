"""Helpers for the browser tests: a real server in a subprocess, Chromium, and the moves
a test makes by clicking (never by calling the API behind the page's back)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from server_support import free_port  # noqa: F401 - the browser tests import it from here
from server_zygote import launch

#: Debian's headless shell (the package chromium-headless-shell: the same engine, the
#: "old" headless mode, which Playwright itself uses headless): a page costs a third of
#: the CPU of the full browser's headless mode (17 against 6.6 CPU-seconds for eleven
#: lobby loads), and the browsers were over half of the suite's CPU.
CHROMIUM = "/usr/bin/chromium-headless-shell"
#: The full browser (Debian's chromium), for a module that sets ``CHROMIUM_EXECUTABLE =
#: FULL_CHROMIUM``: the headless shell answers ``Notification.permission`` with
#: "denied" even where the permission was granted, so the page's notification switch
#: never turns on there.
FULL_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: The two screen sizes every page finding is checked at.
SIZES: dict[str, dict[str, Any]] = {
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
    "desktop": {"viewport": {"width": 1400, "height": 900}},
}
REPO = Path(__file__).resolve().parent.parent
SCREENSHOTS = REPO / "test-output" / "screenshots"
#: every page wait's deadline: it only bounds a hang (15 s failed under a load of 40 on 2 cores)
TIMEOUT_MS = 60_000


@contextlib.contextmanager
def running_server(
    db: Path, port: int | None = None, options: tuple[str, ...] = ()
) -> Iterator[str]:
    """``novaluna serve`` on ``port`` (default: a free one), with more ``options``;
    yields its base URL."""
    port = port or free_port()
    log = db.with_suffix(".log")
    log.write_bytes(b"")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    args = ["novaluna", "serve", "--port", str(port), "--db", str(db), "--bot-pause", "0"]
    for name in ("creates", "actions", "hints", "messages", "logins"):  # one address for all
        args += [f"--rate-{name}", "1000000"]
    args += options
    proc = launch(args, log, env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the server exited: {log.read_text()}")
            try:
                with urllib.request.urlopen(base + "/api/types", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not answer /api/types within 30 s")
            time.sleep(0.1)
        yield base
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()


def require_chromium(executable: str = CHROMIUM) -> None:
    if not Path(executable).exists():
        package = Path(executable).name
        pytest.fail(
            f"{executable} is missing: the browser tests need Debian's {package} "
            f"(apt-get install {package}; `make test` installs it)",
            pytrace=False,
        )


#: what a test's page tells the page of the player's motion preference, unless the test
#: says otherwise (``reduced_motion="no-preference"``): an endless animation (the
#: tutorial's marching rings, a pulsing hint, the thinking dots) has Chromium draw every
#: frame, measured 0.43 CPU-s a second of an idle tutorial page against 0.004 with less
#: motion, and a loaded suite keeps its pages open for many seconds.
REDUCED_MOTION = "reduce"


@contextlib.contextmanager
def checked_page(browser: Any, **context: Any) -> Iterator[Any]:
    """A page in a new browser context (``context``: Playwright's options; motion reduced
    unless it says otherwise); the test fails on any JavaScript error, or any breach of the
    page's Content-Security-Policy."""
    context.setdefault("reduced_motion", REDUCED_MOTION)
    ctx = browser.new_context(**context)
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on(
        "console",
        lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    try:
        yield page
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def api(base: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """Call the server's JSON API (for setting up games and checking what the page shows)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method="POST" if data else "GET")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def create_game(base: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    game: dict[str, Any] = api(base, "/api/games", {"type": "nova-luna", "seats": seats, **extra})
    return game


def wait_for_game(
    base: str, game_id: str, done: Callable[[dict[str, Any]], bool], what: str, timeout: float = 60
) -> dict[str, Any]:
    """The game's state (``GET /api/games/{id}``) once ``done(state)``; ``timeout`` only
    bounds a hang, and its failure says ``what`` was awaited."""
    deadline = time.monotonic() + timeout
    while True:
        state: dict[str, Any] = api(base, f"/api/games/{game_id}")
        if done(state):
            return state
        if time.monotonic() > deadline:
            raise AssertionError(f"game {game_id}: {what} did not happen in {timeout} s")
        time.sleep(0.2)


def wait_until_over(base: str, game_id: str, timeout: float = 60) -> dict[str, Any]:
    return wait_for_game(base, game_id, lambda state: state["over"], "its end", timeout)


#: screenshots are for people to look at (``make screenshots``), never a test's check:
#: about 0.2 CPU-s each (the page rastered anew at its device scale, then encoded),
#: ~100 CPU-s for the ~500 of a whole run, so the suite takes them only when asked
TAKE_SCREENSHOTS = os.environ.get("TABLETOP_SCREENSHOTS", "") not in ("", "0")


def shot(page: Any, name: str, full_page: bool = False) -> None:
    """A JPEG of the page in test-output/screenshots/, where TABLETOP_SCREENSHOTS=1."""
    if not TAKE_SCREENSHOTS:
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # JPEG: Chromium's PNG encoder took ~0.8 s of CPU a shot (a phone page at twice its
    # pixels), about a sixth of the whole suite's CPU for ~500 shots; JPEG costs next to
    # nothing and reads the same to the eye.
    page.screenshot(
        path=str(SCREENSHOTS / f"{name}.jpg"),
        full_page=full_page,
        animations="disabled",
        type="jpeg",
        quality=85,
    )


# -- reading the page ------------------------------------------------------------------

WAIT_FOR_TURN = """() => {
  const game = document.querySelector('[data-testid=game]');
  if (!game) return false;
  return game.classList.contains('acting') || !!document.querySelector('[data-testid=end-screen]');
}"""


def ply(page: Any) -> int:
    return int(page.get_attribute("[data-testid=game]", "data-ply"))


def wait_for_ply_after(page: Any, before: int) -> None:
    page.wait_for_function(
        "(p) => Number(document.querySelector('[data-testid=game]').dataset.ply) > p",
        arg=before,
        timeout=TIMEOUT_MS,
    )


def wait_for_my_turn_or_end(page: Any) -> bool:
    """True when it is this page's turn, False when the end screen shows."""
    page.wait_for_function(WAIT_FOR_TURN, timeout=TIMEOUT_MS)
    ends: int = page.locator("[data-testid=end-screen]").count()
    return ends == 0


def previewed_tasks(page: Any) -> set[tuple[int, int, int]]:
    """The tasks the display marks as 'would be covered' right now."""
    marks = page.eval_on_selector_all(
        "[data-testid=display] .task.preview", "els => els.map(e => e.dataset.task)"
    )
    return {tuple(int(v) for v in m.split(",")) for m in marks}  # type: ignore[misc]


def press(page: Any, size: str, selector: str) -> None:
    """Tap on a phone, click on a desktop."""
    if size == "phone":
        page.locator(selector).first.tap()
    else:
        page.locator(selector).first.click()


def place_by_hand(page: Any, size: str) -> None:
    """End phase 1 if offered (solo), else take the first marked tile and lay it on the
    first legal cell, as a player would (on a phone: tap, then *Place here*)."""
    before = ply(page)
    if page.locator("[data-testid=end-phase]").is_visible():
        press(page, size, "[data-testid=end-phase]")
    else:
        press(page, size, "[data-testid=wheel] .space[data-takeable='1']")
        page.locator("[data-testid^='cell-']").first.wait_for()
        press(page, size, "[data-testid^='cell-']")
        if size == "phone":  # a tap previews; the button places
            press(page, size, "[data-testid=confirm-place]")
    wait_for_ply_after(page, before)


def take_first_tile(page: Any) -> int:
    """Click the first takeable tile on the wheel; return its space."""
    space = page.locator("[data-testid=wheel] .space[data-takeable='1']")
    number = int(space.get_attribute("data-space"))
    space.click()
    page.locator("[data-testid^='cell-']").first.wait_for(timeout=TIMEOUT_MS)
    return number


def play_one_turn(page: Any) -> None:
    """Take the first takeable tile and lay it on the first legal cell, by clicking."""
    before = ply(page)
    if page.locator("[data-testid=end-phase]").is_visible():
        page.click("[data-testid=end-phase]")
    else:
        take_first_tile(page)
        page.locator("[data-testid^='cell-']").first.click()
    wait_for_ply_after(page, before)


def play_to_end(page: Any, max_turns: int = 80) -> int:
    turns = 0
    while wait_for_my_turn_or_end(page):
        play_one_turn(page)
        turns += 1
        assert turns <= max_turns, "the game did not end"
    return turns


def no_horizontal_overflow(page: Any) -> bool:
    fits: bool = page.evaluate(
        "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"
    )
    return fits


#: the password of the accounts the browser tests register
PAGE_PASSWORD = "moonlight 42"


def register_on_page(page: Any, base: str, name: str, ready: str = "my-games") -> httpx.Client:
    """Register ``name`` on the account page and wait for its ``ready`` test id; an HTTP
    client with the same session."""
    page.goto(f"{base}/me")
    page.get_by_test_id("account-name").fill(name)
    page.get_by_test_id("account-password").fill(PAGE_PASSWORD)
    page.get_by_test_id("register").click()
    page.get_by_test_id(ready).wait_for()
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    return httpx.Client(base_url=base, cookies={"session": cookies["session"]}, timeout=30)


def choose_game(page: Any, name: str, title: str) -> None:
    """Choose the game ``name`` in the lobby's picker and wait for its form: the lobby
    draws it once the game's page module is loaded, and a click before that would act
    on the form it replaces."""
    page.get_by_test_id(f"game-type-{name}").click()
    page.wait_for_function(
        "(t) => document.querySelector('.hero h1')?.textContent === t", arg=title
    )


#: Every announcement the page makes, in order, on ``window.__announced``: a
#: MutationObserver sees each one however briefly it stays (polling the region can miss
#: one that the next replaced while the machine was busy).
RECORD_ANNOUNCEMENTS = """(() => {
  window.__announced = [];
  const watch = () => {
    const region = document.getElementById('announcer');
    if (!region) return;
    new MutationObserver(() => window.__announced.push(region.textContent)).observe(
      region, { childList: true, subtree: true, characterData: true });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch);
  else watch();
})()"""

HEARD = """(h) => (window.__announced || []).find((said) => said.includes(h)) || false"""


def record_announcements(page: Any) -> None:
    """From the page's next load on, keep every announcement (``heard``)."""
    page.add_init_script(RECORD_ANNOUNCEMENTS)


def heard(page: Any, text: str) -> str:
    """The first announcement since the page loaded that holds ``text``, once made
    (``record_announcements`` first)."""
    said: str = page.wait_for_function(HEARD, arg=text).json_value()
    return said
