"""What the server needs from a game: a small interface any turn-based tile game can meet.

The server, its storage and the page shell only ever talk to a game through
``GameType`` (static facts, creating matches, replays) and ``Match`` (one game
in progress). Actions travel as short strings in the game's own notation;
views, choices, log entries, results and records are JSON-ready dicts. A match
is rebuilt after a restart by creating it again from its options and seed and
re-applying the stored actions, so ``new_match`` and ``apply`` must be
deterministic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

JSON = dict[str, Any]


class OptionsError(ValueError):
    """Game options, seats or a bot name the game cannot accept; the message says why."""


class ActionRejected(ValueError):
    """An action that is malformed or not legal now; the match is unchanged."""


class ReplayError(ValueError):
    """A record that cannot be replayed; the message says where."""


@dataclass(frozen=True)
class Applied:
    """What applying one action did.

    ``log`` is a public log entry (with a human-readable ``"text"``); ``reveals``
    says whether hidden information came to light (e.g. tiles drawn from the
    pile), which undo must never cross.
    """

    log: JSON
    reveals: bool


@dataclass(frozen=True)
class Job:
    """Work for a bot process: ``function(*args)``, picklable, returns JSON-ready data."""

    function: Callable[..., Any]
    args: tuple[Any, ...]

    def run(self) -> Any:
        return self.function(*self.args)


class Match(Protocol):
    """One game in progress (the true state, secrets included)."""

    def clone(self) -> Match:
        """An independent copy: the server applies an action to a copy and keeps it
        only once the action is stored."""

    def to_move(self) -> int | None:
        """The seat that must act now; ``None`` once the game is over."""

    def is_over(self) -> bool: ...

    def apply(self, seat: int, action: str) -> Applied:
        """Validate and apply ``action`` for ``seat``; raise ``ActionRejected`` otherwise."""

    def view(self, seat: int | None) -> JSON:
        """Everything ``seat`` (``None``: a spectator) may see, and nothing more."""

    def choices(self, seat: int) -> list[JSON]:
        """The legal actions of ``seat`` if it is to move, each ``{"action": ...}`` plus
        whatever the page needs to preview it; otherwise ``[]``."""

    def result(self) -> JSON | None:
        """The outcome once over: ``{"ranking": [...]}`` or the game's own score."""

    def record(self, names: list[str]) -> JSON:
        """The full game record (secrets included: only for finished games)."""

    def bot_job(self, seat: int, bot: str, seed: int) -> Job:
        """A job whose result is the action string ``bot`` plays for ``seat`` now."""

    def hint_job(self, seat: int, seed: int) -> Job:
        """A job whose result is ``{"action": str, "reason": str}`` for ``seat``."""


class GameType(Protocol):
    """A game the server can host."""

    name: str  # e.g. "nova-luna"; used in URLs and storage
    title: str  # e.g. "Nova Luna"
    min_seats: int
    max_seats: int
    # False when every seat sees the same (no hidden hands): one view serves all.
    view_depends_on_seat: bool

    def describe(self) -> JSON:
        """Static facts for the page: bots per mode, option fields, game data."""

    def check_setup(self, seats: list[JSON], options: JSON) -> JSON:
        """Validate seats (``{"kind": "human"|"bot", "bot": spec}``) and options;
        return the options normalised. Raise ``OptionsError``."""

    def new_match(self, seats: int, options: JSON, seed: int) -> Match: ...

    def replay(self, record: Any) -> list[JSON]:
        """Frames of a record for the replay page: ``[{"view", "log"}]`` per step.
        Raise ``ReplayError``."""


_TYPES: dict[str, GameType] = {}


def register(game_type: GameType) -> None:
    _TYPES[game_type.name] = game_type


def game_types() -> dict[str, GameType]:
    if not _TYPES:
        from .games import load_builtin

        load_builtin()
    return dict(_TYPES)


def get_type(name: str) -> GameType:
    types = game_types()
    if name not in types:
        raise OptionsError(f"unknown game {name!r}; this server hosts {', '.join(sorted(types))}")
    return types[name]
