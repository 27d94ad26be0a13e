"""Seed the bots' ratings from a tournament: ``src/tabletop/server/data/bot_ratings.json``.

Runs the project's own tournament command (``novaluna tournament`` / ``nmbr9
tournament``) for each game with every bot the page offers, writes every game's
record, then rates the games in order with openskill's Plackett-Luce model (the
server's), so a new player sees how strong each bot is before anyone has played it.

    .venv/bin/python scripts/seed_bot_ratings.py --jobs 2   # the committed file
    .venv/bin/python scripts/seed_bot_ratings.py --scale 3  # longer, finer
    .venv/bin/python scripts/seed_bot_ratings.py --game nmbr9 --jobs 2  # one game again

Every bot plays as many games as every other (a table of every combination of
the game's bots), so their sigmas shrink alike and the shown ``ordinal()``
orders them as their strength does (390 games; NMBR 9's 150 take about 30 minutes of
CPU, 15 on two cores with ``--jobs 2``). Each bot's sigma stays wide enough for real
games to move it.

Optional for a new game: until it has an entry here, its bots start from the default
of ``tabletop.server.ratings.bot_starts`` (set by their place in the page's offer) and
settle from the rated games they play; seeding later only gives a better start.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from tabletop.core.game import get_game
from tabletop.core.web import web_games
from tabletop.server.ratings import MODEL

OUT = Path(__file__).resolve().parent.parent / "src/tabletop/server/data/bot_ratings.json"
MIN_SIGMA = 3.0  # a seeded bot's rating is still a guess: let real games move it


def runs() -> dict[str, tuple[str, str, int, int]]:
    """game: (command, bots, players, deals per table) for every game the server hosts;
    the bots' specs as the server's seats name them: every bot the page offers."""
    return {
        name: (
            game.command,
            ",".join(offer["spec"] for offer in game.bot_offers["standard"]),
            *game.rating_seed,
        )
        for name, game in web_games().items()
    }


def tournament_records(command: str, bots: str, players: int, games: int, jobs: int) -> list[dict]:
    """The records of one tournament run of the project's command."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "records.jsonl"
        subprocess.run(
            [sys.executable, "-m", "tabletop.cli", command, "tournament", "--bots", bots,
             "--players", str(players), "--games", str(games), "--jobs", str(jobs),
             "--out", str(out)],
            check=True,
        )  # fmt: skip
        return [json.loads(line) for line in out.read_text().splitlines() if line]


def rate(game_name: str, specs: list[str], records: list[dict]) -> dict[str, dict[str, float]]:
    """Each bot's rating after all the games, in order, and how many it played."""
    game = get_game(game_name)
    ratings = {spec: MODEL.rating() for spec in specs}
    games = dict.fromkeys(specs, 0)
    for record in records:
        # the tournament names seats "greedy (0)": the bot and its seat
        players = [str(p).rsplit(" (", 1)[0] for p in record["players"]]
        ranks = list(game.outcome(record).ranks)
        after = MODEL.rate([[ratings[p]] for p in players], ranks=ranks)
        for player, (new,) in zip(players, after, strict=True):
            ratings[player] = new
            games[player] += 1
    return {
        spec: {
            "mu": round(r.mu, 3),
            "sigma": round(max(r.sigma, MIN_SIGMA), 3),
            "games": games[spec],
        }
        for spec, r in ratings.items()
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=1, help="deals per table times this")
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes per run")
    parser.add_argument(
        "--game", action="append", help="seed only this game (repeatable); the others' "
        "entries in the file stay as they are"
    )  # fmt: skip
    args = parser.parse_args()
    tables = runs()
    unknown = set(args.game or ()) - set(tables)
    if unknown:
        parser.error(f"no such game on the server: {', '.join(sorted(unknown))}")
    kept = json.loads(OUT.read_text()) if args.game and OUT.exists() else {}
    result: dict[str, dict] = dict(kept.get("ratings", {}))
    made: dict[str, str] = dict(kept.get("runs", {}))
    for name, (command, bots, players, deals) in tables.items():
        if args.game and name not in args.game:
            continue
        games = deals * args.scale
        records = tournament_records(command, bots, players, games, args.jobs)
        result[name] = rate(name, bots.split(","), records)
        made[name] = (
            f"{command} tournament --bots {bots} --players {players} --games {games}"
            f" ({len(records)} games)"
        )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    data = {"made_by": "scripts/seed_bot_ratings.py", "runs": made, "ratings": result}
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"written {OUT}")
    for name, ratings in result.items():
        if args.game and name not in args.game:
            continue
        order = sorted(ratings, key=lambda b: -(ratings[b]["mu"] - 3 * ratings[b]["sigma"]))
        print(name, " > ".join(order))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
