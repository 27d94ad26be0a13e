"""Where ``pip install`` found no C compiler the bots' search kernels are missing
(setup.py builds them as optional extensions): the planner levels play as greedy,
analysis that needs a kernel refuses in one line, and everything else works.

Here the kernels are taken away in-process (``Kernel.module`` set to None); the real
install without a compiler is tests/platform/test_lean_install.py's.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tabletop.analysis import analyse
from tabletop.analysis.command import analyse_file
from tabletop.core.errors import BotSpecError, Unavailable
from tabletop.core.game import get_game
from tabletop.core.kernels import NO_KERNEL
from tabletop.games.nmbr9.bots import hint_bot as nmbr9_hint_bot
from tabletop.games.nmbr9.bots import hint_spec as nmbr9_hint_spec
from tabletop.games.nmbr9.bots.compiled import KERNEL as NMBR9_KERNEL
from tabletop.games.nmbr9.bots.greedy import GreedyBot as Nmbr9Greedy
from tabletop.games.nmbr9.bots.planner import PlannerBot
from tabletop.games.novaluna.bots import hint_spec as novaluna_hint_spec
from tabletop.games.novaluna.bots import mcts as novaluna_mcts
from tabletop.games.novaluna.bots.compiled import KERNEL as NOVALUNA_KERNEL
from tabletop.games.novaluna.bots.greedy import GreedyBot as NovaLunaGreedy
from tabletop.games.novaluna.bots.solo import SoloPlanner
from tabletop.harness.selfplay import play_game

NMBR9 = get_game("nmbr9")
NOVA_LUNA = get_game("nova-luna")


@pytest.fixture
def no_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both games as an install without a C compiler leaves them."""
    monkeypatch.setattr(NMBR9_KERNEL, "module", None)
    monkeypatch.setattr(NOVALUNA_KERNEL, "module", None)
    monkeypatch.setattr(novaluna_mcts, "mcts_kernel", None)


def moves(record: dict) -> object:
    """A record's play, without the players' names."""
    return record.get("rounds", record.get("turns"))


def test_with_the_kernels_nothing_is_missing_or_replaced() -> None:
    for game, spec in ((NMBR9, "planner:strong"), (NOVA_LUNA, "solo:strong")):
        assert game.kernel_warning() is None
        assert game.plays_as(spec) == spec
    assert isinstance(NMBR9.bots.make("planner:fast", seed=1), PlannerBot)
    assert isinstance(NOVA_LUNA.bots.make("solo:fast", seed=1), SoloPlanner)
    assert NMBR9.daily_bot() == "planner:learned"
    assert nmbr9_hint_spec() == "planner:learned-fast"
    assert novaluna_hint_spec("solo") == "solo:fast"
    assert novaluna_hint_spec("standard") == "mcts:strong-fast"


@pytest.mark.usefixtures("no_kernels")
def test_the_planner_levels_play_as_greedy_move_for_move() -> None:
    for level in ("fast", "normal", "strong"):
        assert isinstance(NMBR9.bots.make(f"planner:{level}", seed=1), Nmbr9Greedy)
        assert isinstance(NOVA_LUNA.bots.make(f"solo:{level}", seed=1), NovaLunaGreedy)
    assert moves(play_game(NMBR9, ["planner", "greedy"], seed=4)) == moves(
        play_game(NMBR9, ["greedy", "greedy"], seed=4)
    )
    assert moves(play_game(NOVA_LUNA, ["solo:strong"], seed=4)) == moves(
        play_game(NOVA_LUNA, ["greedy"], seed=4)
    )
    with pytest.raises(BotSpecError):  # a bad level is still refused
        NMBR9.bots.make("planner:huge")
    with pytest.raises(RuntimeError, match="not built"):  # only a direct call gets here
        PlannerBot("fast")


@pytest.mark.usefixtures("no_kernels")
def test_the_games_say_what_is_weaker_and_name_the_bots_as_they_play() -> None:
    for game, lost in ((NMBR9, "games cannot be analysed"), (NOVA_LUNA, "solo games cannot")):
        warning = game.kernel_warning()
        assert warning is not None
        assert "compiled search kernel missing" in warning and "play as greedy" in warning
        assert lost in warning and "reinstall with a C compiler" in warning
        assert game.daily_bot() == "greedy"  # the daily board's "strong bot", as it plays
    assert NMBR9.plays_as("random") == "random"
    assert NOVA_LUNA.plays_as("mcts:hard") == "mcts:hard"  # needs no kernel
    assert nmbr9_hint_spec() == "greedy" and isinstance(nmbr9_hint_bot(), Nmbr9Greedy)
    assert novaluna_hint_spec("solo") == "greedy"
    assert novaluna_hint_spec("standard") == "mcts:strong-fast"  # its search in Python


@pytest.mark.usefixtures("no_kernels")
def test_analysis_that_needs_a_kernel_refuses_and_the_rest_works() -> None:
    nmbr9 = play_game(NMBR9, ["greedy"], seed=2)
    with pytest.raises(Unavailable) as refused:
        analyse(NMBR9, nmbr9, budget=4)
    assert refused.value.key == NO_KERNEL
    assert NMBR9.analyser().hindsight(nmbr9, 4, 0) is None  # the daily board shows none
    with pytest.raises(Unavailable):
        analyse(NOVA_LUNA, play_game(NOVA_LUNA, ["greedy"], seed=2), budget=4)
    # 2-4 players: the analysis searches with mcts, in Python
    report = analyse(NOVA_LUNA, play_game(NOVA_LUNA, ["greedy", "greedy"], seed=1), budget=10)
    assert len(report.seats) == 2


@pytest.mark.usefixtures("no_kernels")
def test_analyse_says_so_in_one_line_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(play_game(NMBR9, ["greedy"], seed=2)) + "\n")
    assert analyse_file(NMBR9, str(path), 4, 0, False, 1) == 2
    err = capsys.readouterr().err
    assert err == f"nmbr9 analyse: {NO_KERNEL}\n"
    # Nova Luna: the solo game is named, the 2-player one still analysed
    games = [play_game(NOVA_LUNA, ["greedy"], seed=2), play_game(NOVA_LUNA, ["greedy"] * 2, 1)]
    path.write_text("".join(json.dumps(record) + "\n" for record in games))
    assert analyse_file(NOVA_LUNA, str(path), 10, 0, True, 1) == 2
    out, err = capsys.readouterr()
    assert err == f"{path}:1: cannot analyse: {NO_KERNEL}\n"
    assert len(out.splitlines()) == 1 and json.loads(out)["seats"]


@pytest.mark.usefixtures("no_kernels")
def test_the_terminal_warns_once_and_offers_no_analysis_it_cannot_give(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tabletop.cli import nmbr9
    from tabletop.games.nmbr9.rules import Game

    monkeypatch.chdir(tmp_path)
    state, typed = Game(players=1).new_state(3), []
    while not state.is_over:  # a solo game played to its end: the first legal placement
        action = state.legal_actions(0)[0]
        typed.append(f"{action}\n")
        state.apply(action)
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(typed) + "analyse\n"))
    assert nmbr9(["play", "--seed", "3", "--save", "solo.json"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # as read, not as rich wraps it
    assert out.count("compiled search kernel missing") == 1
    assert f"No analysis here: {NO_KERNEL}." in out
    assert "Type analyse" not in out and "Traceback" not in out
