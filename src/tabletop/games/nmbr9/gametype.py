"""NMBR 9 as the platform sees it: the ``GameType`` behind the ``nmbr9`` command,
the harnesses, the web server (``page.Nmbr9Page``) and the research environments.

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
from ...core.game import DAILY_HEADLINE, JSON, NO_INDICES, SIMULTANEOUS, GameType, share_line
from ...core.game import Recorder as CoreRecorder
from ...core.options import Choice, Option
from ...core.outcome import Outcome
from ...i18n import N_, Part
from .bots.base import REGISTRY
from .bots.compiled import KERNEL
from .page import BOTS, Nmbr9Page
from .records import Recorder, read_seat_record, replay, seat_record
from .rules import CARDS, Game, Place, State, parse_action

#: The longest time per move the game's own option may set, in seconds (the server's
#: ``time_limit`` of a turn-based game may be longer).
MAX_TIME_LIMIT = 3600

#: The game's options, each declared once: the page's field, the check, the flag.
OPTIONS = (
    Option(
        "remove",
        N_("Remove cards unseen before play"),
        default=0,
        choices=(
            Choice(0, N_("none (20 rounds)")),
            Choice("random", N_("a random number, 1 to 4")),
        ),
        most=CARDS - 1,  # the API and the command line take any number of cards
        invalid=N_("'remove' is 0 to {most} cards, or \"random\""),
        flag="--remove",
        metavar="K",
        help="remove K cards unseen before play (20-K rounds), or 'random' for 1-4",
    ),
    Option(
        "time_limit",
        N_("Move clock (the default bot places for a seat out of time)"),
        default=0,
        choices=(
            Choice(0, N_("none")),
            Choice(30, N_("30 s")),
            Choice(60, N_("60 s")),
            Choice(120, N_("2 min")),
        ),
        most=MAX_TIME_LIMIT,  # what the API takes: the page offers the choices
        invalid=N_("'time_limit' is 0 (none) or a number of seconds up to {most}"),
        old_names=("clock",),  # its name before the server's time per move took it
    ),
)


class Nmbr9(GameType):
    """The ``nmbr9`` game type."""

    name = "nmbr9"
    title = "NMBR 9"
    command = "nmbr9"
    min_seats = 1
    max_seats = 4
    dynamics = SIMULTANEOUS
    seats_matter = False  # everybody places the same tile at the same time
    solo_threshold = 80  # a solo score of 80 or more is a good game
    default_bot = "greedy"
    quick_bots = frozenset({"random", "greedy"})
    view_depends_on_seat = True  # a seat sees its own pending placement, nobody else's
    declared_options = OPTIONS
    rating_seed = (4, 10)  # seats, deals: 170 games in all with the other game
    research = ".encoding:ENCODING"  # tabletop.research loads it
    analysis = ".analysis:ANALYSER"  # ``nmbr9 analyse FILE``
    tutorial = ".tutorial:TUTORIAL"  # the page's "Learn to play"
    bots = REGISTRY
    kernel = KERNEL  # optional: without it the planner levels play as greedy, said at start
    bot_offers = {"standard": BOTS}
    page = Nmbr9Page()

    def parse_action(self, text: str) -> Place:
        return parse_action(text)

    def action_from_index(self, state: Any, seat: int, index: int) -> object | None:
        try:  # the encoding needs numpy (the extra rl); the rules do not
            from .window import actions, decode
        except ImportError:
            raise OptionsError(NO_INDICES) from None
        return decode(index) if 0 <= index < actions() else None

    def check_table(self, options: JSON, players: int) -> None:
        _rules(players, options)

    def new_recorder(self, players: int, options: JSON, names: list[str], seed: int) -> Recorder:
        return Recorder.new(_rules(players, options), names, seed=seed)

    def read_record(self, record: Any) -> Recorder:
        return replay(record)

    def summary(self, recorder: CoreRecorder) -> str:
        assert isinstance(recorder, Recorder)  # read_record made it
        return describe(recorder)

    def seat_record(self, recorder: CoreRecorder, seat: int) -> JSON:
        assert isinstance(recorder, Recorder)  # new_recorder or read_record made it
        return seat_record(recorder, seat)

    def determinize(self, seat_record: Any, seed: int) -> State:
        return read_seat_record(seat_record, seed).recorder.state

    def outcome(self, record: JSON) -> Outcome:
        # read from the record, not replayed: ratings and harnesses ask for every game
        result = record["result"]
        details: dict[str, float] = {}
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

    def daily_share(self, record: JSON, day: str) -> list[Part]:
        """The score and a square per tile on each level, table first: how high the
        tiles went, not where or which (like Wordle's grid)."""
        levels = [p["level"] for r in record["rounds"] for p in r["placements"][:1] if p]
        score = record["result"]["scores"][0]
        lines = [share_line(DAILY_HEADLINE, game=self.title, day=day, score=score)]
        for level in range(max(levels, default=0) + 1):
            squares = "\u25a0" * levels.count(level) or "-"
            lines.append(share_line(N_("level {level}: {squares}"), level=level, squares=squares))
        return lines

    def add_commands(self, commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        from ...cli import add_play_command

        help = "play in the terminal: alone, against bots, or hot-seat"
        add_play_command(commands, self, help=help, players=1).set_defaults(run=self.play)


def _rules(players: int, options: JSON) -> Game:
    remove = options.get("remove", 0)
    try:
        return Game(players=players, remove=None if remove == "random" else remove)
    except ValueError as err:
        raise OptionsError(str(err)) from None


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
