"""The ``novaluna`` command's selfplay, replay and bench subcommands."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tabletop.cli import novaluna as main
from tabletop.games.novaluna.records import replay


def test_selfplay_writes_records_that_replay(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    args = ["selfplay", "--games", "4", "--players", "3", "--bots", "random,greedy"]
    assert main([*args, "--seed", "7", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 4
    records = [json.loads(line) for line in lines]
    assert [r["seed"] for r in records] == [7, 8, 9, 10]
    assert all(replay(r).state.is_over for r in records)
    assert records[0]["players"] == ["random (0)", "greedy (1)", "greedy (2)"]
    assert "4 games" in capsys.readouterr().out

    assert main(["replay", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "4 records replayed, all valid" in printed
    assert "wins" in printed


def test_selfplay_solo(tmp_path, capsys):
    out = tmp_path / "solo.jsonl"
    assert (
        main(["selfplay", "--games", "2", "--players", "1", "--bots", "greedy", "--out", str(out)])
        == 0
    )
    assert "2 solo games by greedy: mean score" in capsys.readouterr().out
    assert main(["replay", str(out)]) == 0
    assert "solo score" in capsys.readouterr().out


def test_selfplay_is_deterministic(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (a, b):
        main(["selfplay", "--games", "2", "--bots", "greedy", "--seed", "3", "--out", str(path)])
    strip = [
        {k: v for k, v in json.loads(x).items() if k != "created"}
        for x in a.read_text().splitlines()
    ]
    again = [
        {k: v for k, v in json.loads(x).items() if k != "created"}
        for x in b.read_text().splitlines()
    ]
    assert strip == again


def test_replay_reports_the_first_violation(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    main(["selfplay", "--games", "2", "--bots", "greedy", "--out", str(out)])
    records = [json.loads(x) for x in out.read_text().splitlines()]
    records[1]["turns"][4]["cell"] = [40, 40]
    out.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    capsys.readouterr()
    assert main(["replay", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{out}:2: invalid record: turn 5:" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["selfplay", "--bots", "nobody"], "unknown bot 'nobody'"),
        (["selfplay", "--players", "2", "--bots", "a,b,c"], "3 bots named for 2 seat"),
        (["selfplay", "--players", "1", "--first-game"], "'first_game' is for 2 seats or more"),
        (["replay", "/nonexistent/file.json"], "no such file"),
    ],
)
def test_bad_arguments_get_a_message(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["selfplay", "--games", "0"], ["play", "--players", "9"]])
def test_argument_errors_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "error" in capsys.readouterr().err


def test_replay_of_garbage(tmp_path, capsys):
    path = tmp_path / "x.json"
    path.write_text("this is not json\n")
    assert main(["replay", str(path)]) == 1
    assert "line 1 is not JSON" in capsys.readouterr().err


def test_bench_prints_figures():
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "tabletop.cli",
            "novaluna",
            "bench",
            "--seconds",
            "0.05",
            "--runs",
            "1",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    for label in ("solo", "2 players", "4 players", "legal_actions()", "mcts search"):
        assert label in run.stdout
    assert "games/s" in run.stdout


def test_bench_selfplay_puts_the_harness_beside_raw_games():
    run = subprocess.run(
        [sys.executable, "-m", "tabletop.cli", "novaluna", "bench", "--selfplay"]
        + ["--seconds", "0.05", "--runs", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "2 players: raw playouts" in run.stdout
    assert "% of raw" in run.stdout
