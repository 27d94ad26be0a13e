"""Seed the bots' ratings from a tournament: ``src/tabletop/server/data/bot_ratings.json``.

Runs the project's own tournament command (``novaluna tournament`` / ``nmbr9
tournament``) for each game with its web bots, writes every game's record, then
rates the games in order with openskill's Plackett-Luce model (the server's), so
a new player sees how strong each bot is before anyone has played it.

    .venv/bin/python scripts/seed_bot_ratings.py            # the committed file
    .venv/bin/python scripts/seed_bot_ratings.py --scale 3  # longer, finer

Kept short (a few minutes on one core): the strongest searchers are left out,
and each bot's sigma stays wide enough for real games to move it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from tabletop.core.game import get_game
from tabletop.server.ratings import MODEL

OUT = Path(__file__).resolve().parent.parent / "src/tabletop/server/data/bot_ratings.json"
#: game: (command, bots, players, deals per table); the bots' specs as the server's
#: seats name them. The strongest searchers (mcts:hard, planner:strong) are left out:
#: a few of their games would take longer than all of these.
RUNS = {
    "nova-luna": ("novaluna", "random,greedy,mcts:easy,mcts:normal", 3, 1),
    "nmbr9": ("nmbr9", "random,greedy,planner:fast,planner:normal", 3, 2),
}
MIN_SIGMA = 3.0  # a seeded bot's rating is still a guess: let real games move it


def tournament_records(command: str, bots: str, players: int, games: int) -> list[dict]:
    """The records of one tournament run of the project's command."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "records.jsonl"
        subprocess.run(
            [sys.executable, "-m", "tabletop.cli", command, "tournament", "--bots", bots,
             "--players", str(players), "--games", str(games), "--out", str(out)],
            check=True,
        )  # fmt: skip
        return [json.loads(line) for line in out.read_text().splitlines() if line]


def rate(game_name: str, specs: list[str], records: list[dict]) -> dict[str, dict[str, float]]:
    """Each bot's rating after all the games, in order."""
    game = get_game(game_name)
    ratings = {spec: MODEL.rating() for spec in specs}
    for record in records:
        # the tournament names seats "greedy (0)": the bot and its seat
        players = [str(p).rsplit(" (", 1)[0] for p in record["players"]]
        ranks = list(game.outcome(record).ranks)
        after = MODEL.rate([[ratings[p]] for p in players], ranks=ranks)
        for player, (new,) in zip(players, after, strict=True):
            ratings[player] = new
    return {
        spec: {"mu": round(r.mu, 3), "sigma": round(max(r.sigma, MIN_SIGMA), 3)}
        for spec, r in ratings.items()
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1, help="deals per table times this")
    args = parser.parse_args()
    result: dict[str, dict] = {}
    runs: dict[str, str] = {}
    for name, (command, bots, players, deals) in RUNS.items():
        games = deals * args.scale
        records = tournament_records(command, bots, players, games)
        result[name] = rate(name, bots.split(","), records)
        runs[name] = (
            f"{command} tournament --bots {bots} --players {players} --games {games}"
            f" ({len(records)} games)"
        )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    data = {"made_by": "scripts/seed_bot_ratings.py", "runs": runs, "ratings": result}
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"written {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
