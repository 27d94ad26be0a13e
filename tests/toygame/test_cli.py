"""Toy Draft through the command line (``python -m tabletop.cli toy ...``): the
platform's verbs work for a game it does not ship, registered by ``TABLETOP_GAMES``."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.cli import add_play_command
from tabletop.core.game import GameType, get_game
from toygame.gametype import ToyDraft
from toygame.support import hosting_env


def toy(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tabletop.cli", "toy", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **hosting_env()},
        timeout=120,
        check=False,
    )


def test_selfplay_writes_records_that_replay(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    done = toy(
        "selfplay", "--games", "6", "--bots", "greedy,random", "--out", str(out), cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 6 and all(r["game"] == "toy" and r["over"] for r in records)
    checked = toy("replay", str(out), cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert "wins with" in checked.stdout or "share first place" in checked.stdout
    records[2]["turns"][0]["tile"] = 99  # a broken record is refused, with where
    (tmp_path / "bad.json").write_text(json.dumps(records[2]))
    refused = toy("replay", str(tmp_path / "bad.json"), cwd=tmp_path)
    assert refused.returncode != 0 and "turn 1" in refused.stdout + refused.stderr


def test_a_tournament_rates_greedy_above_random(tmp_path: Path) -> None:
    done = toy(
        "tournament", "--bots", "random,greedy", "--games", "20", "--jobs", "2", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "1 table × 20 deals" in done.stdout and "40 games" in done.stdout
    elo = {}  # the table's rows: "│ greedy │ 40 │ ... │ 1882 │"
    for line in done.stdout.splitlines():
        cells = [c.strip() for c in line.strip("│ ").split("│")]
        if cells[0] in ("random", "greedy"):
            elo[cells[0]] = int(cells[-1])
    assert elo["greedy"] > elo["random"]


def test_the_solo_game_benchmarks(tmp_path: Path) -> None:
    done = toy("solo-bench", "--bot", "greedy", "--games", "10", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "greedy" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("selfplay", "--players", "3"), "1 to 2 players"),
        (("selfplay", "--bots", "nobody"), "unknown bot 'nobody'"),
    ],
)
def test_bad_input_is_one_line_and_a_failing_status(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    done = toy(*args, cwd=tmp_path)
    assert done.returncode != 0
    assert message in done.stderr and "Traceback" not in done.stderr


# -- which commands a game is offered -----------------------------------------------------


def commands_of(game: GameType) -> set[str]:
    """The subcommands ``build_parser`` offers ``game``."""
    from tabletop.cli import build_parser

    (sub,) = (a for a in build_parser(game)._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


def test_toy_draft_is_offered_only_the_commands_it_supports() -> None:
    commands = commands_of(get_game("toy"))
    # solo (min_seats 1), a page, an analysis; no terminal play (so no daily), no bench.py
    assert commands == {
        "replay",
        "analyse",
        "selfplay",
        "tournament",
        "solo-bench",
        "serve",
        "db",
        "moderator",
    }


def test_a_game_without_a_solo_mode_has_no_solo_bench_and_no_daily() -> None:
    class TwoOrMore(ToyDraft):
        min_seats = 2

    assert not {"solo-bench", "daily"} & commands_of(TwoOrMore())


def test_a_solo_only_game_has_no_tournament() -> None:
    class SoloOnly(ToyDraft):
        max_seats = 1

    assert "tournament" not in commands_of(SoloOnly())
    assert "solo-bench" in commands_of(SoloOnly())


def test_a_terminal_play_command_brings_the_daily_challenge() -> None:
    class WithPlay(ToyDraft):
        def add_commands(
            self, commands: argparse._SubParsersAction[argparse.ArgumentParser]
        ) -> None:
            add_play_command(commands, self, help="play", players=1).set_defaults(run=self.play)

    assert {"play", "daily"} <= commands_of(WithPlay())


def test_toy_draft_has_no_daily_command(tmp_path: Path) -> None:
    done = toy("daily", cwd=tmp_path)
    assert done.returncode == 2 and "invalid choice: 'daily'" in done.stderr
