"""What every simultaneous game shares, written once (``GameType.dynamics`` is
``SIMULTANEOUS``): a game of rounds where every seat acts once a round, each action
hidden from the other seats until the last one arrives and the round *resolves*.

Until then an action is *pending*: its seat may take it back (``TAKE_BACK``), the
public log says only that the seat has acted, and a seat record shows it to the other
seats only as ``HIDDEN``. The pieces, each a game's hook away from working:

* ``RoundRecorder``: the record's ``"rounds"`` (per round its public facts, e.g. the card
  turned, and one entry per seat under ``actions_key``), apply and take back;
* ``RoundPage``: the page's ``play``, ``take_back``, ``undo`` (``undo_last_round``) and
  ``frames`` over a ``RoundRecorder``;
* ``round_seat_record`` and ``open_hidden`` / ``draw_hidden``: a seat record with the
  other seats' pending actions hidden, and a determinized game drawn from one.

See docs/adding-a-game.md, "A simultaneous game", and Sealed Bids (tests/sealedbid/)
for a small game built on them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar, cast

from ..i18n import N_, Part, part, parts_text
from ..records import EngineState, RecorderBase, seat_record_of
from .errors import IllegalActionError, RecordError
from .match import TAKE_BACK
from .page import Applied, Step, Undo, page_view, undo_last_round

if TYPE_CHECKING:
    from .game import JSON, GameType, State
    from .page import GamePage

#: In a seat record: another seat's action of the current round, made but not shown.
HIDDEN = "hidden"


class RoundState(EngineState, Protocol):
    """What ``RoundRecorder`` needs of a simultaneous game's engine state."""

    @property
    def is_over(self) -> bool: ...

    def acting_seats(self) -> Sequence[int]: ...

    def apply(self, action: Any, seat: int) -> object: ...  # Any: the game's action

    def view(self, seat: int | None) -> Any: ...  # Any: the game's own view

    def take_back(self, seat: int) -> object:
        """Withdraw ``seat``'s pending action of the round (``IllegalActionError`` if it
        has none); what it had applied."""


S = TypeVar("S", bound=RoundState)


class RoundRecorder(RecorderBase[S]):
    """A simultaneous game in progress with its record's ``rounds``: per round the
    round's public facts (``round_facts``) and, under ``actions_key``, one entry per
    seat (``action_entry``; ``None`` until the seat acts). A round resolves when every
    seat has acted: the last round is *open* while an entry is ``None``."""

    #: The key of a round's actions in the record, e.g. ``"placements"``, ``"bids"``.
    actions_key: ClassVar[str]

    def round_facts(self) -> JSON:
        """The public facts of the round about to be played, as the record keeps them
        beside its actions (e.g. ``{"card": 8}``); asked before its first action."""
        raise NotImplementedError

    def action_entry(self, action: Any, applied: Any) -> Any:
        """The record's entry of one seat's ``action``, given what ``State.apply``
        returned (``applied``): JSON, never ``None``."""
        raise NotImplementedError

    def to_record(self) -> JSON:
        """The game's record (its ``"rounds"``: ``rounds_json``)."""
        raise NotImplementedError

    def _start_log(self) -> None:
        self.rounds: list[JSON] = []

    @property
    def round_open(self) -> bool:
        """Whether the last round still waits for a seat's action."""
        return bool(self.rounds) and None in self.rounds[-1][self.actions_key]

    @property
    def round_number(self) -> int:
        """The round being played (from 0): the open one, or the next."""
        return len(self.rounds) - 1 if self.round_open else len(self.rounds)

    def apply(self, action: Any, seat: int) -> Any:
        """Apply ``seat``'s ``action`` and record it (nothing changes if it is illegal)."""
        facts = None if self.round_open else self.round_facts()
        applied = self.state.apply(action, seat)
        if facts is not None:
            self.rounds.append({**facts, self.actions_key: [None] * self.state.game.players})
        self.rounds[-1][self.actions_key][seat] = self.action_entry(action, applied)
        return applied

    def take_back(self, seat: int) -> object:
        """Withdraw ``seat``'s pending action, in the state and the record: a round left
        without actions goes from the record."""
        if not self.round_open or self.rounds[-1][self.actions_key][seat] is None:
            raise IllegalActionError(
                N_("you have nothing to take back: no action of yours is waiting this round")
            )
        taken = self.state.take_back(seat)
        actions = self.rounds[-1][self.actions_key]
        actions[seat] = None
        if all(entry is None for entry in actions):
            self.rounds.pop()
        return taken

    def lend_view(self, seat: int) -> Any:  # Any: the game's own view
        return self.state.view(seat)

    def rounds_json(self) -> list[JSON]:
        """The record's ``"rounds"``: a copy."""
        key = self.actions_key
        return [{**entry, key: list(entry[key])} for entry in self.rounds]

    def clone(self) -> RoundRecorder[S]:
        new = self._fresh_copy()
        new.rounds = self.rounds_json()
        return new


# -- the page -------------------------------------------------------------------------

R = TypeVar("R", bound=RoundRecorder[Any])


class RoundPage(Generic[R]):
    """The ``GamePage`` methods a simultaneous game shares: ``play`` and ``take_back``
    (their public log entries), ``undo`` and ``frames``. A game's page subclasses it
    and sets ``action_kind`` and ``unresolved``, and implements the four hooks."""

    #: The log's ``"kind"`` of an action, e.g. ``"place"``, ``"bid"``.
    action_kind: ClassVar[str]
    #: Why there is nothing to undo before a round has resolved (a msgid).
    unresolved: ClassVar[str] = N_("no round has resolved yet: you have nothing to undo")

    def acted_parts(self, facts: JSON) -> list[Part]:
        """What everybody is told when a seat acts in a round of ``facts``: that it has
        acted, never what (``[part(N_("placed their {card}"), card=...)]``)."""
        raise NotImplementedError

    def taken_back_parts(self, facts: JSON) -> list[Part]:
        """What everybody is told when a seat takes its action back."""
        raise NotImplementedError

    def round_log(self, number: int, entry: JSON) -> JSON:
        """The public log entry of a resolved round (``entry``: the record's round):
        ``{"kind": "round", "round": number, ..., "parts", "text"}``."""
        raise NotImplementedError

    def replay_rounds(self, record: Any, on_round: Callable[[R], None]) -> None:
        """Replay ``record``, checking it, calling ``on_round(recorder)`` once set up and
        after each round (``tabletop.records.replay_steps``)."""
        raise NotImplementedError

    def replay_view(self, recorder: R) -> JSON:
        """A replay frame's view: what a spectator sees (``core.page.page_view``)."""
        # a subclass is the whole GamePage; this mixin alone is not
        return page_view(cast("GamePage[Any]", self), cast("State", recorder.state), None)

    def play(self, recorder: R, seat: int, action: Any) -> Applied:
        number, facts = recorder.round_number, _facts(recorder)
        recorder.apply(action, seat)
        log: JSON = {"seat": seat, "kind": self.action_kind, "round": number, **facts}
        parts = self.acted_parts(facts)
        resolved = not recorder.round_open
        if resolved:  # the last action of the round: all of them come to light
            log["resolved"] = self.round_log(number, recorder.rounds[number])
            parts = [*parts, part(N_("; ")), *log["resolved"]["parts"]]
            if recorder.state.is_over:
                parts.append(part(N_("; the game is over")))
        log["parts"] = parts
        log["text"] = parts_text(parts)
        return Applied(log=log, reveals=resolved)

    def take_back(self, recorder: R, seat: int) -> Applied:
        number, facts = recorder.round_number, _facts(recorder)
        recorder.take_back(seat)
        parts = self.taken_back_parts(facts)
        log = {"seat": seat, "kind": TAKE_BACK, "round": number, **facts, "parts": parts}
        return Applied(log={**log, "text": parts_text(parts)}, reveals=False)

    def undo(self, steps: Sequence[Step], seat: int) -> Undo | str:
        return undo_last_round(steps, seat, self.unresolved)

    def frames(self, game: GameType, record: Any) -> list[JSON]:
        frames: list[JSON] = []
        log: list[JSON] = []

        def on_round(rec: R) -> None:
            if len(log) < len(rec.rounds):
                number = len(rec.rounds) - 1
                log.append(self.round_log(number, rec.rounds[number]))
            frames.append({"view": self.replay_view(rec), "log": list(log)})

        self.replay_rounds(record, on_round)
        return frames


def _facts(recorder: RoundRecorder[Any]) -> JSON:
    """The public facts of the round being played (the open one's, or the next's)."""
    if recorder.round_open:
        entry = recorder.rounds[-1]
        return {k: v for k, v in entry.items() if k != recorder.actions_key}
    return recorder.round_facts()


# -- seat records -----------------------------------------------------------------------


def round_seat_record(
    recorder: RoundRecorder[Any], seat: int, secret: str, revealed: list[int]
) -> JSON:
    """``GameType.seat_record`` of a simultaneous game: ``seat_record_of`` the record
    (no ``"seed"``, ``"revealed"`` in place of ``secret``), and in the open round every
    other seat's action, if it has made one, as ``HIDDEN``: its page shows only that it
    has acted."""
    out = seat_record_of(recorder.to_record(), seat, secret, revealed)
    if recorder.round_open:
        key = recorder.actions_key
        *done, last = out["rounds"]
        shown = [
            HIDDEN if other != seat and entry is not None else entry
            for other, entry in enumerate(last[key])
        ]
        out["rounds"] = [*done, {**last, key: shown}]
    return out


def open_hidden(record: JSON, seat: int, key: str) -> tuple[list[int], JSON | None]:
    """Take the ``HIDDEN`` actions out of a seat record's rounds (``open_seat_record``'s
    record), so that it replays as a record: the seats whose action of the last round is
    hidden, and that round's entry as the seat saw it (``None`` without hidden actions;
    a round of hidden actions only is left out, ``draw_hidden`` plays it again).
    ``RecordError`` where a hidden action may not be."""
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        return [], None  # replay says what is wrong, if anything
    for number, entry in enumerate(rounds[:-1], 1):
        if isinstance(entry, dict) and HIDDEN in _list(entry.get(key)):
            raise RecordError(f"round {number}: only the current round has hidden actions")
    last = rounds[-1]
    actions = _list(last.get(key)) if isinstance(last, dict) else []
    hidden = [other for other, entry in enumerate(actions) if entry == HIDDEN]
    if not hidden:
        return [], None
    if seat in hidden:
        raise RecordError("a seat's own action is never hidden from it")
    shown = [None if entry == HIDDEN else entry for entry in actions]
    kept = [{**last, key: shown}] if any(entry is not None for entry in shown) else []
    record["rounds"] = [*rounds[:-1], *kept]
    return hidden, last


def draw_hidden(
    recorder: RoundRecorder[Any],
    hidden: list[int],
    seen: JSON,
    rng: random.Random,
    legal: Callable[[int], Sequence[object]],
) -> list[tuple[int, object]]:
    """Play the ``hidden`` seats' actions of the open round (``open_hidden``), each drawn
    with ``rng`` among ``legal(seat)`` (the seat's legal actions, or those an encoding can
    express), on a game replayed from the seat record; the actions, with their seats.
    ``RecordError`` unless the round is then still open and its public facts are those
    the seat saw (``seen``: the round's entry in the seat record)."""
    key, moves = recorder.actions_key, []
    for other in hidden:
        if other not in recorder.state.acting_seats():
            raise RecordError(f"seat {other} cannot have a hidden action now")
        choices = legal(other)
        if not choices:
            raise RecordError(f"seat {other} has no action that fits")
        action = rng.choice(choices)
        recorder.apply(action, other)
        moves.append((other, action))
    if not recorder.round_open:
        raise RecordError(
            "every seat has acted in the current round, so it has resolved and shows "
            "every action: none is hidden"
        )
    facts = {k: v for k, v in recorder.rounds[-1].items() if k != key}
    claimed = {k: v for k, v in seen.items() if k != key}
    if facts != claimed:
        raise RecordError(f"the current round is {facts}, not {claimed}")
    return moves


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
