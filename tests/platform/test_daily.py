"""The daily challenge (issue 28): the day's seed, one counted attempt per account and
day enforced by the store (SQLite and PostgreSQL, two requests at once counting once),
the results board (order, shared ranks, "with help", the bot's score once you
finished), practice days, the share text, the terminal command, and bad input: a 4xx
with a clear message on every endpoint."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from tabletop.core.game import get_game
from tabletop.daily import DayError, daily_seed, deal, parse_day, ranked
from tabletop.harness.selfplay import play_game
from tabletop.server.jsontext import js_safe  # big seeds go out as strings
from tabletop.server.rows import Seat
from tabletop.server.storage import GameStore, is_postgres, open_store
from tabletop.server.store import Store
from tabletop.server.writes import CreateAccount, CreateGame, MarkHinted, StartDaily

from server_support import ServerProcess, new_db

OLD_DB = Path(__file__).parent / "data" / "games-before-accounts.sqlite3"
PASSWORD = "correct horse"
NewDb = Callable[[str], Path | str]  # the ``database`` fixture: either storage
# The board's bot is greedy here: the strongest takes half a minute a deal.
DAILY_BOTS = ("--daily-bot", "nmbr9=greedy", "--daily-bot", "nova-luna=greedy")


def today() -> date:
    return datetime.now(UTC).date()


# -- the deal ------------------------------------------------------------------------


def test_the_daily_seed_is_fixed_by_the_game_and_the_day() -> None:
    day = date(2026, 11, 26)
    assert daily_seed("nmbr9", day) == 3588617060179276871  # anyone can reproduce it
    assert daily_seed("nova-luna", day) == 3573297200358832137
    assert daily_seed("nmbr9", day + timedelta(days=1)) != daily_seed("nmbr9", day)
    seeds = {
        daily_seed(g, day + timedelta(days=n)) for g in ("nmbr9", "nova-luna") for n in range(30)
    }
    assert len(seeds) == 60 and all(0 <= s < 2**62 for s in seeds)


def test_the_deal_is_solo_with_default_options() -> None:
    for name in ("nmbr9", "nova-luna"):
        game = get_game(name)
        the_deal = deal(game, date(2026, 11, 26))
        assert the_deal.players == 1
        assert the_deal.options == game.check_options({}, 1)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("2026-13-01", "YYYY-MM-DD"),
        ("26-11-2026", "YYYY-MM-DD"),
        ("yesterday", "YYYY-MM-DD"),
        (None, "YYYY-MM-DD"),
        (20261126, "YYYY-MM-DD"),
        ("2026-11-27", "has not come yet"),
        ("2023-12-31", "start on"),
    ],
)
def test_a_bad_day_is_refused_with_a_reason(text: Any, words: str) -> None:
    with pytest.raises(DayError, match=words):
        parse_day(text, date(2026, 11, 26))
    assert parse_day("2026-11-26", date(2026, 11, 26)) == date(2026, 11, 26)


def test_ranks_put_the_best_first_and_share_ties() -> None:
    assert ranked([87, 90, 90, 70], lower_is_better=False) == [3, 1, 1, 4]
    assert ranked([95, 101, 95], lower_is_better=True) == [1, 3, 1]
    assert ranked([], lower_is_better=True) == []


def test_each_game_builds_its_own_share_text() -> None:
    nmbr9 = get_game("nmbr9")
    record = play_game(nmbr9, ["greedy"], seed=5, options=nmbr9.check_options({}, 1))
    lines = nmbr9.daily_share(record, "2026-11-26")
    score = record["result"]["scores"][0]
    assert lines[0]["args"] == {"game": "NMBR 9", "day": "2026-11-26", "score": score}
    squares = [line["args"]["squares"] for line in lines[1:]]
    assert sum(len(s) for s in squares) == 20 and set("".join(squares)) == {"\u25a0"}
    assert [line["args"]["level"] for line in lines[1:]] == list(range(len(lines) - 1))
    luna = get_game("nova-luna")
    record = play_game(luna, ["greedy"], seed=5, options=luna.check_options({}, 1))
    lines = luna.daily_share(record, "2026-11-26")
    assert lines[0]["args"]["score"] == record["result"]["total"]
    assert lines[1] == {"key": "turns: {turns}", "args": {"turns": len(record["turns"])}}


def test_the_strongest_solo_bot_plays_the_deal_for_the_board() -> None:
    assert get_game("nmbr9").daily_bot() == "planner:learned"
    assert get_game("nova-luna").daily_bot() == "solo:strong"


# -- the store: one counted attempt per account and day ----------------------------------


def _daily_game(game_id: str, account: int) -> CreateGame:
    seat = Seat(0, "Ann", "human", None, f"tok-{game_id}", account)
    return CreateGame(game_id, "nmbr9", {}, 7, [seat], True, account)


def store_at(db: str | Path) -> GameStore:
    """A store on a new database of either kind (a PostgreSQL one migrated first, as
    ``serve`` does)."""
    if is_postgres(str(db)):
        from tabletop.server.pgstore import migrate

        migrate(str(db))
    return open_store(str(db))


@pytest.fixture(scope="module")
def server(
    storage: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("daily")
    db = new_db(storage, request, folder)
    proc = ServerProcess(db, log=folder / "server.log", options=DAILY_BOTS, workers=2).start()
    yield proc
    proc.stop()


def test_the_store_counts_one_attempt_per_account_and_day(database: NewDb) -> None:
    store = store_at(database("daily"))
    try:
        ann = store.write(CreateAccount("Ann", "ann", "hash"))
        first = store.write_many(
            [StartDaily(_daily_game("g1", ann), "2026-11-26")] * 1
            + [StartDaily(_daily_game("g2", ann), "2026-11-26")]
        )
        assert first == [("g1", True), ("g1", False)]  # the second in the same batch, too
        assert store.write(StartDaily(_daily_game("g3", ann), "2026-11-26")) == ("g1", False)
        assert store.game("g2") is None and store.game("g3") is None  # nothing else created
        assert store.write(StartDaily(_daily_game("g4", ann), "2026-11-27")) == ("g4", True)
        assert store.daily_game("nmbr9", "2026-11-26", ann) == "g1"
        (attempt,) = store.daily_attempts("nmbr9", "2026-11-26")
        assert (attempt.name, attempt.game_id, attempt.over, attempt.helped) == (
            "Ann",
            "g1",
            False,
            False,
        )
        store.write(MarkHinted("g1"))
        assert store.daily_attempts("nmbr9", "2026-11-26")[0].helped
    finally:
        store.close()


def test_two_stores_starting_the_same_attempt_at_once_count_it_once(database: NewDb) -> None:
    """Two connections (two server processes) race: the table's key lets one win."""
    url = str(database("race"))
    stores = [store_at(url) for _ in range(2)]
    try:
        ann = stores[0].write(CreateAccount("Ann", "ann", "hash"))
        results: list[tuple[str, bool]] = []
        start = threading.Barrier(2)

        def attempt(number: int) -> None:
            start.wait()
            write = StartDaily(_daily_game(f"race{number}", ann), "2026-11-26")
            results.append(stores[number].write(write))

        threads = [threading.Thread(target=attempt, args=(n,)) for n in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(created for _, created in results) == [False, True]
        assert len({game for game, _ in results}) == 1
        assert len(stores[0].daily_attempts("nmbr9", "2026-11-26")) == 1
    finally:
        for store in stores:
            store.close()


def test_an_existing_database_gets_the_daily_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    shutil.copy(OLD_DB, path)
    store = Store(path)
    try:
        ann = store.write(CreateAccount("Ann", "ann", "hash"))
        assert store.write(StartDaily(_daily_game("new", ann), "2026-11-26")) == ("new", True)
        old_games = store.unfinished_games()
        assert old_games and all(store.game(g) is not None for g in old_games)
        store.write(MarkHinted(old_games[0]))  # the old games have the new column too
    finally:
        store.close()


# -- the API -------------------------------------------------------------------------


def register(server: ServerProcess, name: str) -> httpx.Client:
    c = httpx.Client(base_url=server.url, timeout=30)
    r = c.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c


def unique(prefix: str) -> str:
    return f"{prefix}{time.monotonic_ns() % 10**9}"


def play_out(player: httpx.Client, game_id: str, pick: int = 0, token: str | None = None) -> None:
    """Play the game to its end, always taking choice ``pick``."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        state = player.get(f"/api/games/{game_id}", headers=headers).json()
        if state["over"]:
            return
        if state["choices"]:
            move = {"action": state["choices"][pick]["action"], "ply": state["ply"]}
            player.post(f"/api/games/{game_id}/actions", json=move, headers=headers)
    raise AssertionError("the game did not end")


def board(player: httpx.Client, kind: str, day: date, **params: str) -> dict[str, Any]:
    r = player.get(f"/api/daily/{kind}/{day.isoformat()}", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def wait_for_bot(player: httpx.Client, kind: str, day: date, **params: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        shown = board(player, kind, day, **params)
        if shown["planner"]["status"] != "running":
            return shown
        time.sleep(0.2)
    raise AssertionError("the bot's daily game never finished")


def wait_for_hindsight(player: httpx.Client, kind: str, day: date) -> dict[str, Any]:
    """The board's best game with hindsight, once the search has finished."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        best: dict[str, Any] = board(player, kind, day)["hindsight"]
        if best["status"] != "running":
            return best
        time.sleep(0.2)
    raise AssertionError("the hindsight search never finished")


def test_today_lists_every_game_with_its_deal(server: ServerProcess) -> None:
    anonymous = httpx.Client(base_url=server.url, timeout=30)
    shown = anonymous.get("/api/daily").json()
    assert shown["day"] == today().isoformat()
    games = {g["game"]: g for g in shown["games"]}
    assert set(games) == {"nmbr9", "nova-luna"}
    for name, entry in games.items():
        assert entry["seed"] == js_safe(daily_seed(name, today())) and entry["you"] is None


def test_one_counted_attempt_a_day_and_the_board_after_it(server: ServerProcess) -> None:
    ann = register(server, unique("Ann"))
    first = ann.post("/api/daily/nmbr9")
    assert first.status_code == 201, first.text
    game = first.json()
    assert game["counted"] and game["created"]
    assert game["seed"] == js_safe(daily_seed("nmbr9", today()))
    again = ann.post("/api/daily/nmbr9", json={})
    assert again.status_code == 200 and again.json()["id"] == game["id"]
    assert not again.json()["created"] and "seats" not in again.json()
    state = ann.get(f"/api/games/{game['id']}").json()  # the account's seat, no link needed
    assert state["you"] == [0]
    mine = {g["game"]: g for g in ann.get("/api/daily").json()["games"]}["nmbr9"]["you"]
    assert mine["game"] == game["id"] and not mine["over"]
    before = board(ann, "nmbr9", today())
    assert before["planner"] is None and before["you"]["over"] is False  # no spoiler yet
    play_out(ann, game["id"])
    shown = wait_for_bot(ann, "nmbr9", today())
    (row,) = [r for r in shown["results"] if r["you"]]
    assert row["score"] == shown["you"]["score"] and not row["helped"]
    assert shown["planner"]["status"] == "done" and shown["planner"]["bot"] == "greedy"
    assert isinstance(shown["planner"]["score"], int) and shown["lower_is_better"] is False
    best = wait_for_hindsight(ann, "nmbr9", today())
    assert best["status"] == "done" and best["score"] >= row["score"]
    assert len(best["rounds"]) == 20  # the placements, to replay the best game
    text = shown["you"]["text"]
    assert text.startswith(f"NMBR 9 daily {today().isoformat()}: {row['score']}\nlevel 0: ")
    assert text.count("\u25a0") == 20


def test_two_tabs_pressing_play_at_once_count_once(server: ServerProcess) -> None:
    bea = register(server, unique("Bea"))
    answers: list[httpx.Response] = []
    start = threading.Barrier(4)

    def play() -> None:
        start.wait()
        answers.append(bea.post("/api/daily/nova-luna"))

    threads = [threading.Thread(target=play) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(a.status_code for a in answers) == [200, 200, 200, 201]
    assert len({a.json()["id"] for a in answers}) == 1
    shown = board(bea, "nova-luna", today())
    assert shown["playing"] >= 1 and shown["you"]["game"] == answers[0].json()["id"]


def test_the_board_ranks_best_first_marks_help_and_highlights_you(server: ServerProcess) -> None:
    day = today()
    players = [register(server, unique(name)) for name in ("Cy", "Di", "Ed")]
    for number, player in enumerate(players):
        game_id = player.post("/api/daily/nova-luna").json()["id"]
        if number == 1:  # Di asks for a hint: "with help" on the board
            state = player.get(f"/api/games/{game_id}").json()
            r = player.post(f"/api/games/{game_id}/hint", json={"ply": state["ply"]})
            assert r.status_code == 200, r.text
        play_out(player, game_id, pick=-1 if number == 2 else 0)
    shown = board(players[1], "nova-luna", day)
    assert shown["lower_is_better"] is True  # Nova Luna solo: fewer is better
    rows = shown["results"]
    scores = [r["score"] for r in rows]
    assert scores == sorted(scores)
    assert [r["rank"] for r in rows] == sorted(ranked(scores, lower_is_better=True))
    (you,) = [r for r in rows if r["you"]]
    assert you["helped"] and sum(r["you"] for r in rows) == 1
    assert not [
        r for r in rows if r["name"] == players[0].get("/api/account").json()["account"]["name"]
    ][0]["helped"]
    assert shown["you"]["text"].splitlines()[1].startswith("turns: ")


def test_practice_days_and_players_without_an_account_are_not_counted(
    server: ServerProcess,
) -> None:
    fay = register(server, unique("Fay"))
    yesterday = today() - timedelta(days=1)
    practice = fay.post("/api/daily/nmbr9", json={"day": yesterday.isoformat()})
    assert practice.status_code == 201, practice.text
    assert not practice.json()["counted"]
    assert practice.json()["seed"] == js_safe(daily_seed("nmbr9", yesterday))
    again = fay.post("/api/daily/nmbr9", json={"day": yesterday.isoformat()})
    assert again.json()["id"] != practice.json()["id"]  # practice as often as you like
    assert board(fay, "nmbr9", yesterday)["results"] == []
    anonymous = httpx.Client(base_url=server.url, timeout=30)
    guest = anonymous.post("/api/daily/nmbr9").json()
    assert not guest["counted"] and guest["seats"][0]["token"]
    play_out(anonymous, guest["id"], token=guest["seats"][0]["token"])
    shown = wait_for_bot(anonymous, "nmbr9", today(), game=guest["id"])
    assert shown["you"]["over"] and not shown["you"]["counted"]
    assert all(not r["you"] for r in shown["results"])
    other = anonymous.get(
        f"/api/daily/nova-luna/{today().isoformat()}", params={"game": guest["id"]}
    )
    assert other.status_code == 404 and "challenge" in other.json()["error"]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "words"),
    [
        ("POST", "/api/daily/chess", None, 404, "no daily challenge for that game"),
        ("GET", "/api/daily/chess/2026-11-26", None, 404, "no daily challenge for that game"),
        ("GET", "/api/daily/nmbr9/2026-02-30", None, 400, "YYYY-MM-DD"),
        ("GET", "/api/daily/nmbr9/tomorrow", None, 400, "YYYY-MM-DD"),
        ("GET", "/api/daily/nmbr9/2999-01-01", None, 400, "has not come yet"),
        ("GET", "/api/daily/nmbr9/1999-01-01", None, 400, "start on"),
        ("POST", "/api/daily/nmbr9", {"day": "2999-01-01"}, 400, "has not come yet"),
        ("POST", "/api/daily/nmbr9", {"day": 20261126}, 400, "YYYY-MM-DD"),
        ("POST", "/api/daily/nmbr9", {"seed": 3}, 400, "unknown field(s): seed"),
        ("POST", "/api/daily/nmbr9", [1, 2], 400, "send a JSON object"),
        ("POST", "/api/daily/nmbr9", "{not json", 400, "not valid JSON"),
        ("GET", "/api/daily/nmbr9/2026-11-26?game=nope", None, 404, "challenge"),
        ("DELETE", "/api/daily/nmbr9", None, 405, "not allowed"),
    ],
)
def test_bad_input_gets_a_4xx_with_a_clear_message(
    server: ServerProcess, method: str, path: str, body: Any, status: int, words: str
) -> None:
    http = httpx.Client(base_url=server.url, timeout=30)
    content = body if isinstance(body, str) else None
    json_body = None if isinstance(body, str) else body
    r = http.request(method, path, json=json_body, content=content)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]


# -- the terminal ------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["nmbr9", "novaluna"])
def test_the_terminal_plays_the_day_deal(command: str, tmp_path: Path) -> None:
    save = tmp_path / "daily.json"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "tabletop.cli",
            command,
            "daily",
            "--day",
            "2026-11-26",
            "--save",
            str(save),
        ],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    import json

    record = json.loads(save.read_text())
    game = "nmbr9" if command == "nmbr9" else "nova-luna"
    assert record["seed"] == daily_seed(game, date(2026, 11, 26))
    assert len(record["players"]) == 1
    bad = subprocess.run(
        [sys.executable, "-m", "tabletop.cli", command, "daily", "--day", "2999-01-01"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode != 0 and "has not come yet" in bad.stderr
