"""What the web server needs from a game: a small interface any tile game can meet.

A game playable in the browser offers a ``WebGame`` as its ``GameType.web``.
The server, its storage and the page shell only ever talk to it through
``WebGame`` (static facts, page assets, creating matches, replays) and
``Match`` (one game in progress). Actions travel as short strings in the game's own notation;
views, choices, log entries, results and records are JSON-ready dicts. A match
is rebuilt after a restart by creating it again from its options and seed and
re-applying the stored actions, so ``new_match`` and ``apply`` must be
deterministic.

Games are ``sequential`` (one seat acts at a time: Nova Luna) or
``simultaneous`` (several seats act at once and each seat's action of the round
stays hidden from the others until the last one arrives: NMBR 9). Either way a
match says which seats must act now (``active_seats``); every action is applied
and stored one at a time with its seat, so replaying the stored actions in
order rebuilds the same pending actions. In a simultaneous game a seat may
withdraw its pending action with the action ``TAKE_BACK`` until the round
resolves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from typing import Any, Protocol

from ..i18n import N_
from .errors import ActionRejected, OptionsError, RecordError

JSON = dict[str, Any]

#: ``WebGame.dynamics``: one seat acts at a time, or several at once (see the module).
SEQUENTIAL = "sequential"
SIMULTANEOUS = "simultaneous"

#: In a simultaneous game: the action that withdraws the seat's pending action of the
#: current round (refused once the round has resolved, or if it has none).
TAKE_BACK = "take-back"


@dataclass(frozen=True)
class Applied:
    """What applying one action did.

    ``log`` is a public log entry (with a human-readable ``"text"``): every seat
    and spectator gets it, so in a simultaneous game it never shows a pending
    action (only that the seat has acted). ``reveals`` says whether hidden
    information came to light (e.g. tiles drawn from the pile, or a round of
    simultaneous actions resolved), which undo must never cross; in a
    simultaneous game it also marks the start of a new round.
    """

    log: JSON
    reveals: bool


@dataclass(frozen=True)
class BotLimits:
    """The most work the server gives one bot move, whatever a stranger asked for:
    specs over ``iterations`` are refused, and every search stops after ``seconds``."""

    iterations: int = 20_000
    seconds: float = 5.0


DEFAULT_LIMITS = BotLimits()


@dataclass(frozen=True)
class Job:
    """Work for a bot process: ``function(*args)``, picklable, returns JSON-ready data.

    ``quick`` jobs (milliseconds: random, greedy) run in a lane of their own, so
    they never wait behind searches of other games."""

    function: Callable[..., Any]
    args: tuple[Any, ...]
    quick: bool = False

    def run(self) -> Any:
        return self.function(*self.args)


class Match(Protocol):
    """One game in progress (the true state, secrets included)."""

    def clone(self) -> Match:
        """An independent copy: the server applies an action to a copy and keeps it
        only once the action is stored."""

    def active_seats(self) -> frozenset[int]:
        """The seats that must act now (one in a sequential game; in a simultaneous
        game every seat without an action this round); empty once the game is over."""

    def has_pending(self, seat: int) -> bool:
        """Whether ``seat`` has a hidden action of the current round it may still take
        back (``TAKE_BACK``); always ``False`` in a sequential game."""

    def is_over(self) -> bool: ...

    def apply(self, seat: int, action: str) -> Applied:
        """Validate and apply ``action`` for ``seat``; raise ``ActionRejected`` otherwise."""

    def view(self, seat: int | None) -> JSON:
        """Everything ``seat`` (``None``: a spectator) may see, and nothing more: in a
        simultaneous game a seat's own pending action, but of the others' only whether
        they have acted this round."""

    def choices(self, seat: int) -> list[JSON]:
        """The legal actions of ``seat`` if it is active, each ``{"action": ...}`` plus
        whatever the page needs to preview it; otherwise ``[]``."""

    def result(self) -> JSON | None:
        """The outcome once over: ``{"ranking": [...]}`` or the game's own score."""

    def record(self, names: list[str]) -> JSON:
        """The full game record (secrets included: only for finished games)."""

    def bot_job(self, seat: int, bot: str, seed: int, limits: BotLimits = DEFAULT_LIMITS) -> Job:
        """A job whose result is the action string ``bot`` plays for ``seat`` now,
        searching no longer than ``limits.seconds``. It is built from ``seat``'s view
        only: never from the deck or another seat's pending action."""

    def hint_job(self, seat: int, seed: int) -> Job:
        """A job whose result is ``{"action": str, "reason": str}`` for ``seat``."""


class WebGame(Protocol):
    """A game the server can host."""

    name: str  # e.g. "nova-luna"; used in URLs and storage
    title: str  # e.g. "Nova Luna"
    min_seats: int
    max_seats: int
    dynamics: str  # SEQUENTIAL or SIMULTANEOUS
    #: The bot that plays for a seat whose move clock ran out (option ``clock``).
    default_bot: str
    # False when every seat sees the same (no hidden hands): one view serves all.
    view_depends_on_seat: bool

    #: The page's module for this game (``index.js``, stylesheets, images), served
    #: at ``/static/games/<name>/``.
    assets: Traversable

    def describe(self) -> JSON:
        """Static facts for the page: bots per mode, option fields, game data."""

    def check_setup(
        self, seats: list[JSON], options: JSON, limits: BotLimits = DEFAULT_LIMITS
    ) -> JSON:
        """Validate seats (``{"kind": "human"|"bot", "bot": spec}``, no bot above
        ``limits``) and options; return the options normalised. Raise ``OptionsError``.

        A normalised option ``"clock"`` (seconds, 0 or absent: none) asks the server to
        play ``default_bot``'s move for every seat still active that long after its
        round (or turn) began."""

    def new_match(self, seats: int, options: JSON, seed: int) -> Match: ...

    def replay(self, record: Any) -> list[JSON]:
        """Frames of a record for the replay page: ``[{"view", "log"}]`` per step.
        Raise ``RecordError``."""


def web_games() -> dict[str, WebGame]:
    """The games playable in the browser, by name."""
    from .game import game_types

    return {name: game.web for name, game in game_types().items() if game.web is not None}


def get_web_game(name: str) -> WebGame:
    """The browser side of game ``name``; ``OptionsError`` if it has none."""
    games = web_games()
    if not isinstance(name, str) or name not in games:
        raise OptionsError(
            N_("unknown game {name}; this server hosts {games}"),
            name=repr(name),
            games=", ".join(sorted(games)),
        )
    return games[name]


__all__ = [
    "JSON",
    "SEQUENTIAL",
    "SIMULTANEOUS",
    "TAKE_BACK",
    "ActionRejected",
    "DEFAULT_LIMITS",
    "BotLimits",
    "Applied",
    "Job",
    "Match",
    "OptionsError",
    "RecordError",
    "WebGame",
    "get_web_game",
    "web_games",
]
