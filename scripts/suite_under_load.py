"""Run the test suite several times in a row beside CPU hogs, to show it does not flake.

A test that waits on wall time passes on a quiet machine and fails on a loaded one;
CI machines are loaded. This script keeps ``--hogs`` busy-looping processes (one per
core by default) running while it runs the suite ``--runs`` times, exactly as
``make test`` runs it (``pytest -n $TEST_WORKERS``, default 6, with the project's
settings; the lint and the installs are not repeated), and
prints each run's wall time, its counts and the failed tests' names. The exit
status is 1 if any run failed.

    .venv/bin/python scripts/suite_under_load.py                 # 3 runs, one hog per core
    .venv/bin/python scripts/suite_under_load.py --runs 1 --hogs 0
    .venv/bin/python scripts/suite_under_load.py -- tests/platform  # pytest arguments
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUMMARY = re.compile(r"^=+ (.*) in [\d.]+s", re.MULTILINE)
FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)", re.MULTILINE)


def hog() -> None:
    """Spin: a process that takes a whole core, as another job on a CI machine would."""
    while True:
        pass


def run_suite(pytest_args: list[str], log: Path) -> tuple[float, int, str, list[str]]:
    """One run of the suite: wall seconds, exit status, pytest's summary, failures; its
    whole output in ``log`` (the failures' tracebacks)."""
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-rfE", *pytest_args],
        cwd=ROOT,
        # as make test: pytest keeps its rewritten test modules (see the Makefile)
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": ""},
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.monotonic() - start
    output = done.stdout + done.stderr
    log.write_text(output)
    found = SUMMARY.findall(output)
    summary = found[-1] if found else output.strip().splitlines()[-1:][0] if output else ""
    return wall, done.returncode, summary, sorted(set(FAILED.findall(output)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs in a row (default 3)")
    parser.add_argument(
        "--hogs", type=int, default=os.cpu_count() or 1, help="busy processes (default: cores)"
    )
    parser.add_argument(
        "--logs", type=Path, default=None, help="folder for each run's output (default: a new one)"
    )
    parser.add_argument("pytest_args", nargs="*", help="passed to pytest (after --)")
    args = parser.parse_args()
    pytest_args = args.pytest_args or ["-n", os.environ.get("TEST_WORKERS", "6")]
    logs = args.logs or Path(tempfile.mkdtemp(prefix="suite-under-load-"))
    logs.mkdir(parents=True, exist_ok=True)
    hogs = [multiprocessing.Process(target=hog, daemon=True) for _ in range(args.hogs)]
    for process in hogs:
        process.start()
    failed_runs = 0
    try:
        for number in range(1, args.runs + 1):
            log = logs / f"run-{number}.txt"
            wall, status, summary, failures = run_suite(pytest_args, log)
            failed_runs += status != 0
            print(
                f"run {number}: {wall / 60:.1f} min, exit {status}: {summary} ({log})", flush=True
            )
            for name in failures:
                print(f"  failed: {name}", flush=True)
    finally:
        for process in hogs:
            process.terminate()
    print(f"{args.runs - failed_runs} of {args.runs} runs passed beside {args.hogs} hogs")
    return 1 if failed_runs else 0


if __name__ == "__main__":
    sys.exit(main())
