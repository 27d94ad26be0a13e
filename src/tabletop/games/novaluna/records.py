"""Game records: one JSON object per game, written while playing and replayable.

The format is documented in ``docs/records.md``. A ``Recorder`` wraps a state,
applies actions and keeps the turn list; ``replay`` rebuilds a game from a
record and checks every turn against the rules.

>>> from tabletop.games.novaluna.rules import Game
>>> rec = Recorder.new(Game(players=2), ["Ann", "Bob"], seed=4)
>>> covered = rec.apply(rec.state.legal_actions()[0])
>>> again = replay(rec.to_record())
>>> again.state.turn == rec.state.turn == 1
True
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard, TypeVar

from ... import __version__
from ...core.errors import RecordError
from ...records import (
    RecorderBase,
    check_header,
    claimed_result,
    open_seat_record,
    record_seed,
    replay_steps,
    seat_record_of,
)
from .rules import (
    END_PHASE,
    REFILL,
    Action,
    Game,
    IllegalActionError,
    Place,
    SoloResult,
    State,
    View,
)
from .rules.tiles import TILE_IDS

FORMAT = 1


class Recorder(RecorderBase[State]):
    """A game in progress together with its record: its turns."""

    def _start_log(self) -> None:
        self.turns: list[dict[str, Any]] = []
        self._open_turn: dict[str, Any] | None = None  # a refill/phase end before the take
        # Views lent since the last action. They share the state's displays, wheel and
        # counters (copying them every move was a fifth of a selfplay game); one still
        # alive when the next action comes gets its own copies first, so a bot that
        # keeps a view still sees the position it was given.
        self._lent: list[weakref.ref[View]] = []
        self._solo = self.state.game.solo

    def clone(self) -> Recorder:
        """An independent copy (turn entries are never changed once written)."""
        new = self._fresh_copy()
        new.turns = list(self.turns)
        new._open_turn = self._open_turn
        return new

    def lend_view(self, seat: int) -> View:
        """``seat``'s view for a bot to choose from now, without copying the state."""
        view = View(self.state, seat, share=True)
        self._lent.append(weakref.ref(view))
        return view

    def apply(self, action: Action, seat: int | None = None) -> list[tuple[int, int, int]]:
        """Apply ``action`` (of ``seat``, if given: it must be the seat to move) to the
        state and record it (nothing changes if illegal)."""
        state = self.state
        if seat is not None and seat != state.current_seat:
            raise IllegalActionError("it is seat {seat}'s turn", seat=state.current_seat + 1)
        if self._lent:
            for ref in self._lent:
                view = ref()
                if view is not None:
                    view.unshare()
            self._lent.clear()
        seat, phase, refilled = state.current_seat, state.phase, state.refilled
        if isinstance(action, Place):
            space = action.space
            tile = state.wheel[space]
            covered = state.apply(action)
            done = [list(c) for c in covered] if covered else []
            # one literal, keys in _turn_head's order then the take's: every move of
            # every selfplay game builds one
            if self._solo:
                turn = {"seat": seat, "refill": refilled, "phase": phase, "space": space,
                        "tile": tile, "cell": [action.x, action.y], "covered": done}  # fmt: skip
            else:
                turn = {"seat": seat, "refill": refilled, "space": space, "tile": tile,
                        "cell": [action.x, action.y], "covered": done}  # fmt: skip
            self.turns.append(turn)
            self._open_turn = None
            return covered
        covered = state.apply(action)
        # A refill or the solo phase end: the turn's take is still to come.
        self._open_turn = self._turn_head(seat, state.phase, True)
        return covered

    def _turn_head(self, seat: int, phase: int, refill: bool) -> dict[str, Any]:
        turn: dict[str, Any] = {"seat": seat, "refill": refill}
        if self._solo:
            turn["phase"] = phase
        return turn

    def to_record(self) -> dict[str, Any]:
        """The record as a JSON-ready dict (see docs/records.md)."""
        state = self.state
        game = state.game
        record: dict[str, Any] = {
            "game": "nova-luna",
            "format": FORMAT,
            "mode": game.mode,
            "players": self.players,
            "first_game": game.first_game,
            "seed": self.seed,
            "pile": list(state.pile_order()),
            "created": self.created,
            "engine": f"tabletop {__version__}",
        }
        if not game.solo:
            record["start_stack"] = list(state.start_stack)
        turns = list(self.turns)
        if self._open_turn is not None:
            turns.append(self._open_turn)
        record["turns"] = turns
        record["over"] = state.is_over
        if state.is_over:
            record["result"] = result_json(state)
        return record


R = TypeVar("R", bound=Recorder)


def result_json(state: State) -> dict[str, Any]:
    """The ``"result"`` object of a finished game."""
    result = state.result()
    if isinstance(result, SoloResult):
        return {
            "phase1": result.phase1,
            "phase2": result.phase2,
            "total": result.total,
            "discs_placed": result.discs_placed,
            "tiles_taken": result.tiles_taken,
        }
    return {
        "ranking": list(result.ranking),
        "discs_left": list(result.discs_left),
        "tiles_taken": list(result.tiles_taken),
        "ended_by": "last disc" if result.winner_by_last_disc else "no tiles left",
    }


# -- replay ---------------------------------------------------------------------


def replay(record: Any, on_turn: Callable[[Recorder], None] | None = None) -> Recorder:
    """Rebuild a game from a record, checking every turn; raise ``RecordError``.

    ``on_turn(recorder)`` is called once set up and after each replayed turn
    (e.g. to show the game step by step).
    """
    return _replay(record, Recorder, on_turn)


def _replay(record: Any, kind: type[R], on_turn: Callable[[Recorder], None] | None = None) -> R:
    game, players, seed = _header(record)
    state = _initial_state(game, record, seed)
    rec = kind(state, players, seed=seed, created=record.get("created"))
    replay_steps(rec, record.get("turns"), "turn", _replay_turn, on_turn)
    _check_end(rec, record)
    return rec


# -- seat records (docs/records.md, "Seat records") ------------------------------------


def seat_record(rec: Recorder, seat: int) -> dict[str, Any]:
    """The game so far as ``seat`` has seen it: the record without ``"seed"``, with
    ``"revealed"`` (the tiles drawn so far, in draw order) in place of ``"pile"``.
    Every move is public, and so is the start stack.

    >>> from tabletop.games.novaluna.rules import Game
    >>> rec = Recorder.new(Game(players=2), ["Ann", "Bob"], seed=4)
    >>> mine = seat_record(rec, 1)
    >>> mine["seat"], len(mine["revealed"]), "seed" in mine or "pile" in mine
    (1, 11, False)
    >>> again = read_seat_record(mine, seed=9).recorder.state
    >>> again.wheel == rec.state.wheel and again.pile_order() != rec.state.pile_order()
    True
    """
    state = rec.state
    return seat_record_of(rec.to_record(), seat, "pile", list(state.pile_order()[: state.drawn]))


class _Logged(Recorder):
    """A recorder that also lists the actions applied through it, with their seats."""

    def _start_log(self) -> None:
        super()._start_log()
        self.moves: list[tuple[int, Action]] = []

    def apply(self, action: Action, seat: int | None = None) -> list[tuple[int, int, int]]:
        mover = self.state.current_seat
        covered = super().apply(action, seat)
        self.moves.append((mover, action))
        return covered


@dataclass(frozen=True)
class Determinized:
    """A seat record made whole (``read_seat_record``): the game replayed, the deal it
    was dealt (``Setup.deal``'s options of the research encoding: ``"pile"`` and
    ``"start_stack"``) and the actions applied, with their seats, in order."""

    recorder: Recorder
    deal: dict[str, Any]
    moves: list[tuple[int, Action]]


def read_seat_record(seat_record: Any, seed: int) -> Determinized:
    """A game consistent with ``seat_record`` (``seat_record()``'s shape): the tiles not
    revealed shuffled from ``seed`` after the revealed ones, then every turn replayed and
    checked. ``RecordError`` for anything else."""
    record, _seat, revealed = open_seat_record(seat_record, "pile", seed)
    if len(set(revealed)) != len(revealed) or not set(revealed) <= set(TILE_IDS):
        raise RecordError("'revealed' must list distinct tile ids 1 to 68")
    if len(revealed) < 11:
        raise RecordError("'revealed' must begin with the 11 tiles laid out at the start")
    rest = sorted(set(TILE_IDS) - set(revealed))
    random.Random(seed).shuffle(rest)
    record["pile"] = revealed + rest
    rec = _replay(record, _Logged)
    if rec.state.drawn != len(revealed):
        raise RecordError(
            f"'revealed' lists {len(revealed)} tiles but the turns drew {rec.state.drawn}"
        )
    deal = {"pile": record["pile"], "start_stack": record.get("start_stack")}
    return Determinized(rec, deal, rec.moves)


def _header(record: Any) -> tuple[Game, list[str], int | None]:
    players = check_header(record, "nova-luna", "a Nova Luna record", FORMAT)
    mode = record.get("mode")
    expected = "solo" if len(players) == 1 else "standard"
    if mode != expected:
        raise RecordError(f"'mode' is {mode!r} but {len(players)} players means {expected!r}")
    first_game = record.get("first_game", False)
    if not isinstance(first_game, bool):
        raise RecordError("'first_game' must be true or false")
    seed = record_seed(record)
    try:
        game = Game(players=len(players), first_game=first_game)
    except ValueError as err:
        raise RecordError(str(err)) from None
    return game, players, seed


def _initial_state(game: Game, record: dict[str, Any], seed: int | None) -> State:
    pile = record.get("pile")
    stack = record.get("start_stack") if not game.solo else None
    if not isinstance(pile, list) or not all(type(t) is int for t in pile):
        raise RecordError("'pile' must list the 68 tile ids in draw order")
    if not game.solo and not (isinstance(stack, list) and all(type(s) is int for s in stack)):
        raise RecordError("'start_stack' must list the seats from bottom to top")
    try:
        state = game.new_state(pile=pile, start_stack=stack)
    except ValueError as err:
        raise RecordError(str(err)) from None
    if seed is not None:
        from_seed = game.new_state(seed)
        if from_seed.pile_order() != state.pile_order() or (
            from_seed.start_stack != state.start_stack
        ):
            raise RecordError(f"the pile or start stack does not match seed {seed}")
    return state


def _replay_turn(rec: Recorder, turn: Any, last: bool) -> None:
    state = rec.state
    if not isinstance(turn, dict):
        raise RecordError("each turn must be a JSON object")
    if state.is_over:
        raise RecordError("the game was already over")
    _expect(turn, "seat", state.current_seat, "seat")
    refill_action: Action
    if state.game.solo:
        refill_action = END_PHASE
        if turn.get("phase") not in (1, 2):
            raise RecordError("solo turns need 'phase': 1 or 2")
    else:
        refill_action = REFILL
    refill = turn.get("refill")
    if not isinstance(refill, bool):
        raise RecordError("'refill' must be true or false")
    if refill and not state.refilled:
        rec.apply(refill_action)
    elif not refill and state.refilled:
        raise RecordError("the wheel was refilled at the start of this turn but 'refill' is false")
    if state.game.solo:
        _expect(turn, "phase", state.phase, "phase")
    if "space" not in turn and last:
        return  # an unfinished turn: only the refill happened
    space, cell = turn.get("space"), turn.get("cell")
    if type(space) is not int or not _is_cell(cell):
        raise RecordError("a turn needs 'space' (0-11) and 'cell' [x, y]")
    _expect(turn, "tile", state.wheel[space] if 0 <= space < 12 else None, "tile on that space")
    covered = rec.apply(Place(space, cell[0], cell[1]))
    recorded = turn.get("covered")
    if not isinstance(recorded, list) or sorted(map(_triple, recorded)) != sorted(covered):
        raise RecordError(
            f"'covered' is {recorded} but the placement covers {[list(c) for c in covered]}"
        )


def _is_cell(cell: Any) -> TypeGuard[list[int]]:
    return isinstance(cell, list) and len(cell) == 2 and all(type(v) is int for v in cell)


def _triple(item: Any) -> tuple[int, int, int]:
    if isinstance(item, list) and len(item) == 3 and all(type(v) is int for v in item):
        return tuple(item)
    raise RecordError(f"covered tasks are [x, y, task_index], not {item!r}")


def _expect(turn: dict[str, Any], key: str, actual: Any, what: str) -> None:
    if turn.get(key) != actual:
        raise RecordError(f"'{key}' is {turn.get(key)!r} but the {what} is {actual!r}")


def _check_end(rec: Recorder, record: dict[str, Any]) -> None:
    state = rec.state
    claimed = claimed_result(record, state.is_over)
    if claimed is not None:
        actual = result_json(state)
        for key, value in claimed.items():
            if key in actual and actual[key] != value:
                raise RecordError(f"result '{key}' is {value} but the game gives {actual[key]}")
