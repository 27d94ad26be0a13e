"""The ``novaluna`` command: play, replay, selfplay and benchmark.

Every subcommand reports bad input as a one-line message and a non-zero exit
status, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import __version__


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} must be at least 1")
    return value


def _seed(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the seed must be a whole number, not {text!r}") from None


def _players(text: str) -> int:
    value = _positive(text)
    if value > 4:
        raise argparse.ArgumentTypeError("Nova Luna is for 1 to 4 players")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="novaluna",
        description="Nova Luna in the terminal: play, replay records, let bots play, benchmark.",
    )
    parser.add_argument("--version", action="version", version=f"novaluna {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="play against bots or friends (hot-seat) in the terminal")
    play.add_argument("--players", type=_players, default=2, help="seats at the table, 2-4")
    play.add_argument(
        "--bots",
        default="greedy",
        help="bots for the seats not played by humans, comma-separated, e.g. greedy,random "
        "(the last one repeats)",
    )
    play.add_argument(
        "--humans", type=_players, default=1, help="human seats (hot-seat), default 1"
    )
    play.add_argument("--seed", type=_seed, help="shuffle seed (random if omitted)")
    play.add_argument(
        "--first-game", action="store_true", help="fewer discs with 3-4 players (17/15)"
    )
    play.add_argument("--save", metavar="FILE", help="where to save the record (.json)")

    solo = sub.add_parser("solo", help="the solo game")
    solo.add_argument("--seed", type=_seed, help="shuffle seed (random if omitted)")
    solo.add_argument("--save", metavar="FILE", help="where to save the record (.json)")

    rep = sub.add_parser("replay", help="check a record against the rules and print its outcome")
    rep.add_argument("file", help="a .json record or a .jsonl file of records")

    self_play = sub.add_parser("selfplay", help="let bots play each other and write records")
    self_play.add_argument("--games", type=_positive, default=10)
    self_play.add_argument("--players", type=_players, default=2, help="1 = solo")
    self_play.add_argument(
        "--bots", default="random,greedy", help="bots by seat, comma-separated (the last repeats)"
    )
    self_play.add_argument("--seed", type=_seed, default=0, help="first game's seed")
    self_play.add_argument("--first-game", action="store_true")
    self_play.add_argument("--out", metavar="FILE.jsonl", help="write one record per line")

    tour = sub.add_parser(
        "tournament",
        help="bots against each other, seats rotated on the same deals, with Elo",
        description="Every table of P bots from --bots that seats as many different bots as "
        "fit: with P or more bots every combination of P of them (3 bots, 2 players: "
        "a-b, a-c, b-c); with fewer, every mix that seats each bot at least once (2 bots, "
        "3 players: a+a+b and a+b+b). Each table plays every deal (seed) once per cyclic "
        "seat rotation, so each bot sits in each seat on the same deal; total games = "
        "tables x deals x players. Elo: Bradley-Terry fit to every pair of seats in every "
        "game (finishing order), mean 1500.",
    )
    tour.add_argument("--bots", required=True, help="two or more bots, e.g. greedy,mcts")
    tour.add_argument("--players", type=_players, default=2, help="seats at each table, 2-4")
    tour.add_argument(
        "--games",
        type=_positive,
        default=100,
        help="deals (seeds) per table; each is played once per seat rotation, so a table "
        "plays GAMES x PLAYERS games",
    )
    tour.add_argument("--seed", type=_seed, default=0, help="first deal's seed")
    tour.add_argument("--first-game", action="store_true", help="first-game discs (20/17/15)")
    tour.add_argument("--out", metavar="FILE.jsonl", help="write every game's record")
    tour.add_argument("--plot", metavar="FILE.png", help="win rates and discs-left plot")
    tour.add_argument("--jobs", type=_positive, default=1, help="parallel processes")

    solo_bench = sub.add_parser("solo-bench", help="one bot's solo scores over many seeds")
    solo_bench.add_argument("--bot", default="greedy", help="the bot, e.g. greedy or solo")
    solo_bench.add_argument("--games", type=_positive, default=100, help="games (seeds)")
    solo_bench.add_argument("--seed", type=_seed, default=0, help="first game's seed")
    solo_bench.add_argument("--out", metavar="FILE.jsonl", help="write every game's record")
    solo_bench.add_argument("--plot", metavar="FILE.png", help="histogram of total scores")
    solo_bench.add_argument("--jobs", type=_positive, default=1, help="parallel processes")

    serve = sub.add_parser("serve", help="start the web server: play in the browser")
    from .server.main import add_arguments

    add_arguments(serve)

    bench = sub.add_parser("bench", help="measure random-playout speed")
    bench.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    bench.add_argument("--runs", type=_positive, default=5, help="repeats (the median is shown)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return _dispatch(args)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


def _dispatch(args: argparse.Namespace) -> int:
    if args.command in ("play", "solo"):
        from .terminal.app import play_from_args

        return play_from_args(args)
    if args.command == "replay":
        from .selfplay import replay_file

        return replay_file(args.file)
    if args.command == "selfplay":
        from .selfplay import selfplay_from_args

        return selfplay_from_args(args)
    if args.command == "tournament":
        from .tournament import tournament_from_args

        return tournament_from_args(args)
    if args.command == "solo-bench":
        from .solobench import solo_bench_from_args

        return solo_bench_from_args(args)
    if args.command == "serve":
        from .server.main import serve

        return serve(args)
    if args.command == "bench":
        from .bench import run_bench

        return run_bench(seconds=args.seconds, runs=args.runs)
    raise AssertionError(args.command)


if __name__ == "__main__":
    sys.exit(main())
