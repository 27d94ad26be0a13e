"""Record plumbing shared by every game: reading record files, writing them safely.

A record is one JSON object per game, tagged with its ``"game"`` and
``"format"``; each game documents and checks its own (see ``docs/``). A file
holds one record (``.json``) or one per line (``.jsonl``).

>>> dumps({"game": "nmbr9", "format": 1})
'{"game":"nmbr9","format":1}'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Generic, Protocol, Self, TypeVar

from .core.errors import IllegalActionError, RecordError
from .core.game import JSON

R = TypeVar("R", bound="RecorderBase[Any]")
_WHOLE = re.compile(r"-?[0-9]{1,30}")  # no longer than any seed needs


def read_records(path: str | Path) -> Iterator[tuple[int, Any]]:
    """Yield ``(line number, record)`` from a .json file or a JSON-lines file."""
    text = Path(path).read_text("utf-8")
    stripped = text.strip()
    if not stripped:
        raise RecordError(f"{path} is empty")
    try:
        yield 1, json.loads(stripped)
        return
    except json.JSONDecodeError:
        pass
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                yield number, json.loads(line)
            except json.JSONDecodeError as err:
                raise RecordError(f"line {number} is not JSON: {err.msg}") from None


# Records are trees built by the recorders, never cyclic: the encoder's check for cycles
# (a fifth of a selfplay record's encoding) is left out; the text is the same.
_encode_line = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def dumps(record: dict[str, Any]) -> str:
    """One record as a single line of JSON."""
    return _encode_line(record)


def save(record: dict[str, Any], path: str | Path) -> None:
    """Write one record as a .json file, atomically (never a half-written file)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(record, indent=1) + "\n", "utf-8")
    tmp.replace(path)


def record_game(record: Any) -> str | None:
    """The ``"game"`` a record says it is, or ``None``."""
    game = record.get("game") if isinstance(record, dict) else None
    return game if isinstance(game, str) else None


# -- what every game's recorder shares ------------------------------------------------


class _Seats(Protocol):
    @property
    def players(self) -> int: ...


class EngineState(Protocol):
    """What ``RecorderBase`` needs of a game's engine state."""

    @property
    def game(self) -> _Seats: ...

    def clone(self) -> Self: ...


S = TypeVar("S", bound=EngineState)
S_co = TypeVar("S_co", bound=EngineState, covariant=True)


class Dealer(Protocol[S_co]):
    """A game's rules (its engine's ``Game``): it deals new states."""

    def new_state(self, seed: int | None = None) -> S_co: ...


class RecorderBase(Generic[S]):
    """A game in progress with what every record holds: the seat names, the seed and
    when the game was made. A game's ``Recorder`` adds its own log of moves."""

    def __init__(
        self, state: S, players: list[str], *, seed: int | None, created: str | None = None
    ) -> None:
        if len(players) != state.game.players:
            raise ValueError(f"{state.game.players} seat names needed, got {len(players)}")
        self.state = state
        self.players = list(players)
        self.seed = seed
        self.created = created or datetime.now(UTC).isoformat(timespec="seconds")
        self._start_log()

    def _start_log(self) -> None:
        """Set up the game's own, still empty log of moves."""

    @classmethod
    def new(cls, game: Dealer[S], players: list[str], seed: int | None = None) -> Self:
        """A new game of the engine's ``game``, shuffled from ``seed``."""
        return cls(game.new_state(seed), players, seed=seed)

    def _fresh_copy(self) -> Self:
        """A recorder of a copy of the state, its log still empty (``clone`` fills it)."""
        return type(self)(self.state.clone(), self.players, seed=self.seed, created=self.created)


def check_header(record: Any, game: str, what: str, format: int) -> list[str]:
    """The seat names of a record of ``game`` in ``format``; ``RecordError`` if it is
    not one (``what``: e.g. ``"a Nova Luna record"``)."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    if record.get("game") != game:
        raise RecordError(f"not {what} ('game' must be \"{game}\")")
    if record.get("format") != format:
        raise RecordError(f"unsupported record format {record.get('format')!r}; expected {format}")
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("'players' must be a list of seat names")
    return players


def whole_number(value: Any) -> int | None:
    """An integer written as a JSON number or as its decimal string, else ``None``. The
    server sends integers beyond 2^53 - 1 (seeds) as strings, since a JavaScript number
    would round them; whatever a client was sent, it may send back.

    >>> whole_number("921618756291718491"), whole_number(42), whole_number(True)
    (921618756291718491, 42, None)
    >>> whole_number("1e3"), whole_number(" 7"), whole_number("-5"), whole_number(1.0)
    (None, None, -5, None)
    """
    if type(value) is int:
        return value
    if isinstance(value, str) and _WHOLE.fullmatch(value):
        return int(value)
    return None


def record_seed(record: dict[str, Any]) -> int | None:
    """A record's ``"seed"``: null, or a whole number as a number or a decimal string
    (a record downloaded from the server has a big seed as a string)."""
    seed = record.get("seed")
    if seed is None:
        return None
    number = whole_number(seed)
    if number is None:
        raise RecordError("'seed' must be a whole number (or its decimal string) or null")
    return number


def replay_steps(
    recorder: R,
    steps: Any,
    unit: str,
    replay_one: Callable[[R, Any, bool], None],
    on_step: Callable[[R], None] | None = None,
) -> None:
    """Replay a record's list of ``steps`` (``unit``: "turn", "round") one by one with
    ``replay_one(recorder, step, last)``; ``RecordError`` names the step at fault.
    ``on_step(recorder)`` is called once set up and after each step."""
    if not isinstance(steps, list):
        raise RecordError(f"'{unit}s' must be a list")
    if on_step is not None:
        on_step(recorder)
    for number, step in enumerate(steps, 1):
        try:
            replay_one(recorder, step, number == len(steps))
        except (RecordError, IllegalActionError) as err:
            raise RecordError(f"{unit} {number}: {err}") from None
        if on_step is not None:
            on_step(recorder)


def claimed_result(record: dict[str, Any], over: bool) -> dict[str, Any] | None:
    """The result a record claims, checked against whether its game is ``over`` (the
    game compares the figures); ``None`` if it claims none."""
    if "over" in record and record["over"] != over:
        state = "over" if over else "not over"
        raise RecordError(f"'over' is {record['over']} but the game is {state}")
    if "result" not in record:
        return None
    if not over:
        raise RecordError("the record has a result but the game is not over")
    claimed = record["result"]
    if not isinstance(claimed, dict):
        raise RecordError("'result' must be an object")
    return claimed


# -- seat records: the game as one seat has seen it -----------------------------------


def seat_record_of(record: dict[str, Any], seat: int, secret: str, revealed: list[int]) -> JSON:
    """A game's ``record`` as ``seat`` has seen it (``GameType.seat_record``): without
    ``"seed"``, with ``"revealed"`` (the chance outcomes seen so far, in order) in place
    of ``secret`` (the key of the whole draw order), and ``"seat"`` after ``"players"``.
    The game leaves out the moves hidden from the seat itself."""
    players = record.get("players", [])
    if type(seat) is not int or not 0 <= seat < len(players):
        raise RecordError(f"there is no seat {seat!r} in a game of {len(players)}")
    out: JSON = {}
    for key, value in record.items():
        if key == "seed":
            continue
        if key == secret:
            out["revealed"] = list(revealed)
            continue
        out[key] = value
        if key == "players":
            out["seat"] = seat
    return out


def open_seat_record(seat_record: Any, secret: str, seed: Any) -> tuple[JSON, int, list[int]]:
    """The checks every game's ``determinize`` starts with: ``seat_record`` is an object
    with a ``"seat"`` among its ``"players"`` and a ``"revealed"`` list of integers, and
    nothing of the unseen order (``"seed"``, ``secret``); ``seed`` is an integer.
    Returns the record without ``"seat"`` and ``"revealed"`` (``"seed"`` null: the game
    adds ``secret``, drawn from ``seed``, and replays it), the seat and the revealed list.
    """
    if not isinstance(seat_record, dict):
        raise RecordError("a seat record must be a JSON object")
    for key in ("seed", secret):
        if key in seat_record:
            raise RecordError(
                f"not a seat record: it has {key!r}, which no seat sees (a whole record "
                "replays as it is)"
            )
    if type(seed) is not int:
        raise RecordError(f"the seed must be an integer, not {seed!r}")
    players = seat_record.get("players")
    if not isinstance(players, list) or not players:
        raise RecordError("'players' must be a list of seat names")
    seat = seat_record.get("seat")
    if type(seat) is not int or not 0 <= seat < len(players):
        raise RecordError(f"'seat' must be a seat number 0 to {len(players) - 1}, not {seat!r}")
    revealed = seat_record.get("revealed")
    if not isinstance(revealed, list) or not all(type(item) is int for item in revealed):
        raise RecordError("'revealed' must list what the seat has seen drawn, in order")
    record = {k: v for k, v in seat_record.items() if k not in ("seat", "revealed")}
    record["seed"] = None
    return record, seat, revealed
