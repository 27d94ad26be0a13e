"""The coach of a casual game on a real server: offered only where it helps nobody
against someone, a costly move gets a note (over the socket, kept after a reload) and
a good one none, the better move's boards on request, and the notes judged from what
the player knew (two deals alike so far, different hidden futures: the same notes)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from account_support import register, unique
from tabletop.games.nmbr9.rules import Game

from gate_support import SearchGate
from server_support import Api, ServerProcess, open_socket, receive

#: bounds a hang only: a coached move is judged in about a second
HANG_SECONDS = 120.0
ALONE = [{"kind": "human", "name": "Ada"}]
AGAINST_A_BOT = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("coach")
    proc = ServerProcess(folder / "games.sqlite3", workers=2).start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def api(server: ServerProcess) -> Api:
    return Api(server)


def _coached(api: Api, seats: list[dict[str, Any]], **extra: Any) -> tuple[str, str]:
    game = api.create(seats, coach=True, **extra)
    return game["id"], game["seats"][0]["token"]


def _judged(api: Api, game_id: str, token: str, count: int) -> dict[str, Any]:
    """The coach part of the state once ``count`` moves are judged and none waits."""
    state = api.wait(
        game_id,
        token,
        lambda s: (
            s["coach"]["judged"] + len(s["coach"]["busy"]) >= count and not s["coach"]["waiting"]
        ),
        timeout=HANG_SECONDS,
    )
    coach: dict[str, Any] = state["coach"]
    return coach


def _act(api: Api, game_id: str, token: str, action: str) -> dict[str, Any]:
    ply = api.state(game_id, token)["ply"]
    answer = api.act(game_id, token, action, ply)
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


def test_the_coach_is_refused_in_rated_games_and_with_people(
    api: Api, server: ServerProcess
) -> None:
    me = register(server, unique("coached"))
    rated = me.post(
        "/api/games",
        json={"seats": [{"kind": "human", "me": True}, AGAINST_A_BOT[1]], "coach": True},
    )
    assert rated.status_code == 400 and "unrated" in rated.json()["error"]
    people = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bob"}]
    for seats in (people, [{"kind": "human", "open": True}, AGAINST_A_BOT[1]]):
        refused = me.post("/api/games", json={"seats": seats, "coach": True, "rated": False})
        assert refused.status_code in (400, 401), refused.text
        assert refused.status_code == 401 or "bots or alone" in refused.json()["error"]
    wrong = api.request("POST", "/api/games", json={"seats": ALONE, "coach": "yes"})
    assert wrong.status_code == 400
    unrated = me.post(
        "/api/games",
        json={
            "seats": [{"kind": "human", "me": True}, AGAINST_A_BOT[1]],
            "coach": True,
            "rated": False,
        },
    )
    assert unrated.status_code == 201, unrated.text
    plain = api.create(AGAINST_A_BOT)
    assert api.state(plain["id"], plain["seats"][0]["token"])["coach"] is None


def test_a_costly_move_gets_a_note_over_the_socket_and_a_good_one_none(
    api: Api, server: ServerProcess
) -> None:
    game_id, token = _coached(api, ALONE, type="nmbr9", seed=5)
    first = api.state(game_id, token)
    _act(api, game_id, token, first["choices"][0]["action"])  # the first tile: nothing lost
    assert _judged(api, game_id, token, 1)["notes"] == []
    with open_socket(server, game_id, [token]) as ws:
        receive(ws, lambda m: m.get("type") == "state")
        far = api.state(game_id, token)["choices"][-1]["action"]  # far from the first tile
        _act(api, game_id, token, far)
        noted = receive(
            ws, lambda m: m.get("type") == "state" and m["coach"]["notes"], HANG_SECONDS
        )
    (note,) = noted["coach"]["notes"]
    scale = noted["coach"]["scale"]
    assert note["ply"] == 1 and note["played"] == far and note["best"] != far
    assert note["loss"] >= scale["inaccuracy"]
    assert note["mark"] in ("inaccuracy", "mistake", "blunder")
    assert scale["unit"] == "points" and note["best_words"]["key"].startswith("the {card}")
    again = api.state(game_id, token)["coach"]  # a reload shows it
    assert again["notes"] == [note] and again["judged"] == 2
    assert api.state(game_id)["coach"] == {"seat": 0}  # a spectator sees none while it runs
    boards = api.request("GET", f"/api/games/{game_id}/coach/1", token)
    assert boards.status_code == 200, boards.text
    shown = boards.json()
    assert shown["played"]["action"] == far and shown["best"]["action"] == note["best"]
    assert shown["best"]["view"]["boards"][0] != shown["played"]["view"]["boards"][0]
    for path, status in (("/coach/0", 404), ("/coach/x", 400)):
        assert api.request("GET", f"/api/games/{game_id}{path}", token).status_code == status
    assert api.request("GET", f"/api/games/{game_id}/coach/1").status_code == 403


def test_a_game_against_a_bot_is_noted_in_chance_to_win(api: Api) -> None:
    game_id, token = _coached(api, AGAINST_A_BOT, type="nova-luna", seed=3, rated=False)
    for _ in range(4):
        state = api.wait(game_id, token, lambda s: s["acting"] == 0, timeout=HANG_SECONDS)
        _act(api, game_id, token, state["choices"][-1]["action"])
    coach = _judged(api, game_id, token, 4)
    assert coach["scale"]["unit"] == "chance to win" and coach["seat"] == 0
    assert all(n["loss"] >= coach["scale"]["inaccuracy"] for n in coach["notes"])


def _seeds_alike_for(rounds: int) -> tuple[int, int]:
    """Two NMBR 9 seeds whose first ``rounds`` cards are the same and the rest not."""
    seen: dict[tuple[int, ...], int] = {}
    for seed in range(100_000):
        order = Game(players=1).new_state(seed=seed).deck_order()
        other = seen.setdefault(order[:rounds], seed)
        if other != seed and Game(players=1).new_state(seed=other).deck_order() != order:
            return other, seed
    raise AssertionError("no two such seeds")


def test_notes_are_judged_from_what_the_player_knew(api: Api) -> None:
    """Two deals alike for three rounds, different after: the same moves get the same
    notes (neither the search nor its seed saw the cards to come)."""
    notes = []
    for seed in _seeds_alike_for(3):
        game_id, token = _coached(api, ALONE, type="nmbr9", seed=seed)
        for _ in range(3):
            _act(api, game_id, token, api.state(game_id, token)["choices"][-1]["action"])
        coach = _judged(api, game_id, token, 3)
        assert coach["judged"] == 3
        notes.append(coach["notes"])
    assert notes[0] == notes[1] and notes[0]


def test_the_game_goes_on_while_the_coach_thinks_and_a_busy_server_skips_moves(
    tmp_path: Any,
) -> None:
    """With the coach's searches held (the test gate) the player moves on; one move may
    wait on this server (``--coach-queue 1``), so the next is skipped, said as ``busy``;
    let go, the waiting one's judgement comes, attached to its move."""
    gate = SearchGate(tmp_path / "gate")
    gate.close()
    options = ("--coach-queue", "1", *gate.options)
    proc = ServerProcess(tmp_path / "games.sqlite3", options=options).start()
    try:
        api = Api(proc)
        game_id, token = _coached(api, ALONE, type="nmbr9", seed=5)
        for _ in range(3):
            _act(api, game_id, token, api.state(game_id, token)["choices"][0]["action"])
        gate.wait_until_held()
        coach = api.state(game_id, token)["coach"]
        assert api.state(game_id, token)["ply"] == 3  # the game went on meanwhile
        assert coach["waiting"] == [0] and coach["busy"] == [1, 2] and coach["judged"] == 0
        gate.open()
        coach = _judged(api, game_id, token, 3)
        assert coach["judged"] == 1 and coach["busy"] == [1, 2]
    finally:
        gate.open()
        proc.stop()
