"""``novaluna tournament`` and ``novaluna solo-bench``: schedule, statistics, output."""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter
from pathlib import Path

import pytest

from tabletop.cli import novaluna as main
from tabletop.core.game import Outcome, get_game
from tabletop.games.novaluna.records import replay
from tabletop.harness.solobench import solo_stats
from tabletop.harness.tournament import (
    Standings,
    elo_ratings,
    line_ups,
    play_all,
    rotations,
    schedule,
    wilson,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
NOVA_LUNA = get_game("nova-luna")


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def seat_specs(record: dict) -> list[str]:
    """Bot spec per seat from the seat names ``'greedy (0)'`` written by selfplay."""
    return [name.rsplit(" (", 1)[0] for name in record["players"]]


def table_rows(printed: str) -> dict[str, list[str]]:
    """The per-bot rows of the printed standings table, by bot name."""
    rows = {}
    for line in printed.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if len(cells) == 8:
            rows[cells[0]] = cells[1:]
    return rows


def assert_png(path: Path) -> None:
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC
    assert len(data) > 5000
    from matplotlib.image import imread

    assert imread(path).ndim == 3


# -- schedule -------------------------------------------------------------------------


def test_tables_scheme():
    assert line_ups(["a", "b"], 2) == [("a", "b")]
    assert line_ups(["a", "b", "c"], 3) == [("a", "b", "c")]
    assert line_ups(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert line_ups(["a", "b"], 3) == [("a", "a", "b"), ("a", "b", "b")]
    assert line_ups(["a", "b"], 4) == [
        ("a", "a", "a", "b"),
        ("a", "a", "b", "b"),
        ("a", "b", "b", "b"),
    ]
    assert len(line_ups(["a", "b", "c", "d", "e"], 3)) == 10


@pytest.mark.parametrize(("bots", "players"), [("ab", 2), ("ab", 3), ("abc", 4), ("abcd", 3)])
def test_every_bot_sits_in_every_seat_equally_often_on_each_deal(bots, players):
    fixtures = schedule(NOVA_LUNA, list(bots), players, deals=3, first_seed=10)
    assert len(fixtures) == len(line_ups(list(bots), players)) * 3 * players
    for table in line_ups(list(bots), players):
        for seed in (10, 11, 12):
            specs = [j.specs for j in fixtures if j.seed == seed and sorted(j.specs) == list(table)]
            assert sorted(specs) == sorted(rotations(table))
            copies = Counter(table)
            for seat in range(players):
                assert Counter(s[seat] for s in specs) == copies


# -- statistics -------------------------------------------------------------------------


def test_wilson_interval():
    z = 1.959963984540054
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(z * z / (10 + z * z))
    low, high = wilson(10, 10)
    assert high == 1.0 and low == pytest.approx(10 / (10 + z * z))
    low, high = wilson(81, 263)  # 30.8%, 95% CI 25.5%-36.6%
    assert (round(low, 3), round(high, 3)) == (0.255, 0.366)
    low, high = wilson(30, 60)
    assert 0.5 - low == pytest.approx(high - 0.5)
    assert wilson(300, 600)[1] - wilson(300, 600)[0] < high - low  # narrows with more games


def test_elo_equal_results_give_equal_ratings():
    r = elo_ratings({("a", "b"): 7, ("b", "a"): 7}, ["a", "b"])
    assert r["a"] == pytest.approx(1500) and r["b"] == pytest.approx(1500)
    cycle = {("a", "b"): 5, ("b", "c"): 5, ("c", "a"): 5, ("b", "a"): 5, ("c", "b"): 5}
    cycle[("a", "c")] = 5
    assert all(v == pytest.approx(1500) for v in elo_ratings(cycle, ["a", "b", "c"]).values())


def test_elo_stronger_is_higher_and_matches_the_logistic_curve():
    r = elo_ratings({("a", "b"): 30, ("b", "a"): 10}, ["a", "b"], prior=0)
    assert r["a"] - r["b"] == pytest.approx(400 * math.log10(3))
    assert (r["a"] + r["b"]) / 2 == pytest.approx(1500)
    beats = {("a", "b"): 8, ("b", "a"): 2, ("b", "c"): 8, ("c", "b"): 2, ("a", "c"): 9}
    beats[("c", "a")] = 1
    r = elo_ratings(beats, ["a", "b", "c"])
    assert r["a"] > r["b"] > r["c"]
    assert sum(r.values()) / 3 == pytest.approx(1500)


def test_elo_stays_finite_when_a_bot_never_wins_and_skips_bots_that_met_nobody():
    r = elo_ratings({("a", "b"): 20}, ["a", "b", "c"])
    assert math.isfinite(r["a"]) and r["a"] > r["b"]
    assert r["c"] is None
    more = elo_ratings({("a", "b"): 200}, ["a", "b"])
    assert more["a"] - more["b"] > r["a"] - r["b"]


def test_standings_count_pairs_by_rank_and_copies_per_seat():
    standings = Standings(["a", "b"])
    record = {
        "mode": "standard",
        "result": {"ranking": [2, 0, 1], "discs_left": [3, 5, 0]},
        "turns": [{}] * 40,
    }
    standings.add(["a", "a", "b"], NOVA_LUNA.outcome(record))
    a, b = standings.bots["a"], standings.bots["b"]
    assert (a.games, a.wins, a.scores, b.games, b.wins) == (2, 0, [3, 5], 1, 1)
    assert a.mean_turns == b.mean_turns == 40
    assert standings.beats == Counter({("b", "a"): 2})  # a-vs-a pairs say nothing
    assert standings.score_name == "discs left"


def test_shared_ranks_count_half_a_win_and_half_a_pair_each_way():
    standings = Standings(["a", "b", "c"])
    standings.add(["a", "b", "c"], Outcome((1, 1, 3), (50, 50, 20), "score", False, 20))
    a, b, c = (standings.bots[x] for x in "abc")
    assert (a.wins, b.wins, c.wins) == (0.5, 0.5, 0)
    assert standings.beats == Counter(
        {("a", "b"): 0.5, ("b", "a"): 0.5, ("a", "c"): 1, ("b", "c"): 1}
    )
    assert standings.by_table[("a", "b", "c")] == Counter({"games": 1, "a": 0.5, "b": 0.5})


# -- the tournament command ------------------------------------------------------------------


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_table_matches_records_and_jobs_do_not_change_results(tmp_path, capsys):
    args = ["tournament", "--bots", "greedy,random", "--games", "3", "--seed", "11"]
    outputs, records = [], []
    for jobs in (1, 2):
        out = tmp_path / f"jobs{jobs}.jsonl"
        code, printed, err = run([*args, "--jobs", str(jobs), "--out", str(out)], capsys)
        assert code == 0, err
        outputs.append(printed.replace(str(out), "FILE"))
        records.append([{k: v for k, v in r.items() if k != "created"} for r in read_jsonl(out)])
    assert outputs[0] == outputs[1]
    assert records[0] == records[1]

    games = records[0]
    assert len(games) == 6 and "= 6 games" in outputs[0]
    assert sorted(r["seed"] for r in games) == [11, 11, 12, 12, 13, 13]
    assert all(replay(r).state.is_over for r in games)
    wins, seats, discs = Counter(), Counter(), {"greedy": [], "random": []}
    for r in games:
        specs = seat_specs(r)
        wins[specs[r["result"]["ranking"][0]]] += 1
        for seat, spec in enumerate(specs):
            seats[spec, seat] += 1
            discs[spec].append(r["result"]["discs_left"][seat])
    assert seats == {("greedy", 0): 3, ("greedy", 1): 3, ("random", 0): 3, ("random", 1): 3}
    rows = table_rows(outputs[0])
    for bot in ("greedy", "random"):
        played, won, rate, _, discs_left, turns, elo = rows[bot]
        assert int(played) == 6 and int(won) == wins[bot]
        assert rate == f"{100 * wins[bot] / 6:.1f}%"
        assert discs_left == f"{statistics.fmean(discs[bot]):.2f}"
        assert turns == f"{statistics.fmean(len(r['turns']) for r in games):.1f}"
    assert int(rows["greedy"][-1]) > 1500 > int(rows["random"][-1])


def test_three_players_two_bots_and_plot(tmp_path, capsys):
    out, plot = tmp_path / "t.jsonl", tmp_path / "t.png"
    argv = ["tournament", "--bots", "random,greedy", "--players", "3", "--games", "2"]
    code, printed, err = run([*argv, "--out", str(out), "--plot", str(plot)], capsys)
    assert code == 0, err
    assert "2 tables × 2 deals (seeds 0–1) × 3 seat rotations = 12 games" in printed
    assert "by table" in printed
    games = read_jsonl(out)
    assert len(games) == 12
    seats = Counter((spec, seat) for r in games for seat, spec in enumerate(seat_specs(r)))
    assert len(set(seats.values())) == 1 and len(seats) == 6  # 2 bots x 3 seats, 6 each
    rows = table_rows(printed)
    wins = Counter(seat_specs(r)[r["result"]["ranking"][0]] for r in games)
    assert {bot: int(rows[bot][1]) for bot in rows} == {b: wins[b] for b in ("random", "greedy")}
    assert int(rows["greedy"][0]) == int(rows["random"][0]) == 18
    assert_png(plot)


def test_play_all_parallel_yields_in_schedule_order():
    fixtures = schedule(NOVA_LUNA, ["greedy", "random"], 2, deals=2, first_seed=3)
    serial = [p.record["turns"] for p in play_all(fixtures)]
    parallel = list(play_all(fixtures, workers=2))
    assert [p.fixture for p in parallel] == fixtures
    assert [p.record["turns"] for p in parallel] == serial


# -- solo-bench ------------------------------------------------------------------------------


def test_solo_bench_statistics_match_the_records(tmp_path, capsys):
    out, plot = tmp_path / "solo.jsonl", tmp_path / "solo.png"
    argv = ["solo-bench", "--bot", "greedy", "--games", "5", "--seed", "20", "--jobs", "2"]
    code, printed, err = run([*argv, "--out", str(out), "--plot", str(plot)], capsys)
    assert code == 0, err
    games = read_jsonl(out)
    assert [r["seed"] for r in games] == [20, 21, 22, 23, 24]
    assert all(r["mode"] == "solo" and replay(r).state.is_over for r in games)
    totals = [r["result"]["total"] for r in games]
    expected = {
        "mean": f"{statistics.fmean(totals):.1f}",
        "median": f"{statistics.median(totals):.1f}",
        "standard deviation": f"{statistics.stdev(totals):.1f}",
        "best": str(min(totals)),
        "worst": str(max(totals)),
        "games under 100": f"{100 * sum(t < 100 for t in totals) / 5:.1f}%",
        "mean phase 1": f"{statistics.fmean(r['result']['phase1'] for r in games):.1f}",
        "mean phase 2": f"{statistics.fmean(r['result']['phase2'] for r in games):.1f}",
    }
    shown = {}
    for line in printed.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if len(cells) == 2:
            shown[cells[0]] = cells[1]
    assert {k: shown[k] for k in expected} == expected
    assert float(shown["seconds per game"]) > 0
    mean_move, longest = (float(shown[f"seconds per move, {k}"]) for k in ("mean", "longest"))
    assert 0 < mean_move <= longest <= float(shown["seconds per game"]) * 5
    assert "seeds 20–24" in printed
    assert_png(plot)


def test_solo_stats_single_game():
    record = {"mode": "solo", "turns": [], "result": {"phase1": 20, "phase2": 70, "total": 90}}
    stats = solo_stats([NOVA_LUNA.outcome(record)], [0.25], threshold=100)
    assert (stats.mean, stats.median, stats.stdev, stats.better_share) == (90, 90, 0.0, 1.0)
    assert stats.details == {"phase 1": 20, "phase 2": 70}
    assert stats.mean_seconds == 0.25


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tournament", "--bots", "greedy,nobody"], "unknown bot 'nobody'"),
        (["tournament", "--bots", "greedy"], "at least two different bots"),
        (["tournament", "--bots", "greedy,greedy"], "named twice"),
        (["tournament", "--bots", "greedy,random", "--players", "1"], "2 to 4 players"),
        (["tournament", "--bots", "greedy,random", "--out", "/nonexistent/x.jsonl"], "cannot"),
        (["tournament", "--bots", "greedy,random", "--plot", "/nonexistent/x.png"], "cannot"),
        (["tournament", "--bots", "greedy,random", "--plot", "x.gif"], "--plot needs"),
        (["solo-bench", "--bot", "greedy,random"], "one bot"),
        (["solo-bench", "--bot", "nobody"], "unknown bot 'nobody'"),
        (["solo-bench", "--out", "/nonexistent/x.jsonl"], "cannot write"),
    ],
)
def test_bad_input_exits_2_with_one_line(argv, message, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err and out == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "--bots", "greedy,random", "--games", "0"],
        ["tournament", "--bots", "greedy,random", "--jobs", "x"],
        ["tournament", "--bots", "greedy,random", "--players", "5"],
        ["solo-bench", "--games", "-1"],
    ],
)
def test_bad_numbers_are_argparse_errors(argv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "error:" in capsys.readouterr().err
