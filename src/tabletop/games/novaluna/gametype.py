"""Nova Luna as the platform sees it: one description behind the ``novaluna`` command,
the harnesses, the web server and the research environments.

>>> from tabletop.harness.selfplay import play_game
>>> record = play_game(GAME, ["greedy", "random"], seed=3)
>>> outcome = GAME.outcome(record)
>>> sorted(outcome.ranks), outcome.score_name
([1, 2], 'discs left')
>>> "wins" in GAME.verify(record)
True
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from ...core.bots import Bot
from ...core.errors import OptionsError
from ...core.game import DAILY_HEADLINE, JSON, NO_INDICES, SEQUENTIAL, GameType, share_line
from ...core.game import Recorder as CoreRecorder
from ...core.limits import BotLimits
from ...core.options import Option
from ...core.outcome import Outcome
from ...i18n import N_, Part
from .bots.base import REGISTRY
from .bots.compiled import KERNEL
from .bots.mcts import MctsBot
from .page import BOTS, NovaLunaPage
from .records import Recorder, read_seat_record, replay, seat_record
from .rules import Action, Game, SoloResult, State, parse_action

TOO_MANY_ITERATIONS = N_(
    "seat {seat}: this server searches at most {most} iterations a move, not {asked}"
)


class NovaLuna(GameType):
    """The ``nova-luna`` game type."""

    name = "nova-luna"
    title = "Nova Luna"
    command = "novaluna"
    min_seats = 1
    max_seats = 4
    dynamics = SEQUENTIAL
    seats_matter = True  # the start stack decides who moves first
    solo_threshold = 100  # a solo total under 100 is a good game
    default_bot = "greedy"
    quick_bots = frozenset({"random", "greedy"})
    view_depends_on_seat = False  # only the pile order is hidden, from everyone
    declared_options = (
        Option(
            "first_game",
            N_("First game (fewer discs to place)"),
            default=False,
            min_seats=2,  # the solo game has no first-game variant
            flag="--first-game",
            help="fewer discs with 3-4 players (17/15)",
        ),
    )
    daily_play = ("solo",)  # the daily deal is the solo game: its own command plays it
    rating_seed = (3, 4)  # seats, deals: 240 games for its six bots
    research = ".encoding:ENCODING"  # tabletop.research loads it
    analysis = ".analysis:ANALYSER"  # `novaluna analyse FILE`
    tutorial = ".tutorial:TUTORIAL"  # the page's "Learn to play"
    bots = REGISTRY
    kernel = KERNEL  # optional: without it the solo planner plays as greedy, said at start
    bot_offers = BOTS
    page = NovaLunaPage()

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def action_from_index(self, state: Any, seat: int, index: int) -> object | None:
        try:  # the encoding needs numpy (the extra rl); the rules do not
            from .encoding import decode
        except ImportError:
            raise OptionsError(NO_INDICES) from None
        return decode(index, state)

    def check_table(self, options: JSON, players: int) -> None:
        _rules(players, options)

    def bot_refusal(
        self, spec: str, bot: Bot, players: int, limits: BotLimits
    ) -> OptionsError | None:
        if isinstance(bot, MctsBot) and bot.settings.iterations > limits.iterations:
            return OptionsError(
                TOO_MANY_ITERATIONS,
                most=limits.iterations,
                asked=bot.settings.iterations,
            )
        if spec.strip().partition(":")[0].lower() == "solo" and players != 1:
            return OptionsError(N_("seat {seat}: the solo planner plays only the solo game"))
        return None

    def limit_bot(self, bot: Bot, seconds: float) -> None:
        if isinstance(bot, MctsBot) and seconds != float("inf"):
            own = bot.settings.max_seconds
            bot.settings = replace(bot.settings, max_seconds=min(own or seconds, seconds))

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
        result, turns = record["result"], len(record["turns"])
        if record["mode"] == "solo":
            details = {"phase 1": result["phase1"], "phase 2": result["phase2"]}
            return Outcome((1,), (result["total"],), "solo score", True, turns, "turns", details)
        ranks = [0] * len(result["ranking"])
        for place, seat in enumerate(result["ranking"], 1):
            ranks[seat] = place  # Nova Luna always breaks ties: ranks are distinct
        return Outcome(tuple(ranks), tuple(result["discs_left"]), "discs left", True, turns)

    def daily_share(self, record: JSON, day: str) -> list[Part]:
        """The solo result (lower is better) and how many turns it took."""
        result = record["result"]
        return [
            share_line(DAILY_HEADLINE, game=self.title, day=day, score=result["total"]),
            share_line(N_("turns: {turns}"), turns=len(record["turns"])),
        ]

    def add_commands(self, commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        from ...cli import add_play_command, seed

        help = "play against bots or friends (hot-seat) in the terminal"
        add_play_command(commands, self, help=help, players=2).set_defaults(run=self.play)

        solo = commands.add_parser("solo", help="the solo game")
        solo.add_argument("--seed", type=seed, help="shuffle seed (random if omitted)")
        solo.add_argument("--save", metavar="FILE", help="where to save the record (.json)")
        solo.set_defaults(run=self.play)


def _rules(players: int, options: JSON) -> Game:
    try:
        return Game(players=players, first_game=bool(options.get("first_game", False)))
    except ValueError as err:
        raise OptionsError(str(err)) from None


def describe(rec: Recorder) -> str:
    """A one-line outcome, e.g. ``'Ann wins (0 discs left); Bob 4 — 37 turns'``."""
    state = rec.state
    turns = f"{len(rec.turns)} turns"
    if not state.is_over:
        return f"unfinished after {turns}; {rec.players[state.current_seat]} to move"
    result = state.result()
    if isinstance(result, SoloResult):
        return (
            f"solo score {result.total} (phase 1: {result.phase1}, phase 2: {result.phase2}); "
            f"{result.discs_placed} discs placed, {turns}"
        )
    names = rec.players
    ranking = ", ".join(f"{names[s]} {result.discs_left[s]}" for s in result.ranking[1:])
    how = "placed the last disc" if result.winner_by_last_disc else "no tiles left"
    winner = result.ranking[0]
    return (
        f"{names[winner]} wins ({how}, {result.discs_left[winner]} discs left); "
        f"then {ranking} — {turns}"
    )


GAME = NovaLuna()
