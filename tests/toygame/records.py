"""Toy Draft's records: written while playing, replayed with every turn checked.

A record names the seed and the whole pile in draw order (so it replays without
the seed), and per turn the seat, the market slot and the tile taken::

    {"game": "toy", "format": 1, "players": ["Ann", "Bob"], "seed": 4,
     "pile": [7, 2, ...], "turns": [{"seat": 0, "slot": 1, "tile": 12}, ...],
     "over": true, "result": {"scores": [31, 27], "ranks": [1, 2]}}

>>> from toygame.rules import Game, Take
>>> rec = Recorder.new(Game(players=2), ["Ann", "Bob"], seed=4)
>>> tile = rec.apply(Take(0), 0)
>>> rec.to_record()["turns"] == [{"seat": 0, "slot": 0, "tile": tile}]
True
>>> replay(rec.to_record()).state.turn
1
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabletop.core.errors import RecordError
from tabletop.records import (
    RecorderBase,
    check_header,
    claimed_result,
    open_seat_record,
    record_seed,
    replay_steps,
    seat_record_of,
)

from .rules import MARKET, TILES, Game, State, Take, View

NAME = "toy"
FORMAT = 1


class Recorder(RecorderBase[State]):
    """A game in progress together with its record (the platform's ``Recorder``)."""

    state: State

    def _start_log(self) -> None:
        self.pile = [*self.state.market, *self.state.pile]  # the draw order at the start
        self.turns: list[dict[str, int]] = []

    def apply(self, action: Take, seat: int) -> int:
        """Apply ``seat``'s take and record it (nothing changes if it is illegal)."""
        tile = self.state.apply(action, seat)
        self.turns.append({"seat": seat, "slot": action.slot, "tile": tile})
        return tile

    def lend_view(self, seat: int) -> View:
        return self.state.view(seat)

    def clone(self) -> Recorder:
        new = self._fresh_copy()
        new.pile = self.pile
        new.turns = list(self.turns)
        return new

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "game": NAME,
            "format": FORMAT,
            "players": list(self.players),
            "seed": self.seed,
            "pile": list(self.pile),
            "created": self.created,
            "turns": [dict(turn) for turn in self.turns],
            "over": self.state.is_over,
        }
        if self.state.is_over:
            record["result"] = result_json(self.state)
        return record


def result_json(state: State) -> dict[str, Any]:
    """The ``"result"`` of a finished game: each seat's sum and rank (1 best)."""
    outcome = state.outcome()
    return {"scores": list(outcome.scores), "ranks": list(outcome.ranks)}


def seat_record(rec: Recorder, seat: int) -> dict[str, Any]:
    """The game as ``seat`` has seen it (``GameType.seat_record``): the record without
    ``"seed"``, and ``"revealed"`` (the tiles turned face up so far, in order: the first
    market, then one a turn) in place of ``"pile"``. Every take is public.

    >>> rec = Recorder.new(Game(players=2), ["Ann", "Bob"], seed=4)
    >>> _ = rec.apply(Take(1), 0)
    >>> mine = seat_record(rec, 1)
    >>> len(mine["revealed"]), mine["seat"], "pile" in mine
    (4, 1, False)
    >>> read_seat_record(mine, seed=2).recorder.state.view(1) == rec.state.view(1)
    True
    """
    revealed = rec.pile[: MARKET + rec.state.turn]
    return seat_record_of(rec.to_record(), seat, "pile", revealed)


@dataclass(frozen=True)
class Determinized:
    """A seat record made whole: the game replayed, its pile (``{"pile": draw order}``,
    the encoding's deal) and the takes, with their seats, in order."""

    recorder: Recorder
    deal: dict[str, Any]
    moves: list[tuple[int, Take]]


def read_seat_record(seat_record: Any, seed: int) -> Determinized:
    """A game consistent with ``seat_record``: the tiles not revealed shuffled from
    ``seed`` after the revealed ones, every turn replayed; ``RecordError`` otherwise."""
    record, _seat, revealed = open_seat_record(seat_record, "pile", seed)
    rest = sorted(set(range(1, TILES + 1)) - set(revealed))
    if len(set(revealed)) != len(revealed) or len(revealed) + len(rest) != TILES:
        raise RecordError(f"'revealed' must list distinct tiles 1 to {TILES}")
    random.Random(seed).shuffle(rest)
    record["pile"] = revealed + rest
    rec = replay(record)
    if len(revealed) != MARKET + rec.state.turn:
        raise RecordError(
            f"'revealed' lists {len(revealed)} tiles but the turns showed {MARKET + rec.state.turn}"
        )
    moves = [(turn["seat"], Take(turn["slot"])) for turn in rec.turns]
    return Determinized(rec, {"pile": record["pile"]}, moves)


def replay(record: Any, on_turn: Callable[[Recorder], None] | None = None) -> Recorder:
    """Rebuild a game from ``record``, checking every turn; ``RecordError`` at the first
    violation. ``on_turn(recorder)`` is called once set up and after every turn."""
    players = check_header(record, NAME, "a Toy Draft record", FORMAT)
    seed, pile = record_seed(record), record.get("pile")
    if not isinstance(pile, list) or not all(type(t) is int for t in pile):
        raise RecordError("'pile' must list the tiles in draw order")
    try:
        game = Game(players=len(players))
        state = game.new_state(pile=pile)
    except ValueError as err:
        raise RecordError(str(err)) from None
    shuffled = game.new_state(seed) if seed is not None else state
    if [*shuffled.market, *shuffled.pile] != pile:
        raise RecordError(f"the pile does not match seed {seed}")
    rec = Recorder(state, players, seed=seed, created=record.get("created"))
    replay_steps(rec, record.get("turns"), "turn", _replay_turn, on_turn)
    claimed = claimed_result(record, state.is_over)
    if claimed is not None and claimed != result_json(state):
        raise RecordError("the result does not match the game")
    return rec


def _replay_turn(rec: Recorder, turn: Any, last: bool) -> None:
    state = rec.state
    if not isinstance(turn, dict) or not all(type(turn.get(k)) is int for k in ("seat", "slot")):
        raise RecordError("a turn is {seat, slot, tile}")
    if state.is_over:
        raise RecordError("the game was already over")
    slot = turn["slot"]
    if not 0 <= slot < MARKET:
        raise RecordError(f"slot {slot} is not a market slot")
    if turn.get("tile") != state.market[slot]:
        raise RecordError(
            f"'tile' is {turn.get('tile')!r} but slot {slot} holds {state.market[slot]}"
        )
    rec.apply(Take(slot), turn["seat"])
