"""The command line: one command per game (``novaluna``, ``nmbr9``), the same verbs.

The platform adds what every game shares — ``selfplay`` and ``replay`` — and,
only where the game's facts say it supports them: ``tournament`` (tables of two
or more), ``daily`` (a terminal play command that seats the daily's players),
``analyse`` (``GameType.analysis``), ``solo-bench`` (a solo game:
``min_seats == 1``), ``serve`` (a page) and ``bench`` (an engine benchmark);
each game adds its own (terminal play). Every subcommand reports bad input as a
one-line message and a non-zero exit status, never a traceback.

``python -m tabletop.cli nmbr9 selfplay ...`` is the same as ``nmbr9 selfplay ...``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from importlib.util import find_spec
from typing import TYPE_CHECKING

from . import __version__
from .core.game import GameType, game_types, get_game, registered_names

if TYPE_CHECKING:  # generic only to type checkers (not subscriptable at run time)
    #: What ``add_subparsers()`` gives, and each command's ``_add_*`` adds to
    SubParsers = argparse._SubParsersAction[argparse.ArgumentParser]


def positive(text: str) -> int:
    """An ``argparse`` type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} must be at least 1")
    return value


def seed(text: str) -> int:
    """An ``argparse`` type: a seed, any whole number."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the seed must be a whole number, not {text!r}") from None


def seats(game: GameType) -> Callable[[str], int]:  # an argparse type
    """An ``argparse`` type: a number of seats the game allows."""

    def parse(text: str) -> int:
        value = positive(text)
        if not game.min_seats <= value <= game.max_seats:
            raise argparse.ArgumentTypeError(
                f"{game.title} is for {game.min_seats} to {game.max_seats} players"
            )
        return value

    return parse


def add_executor(parser: argparse.ArgumentParser) -> None:
    """``--jobs``, ``--executor`` and ``--address``: where the games are played
    (``harness.executor``)."""
    parser.add_argument(
        "--jobs",
        type=positive,
        default=None,
        help="games at once: parallel processes (default 1); with --executor ray the CPUs "
        "of the cluster started for the run, or how many of the cluster's at --address "
        "to use (default: all)",
    )
    parser.add_argument(
        "--executor",
        choices=("local", "ray"),
        default="local",
        help="local: processes on this machine (default); ray: a Ray cluster (needs "
        "'tabletop[ray]'; see docs/cluster.md), the same games and figures",
    )
    parser.add_argument(
        "--address",
        metavar="HOST:PORT",
        help="with --executor ray: the cluster's address (as 'ray start --head' prints it, "
        "or 'auto'); default: start one on this machine for the run",
    )


def add_play_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    game: GameType,
    *,
    help: str,
    players: int,
) -> argparse.ArgumentParser:
    """The ``play`` subcommand with the options every game's terminal play takes
    (``--players``, ``--bots``, ``--humans``, ``--seed``, the game's variant options,
    ``--save``); the game sets ``run``."""
    play = commands.add_parser("play", help=help)
    play.add_argument(
        "--players",
        type=seats(game),
        default=players,
        help=f"seats at the table, {game.min_seats}-{game.max_seats} (default {players})",
    )
    play.add_argument(
        "--bots",
        default="greedy",
        help="bots for the seats not played by humans, comma-separated, e.g. greedy,random "
        "(the last one repeats)",
    )
    play.add_argument(
        "--humans", type=seats(game), default=1, help="human seats (hot-seat), default 1"
    )
    play.add_argument("--seed", type=seed, help="shuffle seed (random if omitted)")
    game.add_options(play)
    play.add_argument("--save", metavar="FILE", help="where to save the record (.json)")
    return play


def build_parser(game: GameType) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=game.command,
        description=f"{game.title} in the terminal: play, replay records, let bots play, "
        "benchmark.",
    )
    parser.add_argument("--version", action="version", version=f"{game.command} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    game.add_commands(sub)
    if plays_daily(game, sub.choices):
        _add_daily(sub, game)
    _add_replay(sub, game)
    if game.analysis is not None:
        _add_analyse(sub, game)
    _add_selfplay(sub, game)
    if game.max_seats >= 2:  # bots ranked against each other at one table
        _add_tournament(sub, game)
    if game.min_seats == 1:
        _add_solo_bench(sub, game)
    if game.page is not None:
        _add_serve(sub)
    if has_bench(game):
        _add_bench(sub, game)
    return parser


def plays_daily(game: GameType, commands: Mapping[str, object]) -> bool:
    """Whether ``<game> daily`` can play the day's deal: the game's own ``commands``
    include the terminal play ``GameType.daily_play`` runs, and it seats the daily's
    players."""
    return (
        bool(game.daily_play)
        and game.daily_play[0] in commands
        and game.min_seats <= game.daily_players <= game.max_seats
    )


def has_bench(game: GameType) -> bool:
    """Whether the game measures its engine: its own ``bench``, or a ``bench.py`` in its
    folder (what ``GameType.bench`` runs)."""
    if type(game).bench is not GameType.bench:
        return True
    package = type(game).__module__.rpartition(".")[0]
    return find_spec(f"{package}.bench") is not None


def day(text: str) -> date:  # an argparse type
    """An ``argparse`` type: a daily challenge's day, ``YYYY-MM-DD``, not in the future."""
    from .daily import DayError, parse_day

    try:
        return parse_day(text)
    except DayError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _add_daily(sub: SubParsers, game: GameType) -> None:
    """``daily``: the day's challenge deal, played with the game's own terminal play
    (``GameType.daily_play``); not counted on any board."""
    daily = sub.add_parser(
        "daily", help="play the daily challenge's deal (today, UTC, or --day) in the terminal"
    )
    daily.add_argument("--day", type=day, help="YYYY-MM-DD: an earlier day's deal, for practice")
    daily.add_argument("--save", metavar="FILE", help="where to save the record (.json)")

    def run_daily(args: argparse.Namespace) -> int:
        from .daily import daily_seed, today

        chosen = args.day or today()
        seed = daily_seed(game.name, chosen)
        print(f"{game.title} daily challenge of {chosen.isoformat()} (seed {seed})")
        argv = [*game.daily_play, "--seed", str(seed)]
        if args.save:
            argv += ["--save", args.save]
        played = build_parser(game).parse_args(argv)
        return int(played.run(played))

    daily.set_defaults(run=run_daily)


def _add_replay(sub: SubParsers, game: GameType) -> None:
    rep = sub.add_parser("replay", help="check a record against the rules and print its outcome")
    rep.add_argument("file", help="a .json record or a .jsonl file of records")

    def run(args: argparse.Namespace) -> int:
        from .harness.selfplay import replay_file

        return replay_file(game, args.file)

    rep.set_defaults(run=run)


def _add_analyse(sub: SubParsers, game: GameType) -> None:
    analyse = sub.add_parser(
        "analyse",
        help="judge every move of finished games with the strong bot (see docs/analysis.md)",
    )
    analyse.add_argument("file", help="a .json record or a .jsonl file of records")
    analyse.add_argument(
        "--budget", type=positive, help="search work per move (default: the game's own)"
    )
    analyse.add_argument("--seed", type=seed, default=0, help="the search's seed (default 0)")
    analyse.add_argument(
        "--json", action="store_true", help="one JSON object per record instead of tables"
    )
    analyse.add_argument("--jobs", type=positive, default=1, help="records analysed at once")

    def run(args: argparse.Namespace) -> int:
        from .analysis.command import analyse_file

        return analyse_file(game, args.file, args.budget, args.seed, args.json, args.jobs)

    analyse.set_defaults(run=run)


def _add_selfplay(sub: SubParsers, game: GameType) -> None:
    play = sub.add_parser("selfplay", help="let bots play each other and write records")
    play.add_argument("--games", type=positive, default=10)
    play.add_argument(
        "--players", type=seats(game), default=min(2, game.max_seats), help="1 = solo"
    )
    play.add_argument(
        "--bots", default="random,greedy", help="bots by seat, comma-separated (the last repeats)"
    )
    play.add_argument("--seed", type=seed, default=0, help="first game's seed")
    game.add_options(play)
    play.add_argument("--out", metavar="FILE.jsonl", help="write one record per line")
    play.add_argument(
        "--dataset",
        metavar="FILE.parquet",
        help="write a training data set: per decision the observation, the legal actions, "
        "the action and the final outcome (needs 'tabletop[data]'; docs/dataset.md)",
    )
    add_executor(play)

    def run(args: argparse.Namespace) -> int:
        from .harness.selfplay import selfplay_from_args

        return selfplay_from_args(game, args)

    play.set_defaults(run=run)


def _add_tournament(sub: SubParsers, game: GameType) -> None:
    if game.seats_matter:
        deals = (
            "Each table plays every deal (seed) once per cyclic seat rotation, so each bot "
            "sits in each seat on the same deal; total games = tables x deals x players."
        )
        games_help = (
            "deals (seeds) per table; each is played once per seat rotation, so a table "
            "plays GAMES x PLAYERS games"
        )
    else:
        deals = (
            "Seats make no difference here, so each table plays every deal (seed) once; "
            "total games = tables x deals."
        )
        games_help = "deals (seeds) per table, each played once"
    tour = sub.add_parser(
        "tournament",
        help="bots against each other on the same deals, with Elo",
        description="Every table of P bots from --bots that seats as many different bots as "
        "fit: with P or more bots every combination of P of them (3 bots, 2 players: "
        "a-b, a-c, b-c); with fewer, every mix that seats each bot at least once (2 bots, "
        f"3 players: a+a+b and a+b+b). {deals} Elo: Bradley-Terry fit to every pair of "
        "seats in every game (finishing order; a shared rank counts half each way), "
        "mean 1500.",
    )
    tour.add_argument("--bots", required=True, help="two or more bots, e.g. greedy,mcts")
    tour.add_argument(
        "--players",
        type=seats(game),
        default=2,
        help=f"seats at each table, 2-{game.max_seats}",
    )
    tour.add_argument("--games", type=positive, default=100, help=games_help)
    tour.add_argument("--seed", type=seed, default=0, help="first deal's seed")
    game.add_options(tour)
    tour.add_argument("--out", metavar="FILE.jsonl", help="write every game's record")
    tour.add_argument("--plot", metavar="FILE.png", help="win rates and scores plot")
    add_executor(tour)

    def run(args: argparse.Namespace) -> int:
        from .harness.tournament import tournament_from_args

        return tournament_from_args(game, args)

    tour.set_defaults(run=run)


def _add_solo_bench(sub: SubParsers, game: GameType) -> None:
    bench = sub.add_parser("solo-bench", help="one bot's solo scores over many seeds")
    bench.add_argument("--bot", default="greedy", help="the bot, e.g. greedy")
    bench.add_argument("--games", type=positive, default=100, help="games (seeds)")
    bench.add_argument("--seed", type=seed, default=0, help="first game's seed")
    game.add_options(bench)
    bench.add_argument("--out", metavar="FILE.jsonl", help="write every game's record")
    bench.add_argument("--plot", metavar="FILE.png", help="histogram of total scores")
    add_executor(bench)

    def run(args: argparse.Namespace) -> int:
        from .harness.solobench import solo_bench_from_args

        return solo_bench_from_args(game, args)

    bench.set_defaults(run=run)


def _add_serve(sub: SubParsers) -> None:
    from .server.arguments import add_arguments

    serve = sub.add_parser("serve", help="start the web server: play in the browser")
    add_arguments(serve)

    def run(args: argparse.Namespace) -> int:
        from .server.main import serve

        return serve(args)

    serve.set_defaults(run=run)

    from .server.main import add_db_commands

    db = sub.add_parser("db", help="PostgreSQL for several server processes: migrate, copy")
    add_db_commands(db)

    def run_db(args: argparse.Namespace) -> int:
        from .server.main import db_command

        return db_command(args)

    db.set_defaults(run=run_db)

    from .server.moderation_cli import add_moderator_commands, moderator_command

    moderators = sub.add_parser(
        "moderator", help="the moderators of the server: grant, revoke, list"
    )
    add_moderator_commands(moderators)
    moderators.set_defaults(run=moderator_command)


def _add_bench(sub: SubParsers, game: GameType) -> None:
    bench = sub.add_parser("bench", help="measure the engine's speed")
    bench.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    bench.add_argument("--runs", type=positive, default=5, help="repeats (the median is shown)")
    bench.add_argument(
        "--selfplay",
        action="store_true",
        help="only raw random games against random bots in the selfplay harness",
    )
    bench.set_defaults(
        run=lambda args: game.bench(seconds=args.seconds, runs=args.runs, selfplay=args.selfplay)
    )


def run(game: GameType, argv: Sequence[str] | None = None) -> int:
    """Run ``game``'s command with ``argv``; return the exit status."""
    parser = build_parser(game)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        status: int = args.run(args)
        return status
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


def command_of(name: str) -> Callable[[Sequence[str] | None], int]:
    """The entry point of the game whose command is ``name`` (``novaluna``, ``nmbr9``):
    what ``pyproject.toml``'s scripts call, built from the registry."""
    game = _game_of_command(name)

    def entry(argv: Sequence[str] | None = None) -> int:
        return run(game, argv)

    entry.__name__ = entry.__qualname__ = name
    entry.__doc__ = f"The ``{name}`` command."
    return entry


def _game_of_command(command: str) -> GameType:
    """The game whose command is ``command``: the one named alike first (``novaluna`` is
    ``nova-luna``), so that a command imports no other game; else every game is asked."""
    for name in registered_names():
        if name.replace("-", "") == command and get_game(name).command == command:
            return get_game(name)
    for game in game_types().values():
        if game.command == command:
            return game
    raise AttributeError(f"module {__name__!r} has no attribute {command!r}")


def __getattr__(name: str) -> Callable[[Sequence[str] | None], int]:
    """``tabletop.cli.novaluna`` and every other game's command (see ``command_of``)."""
    if name.startswith("__"):
        raise AttributeError(name)
    return command_of(name)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tabletop.cli COMMAND ...``: COMMAND is a game's command name."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        game = _game_of_command(argv[0]) if argv else None
    except AttributeError:
        game = None
    if game is None:
        commands = sorted(g.command for g in game_types().values())
        print(f"usage: python -m tabletop.cli {{{','.join(commands)}}} ...", file=sys.stderr)
        return 2
    return run(game, argv[1:])


if __name__ == "__main__":
    sys.exit(main())
