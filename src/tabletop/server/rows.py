"""What a game database holds and hands back, whichever database it is.

The row types are plain frozen dataclasses so that the rooms, the API and the
tests never see a database's own row objects; the errors are the two ways a
write can fail that the server answers differently (503 and 409).

>>> hash_token("tok") == hash_token("tok") != "tok"
True
>>> now()[:2], now()[-6:]
('20', '+00:00')
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from .clock import CLOCK


class StoreError(RuntimeError):
    """The database refused a write, or could not be reached; nothing of it was kept."""


class StoreConflict(StoreError):
    """Another server process changed the game first (its ``seq`` moved on)."""


#: the name of a seat open to the lobby until an account takes it
OPEN_NAME = "Open seat"


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    kind: str  # "human" or "bot"
    bot: str | None  # bot spec for bot seats
    token: str | None = None  # only when creating; stored hashed
    account_id: int | None = None  # the account that claimed the seat
    open: bool = False  # listed in the lobby until an account takes it
    rank: int | None = None  # once the game is over (1 best; ties share)
    invited: int | None = None  # an open seat kept for this account (not in the lobby)


@dataclass(frozen=True)
class GameRow:
    id: str
    type: str
    options: dict[str, Any]  # the game type's own options: any JSON object
    seed: int
    created: str
    updated: str
    over: bool
    seed_chosen: bool = False  # the creator fixed the seed, so they can know the pile
    creator: int | None = None  # the account that created it, if signed in
    undone: bool = False  # an undo was used: unrated
    abandoned: bool = False  # a move's time limit ran out with "abandon" chosen
    started: str | None = None  # when its last open seat was taken (else: created)
    seq: int = 0  # changes so far; only a shared store (PostgreSQL) counts them
    hinted: bool = False  # a seat asked for a hint: unrated
    timed_out: tuple[int, ...] = ()  # the seats whose time ran out when it ended
    clock_from: str | None = None  # an undo's time: the move clock counts from it at least
    resigned: bool = False  # ended by a resignation: ``timed_out`` holds who resigned


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    bot: bool = False  # a bot account: plays through the bot API, never on the page
    read_only: bool = False  # signed in by an API token without the "play" scope


@dataclass(frozen=True)
class TokenRow:
    """An API token of a bot account (``docs/bot-api.md``); the token itself is not kept."""

    id: int
    account: Account
    name: str
    scopes: tuple[str, ...]  # of ``tokens.SCOPES``
    created: str
    last_used: str | None


@dataclass(frozen=True)
class LeaderRow:
    """A player of a leaderboard: ``"a:<id>"`` or ``"b:<bot>"``, its rating, rated
    games, and how many different opponents it has met in them."""

    player: str
    mu: float
    sigma: float
    games: int
    opponents: int

    @property
    def ordinal(self) -> float:
        """The rating shown: mu - 3 sigma (openskill's ``ordinal``)."""
        return float(self.mu - 3 * self.sigma)

    @property
    def provisional(self) -> bool:
        """An account that has not met enough different opponents yet (see ``ratings``)."""
        from .ratings import provisional  # here: it brings openskill, which rows need not

        return provisional(self.player, self.opponents)


@dataclass(frozen=True)
class SessionRow:
    """A signed-in session: its account, when it began and when it was last used
    (``None``: not since it began, or stored before sessions were refreshed)."""

    account: Account
    created: str
    last_used: str | None


@dataclass(frozen=True)
class AccountGame:
    """One of an account's games, for "my games"."""

    id: str
    type: str
    seat: int
    over: bool
    abandoned: bool
    updated: str


@dataclass(frozen=True)
class ActionRow:
    ply: int
    seat: int
    action: str
    reveals: bool
    at: str
    by: str | None = None  # "clock": played for the seat when its time ran out


@dataclass(frozen=True)
class AnalysisRow:
    """A game's analysis: asked for at ``budget``, ``done`` of ``total`` decisions
    judged so far; once ``finished``, its ``result`` (JSON) or ``error``. Until then
    ``result`` is the analysis of the ``done`` decisions judged (or None)."""

    game_id: str
    budget: int
    requested: str
    done: int
    total: int | None
    finished: str | None
    result: dict[str, Any] | None
    error: str | None


@dataclass(frozen=True)
class DailyAttempt:
    """An account's counted attempt at a day's challenge, and how its game stands:
    ``helped`` if an undo, a take-back or a hint was used."""

    account_id: int
    name: str
    game_id: str
    over: bool
    abandoned: bool
    helped: bool


@dataclass(frozen=True)
class MailRow:
    """An account's e-mail settings (``mode``: "off", "turn" or "digest")."""

    account_id: int
    name: str  # the account's
    address: str
    verified: bool
    mode: str
    lang: str


def hash_token(token: str) -> str:
    """What is stored of a seat or session token: a copy of the database opens nothing."""
    import hashlib  # here: OpenSSL's library costs every command's start-up ~4 MiB

    return hashlib.sha256(token.encode()).hexdigest()


def now() -> str:
    """The time stored with a change: UTC, ISO 8601, to the millisecond (sorts as text),
    by the server's clock (a time limit counts from it)."""
    return CLOCK.stamp()


def days_ago(days: float) -> str:
    """The stored time (``now``'s form) ``days`` days ago."""
    return (CLOCK.utc() - timedelta(days=days)).isoformat(timespec="milliseconds")
