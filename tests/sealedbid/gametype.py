"""Sealed Bids as the platform sees it: the ``GameType`` behind every front end.

>>> from tabletop.harness.selfplay import play_game
>>> record = play_game(GAME, ["greedy", "random"], seed=3)
>>> outcome = GAME.outcome(record)
>>> outcome.score_name, outcome.length, GAME.verify(record).endswith("6 rounds")
('prizes', 6, True)
"""

from __future__ import annotations

from typing import Any

from tabletop.core.errors import OptionsError
from tabletop.core.game import JSON, SIMULTANEOUS, GameType

from .bots import REGISTRY
from .page import BOTS, SealedBidsPage
from .records import Recorder, read_seat_record, replay, seat_record
from .rules import Bid, Game, State, parse_action


class SealedBids(GameType):
    """The ``sealed-bids`` game type."""

    name = "sealed-bids"
    title = "Sealed Bids"
    command = "sealedbids"
    min_seats = 2
    max_seats = 3
    dynamics = SIMULTANEOUS
    seats_matter = False  # everybody bids at once: seat order changes nothing
    default_bot = "greedy"
    quick_bots = frozenset({"random", "greedy"})
    view_depends_on_seat = True  # a seat sees its own pending bid, nobody else's
    #: The research encoding (tests/sealedbid/encoding.py, loaded only when asked for).
    research = ".encoding:ENCODING"
    #: Its analysis (tests/sealedbid/analysis.py).
    analysis = ".analysis:ANALYSER"
    bots = REGISTRY
    bot_offers = {"standard": BOTS}
    page = SealedBidsPage()

    def parse_action(self, text: str) -> Bid:
        return parse_action(text)

    def check_table(self, options: JSON, players: int) -> None:
        _rules(players)  # no variant options: only the number of seats to check

    def new_recorder(self, players: int, options: JSON, names: list[str], seed: int) -> Recorder:
        return Recorder.new(_rules(players), names, seed=seed)

    def read_record(self, record: Any) -> Recorder:
        return replay(record)

    def summary(self, recorder: Any) -> str:
        """``'Ann wins with 12; then Bob 9 — 6 rounds'``."""
        state, names = recorder.state, recorder.players
        rounds = f"{state.round} round{'s' if state.round != 1 else ''}"
        scores = state.scores()
        if not state.is_over:
            return f"unfinished after {rounds}; so far " + ", ".join(
                f"{name} {score}" for name, score in zip(names, scores, strict=True)
            )
        ranks = state.outcome().ranks
        first = [seat for seat, rank in enumerate(ranks) if rank == 1]
        head = (
            f"{' and '.join(names[s] for s in first)} share first place with {scores[first[0]]}"
            if len(first) > 1
            else f"{names[first[0]]} wins with {scores[first[0]]}"
        )
        rest = ", ".join(f"{names[s]} {scores[s]}" for s in range(len(names)) if s not in first)
        return f"{head}; then {rest} — {rounds}" if rest else f"{head} — {rounds}"

    def seat_record(self, recorder: Any, seat: int) -> JSON:
        return seat_record(recorder, seat)

    def determinize(self, seat_record: Any, seed: int) -> State:
        return read_seat_record(seat_record, seed).recorder.state


def _rules(players: int) -> Game:
    try:
        return Game(players=players)
    except ValueError as err:
        raise OptionsError(str(err)) from None


GAME = SealedBids()
