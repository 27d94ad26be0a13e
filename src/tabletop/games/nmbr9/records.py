"""NMBR 9 game records: written while playing, replayed with every placement checked.

The format (``docs/records-nmbr9.md``) lists the deck in draw order and, per
round, the card and one placement per seat in seat order. A ``Recorder`` wraps
a state, applies placements and keeps the rounds; ``replay`` rebuilds a game
from a record and checks every placement, level and the result.

>>> from tabletop.games.nmbr9.rules import Game
>>> rec = Recorder.new(Game(players=2), ["Ann", "Bob"], seed=4)
>>> for seat in (0, 1):
...     _ = rec.apply(rec.state.legal_actions(seat)[0], seat)
>>> record = rec.to_record()
>>> record["rounds"][0]
{'card': 8, 'placements': [{'rotation': 0, 'x': 0, 'y': 0, 'level': 0}, {'rotation': 0, 'x': 0, 'y': 0, 'level': 0}]}
>>> replay(record).state.round
1
"""  # noqa: E501

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ... import __version__
from ...core.errors import RecordError
from ...core.rounds import HIDDEN as HIDDEN  # part of this module's public names
from ...core.rounds import RoundRecorder, draw_hidden, open_hidden, round_seat_record
from ...records import (
    check_header,
    claimed_result,
    open_seat_record,
    record_seed,
    replay_steps,
)
from .rules import CARDS, FULL_DECK, Game, IllegalActionError, Place, Placed, State, View

FORMAT = 1


class Recorder(RoundRecorder[State]):
    """A game in progress together with its record: per round the card and each seat's
    placement (``core.rounds``: applying, taking back, the rounds)."""

    actions_key = "placements"

    def round_facts(self) -> dict[str, Any]:
        return {"card": self.state.card}

    def action_entry(self, action: Place, applied: Placed) -> dict[str, int]:
        return placement_json(applied)

    def apply(self, action: Place, seat: int = 0) -> Placed:
        """Apply ``action`` for ``seat`` and record it (nothing changes if it is illegal)."""
        placed: Placed = super().apply(action, seat)
        return placed

    def lend_view(self, seat: int) -> View:
        """``seat``'s view for a bot to choose from now."""
        return self.state.view(seat)

    def to_record(self) -> dict[str, Any]:
        """The record as a JSON-ready dict (see docs/records-nmbr9.md)."""
        state = self.state
        record: dict[str, Any] = {
            "game": "nmbr9",
            "format": FORMAT,
            "players": self.players,
            "seed": self.seed,
            "deck": list(state.deck_order()),
            "removed": state.removed,
            "random_removal": state.game.remove is None,
            "created": self.created,
            "engine": f"tabletop {__version__}",
            "rounds": self.rounds_json(),
            "over": state.is_over,
        }
        if state.is_over:
            record["result"] = result_json(state)
        return record


# -- seat records (docs/records-nmbr9.md, "Seat records") ------------------------------


def seat_record(rec: Recorder, seat: int) -> dict[str, Any]:
    """The game so far as ``seat`` has seen it: the record without ``"seed"``, with
    ``"revealed"`` (the cards turned so far, the current one last) in place of
    ``"deck"``, and in the current round every other seat's placement, if it has made
    one, as ``"hidden"`` (the page shows only that it has placed: ``core.rounds``).

    >>> from tabletop.games.nmbr9.rules import Game
    >>> rec = Recorder.new(Game(players=2), ["Ann", "Bob"], seed=4)
    >>> _ = rec.apply(rec.state.legal_actions(0)[0], 0)
    >>> mine = seat_record(rec, 1)
    >>> mine["revealed"], mine["rounds"], "seed" in mine or "deck" in mine
    ([8], [{'card': 8, 'placements': ['hidden', None]}], False)
    >>> again = read_seat_record(mine, seed=3).recorder.state
    >>> again.acting_seats(), again.view(1).to_json() == rec.state.view(1).to_json()
    ((1,), True)
    """
    return round_seat_record(rec, seat, "deck", list(rec.state.turned()))


class _Logged(Recorder):
    """A recorder that also lists the placements applied through it, with their seats."""

    def _start_log(self) -> None:
        super()._start_log()
        self.moves: list[tuple[int, Place]] = []

    def apply(self, action: Place, seat: int = 0) -> Placed:
        placed = super().apply(action, seat)
        self.moves.append((seat, action))
        return placed


@dataclass(frozen=True)
class Determinized:
    """A seat record made whole (``read_seat_record``): the game replayed, the deal it
    was dealt (``Setup.deal``'s options of the research encoding: ``"deck"``) and the
    placements applied, with their seats, in order (the hidden ones drawn last)."""

    recorder: Recorder
    deal: dict[str, Any]
    moves: list[tuple[int, Place]]


def read_seat_record(
    seat_record: Any, seed: int, fits: Callable[[int, Place], bool] | None = None
) -> Determinized:
    """A game consistent with ``seat_record`` (``seat_record()``'s shape): the cards not
    turned shuffled from ``seed`` after the turned ones, the rounds replayed and checked,
    and each ``"hidden"`` placement drawn from ``seed`` among the seat's legal ones (those
    that ``fits(digit, place)``, if given). ``RecordError`` for anything else."""
    record, seat, revealed = open_seat_record(seat_record, "deck", seed)
    left = list(FULL_DECK)
    for card in revealed:
        if card not in left:
            raise RecordError(
                f"'revealed' must list turned cards, digits 0-9 at most twice: {revealed}"
            )
        left.remove(card)
    if not revealed:
        raise RecordError("'revealed' must begin with the first round's card")
    rng = random.Random(seed)
    rng.shuffle(left)
    record["deck"] = revealed + left
    hidden, seen = open_hidden(record, seat, Recorder.actions_key)
    rec = _replay(record, _Logged)
    state = rec.state
    if hidden and seen is not None:
        card = state.card if state.card is not None else -1  # draw_hidden: not over

        def legal(other: int) -> list[Place]:
            return [p for p in state.legal_actions(other) if fits is None or fits(card, p)]

        draw_hidden(rec, hidden, seen, rng, legal)
    if len(state.turned()) != len(revealed):
        raise RecordError(
            f"'revealed' lists {len(revealed)} cards but the rounds turned {len(state.turned())}"
        )
    return Determinized(rec, {"deck": record["deck"]}, rec.moves)


def placement_json(placed: Placed) -> dict[str, int]:
    return {"rotation": placed.rotation, "x": placed.x, "y": placed.y, "level": placed.level}


R = TypeVar("R", bound=Recorder)


def result_json(state: State) -> dict[str, Any]:
    """The ``"result"`` object of a finished game."""
    result = state.result()
    return {
        "scores": list(result.scores),
        "ranking": list(result.ranking),
        "ranks": list(result.ranks),
    }


def same_deal(record: Any, players: list[str]) -> Recorder:
    """A new game of ``record``'s deal (its deck and removed cards) for ``players``, no
    round played yet: another game on the same cards, e.g. the best with hindsight."""
    game, _, seed = _header(record)
    solo = Game(players=len(players), remove=game.remove)
    state = _initial_state(solo, record, None)
    state.game = solo
    return Recorder(state, players, seed=seed, created=record.get("created"))


# -- replay -------------------------------------------------------------------------


def replay(record: Any, on_round: Callable[[Recorder], None] | None = None) -> Recorder:
    """Rebuild a game from a record, checking every placement; raise ``RecordError``
    at the first violation. ``on_round(recorder)`` is called once set up and after
    each replayed round."""
    return _replay(record, Recorder, on_round)


def _replay(record: Any, kind: type[R], on_round: Callable[[Recorder], None] | None = None) -> R:
    game, players, seed = _header(record)
    state = _initial_state(game, record, seed)
    rec = kind(state, players, seed=seed, created=record.get("created"))
    rounds = record.get("rounds")
    if isinstance(rounds, list) and len(rounds) > state.rounds:
        raise RecordError(f"{len(rounds)} rounds recorded but the game has {state.rounds}")
    replay_steps(rec, rounds, "round", _replay_round, on_round)
    _check_end(rec, record)
    return rec


def _header(record: Any) -> tuple[Game, list[str], int | None]:
    players = check_header(record, "nmbr9", "an NMBR 9 record", FORMAT)
    seed = record_seed(record)
    removed, random_removal = record.get("removed"), record.get("random_removal", False)
    if type(removed) is not int or not isinstance(random_removal, bool):
        raise RecordError("'removed' must be a whole number and 'random_removal' true or false")
    try:
        game = Game(players=len(players), remove=None if random_removal else removed)
    except ValueError as err:
        raise RecordError(str(err)) from None
    return game, players, seed


def _initial_state(game: Game, record: dict[str, Any], seed: int | None) -> State:
    deck, removed = record.get("deck"), record["removed"]
    if not isinstance(deck, list) or not all(type(d) is int for d in deck):
        raise RecordError(f"'deck' must list the {CARDS} cards (digits) in draw order")
    if sorted(deck) != list(FULL_DECK):
        raise RecordError("'deck' must hold two cards of each digit 0-9")
    if not 0 <= removed < CARDS:
        raise RecordError(f"'removed' must be 0 to {CARDS - 1}, not {removed}")
    state = Game(players=game.players, remove=removed).new_state(deck=deck)
    state.game = game  # keeps the record's "random removal" flag
    if seed is not None:
        from_seed = game.new_state(seed)
        if from_seed.deck_order() != state.deck_order():
            raise RecordError(f"the deck does not match seed {seed}")
        if game.remove is None and from_seed.removed != removed:
            raise RecordError(f"seed {seed} removes {from_seed.removed} cards, not {removed}")
    return state


def _replay_round(rec: Recorder, entry: Any, last: bool) -> None:
    state = rec.state
    if not isinstance(entry, dict):
        raise RecordError("each round must be a JSON object")
    if entry.get("card") != state.card:
        raise RecordError(f"'card' is {entry.get('card')!r} but the deck turns {state.card}")
    placements = entry.get("placements")
    if not isinstance(placements, list) or len(placements) != state.game.players:
        raise RecordError(f"'placements' must list one placement per seat ({state.game.players})")
    if any(p is None for p in placements) and not last:
        raise RecordError("only the last round recorded may miss placements")
    if all(p is None for p in placements):
        raise RecordError("a round needs at least one placement")
    for seat, placement in enumerate(placements):
        if placement is None:
            continue
        who = f"seat {seat + 1} ({rec.players[seat]})"  # names may carry 0-based numbers
        try:
            action, level = _placement(placement)
        except RecordError as err:
            raise RecordError(f"{who}: {err}") from None
        try:
            placed = rec.apply(action, seat)
        except IllegalActionError as err:
            raise RecordError(f"{who}: {err}") from None
        if placed.level != level:
            raise RecordError(
                f"{who}: 'level' is {level} but {action} lies on level {placed.level}"
            )


def _placement(item: Any) -> tuple[Place, int]:
    keys = ("rotation", "x", "y", "level")
    if not isinstance(item, dict) or not all(type(item.get(k)) is int for k in keys):
        raise RecordError(
            f"a placement is {{'rotation', 'x', 'y', 'level'}} integers, not {item!r}"
        )
    if not 0 <= item["rotation"] <= 3:
        raise RecordError(f"'rotation' is 0-3 quarter turns clockwise, not {item['rotation']}")
    return Place(item["rotation"], item["x"], item["y"]), item["level"]


def _check_end(rec: Recorder, record: dict[str, Any]) -> None:
    state = rec.state
    claimed = claimed_result(record, state.is_over)
    if claimed is not None:
        actual = result_json(state)
        for key in ("scores", "ranking"):
            if key not in claimed:
                raise RecordError(f"the result has no {key!r}")
        for key, value in claimed.items():
            if key in actual and actual[key] != value:
                raise RecordError(f"result '{key}' is {value} but the game gives {actual[key]}")
