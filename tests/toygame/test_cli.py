"""Toy Draft through the command line (``python -m tabletop.cli toy ...``): the
platform's verbs work for a game it does not ship, registered by ``TABLETOP_GAMES``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

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
