"""Lighthouse scores of the lobby and a game page, on a server of the script's own.

Starts ``novaluna serve`` on a fresh database and a free port, creates a game of
one person against greedy, and runs Lighthouse (from the npm registry, through
``npx``; needs Node.js 18.16 or newer and Debian's chromium) on the lobby and on
that game's seat link, with the mobile and the desktop preset, several times
each; prints the median score of each category:

    .venv/bin/python scripts/lighthouse.py --runs 3

The full reports are kept as JSON under ``test-output/lighthouse/``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
from pathlib import Path

import httpx
from loadtest import start_server

LIGHTHOUSE = "lighthouse@12.8.2"
CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = " ".join(
    [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
)
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
OUT = Path(__file__).resolve().parent.parent / "test-output" / "lighthouse"


def game_link(url: str) -> str:
    """A new game of one person against greedy: the person's seat link."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy"}]
    created = httpx.post(f"{url}/api/games", json={"type": "nova-luna", "seats": seats}).json()
    return url + created["seats"][0]["link"]


def lighthouse(page: str, preset: str, report: Path) -> dict[str, float]:
    """One Lighthouse run; the score (0-100) of each category."""
    command = ["npx", "--yes", LIGHTHOUSE, page, "--quiet", "--output=json"]
    command += [f"--output-path={report}", f"--chrome-flags={CHROME_FLAGS}"]
    command += [f"--only-categories={','.join(CATEGORIES)}"]
    if preset == "desktop":
        command.append("--preset=desktop")
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", CHROMIUM)}
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
    result = json.loads(report.read_text())
    return {c: round(result["categories"][c]["score"] * 100) for c in CATEGORIES}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each page and preset")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    proc, url, _ = start_server(workers=1)
    try:
        pages = {"lobby": url + "/", "game": game_link(url)}
        for name, page in pages.items():
            for preset in ("mobile", "desktop"):
                runs = [
                    lighthouse(page, preset, OUT / f"{name}-{preset}-{i}.json")
                    for i in range(args.runs)
                ]
                medians = {c: statistics.median(r[c] for r in runs) for c in CATEGORIES}
                shown = ", ".join(f"{c} {medians[c]:g}" for c in CATEGORIES)
                print(f"{name:5} {preset:7} (median of {args.runs}): {shown}")
    finally:
        proc.terminate()
        proc.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
