"""axe-core finds nothing on any page, in English on a phone (390×844) and a desktop
(1400×900), and in German on the phone and Dutch on the desktop (the page's language
chosen before it loads, as the top bar's select remembers it): every translation is
checked on every page, and translated texts at both layouts, German's long words where
space is short; each more pairing would add a run of the whole file.

axe-core comes from npm (package.json at the repository root; ``make test`` runs
``npm ci`` when node_modules lacks it). Each test brings one page to a realistic state —
the lobby's form, a game against a bot on your turn with a tile chosen and a cell
previewed (also with colour symbols on), a solo game, a finished game's end screen and the
board under it, a finished solo game, a stored game's replay in play and at its end, the
replay viewer's upload card, a created game's seat links —
injects axe and runs the WCAG 2.x A/AA rules and axe's best practices. Any violation
fails the test, and so does a colour-contrast check that axe cannot decide
(``incomplete``: text over a gradient, an image or another element), since it would hide
a failure. A screenshot of each state is saved (test-output/screenshots/axe-*.jpg; German
and Dutch ones are named axe-<state>-de-<size>.jpg and so on).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import (
    REPO,
    SIZES,
    api,
    checked_page,
    create_game,
    place_by_hand,
    press,
    shot,
    wait_for_my_turn_or_end,
    wait_until_over,
)

sync_api = pytest.importorskip("playwright.sync_api")

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
#: WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"]
GREEDY = {"kind": "bot", "bot": "greedy"}

RUN_AXE = """async (tags) => {
  // short texts too (a tile chip's "3", the "×" of a button): axe skips them by default
  const contrast = axe._audit.checks['color-contrast'];  // configure replaces all options
  const options = {...contrast.options, ignoreLength: true};
  axe.configure({checks: [{id: 'color-contrast', options}]});
  // A page still drawing (a board rebuilt, a panel replaced) while axe reads it leaves
  // axe judging elements no longer there ("overlapped", its selector only ':root'): run
  // again until no element left the page during a run. A clock's ticking text is no element.
  const lost = (records) => records.some(
    (r) => [...r.removedNodes].some((n) => n.nodeType === Node.ELEMENT_NODE));
  let result, changed, runs = 0;
  do {
    changed = false;
    const watch = new MutationObserver((records) => { changed = changed || lost(records); });
    watch.observe(document, {childList: true, subtree: true});
    result = await axe.run(document, {
      runOnly: {type: 'tag', values: tags},
      resultTypes: ['violations', 'incomplete'],
    });
    changed = changed || lost(watch.takeRecords());
    watch.disconnect();
  } while (changed && ++runs < 10);
  const nodes = (rule) => rule.nodes.map((n) => {
    const checks = [...n.any, ...n.all, ...n.none];
    const el = document.querySelector(n.target[0]);
    return {
      target: n.target.join(' '),
      summary: n.failureSummary || checks.map((c) => c.message).filter(Boolean).join('; '),
      reason: checks.map((c) => c.data && c.data.messageKey).find(Boolean) || null,
      svg: !!(el && el.closest('svg')),
      html: n.html.slice(0, 140),
    };
  });
  const pick = (rules) => rules.map((r) => ({id: r.id, help: r.help, nodes: nodes(r)}));
  return {
    version: axe.version,
    runs: runs + 1,
    violations: pick(result.violations),
    incomplete: pick(result.incomplete.filter((r) => r.id === 'color-contrast')),
  };
}"""


# Only the endless animations (a pulsing hint, the thinking dots) may still run: a
# finished fade or flash leaves the colours it ends on, which are what axe should see.
SETTLED = """() => document.getAnimations().every((a) =>
  a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity)"""


def undecided(node: dict[str, Any]) -> bool:
    """A colour-contrast check axe could not decide, for a reason that can hide a failure
    (text over a gradient, an image, a pseudo-element or another element). Not: an empty
    field (its placeholder, the browser's own grey), a glyph that is no text (⤢, ●), or
    text drawn in an SVG, which axe cannot measure (the wheel's and the tiles' numbers:
    light on the dark shapes drawn under them)."""
    return not node["svg"] and node["reason"] not in ("emptyValue", "nonBmp")


#: (language, size) pairs each test runs at: each language, each size. (Axe's findings
#: hardly depend on the language, and the pages of the later modules are checked in
#: every language besides; four pairs cost a twentieth of the suite.)
LOOKS = [("en", "desktop"), ("de", "phone"), ("nl", "phone")]


@pytest.fixture(params=LOOKS, ids=[f"{lang}-{size}" for lang, size in LOOKS])
def look(request: pytest.FixtureRequest) -> tuple[str, str]:
    return request.param


@pytest.fixture
def lang(look: tuple[str, str]) -> str:
    return look[0]


@pytest.fixture
def size(look: tuple[str, str]) -> str:
    """This module's sizes go with its languages (conftest's ``size`` is every size)."""
    return look[1]


@pytest.fixture
def page(browser: Any, size: str, lang: str) -> Iterator[Any]:
    """The page at ``size``, in ``lang`` from its first load (the remembered choice)."""
    with checked_page(browser, **SIZES[size]) as page:
        page.add_init_script(f"localStorage.setItem('boardgames.language.v1', {lang!r})")
        yield page


def named(state: str, size: str, lang: str) -> str:
    """A screenshot's name: axe-lobby-phone, axe-lobby-de-phone."""
    return f"axe-{state}-{size}" if lang == "en" else f"axe-{state}-{lang}-{size}"


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        pytest.fail(
            f"{AXE.relative_to(REPO)} is missing: axe-core comes from npm — run `make test`, "
            "or `npm ci` at the repository root",
            pytrace=False,
        )
    return AXE.read_text()


def report(found: dict[str, Any]) -> str:
    lines = []
    for kind in ("violations", "undecided"):
        for rule in found[kind]:
            lines.append(f"{kind}: {rule['id']} — {rule['help']}")
            for node in rule["nodes"][:12]:
                lines.append(f"    {node['target']}: {node['summary']} [{node['reason']}]")
                lines.append(f"      {node['html']}")
    return "\n".join(lines)


def check_axe(page: Any, source: str, name: str) -> None:
    """Screenshot the page as it is (where screenshots are asked for), then fail on
    anything axe finds."""
    page.wait_for_function(SETTLED)
    shot(page, name)
    # from the top: nothing under the sticky top bar, which axe would count as overlapped
    page.evaluate("() => window.scrollTo(0, 0)")
    page.evaluate(source)  # page.evaluate is not bound by the page's script-src 'self'
    found = page.evaluate(RUN_AXE, TAGS)
    found["undecided"] = [
        dict(rule, nodes=[n for n in rule["nodes"] if undecided(n)])
        for rule in found["incomplete"]
        if any(undecided(n) for n in rule["nodes"])
    ]
    assert not found["violations"] and not found["undecided"], (
        f"axe-core {found['version']} on {name}:\n{report(found)}"
    )


def choose_tile(page: Any, size: str) -> None:
    """Choose the first marked tile on the wheel; the display shows its legal cells."""
    press(page, size, "[data-testid=wheel] .space[data-takeable='1']")
    page.locator("[data-testid^='cell-']").first.wait_for()


def preview_a_cell(page: Any, size: str) -> None:
    """Point at (desktop) or tap (phone) a legal cell: the selection bar describes it."""
    cell = page.locator("[data-testid^='cell-']").first
    before = page.inner_text("[data-testid=preview-text]")  # how to preview, in any language
    if size == "phone":
        cell.tap()
        page.locator("[data-testid=confirm-place]").wait_for()
    else:
        cell.hover()
    page.wait_for_function(
        "(b) => document.querySelector('[data-testid=preview-text]').textContent !== b", arg=before
    )


def finish_by_api(base: str, game: dict[str, Any]) -> dict[str, Any]:
    """Play the human seat 0 of ``game`` to the end through the API (first choice each
    turn); the bots answer by themselves."""
    token = game["seats"][0]["token"]
    path = f"/api/games/{game['id']}"
    deadline = time.monotonic() + 90
    while True:
        state = api(base, path, token=token)
        if state["over"]:
            return state
        if state["acting"] == 0:
            body = {"action": state["choices"][0]["action"], "ply": state["ply"]}
            api(base, f"{path}/actions", body, token)
        else:
            time.sleep(0.05)
        assert time.monotonic() < deadline, "the game did not end"


@pytest.fixture(scope="module")
def finished_two_player(server: str) -> dict[str, Any]:
    game = create_game(server, [{"kind": "human", "name": "Ann"}, GREEDY], seed=21)
    finish_by_api(server, game)
    return game


@pytest.fixture(scope="module")
def finished_solo(server: str) -> dict[str, Any]:
    game = create_game(server, [{"kind": "human", "name": "Sol"}], seed=17)
    finish_by_api(server, game)
    return game


@pytest.fixture(scope="module")
def stored_game(server: str) -> dict[str, Any]:
    seats = [GREEDY, {"kind": "bot", "bot": "random"}, GREEDY]
    game = create_game(server, seats, seed=4)
    wait_until_over(server, game["id"])
    return game


# -- the pages ------------------------------------------------------------------------


def test_axe_lobby(axe_source: str, page: Any, size: str, lang: str, server: str) -> None:
    page.goto(server + "/")
    page.locator("[data-testid=create-form]").wait_for()
    page.fill("[data-testid=seat-0-name]", "Ann")
    page.click(".how summary")  # the rules, open
    page.click(".advanced summary")  # the seed field and its warning, open
    page.locator("[data-testid=seed]").wait_for()
    check_axe(page, axe_source, named("lobby", size, lang))


def test_axe_game_against_a_bot(
    axe_source: str, page: Any, size: str, lang: str, server: str
) -> None:
    game = create_game(server, [{"kind": "human", "name": "Ann"}, GREEDY], seed=8)
    page.goto(server + game["seats"][0]["link"])
    for _ in range(3):  # tiles on both displays, chips in the log
        assert wait_for_my_turn_or_end(page)
        place_by_hand(page, size)
    assert wait_for_my_turn_or_end(page)
    page.locator("[data-testid=player-1] .badge").wait_for()  # the bot's "bot" badge
    choose_tile(page, size)
    preview_a_cell(page, size)
    check_axe(page, axe_source, named("game", size, lang))
    press(page, size, "[data-testid=colour-symbols]")  # a shape beside each chip's number
    page.wait_for_function("() => document.documentElement.classList.contains('cb')")
    check_axe(page, axe_source, named("game-symbols", size, lang))


def test_axe_solo_game(axe_source: str, page: Any, size: str, lang: str, server: str) -> None:
    game = create_game(server, [{"kind": "human", "name": "Sol"}], seed=2)
    page.goto(server + game["seats"][0]["link"])
    for _ in range(3):
        assert wait_for_my_turn_or_end(page)
        place_by_hand(page, size)
    assert wait_for_my_turn_or_end(page)
    page.locator("[data-testid=solo-scores]").wait_for()
    choose_tile(page, size)
    check_axe(page, axe_source, named("solo", size, lang))


def test_axe_finished_game(
    axe_source: str,
    page: Any,
    size: str,
    lang: str,
    server: str,
    finished_two_player: dict[str, Any],
) -> None:
    page.goto(server + finished_two_player["seats"][0]["link"])
    page.locator("[data-testid=end-screen] [data-testid=result]").wait_for()
    check_axe(page, axe_source, named("finished", size, lang))
    press(page, size, "[data-testid=close-end]")  # the board under it, game over
    page.locator("[data-testid=end-screen]").wait_for(state="detached")
    check_axe(page, axe_source, named("finished-board", size, lang))


def test_axe_finished_solo_game(
    axe_source: str, page: Any, size: str, lang: str, server: str, finished_solo: dict[str, Any]
) -> None:
    page.goto(server + finished_solo["seats"][0]["link"])
    page.locator("[data-testid=end-screen] [data-testid=verdict]").wait_for()
    check_axe(page, axe_source, named("solo-finished", size, lang))


def test_axe_replay(
    axe_source: str, page: Any, size: str, lang: str, server: str, stored_game: dict[str, Any]
) -> None:
    page.goto(server + f"/replay/{stored_game['id']}")
    page.locator("[data-testid=replay-counter]").wait_for()
    page.fill("[data-testid=replay-slider]", "12")  # in play: markers, tiles, a log
    page.wait_for_function(
        "() => document.querySelector('[data-testid=game]').dataset.ply === '12'"
    )
    check_axe(page, axe_source, named("replay", size, lang))
    press(page, size, "[data-testid=replay-last]")  # the end: the winner in the banner
    page.locator(".banner-over").wait_for()
    check_axe(page, axe_source, named("replay-end", size, lang))


# -- NMBR 9 -----------------------------------------------------------------------------


def create_n9(base: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return api(base, "/api/games", {"type": "nmbr9", "seats": seats, **extra})


def n9_confirm_rounds(page: Any, size: str, rounds: int) -> None:
    """Confirm the ghost where it begins (a legal spot), ``rounds`` times, by hand."""
    for _ in range(rounds):
        page.wait_for_function(
            "() => document.querySelector('[data-testid=ghost]')?.dataset.legal === 'true'",
            timeout=30_000,
        )
        before = int(page.get_attribute("[data-testid=game]", "data-ply"))
        press(page, size, "[data-testid=confirm]")
        page.wait_for_function(
            "(p) => Number(document.querySelector('[data-testid=game]').dataset.ply) > p",
            arg=before,
        )
    page.locator("[data-testid=ghost]").wait_for(timeout=30_000)


@pytest.fixture(scope="module")
def n9_finished(server: str) -> dict[str, Any]:
    game = create_n9(server, [{"kind": "human", "name": "Ann"}, GREEDY], seed=21)
    finish_by_api(server, game)
    return game


@pytest.fixture(scope="module")
def n9_stored(server: str) -> dict[str, Any]:
    game = create_n9(server, [GREEDY, {"kind": "bot", "bot": "random"}, GREEDY], seed=4)
    wait_until_over(server, game["id"])
    return game


def test_axe_nmbr9_lobby(axe_source: str, page: Any, size: str, lang: str, server: str) -> None:
    page.goto(server + "/")
    press(page, size, "[data-testid=game-type-nmbr9]")
    page.locator("[data-testid=option-remove]").wait_for()
    page.fill("[data-testid=seat-0-name]", "Ann")
    page.click(".how summary")
    page.click(".advanced summary")
    check_axe(page, axe_source, named("n9-lobby", size, lang))


def test_axe_nmbr9_game(axe_source: str, page: Any, size: str, lang: str, server: str) -> None:
    game = create_n9(server, [{"kind": "human", "name": "Ann"}, GREEDY], seed=8)
    page.goto(server + game["seats"][0]["link"])
    n9_confirm_rounds(page, size, 3)
    press(page, size, "[data-testid=hint]")  # the hint, shown on the board
    page.locator("[data-testid=hint-outline]").wait_for(timeout=30_000)
    check_axe(page, axe_source, named("n9-game", size, lang))


def test_axe_nmbr9_placed(axe_source: str, page: Any, size: str, lang: str, server: str) -> None:
    """Placed, the round not resolved (a friend still to place): the take-back button."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    game = create_n9(server, seats, seed=8)
    page.goto(server + game["seats"][0]["link"])
    n9_confirm_rounds(page, size, 0)
    press(page, size, "[data-testid=confirm]")
    page.locator("[data-testid=undo]").wait_for()
    check_axe(page, axe_source, named("n9-placed", size, lang))


def test_axe_nmbr9_solo_game(axe_source: str, page: Any, size: str, lang: str, server: str) -> None:
    game = create_n9(server, [{"kind": "human", "name": "Sol"}], seed=2)
    page.goto(server + game["seats"][0]["link"])
    n9_confirm_rounds(page, size, 3)
    page.keyboard.press("ArrowRight")  # keep the ghost where it is, or show a reason
    check_axe(page, axe_source, named("n9-solo", size, lang))


def test_axe_nmbr9_finished_game(
    axe_source: str, page: Any, size: str, lang: str, server: str, n9_finished: dict[str, Any]
) -> None:
    page.goto(server + n9_finished["seats"][0]["link"])
    page.locator("[data-testid=end-screen] [data-testid=result]").wait_for()
    check_axe(page, axe_source, named("n9-finished", size, lang))
    press(page, size, "[data-testid=close-end]")
    page.locator("[data-testid=end-screen]").wait_for(state="detached")
    check_axe(page, axe_source, named("n9-finished-board", size, lang))


def test_axe_nmbr9_replay(
    axe_source: str, page: Any, size: str, lang: str, server: str, n9_stored: dict[str, Any]
) -> None:
    page.goto(server + f"/replay/{n9_stored['id']}")
    page.locator("[data-testid=replay-counter]").wait_for()
    page.fill("[data-testid=replay-slider]", "12")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=game]').dataset.ply === '12'"
    )
    check_axe(page, axe_source, named("n9-replay", size, lang))
    press(page, size, "[data-testid=replay-last]")
    page.locator(".banner-over").wait_for()
    check_axe(page, axe_source, named("n9-replay-end", size, lang))


# -- accounts, open games and ratings (issue 19) ------------------------------------------


def test_axe_account_pages(axe_source: str, page: Any, size: str, lang: str, server: str) -> None:
    page.goto(server + "/me")
    page.locator("[data-testid=sign-in-form]").wait_for()
    check_axe(page, axe_source, named("sign-in", size, lang))
    name = f"Axe {lang} {size}"
    page.fill("[data-testid=account-name]", name)
    page.fill("[data-testid=account-password]", "a long password")
    page.click("[data-testid=register]")
    page.locator("[data-testid=my-games]").wait_for()
    page.goto(server + "/")
    page.locator("[data-testid=seat-1-kind-open]").click()
    page.click("[data-testid=create-game]")
    page.locator("[data-testid=share-panel]").wait_for()
    check_axe(page, axe_source, named("share-links", size, lang))
    page.goto(server + "/me")
    page.locator("[data-testid=game-status]").first.wait_for()
    check_axe(page, axe_source, named("my-games", size, lang))
    page.goto(server + "/lobby")
    page.locator("[data-testid=open-games] .game-item").first.wait_for()
    check_axe(page, axe_source, named("open-games", size, lang))
    page.goto(server + "/leaderboard/nova-luna")
    page.locator("[data-testid=leaderboard]").wait_for()
    check_axe(page, axe_source, named("leaderboard", size, lang))
    page.goto(server + f"/u/{name}")
    page.locator("[data-testid=profile]").wait_for()
    check_axe(page, axe_source, named("profile", size, lang))


def test_axe_replay_upload(axe_source: str, page: Any, size: str, lang: str, server: str) -> None:
    page.goto(server + "/replay")
    page.locator("[data-testid=upload]").wait_for()
    check_axe(page, axe_source, named("replay-upload", size, lang))
