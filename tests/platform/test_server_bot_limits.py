"""Bots on a shared server: bounded work, and cheap bots never wait behind searches."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tabletop.core.web import BotLimits
from tabletop.games.novaluna.bots.mcts import MctsBot
from tabletop.games.novaluna.gametype import GAME as NOVA_LUNA

from gate_support import SearchGate
from server_support import Api, ServerProcess

MCTS_HARD = {"kind": "bot", "bot": "mcts:hard"}
GREEDY = {"kind": "bot", "bot": "greedy"}


def test_every_search_is_bounded_in_time_even_for_a_stored_unbounded_spec(monkeypatch) -> None:
    """A game stored before the cap (``mcts:2000000000``) still stops at the limit."""
    seen = []
    monkeypatch.setattr(MctsBot, "choose", lambda self, view: seen.append(self.settings) or "x")
    match = NOVA_LUNA.new_match(2, {}, seed=1)
    seat = match.to_move()
    for spec, expected in [("mcts:2000000000", 0.25), ("mcts:hard", 0.25), ("mcts:easy", 0.25)]:
        match.bot_job(seat, spec, 1, BotLimits(iterations=100, seconds=0.25)).run()
        assert seen[-1].max_seconds == expected
    match.bot_job(seat, "mcts:easy", 1, BotLimits(seconds=60)).run()
    assert seen[-1].max_seconds == 0.3  # its own limit when lower


def test_quick_bots_run_in_their_own_lane() -> None:
    match = NOVA_LUNA.new_match(2, {}, seed=1)
    seat = match.to_move()
    assert match.bot_job(seat, "greedy", 1).quick and match.bot_job(seat, "random", 1).quick
    assert not match.bot_job(seat, "mcts:easy", 1).quick


@pytest.fixture
def gate(tmp_path: Path) -> SearchGate:
    return SearchGate(tmp_path / "gate")


@pytest.fixture
def busy_server(tmp_path: Path, gate: SearchGate) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path / "games.sqlite3", workers=1, options=gate.options).start()
    yield proc
    proc.stop()


def test_a_greedy_bot_moves_while_other_games_search(
    busy_server: ServerProcess, gate: SearchGate
) -> None:
    """One search worker, busy with one game's search for as long as the test wants
    (held at the test gate, in the worker) and another game's queued behind it: the
    greedy game must not wait for them — it plays three moves meanwhile."""
    gate.close()
    api = Api(busy_server)
    searching = [api.create([MCTS_HARD, MCTS_HARD])["id"] for _ in range(2)]
    gate.wait_until_held()  # the one search worker is taken
    quick = api.create([GREEDY, GREEDY])["id"]
    deadline = time.monotonic() + 60  # bounds a hang only: it fails if greedy waits
    while api.state(quick)["ply"] < 3:
        assert time.monotonic() < deadline, "the greedy bot waited behind the searches"
        time.sleep(0.05)
    assert [api.state(game)["ply"] for game in searching] == [0, 0]
    assert gate.held() == 1  # the second search queues for the worker, not at the gate
    gate.open()
    api.wait(searching[1], None, lambda state: state["ply"] >= 1)  # and then they go on
    api.http.close()


def test_searches_of_many_games_take_turns(tmp_path) -> None:
    """One search worker, three games of searching bots already running: a fourth game's
    first search waits for at most one search of each, never for several moves of one
    (each game has one bot move queued at a time, and the queue is first come, first
    served, so the games take turns)."""
    proc = ServerProcess(
        tmp_path / "games.sqlite3", workers=1, options=("--bot-max-seconds", "0.3")
    ).start()
    api = Api(proc)
    try:
        busy = [api.create([MCTS_HARD, MCTS_HARD])["id"] for _ in range(3)]
        deadline = time.monotonic() + 60
        while min(api.state(game)["ply"] for game in busy) < 1:  # all three searching
            assert time.monotonic() < deadline
            time.sleep(0.05)
        before = [api.state(game)["ply"] for game in busy]
        late = api.create([MCTS_HARD, MCTS_HARD])["id"]
        while api.state(late)["ply"] < 1:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        moved = [api.state(game)["ply"] - ply for game, ply in zip(busy, before, strict=True)]
        assert max(moved) <= 2, moved
    finally:
        api.http.close()
        proc.stop()
