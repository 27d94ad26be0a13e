"""The tournament engine's data: an event's format, its entrants, games and byes.

Everything here is plain immutable data; the server stores it and hands it back to the
engine's functions (:mod:`.scoring`, :mod:`.arena`, :mod:`.swiss`), which never read a
clock, a store or a random number generator.
"""

from __future__ import annotations

from collections.abc import Callable, Set
from dataclasses import dataclass
from typing import Literal, TypeAlias

Kind = Literal["arena", "swiss"]

#: Pairs of entrants that must never sit at one table (blocks): either a predicate
#: ``apart(a, b)`` (asked both ways round) or a set of ``frozenset({a, b})`` pairs.
Apart: TypeAlias = Callable[[int, int], bool] | Set[frozenset[int]]

MAX_ROUNDS = 15
MIN_MINUTES, MAX_MINUTES = 10, 360


@dataclass(frozen=True)
class Format:
    """How an event is played: ``players`` is the largest table, ``min_players`` the
    smallest one the engine may form (the server passes max(the game's smallest table,
    players - 1) for players >= 3, else 2)."""

    kind: Kind
    players: int
    min_players: int
    rounds: int | None = None  # Swiss only: 1..15
    minutes: int | None = None  # arena only: its length, 10..360

    def __post_init__(self) -> None:
        if self.kind not in ("arena", "swiss"):
            raise ValueError(f"unknown kind {self.kind!r}")
        if self.players < 2 or not 2 <= self.min_players <= self.players:
            raise ValueError("tables need 2 <= min_players <= players")
        if self.kind == "swiss" and (self.rounds is None or not 1 <= self.rounds <= MAX_ROUNDS):
            raise ValueError(f"a Swiss event has 1..{MAX_ROUNDS} rounds")
        if self.kind == "arena" and (
            self.minutes is None or not MIN_MINUTES <= self.minutes <= MAX_MINUTES
        ):
            raise ValueError(f"an arena lasts {MIN_MINUTES}..{MAX_MINUTES} minutes")


@dataclass(frozen=True)
class Entrant:
    """One participant of one event, numbered 1, 2, ... in order of joining."""

    entrant: int
    rating: float  # the rating of the event's pool when it joined (seeding only)
    active: bool = True  # False once withdrawn


@dataclass(frozen=True)
class Game:
    """One table of the event, finished or not."""

    game_id: str
    round: int  # Swiss: 1..rounds; arena: 0
    entrants: tuple[int, ...]  # in seat order
    ranks: tuple[int, ...] | None  # per seat, 1 = first, ties share; None: unfinished
    order: int  # creation order within the event (0, 1, 2, ...)


@dataclass(frozen=True)
class Bye:
    """A Swiss round an entrant sat out, scored as :func:`.scoring.bye_points`."""

    entrant: int
    round: int


@dataclass(frozen=True)
class Standing:
    """One line of the standings. ``tiebreaks`` are, for a Swiss, (Buchholz,
    Sonneborn-Berger) and, for an arena, (points per game,); docs/tournaments.md."""

    entrant: int
    place: int  # 1-based; equal standings share a place
    points: int
    games: int  # finished games played (byes not counted)
    wins: int  # games ranked first alone
    tiebreaks: tuple[float, ...]
    results: tuple[int, ...]  # points per finished game/bye in order (for display)


@dataclass(frozen=True)
class SwissRound:
    """The pairing of one Swiss round: its tables (seat order) and who sits it out."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]


def apart_predicate(apart: Apart | None) -> Callable[[int, int], bool]:
    """``apart`` as a symmetric predicate (a block by either side keeps both apart)."""
    if apart is None:
        return _never
    if callable(apart):
        ask = apart
        return lambda a, b: ask(a, b) or ask(b, a)
    pairs = apart
    return lambda a, b: frozenset((a, b)) in pairs


def _never(a: int, b: int) -> bool:
    return False
