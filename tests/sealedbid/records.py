"""Sealed Bids' records: written while playing, replayed with every bid checked.

A record names the seed and the prizes in their order (so it replays without the
seed), and per round the prize and each seat's bid (``null`` until it bids: only the
last round of an unfinished game misses bids)::

    {"game": "sealed-bids", "format": 1, "players": ["Ann", "Bob"], "seed": 4,
     "prizes": [3, 6, 1, 5, 2, 4], "rounds": [{"prize": 3, "bids": [2, 5]}, ...],
     "over": true, "result": {"scores": [12, 7], "ranks": [1, 2]}}

The rounds, take-back and the seat records' hidden bids are the platform's
(``tabletop.core.rounds``); this module says what a round's facts and a bid's entry are,
and checks them.

>>> from sealedbid.rules import Bid, Game
>>> rec = Recorder.new(Game(players=2), ["Ann", "Bob"], seed=4)
>>> rec.apply(Bid(6), 0)
6
>>> rec.to_record()["rounds"]
[{'prize': 4, 'bids': [6, None]}]
>>> _ = rec.take_back(0)
>>> rec.to_record()["rounds"], replay(rec.to_record()).state.acting_seats()
([], (0, 1))
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabletop.core.errors import RecordError
from tabletop.core.rounds import RoundRecorder, draw_hidden, open_hidden, round_seat_record
from tabletop.records import (
    check_header,
    claimed_result,
    open_seat_record,
    record_seed,
    replay_steps,
)

from .rules import CARDS, Bid, Game, State, View

NAME = "sealed-bids"
FORMAT = 1


class Recorder(RoundRecorder[State]):
    """A game in progress with its record: per round the prize and each seat's bid."""

    actions_key = "bids"

    def round_facts(self) -> dict[str, Any]:
        return {"prize": self.state.prize}

    def action_entry(self, action: Bid, applied: int) -> int:
        return applied

    def lend_view(self, seat: int) -> View:
        return self.state.view(seat)

    def to_record(self) -> dict[str, Any]:
        state = self.state
        record: dict[str, Any] = {
            "game": NAME,
            "format": FORMAT,
            "players": list(self.players),
            "seed": self.seed,
            "prizes": list(state.prizes),
            "created": self.created,
            "rounds": self.rounds_json(),
            "over": state.is_over,
        }
        if state.is_over:
            record["result"] = result_json(state)
        return record


def result_json(state: State) -> dict[str, Any]:
    """The ``"result"`` of a finished game: each seat's total of prizes and rank."""
    outcome = state.outcome()
    return {"scores": list(outcome.scores), "ranks": list(outcome.ranks)}


def seat_record(rec: Recorder, seat: int) -> dict[str, Any]:
    """The game as ``seat`` has seen it (``GameType.seat_record``): without ``"seed"``,
    ``"revealed"`` (the prizes turned so far) in place of ``"prizes"``, and the other
    seats' pending bids of this round as ``"hidden"``.

    >>> rec = Recorder.new(Game(players=2), ["Ann", "Bob"], seed=4)
    >>> _ = rec.apply(Bid(6), 0)
    >>> mine = seat_record(rec, 1)
    >>> mine["revealed"], mine["rounds"], "prizes" in mine
    ([4], [{'prize': 4, 'bids': ['hidden', None]}], False)
    >>> read_seat_record(mine, seed=2).recorder.state.view(1) == rec.state.view(1)
    True
    """
    return round_seat_record(rec, seat, "prizes", rec.state.revealed())


@dataclass(frozen=True)
class Determinized:
    """A seat record made whole: the game replayed, its deal (``{"prizes": order}``,
    the encoding's) and the bids, with their seats, round by round in seat order."""

    recorder: Recorder
    deal: dict[str, Any]
    moves: list[tuple[int, Bid]]


def read_seat_record(seat_record: Any, seed: int) -> Determinized:
    """A game consistent with ``seat_record``: the prizes not revealed shuffled from
    ``seed`` after the revealed ones, every round replayed, and each ``"hidden"`` bid
    drawn from ``seed`` among the seat's cards; ``RecordError`` otherwise."""
    record, seat, revealed = open_seat_record(seat_record, "prizes", seed)
    rest = [card for card in range(1, CARDS + 1) if card not in revealed]
    if not revealed or len(set(revealed)) != len(revealed) or len(revealed) + len(rest) != CARDS:
        raise RecordError(f"'revealed' must list distinct prizes 1 to {CARDS}, at least one")
    rng = random.Random(seed)
    rng.shuffle(rest)
    record["prizes"] = revealed + rest
    hidden, seen = open_hidden(record, seat, Recorder.actions_key)
    rec = replay(record)
    if seen is not None:
        draw_hidden(rec, hidden, seen, rng, rec.state.legal_actions)
    if len(revealed) != len(rec.state.revealed()):
        raise RecordError(
            f"'revealed' lists {len(revealed)} prizes but the rounds turned "
            f"{len(rec.state.revealed())}"
        )
    moves = [
        (other, Bid(bid))
        for entry in rec.rounds
        for other, bid in enumerate(entry["bids"])
        if bid is not None
    ]
    return Determinized(rec, {"prizes": record["prizes"]}, moves)


def replay(record: Any, on_round: Callable[[Recorder], None] | None = None) -> Recorder:
    """Rebuild a game from ``record``, checking every round; ``RecordError`` at the first
    violation. ``on_round(recorder)`` is called once set up and after every round."""
    players = check_header(record, NAME, "a Sealed Bids record", FORMAT)
    seed, prizes = record_seed(record), record.get("prizes")
    if not isinstance(prizes, list) or not all(type(p) is int for p in prizes):
        raise RecordError("'prizes' must list the prizes in their order")
    try:
        game = Game(players=len(players))
        state = game.new_state(prizes=prizes)
    except ValueError as err:
        raise RecordError(str(err)) from None
    if seed is not None and game.new_state(seed).prizes != prizes:
        raise RecordError(f"the prizes do not match seed {seed}")
    rec = Recorder(state, players, seed=seed, created=record.get("created"))
    rounds = record.get("rounds")
    if isinstance(rounds, list) and len(rounds) > CARDS:
        raise RecordError(f"{len(rounds)} rounds recorded but the game has {CARDS}")
    replay_steps(rec, rounds, "round", _replay_round, on_round)
    claimed = claimed_result(record, state.is_over)
    if claimed is not None and claimed != result_json(state):
        raise RecordError("the result does not match the game")
    return rec


def _replay_round(rec: Recorder, entry: Any, last: bool) -> None:
    state = rec.state
    if not isinstance(entry, dict) or entry.get("prize") != state.prize:
        raise RecordError(f"a round is {{prize, bids}}, its prize {state.prize}")
    bids = entry.get("bids")
    if not isinstance(bids, list) or len(bids) != state.game.players:
        raise RecordError(f"'bids' must list one bid per seat ({state.game.players})")
    if None in bids and not last:
        raise RecordError("only the last round recorded may miss bids")
    if all(bid is None for bid in bids):
        raise RecordError("a round needs at least one bid")
    for seat, bid in enumerate(bids):
        if bid is not None:
            if type(bid) is not int:
                raise RecordError(f"seat {seat + 1}: a bid is a card number, not {bid!r}")
            rec.apply(Bid(bid), seat)
