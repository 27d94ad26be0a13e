"""Real-time play: a Fischer clock per seat, worked out from the stored actions' times.

A game with the options ``clock_base`` (seconds each seat starts with) and
``clock_increment`` (seconds added after each of its moves) gives every person's
seat a clock. Nothing about the clocks is stored beyond what every game stores
anyway (when it started, the time of each action, an undo's time), so they
survive restarts and agree between server processes: ``reckon`` replays those
times. A seat's clock runs while it is to act; when it acts, the time since its
turn began is taken off and the increment added. In a simultaneous round (NMBR 9)
the clocks of every seat to act run at once, each stopping when its seat places
(a take-back sets it running again, as if it had never stopped; the page already
shows who has placed, so a stopped clock tells nothing new).

A seat whose clock reaches zero is out of time for the rest of the game: the game
is abandoned, or the default bot plays its every move from then on (``on_timeout``),
its clock staying at zero. An undo (only in unrated games without other people)
gives back the clocks as they stood at the position it returns to: the time spent
on the moves it took back counts for nobody; the clocks run again from the undo.
Bot seats have no clock.

>>> control = Control(60.0, 2.0)
>>> clocks = reckon(control, (0, 1), False, 0.0, [Event(0, 10.0)], frozenset({1}), None, 15.0)
>>> clocks.left, clocks.running  # seat 0 used 10 s and got 2; seat 1 has used 5 s
((52.0, 55.0), (1,))
>>> clocks.deadline(15.0)
70.0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

#: the shortest and longest base time and increment a game may have (seconds)
BASE_RANGE = (60, 3 * 3600)
INCREMENT_RANGE = (0, 180)


@dataclass(frozen=True)
class Control:
    """A game's time control: seconds each seat starts with, seconds added per move."""

    base: float
    increment: float


def control_of(options: dict[str, Any]) -> Control | None:
    """The stored options' clock, if the game has one."""
    base = options.get("clock_base")
    if type(base) is not int or base <= 0:
        return None
    increment = options.get("clock_increment", 0)
    return Control(float(base), float(increment if type(increment) is int else 0))


@dataclass(frozen=True)
class Event:
    """A stored action as the clocks see it: who, when, and what it did."""

    seat: int
    at: float  # Unix time
    reveals: bool = False  # a simultaneous round resolved with it
    take_back: bool = False  # a simultaneous round's pending action withdrawn
    by_clock: bool = False  # played for the seat: its time had run out


@dataclass(frozen=True)
class Clocks:
    """Each seat's time left (seconds; ``None``: no clock) as of ``now``, the seats
    whose clocks run, and those out of time for good."""

    left: tuple[float | None, ...]
    running: tuple[int, ...]
    flagged: frozenset[int]

    def deadline(self, now: float) -> float | None:
        """When the first running clock reaches zero (``now`` or before: it has)."""
        times = [now + (self.left[s] or 0.0) for s in self.running]
        return min(times, default=None)

    def out_of_time(self) -> tuple[int, ...]:
        """The running seats whose clocks are at zero."""
        return tuple(s for s in self.running if not self.left[s])

    def frame(self, control: Control, now: float) -> dict[str, Any]:
        """The clocks as a state frame carries them: milliseconds left per seat as of
        the server's ``now`` (also in milliseconds), and which run."""
        return {
            "base": control.base,
            "increment": control.increment,
            "left_ms": [None if v is None else round(v * 1000) for v in self.left],
            "running": list(self.running),
            "flagged": sorted(self.flagged),
            "now_ms": round(now * 1000),
        }


def reckon(
    control: Control,
    timed: Iterable[int],
    simultaneous: bool,
    started: float,
    events: Sequence[Event],
    active: frozenset[int],
    undo_at: float | None,
    now: float,
    seats: int | None = None,
) -> Clocks:
    """The clocks of the seats in ``timed`` after ``events`` (from ``started``), at
    ``now``, with ``active`` the seats to act now (none: the clocks stand still).
    ``undo_at``: the last undo's time, from which the clocks ran again."""
    tally = _Tally(control, frozenset(timed), undo_at)
    turn_start = started
    pending: dict[int, Event] = {}
    for event in events:
        if not simultaneous:
            tally.moved(event, turn_start)
            turn_start = event.at
            continue
        if event.take_back:
            pending.pop(event.seat, None)
        else:
            pending[event.seat] = event
        if event.reveals:
            for placed in pending.values():
                tally.moved(placed, turn_start)
            pending.clear()
            turn_start = event.at
    for placed in pending.values():  # stopped: they placed in the round under way
        tally.moved(placed, turn_start)
    running = tuple(sorted(s for s in active & tally.timed if s not in pending))
    for seat in running:
        tally.run(seat, turn_start, now)
    count = seats if seats is not None else max(tally.timed, default=-1) + 1
    left = tuple(tally.left.get(s) for s in range(count))
    return Clocks(left, running, frozenset(tally.flagged))


class _Tally:
    """The seats' time left while ``reckon`` goes through the events."""

    def __init__(self, control: Control, timed: frozenset[int], undo_at: float | None) -> None:
        self.control = control
        self.timed = timed
        self.undo_at = undo_at
        self.left = {seat: control.base for seat in timed}
        self.flagged: set[int] = set()

    def span(self, start: float, end: float) -> float:
        """Seconds charged from ``start`` to ``end``: not the part before an undo that
        falls between them (spent on moves it took back)."""
        if self.undo_at is not None and start < self.undo_at < end:
            start = self.undo_at
        return max(0.0, end - start)

    def moved(self, event: Event, turn_start: float) -> None:
        seat = event.seat
        if seat not in self.timed or seat in self.flagged:
            return
        left = self.left[seat] - self.span(turn_start, event.at)
        if event.by_clock:
            self.flagged.add(seat)
            self.left[seat] = 0.0
        else:  # a move that made it in the last instant before the timer: still in time
            self.left[seat] = max(0.0, left) + self.control.increment

    def run(self, seat: int, turn_start: float, now: float) -> None:
        if seat not in self.flagged:
            self.left[seat] = max(0.0, self.left[seat] - self.span(turn_start, now))
