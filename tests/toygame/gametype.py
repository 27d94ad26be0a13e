"""Toy Draft as the platform sees it: the ``GameType`` behind every front end.

>>> from tabletop.harness.selfplay import play_game
>>> record = play_game(GAME, ["greedy", "random"], seed=3)
>>> outcome = GAME.outcome(record)
>>> outcome.score_name, outcome.length, sorted(outcome.ranks)[0]
('sum', 8, 1)
>>> GAME.verify(record).endswith("8 turns")
True
"""

from __future__ import annotations

from typing import Any

from tabletop.core.errors import OptionsError
from tabletop.core.game import JSON, SEQUENTIAL, GameType
from tabletop.core.outcome import Outcome
from tabletop.i18n import N_

from .bots import REGISTRY
from .page import BOTS, ToyPage
from .records import Recorder, read_seat_record, replay, seat_record
from .rules import Game, parse_action


class ToyDraft(GameType):
    """The ``toy`` game type."""

    name = "toy"
    title = "Toy Draft"
    command = "toy"
    min_seats = 1
    max_seats = 2
    dynamics = SEQUENTIAL
    seats_matter = True  # the first seat sees the first market
    solo_threshold = 40  # a solo sum of 40 or more is a good game
    default_bot = "greedy"
    quick_bots = frozenset({"random", "greedy"})
    view_depends_on_seat = False  # only the pile's order is hidden, from everyone
    option_fields = []  # the base class types it (a ClassVar)
    #: The research encoding (tests/toygame/encoding.py, loaded only when asked for).
    research = "toygame.encoding:ENCODING"
    #: Its analysis (tests/toygame/analysis.py).
    analysis = "toygame.analysis:ANALYSER"
    bots = REGISTRY
    bot_offers = {"standard": BOTS}
    page = ToyPage()

    def parse_action(self, text: str) -> Any:
        return parse_action(text)

    def check_options(self, options: JSON, players: int) -> JSON:
        if not isinstance(options, dict):
            raise OptionsError(N_("the options must be an object"))
        if options:
            raise OptionsError(N_("unknown option(s): {names}"), names=", ".join(sorted(options)))
        _rules(players)
        return {}

    def new_recorder(self, players: int, options: JSON, names: list[str], seed: int) -> Recorder:
        return Recorder.new(_rules(players), names, seed=seed)

    def read_record(self, record: Any) -> Recorder:
        return replay(record)

    def summary(self, recorder: Any) -> str:
        """``'Ann wins with 38; then Bob 30 — 8 turns'``."""
        state, names = recorder.state, recorder.players
        turns = f"{state.turn} turn{'s' if state.turn != 1 else ''}"
        if not state.is_over:
            return f"unfinished after {turns}; {names[state.current_seat]} to move"
        scores, ranks = state.scores(), state.outcome().ranks
        if len(names) == 1:
            return f"solo sum {scores[0]} — {turns}"
        first = [seat for seat, rank in enumerate(ranks) if rank == 1]
        if len(first) > 1:
            return f"{' and '.join(names[s] for s in first)} share first place with {scores[first[0]]} — {turns}"  # noqa: E501
        (winner,) = first
        other = 1 - winner
        return f"{names[winner]} wins with {scores[winner]}; then {names[other]} {scores[other]} — {turns}"  # noqa: E501

    def seat_record(self, recorder: Any, seat: int) -> JSON:
        return seat_record(recorder, seat)

    def determinize(self, seat_record: Any, seed: int) -> Any:
        return read_seat_record(seat_record, seed).recorder.state

    def outcome(self, record: JSON) -> Outcome:
        result = record["result"]
        return Outcome(
            tuple(result["ranks"]), tuple(result["scores"]), "sum", False, len(record["turns"])
        )


def _rules(players: int) -> Game:
    try:
        return Game(players=players)
    except ValueError as err:
        raise OptionsError(str(err)) from None


GAME = ToyDraft()
