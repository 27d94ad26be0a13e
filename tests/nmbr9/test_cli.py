"""The ``nmbr9`` command: selfplay, replay, tournament, solo-bench and bench."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from tabletop.cli import nmbr9 as main
from tabletop.games.nmbr9.records import replay


def read_jsonl(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_selfplay_writes_records_that_replay(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    argv = ["selfplay", "--games", "3", "--players", "4", "--bots", "random,greedy"]
    assert main([*argv, "--seed", "7", "--out", str(out)]) == 0
    records = read_jsonl(out)
    assert [r["seed"] for r in records] == [7, 8, 9]
    assert records[0]["players"] == ["random (0)", "greedy (1)", "greedy (2)", "greedy (3)"]
    assert all(replay(r).state.is_over for r in records)
    assert "3 games" in capsys.readouterr().out
    assert main(["replay", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "3 records replayed, all valid" in printed and "20 rounds" in printed


def test_selfplay_solo_with_removed_cards(tmp_path, capsys):
    out = tmp_path / "solo.jsonl"
    argv = ["selfplay", "--games", "2", "--players", "1", "--bots", "greedy", "--remove", "3"]
    assert main([*argv, "--out", str(out)]) == 0
    assert "2 solo games by greedy: mean score" in capsys.readouterr().out
    assert all(len(r["rounds"]) == 17 for r in read_jsonl(out))
    assert main(["replay", str(out)]) == 0
    assert "solo score" in capsys.readouterr().out


def test_replay_reports_the_first_violation_and_exits_1(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    main(["selfplay", "--games", "2", "--players", "2", "--bots", "greedy", "--out", str(out)])
    records = read_jsonl(out)
    records[1]["rounds"][5]["placements"][0]["level"] += 1
    out.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    capsys.readouterr()
    assert main(["replay", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{out}:2: invalid record: round 6: seat 1 (greedy (0)):" in err
    assert "Traceback" not in err


def test_tournament_plays_each_deal_once_per_table_and_counts_shared_wins(tmp_path, capsys):
    out, plot = tmp_path / "t.jsonl", tmp_path / "t.png"
    argv = ["tournament", "--bots", "greedy,random", "--games", "4", "--seed", "3"]
    assert main([*argv, "--out", str(out), "--plot", str(plot)]) == 0
    printed = capsys.readouterr().out
    assert "1 table × 4 deals (seeds 3–6) = 4 games" in printed
    assert "score" in printed and "rounds" in printed
    records = read_jsonl(out)
    assert [r["seed"] for r in records] == [3, 4, 5, 6]
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_solo_bench_reports_the_distribution(tmp_path, capsys):
    out = tmp_path / "s.jsonl"
    argv = ["solo-bench", "--bot", "greedy", "--games", "4", "--seed", "1", "--out", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    for label in ("higher is better", "median", "90th percentile", "games with 80 or more"):
        assert label in printed
    assert "mean tiles on level 1" in printed
    scores = [r["result"]["scores"][0] for r in read_jsonl(out)]
    assert f"{sum(scores) / 4:.1f}" in printed


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["selfplay", "--bots", "nobody"], "unknown bot 'nobody'"),
        (["selfplay", "--players", "2", "--bots", "a,b,c"], "3 bots named for 2 seat"),
        (["tournament", "--bots", "greedy,random", "--players", "1"], "2 to 4 players"),
        (["solo-bench", "--bot", "greedy,random"], "one bot"),
        (["replay", "/nonexistent/file.json"], "no such file"),
    ],
)
def test_bad_input_gets_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "argv",
    [
        ["selfplay", "--remove", "20"],
        ["selfplay", "--remove", "x"],
        ["selfplay", "--players", "5"],
        ["selfplay", "--games", "0"],
    ],
)
def test_bad_numbers_are_argparse_errors(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "error:" in capsys.readouterr().err


def test_bench_prints_figures():
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "tabletop.cli",
            "nmbr9",
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
    for label in ("1 player", "4 players", "games/s", "placements/s", "late-game board", "µs"):
        assert label in run.stdout


def test_bench_selfplay_puts_the_harness_beside_raw_games():
    run = subprocess.run(
        [sys.executable, "-m", "tabletop.cli", "nmbr9", "bench", "--selfplay"]
        + ["--seconds", "0.05", "--runs", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "2 players: raw playouts" in run.stdout
    assert "% of raw" in run.stdout


def test_the_shipped_games_are_offered_every_command():
    from tabletop.cli import build_parser
    from tabletop.core.game import get_game

    for name in ("nmbr9", "nova-luna"):
        parser = build_parser(get_game(name))
        (sub,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        wanted = {"play", "daily", "solo-bench", "bench", "serve", "tournament", "analyse"}
        assert wanted <= set(sub.choices), name
