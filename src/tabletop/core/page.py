"""What a game offers the browser: the page's files and how its moves are shown.

The server knows a game's page only through ``GamePage``: the game's own
JavaScript modules and stylesheets (``assets``, ``modules``), and hooks that turn
the engine's state and moves into the JSON the page draws. Actions travel as
short strings in the game's notation; views, choices, log entries and results
are JSON-ready dicts. Secrets stay out by construction: the page is handed a
seat's ``View`` (``state.view(seat)``), never the true state, for what it shows
while the game is on (``view_json``, ``choices``); the platform adds the finished
game's ``result_json``. The conformance suite (tests/platform/test_conformance.py)
proves for every registered game that what a page shows, the replay's frames
included, is the same whatever is still hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..i18n import N_

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from .game import JSON, GameType, Recorder, State


@dataclass(frozen=True)
class Applied:
    """What applying one action did.

    ``log`` is a public log entry (with a human-readable ``"text"`` and its
    translatable ``"parts"``): every seat and spectator gets it, so in a
    simultaneous game it never shows a pending action (only that the seat has
    acted). ``reveals`` says whether hidden information came to light (e.g. tiles
    drawn from the pile, or a round of simultaneous actions resolved), which undo
    must never cross; in a simultaneous game it also marks the start of a new round.
    """

    log: JSON
    reveals: bool


@dataclass(frozen=True)
class Step:
    """One action of a game in progress as an undo sees it: the seat that acted, and
    whether the action revealed hidden information (``Applied.reveals``)."""

    seat: int
    reveals: bool


@dataclass(frozen=True)
class Undo:
    """What an undo leaves (the game's answer, ``GamePage.undo``): the actions from
    ply ``start`` on go, then those that were at plies ``keep`` (later ones, in order)
    are applied again, as plies ``start``, ``start + 1``, ..."""

    start: int
    keep: tuple[int, ...] = ()


def undo_last_move(steps: Sequence[Step], seat: int, revealed: str) -> Undo | str:
    """A sequential game's undo: ``seat``'s last move and every move after it (the
    bots' replies) go, unless one of them revealed something (``revealed``, a msgid,
    says why not: the player would know what comes)."""
    mine = [ply for ply, step in enumerate(steps) if step.seat == seat]
    if not mine:
        return N_("you have not moved yet")
    if any(step.reveals for step in steps[mine[-1] :]):
        return revealed
    return Undo(mine[-1])


def undo_last_round(steps: Sequence[Step], seat: int, unresolved: str) -> Undo | str:
    """A simultaneous game's undo (``core.rounds``): ``seat``'s action of the last
    resolved round goes, and with it everything after it: the round is open again, and
    what the round revealed is hidden again (a fixed order, such as a deck's, shows it
    once more). The other seats' actions of that round stay, in their order: they never
    saw ``seat``'s. ``unresolved`` (a msgid) says why not before a round has resolved."""
    ends = [ply for ply, step in enumerate(steps) if step.reveals]  # resolved rounds
    if not ends:
        return unresolved
    start = ends[-2] + 1 if len(ends) > 1 else 0
    keep = tuple(p for p in range(start, ends[-1] + 1) if steps[p].seat != seat)
    return Undo(start, keep)


def page_modules(intro: list[str], full: list[str]) -> JSON:
    """The page's two entry modules (``intro.js``: what the lobby shows; ``index.js``:
    that and the board), each with the stylesheets it needs, as ``GamePage.modules``."""
    return {
        "intro": {"module": "intro.js", "styles": intro},
        "full": {"module": "index.js", "styles": full},
    }


#: The game's own recorder class, which ``play`` (and ``take_back``) are given.
R = TypeVar("R", bound="Recorder", contravariant=True)


class GamePage(Protocol[R]):
    """A game's browser side (see the module docstring); ``GamePage[Any]`` where the
    game is not known."""

    #: The folder of the page's files, served at ``/static/games/<name>/``.
    assets: Traversable
    #: ``{"intro"|"full": {"module": file, "styles": [files]}}`` within ``assets``.
    modules: JSON
    #: The message (a msgid) for text far too long to be an action.
    notation_hint: str

    def facts(self) -> JSON:
        """Further static data for the page (e.g. the tiles), sent once per game type."""

    def view_json(self, view: Any) -> JSON:
        """What the page draws of ``view`` (``state.view(seat)``, ``seat`` ``None`` for a
        spectator): built from the view alone. Once the game is over the platform adds
        ``"result"`` (``result_json``)."""

    def choices(self, view: Any) -> list[JSON]:
        """``{"action": text, ...preview}`` per legal action of the acting seat whose
        ``view`` this is."""

    def play(self, recorder: R, seat: int, action: Any) -> Applied:
        """Apply ``seat``'s parsed ``action`` through the recorder; its log entry."""

    def result_json(self, state: Any) -> JSON:
        """The finished game's result as the page shows it (everyone sees it: nothing
        still hidden may show in it)."""

    def frames(self, game: GameType, record: Any) -> list[JSON]:
        """``[{"view", "log"}]`` per step of a record, for the replay page: each
        ``"view"`` is what a spectator's ``view_json`` (with ``"result"`` once over)
        showed at that point of the game, so a replay shows nothing the live page did
        not."""

    def hint(self, view: Any, seed: int) -> JSON:
        """``{"action", "reason", "parts"}``: the strongest bot's advice, its reason as
        translatable parts."""

    def undo(self, steps: Sequence[Step], seat: int) -> Undo | str:
        """What undoing ``seat``'s last move leaves, given the game's actions so far
        (``steps``), or why it may not be undone (a msgid). Asked only while the game
        is on, every other seat is a bot and ``seat`` has no pending action.
        ``undo_last_move`` is a sequential game's, ``undo_last_round`` a simultaneous
        one's."""


def page_view(page: GamePage[Any], state: State, seat: int | None) -> JSON:
    """What ``page`` shows ``seat`` (``None``: a spectator) of ``state``: its
    ``view_json`` of the seat's view (the page never sees the state), with the
    ``"result"`` once the game is over."""
    shown = page.view_json(state.view(seat))
    if state.is_over:
        shown = {**shown, "result": page.result_json(state)}
    return shown


def page_choices(page: GamePage[Any], state: State, seat: int) -> list[JSON]:
    """``page.choices`` for ``seat``, handed the seat's view."""
    return page.choices(state.view(seat))


class SimultaneousPage(GamePage[R], Protocol[R]):
    """The page of a simultaneous game, where a seat may take its pending action back;
    ``core.rounds.RoundPage`` implements it (and ``play``, ``undo``, ``frames``) over a
    ``core.rounds.RoundRecorder``."""

    def take_back(self, recorder: R, seat: int) -> Applied:
        """Withdraw ``seat``'s pending action of the round; its log entry."""
