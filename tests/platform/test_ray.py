"""``--executor ray``: tournaments, selfplay (with its data set) and solo-bench on a Ray
cluster give the same records and figures as ``--jobs`` (docs/cluster.md); and
``selfplay --jobs``, new with them, the same games as one process.

The Ray tests start a local cluster of two worker processes (``num_cpus=2``): once
started by the command itself, once by the test, which the command joins through
``--address`` from another process, as it would join a real cluster."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tabletop.cli import main

TOURNAMENT = ["tournament", "--bots", "greedy,random", "--games", "3", "--seed", "11"]


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def records(path: Path) -> list[dict]:
    """A records file, less the clock (``created``)."""
    lines = path.read_text().splitlines()
    return [{k: v for k, v in json.loads(line).items() if k != "created"} for line in lines]


def timeless(printed: str, *paths: Path) -> str:
    """Output without the timings (solo-bench prints seconds) or the files' names."""
    for path in paths:
        printed = printed.replace(str(path), "FILE")
    return "\n".join(line for line in printed.splitlines() if "seconds" not in line)


# -- local processes, and without Ray ----------------------------------------------------


@pytest.mark.parametrize("command", ["novaluna", "nmbr9"])
def test_selfplay_on_two_processes_plays_the_games_of_one(command, tmp_path, capsys):
    outputs, games = [], []
    for jobs in ("1", "2"):
        out = tmp_path / f"{jobs}.jsonl"
        argv = [command, "selfplay", "--games", "6", "--bots", "random,greedy", "--seed", "3"]
        code, printed, err = run([*argv, "--jobs", jobs, "--out", str(out)], capsys)
        assert code == 0, err
        outputs.append(timeless(printed, out))
        games.append(records(out))
    assert outputs[0] == outputs[1] and "6 games" in outputs[0]
    assert games[0] == games[1] and [g["seed"] for g in games[0]] == [3, 4, 5, 6, 7, 8]


def test_without_ray_the_message_names_the_extra(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    out = tmp_path / "games.jsonl"
    for command in (
        ["novaluna", *TOURNAMENT, "--out", str(out)],
        ["nmbr9", "selfplay", "--games", "2", "--out", str(out)],
        ["nmbr9", "solo-bench", "--games", "2", "--out", str(out)],
    ):
        code, printed, err = run([*command, "--executor", "ray"], capsys)
        assert code == 2 and printed == ""
        assert "pip install 'tabletop[ray]'" in err and "Traceback" not in err
        assert not out.exists()  # said before anything was written


def test_an_address_needs_ray_and_a_cluster(capsys):
    code, _, err = run(["nmbr9", "solo-bench", "--address", "127.0.0.1:1"], capsys)
    assert code == 2 and "--address names a Ray cluster: use it with --executor ray" in err
    pytest.importorskip("ray", reason="Ray is not installed ('.[ray]')")
    for address, says in (("127.0.0.1:1", "cannot reach a Ray cluster"), ("x", "HOST:PORT")):
        argv = ["nmbr9", "solo-bench", "--executor", "ray", "--address", address]
        code, _, err = run(argv, capsys)
        assert code == 2 and says in err and "Traceback" not in err


# -- on Ray ----------------------------------------------------------------------------


def test_a_local_ray_cluster_plays_the_tournament_of_jobs_2(tmp_path, capsys):
    ray = pytest.importorskip("ray", reason="Ray is not installed ('.[ray]')")
    outputs, games = [], []
    for name, how in (("jobs", ["--jobs", "2"]), ("ray", ["--executor", "ray", "--jobs", "2"])):
        out = tmp_path / f"{name}.jsonl"
        code, printed, err = run(["novaluna", *TOURNAMENT, *how, "--out", str(out)], capsys)
        assert code == 0, err
        outputs.append(timeless(printed, out))
        games.append(records(out))
    assert outputs[0] == outputs[1] and "= 6 games" in outputs[0]
    assert games[0] == games[1] and len(games[0]) == 6
    assert not ray.is_initialized()  # the cluster the command started is stopped


@pytest.fixture(scope="class")
def cluster() -> Iterator[str]:
    """A local Ray cluster of two worker processes; its address. Of the class's scope,
    not the module's: it is stopped before any other test of the module runs in the
    same process (test_a_local_ray_cluster_... checks that no cluster is left running)."""
    ray = pytest.importorskip("ray", reason="Ray is not installed ('.[ray]')")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


class TestOnTheTestsCluster:
    def test_a_command_joins_a_cluster_at_its_address(self, cluster, tmp_path, capsys):
        out = tmp_path / "jobs.jsonl"
        code, printed, err = run(["nmbr9", *TOURNAMENT, "--jobs", "2", "--out", str(out)], capsys)
        assert code == 0, err
        on_ray = tmp_path / "ray.jsonl"
        argv = [
            "nmbr9",
            *TOURNAMENT,
            "--executor",
            "ray",
            "--address",
            cluster,
            "--out",
            str(on_ray),
        ]
        # the interpreter's own tabletop, as the test's: a non-editable install (make test)
        # has the compiled kernels only where it is installed, never in src/
        done = subprocess.run(
            [sys.executable, "-m", "tabletop.cli", *argv],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        assert timeless(done.stdout, on_ray) == timeless(printed, out)
        assert records(on_ray) == records(out)

    def test_selfplay_and_its_data_set_and_solo_bench_on_ray(self, cluster, tmp_path, capsys):
        pq = pytest.importorskip("pyarrow.parquet", reason="--dataset needs pyarrow ('.[data]')")
        results = []
        for how in (["--jobs", "2"], ["--executor", "ray"]):  # joins the cluster of the test
            out, data = tmp_path / f"{how[-1]}.jsonl", tmp_path / f"{how[-1]}.parquet"
            argv = ["nmbr9", "selfplay", "--games", "4", "--bots", "greedy,random", *how]
            code, printed, err = run([*argv, "--out", str(out), "--dataset", str(data)], capsys)
            assert code == 0, err
            solo = tmp_path / f"solo-{how[-1]}.jsonl"
            argv = ["novaluna", "solo-bench", "--games", "4", *how, "--out", str(solo)]
            code, bench, err = run(argv, capsys)
            assert code == 0, err
            table = pq.read_table(data)
            results.append(
                (
                    timeless(printed, out, data),
                    records(out),
                    table,
                    timeless(bench, solo),
                    records(solo),
                )
            )
        (printed, games, table, bench, solo), ray_run = results
        assert (printed, games, bench, solo) == (ray_run[0], ray_run[1], ray_run[3], ray_run[4])
        assert table.equals(ray_run[2]) and table.num_rows > 0
