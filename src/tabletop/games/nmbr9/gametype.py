"""NMBR 9 as the platform sees it: the ``GameType`` behind the ``nmbr9`` command,
the harnesses and the web server (``webgame.Nmbr9Web``).

>>> from tabletop.harness.selfplay import play_game
>>> record = play_game(GAME, ["greedy", "random"], seed=3)
>>> outcome = GAME.outcome(record)
>>> outcome.score_name, outcome.lower_is_better, outcome.length
('score', False, 20)
>>> GAME.verify(record).endswith("20 rounds")
True
"""

from __future__ import annotations

import argparse
from typing import Any

from ...core.errors import OptionsError
from ...core.game import JSON, Outcome
from .bots.base import REGISTRY
from .records import Recorder, replay
from .rules import CARDS, Game, Place, Placed, View
from .webgame import Nmbr9Web


class Nmbr9Table:
    """An NMBR 9 game played offline: every seat that has not placed acts this round."""

    def __init__(self, recorder: Recorder) -> None:
        self.recorder = recorder

    def acting(self) -> tuple[int, ...]:
        return self.recorder.state.acting_seats()

    def view(self, seat: int) -> View:
        return self.recorder.state.view(seat)

    def apply(self, seat: int, action: Place) -> Placed:
        return self.recorder.apply(action, seat)

    def record(self) -> JSON:
        return self.recorder.to_record()


def removal(text: str) -> int | None:
    """An ``argparse`` type for ``--remove``: a number of cards, or ``random``."""
    if text.strip().lower() == "random":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--remove takes a number of cards (0-{CARDS - 1}) or 'random', not {text!r}"
        ) from None
    if not 0 <= value < CARDS:
        raise argparse.ArgumentTypeError(f"--remove takes 0 to {CARDS - 1} cards, not {value}")
    return value


class Nmbr9:
    """The ``nmbr9`` game type."""

    name = "nmbr9"
    title = "NMBR 9"
    command = "nmbr9"
    min_seats = 1
    max_seats = 4
    seats_matter = False  # everybody places the same tile at the same time
    solo_threshold = 80  # a solo score of 80 or more is a good game
    bots = REGISTRY
    research = "tabletop.games.nmbr9.encoding:ENCODING"  # loaded by tabletop.research
    web = Nmbr9Web()

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--remove",
            type=removal,
            default=0,
            metavar="K",
            help="remove K cards unseen before play (20-K rounds), or 'random' for 1-4",
        )

    def options(self, args: argparse.Namespace, players: int) -> JSON:
        remove = getattr(args, "remove", 0)
        try:
            Game(players=players, remove=remove)
        except ValueError as err:
            raise OptionsError(str(err)) from None
        return {"remove": "random" if remove is None else remove}

    def check_bot(self, spec: str, players: int) -> None:
        self.bots.make(spec)

    def new_table(self, players: int, options: JSON, names: list[str], seed: int) -> Nmbr9Table:
        remove = options.get("remove", 0)
        game = Game(players=players, remove=None if remove == "random" else remove)
        return Nmbr9Table(Recorder.new(game, names, seed=seed))

    def verify(self, record: Any) -> str:
        return describe(replay(record))

    def outcome(self, record: JSON) -> Outcome:
        result = record["result"]
        details = {}
        if len(record["players"]) == 1:
            levels = [p["level"] for r in record["rounds"] for p in r["placements"] if p]
            for level in (1, 2, 3):
                details[f"tiles on level {level}"] = levels.count(level)
            details["tiles on level 4+"] = sum(1 for level in levels if level >= 4)
        return Outcome(
            tuple(result["ranks"]),
            tuple(result["scores"]),
            "score",
            False,
            len(record["rounds"]),
            "rounds",
            details,
        )

    def add_commands(self, commands: Any) -> None:
        from ...cli import add_play_command

        help = "play in the terminal: alone, against bots, or hot-seat"
        add_play_command(commands, self, help=help, players=1).set_defaults(run=_play)

    def bench(self, seconds: float, runs: int, selfplay: bool = False) -> int:
        from .bench import run_bench

        return run_bench(seconds=seconds, runs=runs, selfplay=selfplay)


def _play(args: argparse.Namespace) -> int:
    from .terminal.app import play_from_args

    return play_from_args(args)


def describe(rec: Recorder) -> str:
    """A one-line outcome, e.g. ``'Ann wins with 84; then Bob 71 — 20 rounds'``."""
    state = rec.state
    rounds = f"{len(rec.rounds)} round{'s' if len(rec.rounds) != 1 else ''}"
    names = rec.players
    if not state.is_over:
        scores = ", ".join(f"{n} {b.score}" for n, b in zip(names, state.boards, strict=True))
        return f"unfinished after {rounds} of {state.rounds}; so far {scores}"
    result = state.result()
    if len(names) == 1:
        levels = [t.level for t in state.boards[0].tiles]
        above = sum(1 for level in levels if level)
        tiles = f"{above} of {len(levels)} tiles above the table"
        return f"solo score {result.scores[0]} ({tiles}), {rounds}"
    winners = result.winners
    if len(winners) == 1:
        head = f"{names[winners[0]]} wins with {result.scores[winners[0]]}"
    else:
        shared = " and ".join(names[s] for s in winners)
        head = f"{shared} share first place with {result.scores[winners[0]]}"
    rest = ", ".join(f"{names[s]} {result.scores[s]}" for s in result.ranking if s not in winners)
    return f"{head}; then {rest} — {rounds}" if rest else f"{head} — {rounds}"


GAME = Nmbr9()
