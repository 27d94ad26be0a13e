"""What the platform needs from a game: one interface, and the registry of games.

The command line, the harnesses (selfplay, tournament, solo benchmark,
replay) and the web server know a game only through ``GameType``: its name,
seats and options, its bots, a ``Table`` to play it on, the ``Outcome`` of a
finished record, and, if the game is playable in the browser, its ``web``
side (``core.web.WebGame``). A game module never imports another game.

>>> game = get_game("nova-luna")
>>> game.title, game.command, (game.min_seats, game.max_seats)
('Nova Luna', 'novaluna', (1, 4))
>>> sorted(game_types())
['nmbr9', 'nova-luna']
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol

from .errors import OptionsError

if TYPE_CHECKING:
    from .bots import BotRegistry
    from .web import WebGame

JSON = dict[str, Any]


class Table(Protocol):
    """A game played offline (bots, the terminal), recorded as it goes."""

    def acting(self) -> Sequence[int]:
        """The seats that must act now, in the order they are asked; empty once over.

        One seat in a turn-based game; in a simultaneous round every seat that
        has not acted yet (each sees nothing of the others' pending actions).
        """

    def view(self, seat: int) -> Any:
        """What ``seat`` may know now: what its bot chooses from."""

    def apply(self, seat: int, action: Any) -> None:
        """Apply one of ``view(seat).legal_actions()`` for ``seat``."""

    def record(self) -> JSON:
        """The game's record so far (see the game's record format)."""


@dataclass(frozen=True)
class Outcome:
    """A finished game in terms every harness understands.

    ``ranks`` per seat, 1 = best, equal totals share a rank (``(1, 1, 3)``);
    ``scores`` per seat is the game's own figure (``score_name``), better when
    lower if ``lower_is_better``; ``length`` counts turns or rounds
    (``length_name``); ``details`` are further figures a solo benchmark
    averages (e.g. ``{"phase 1": 31}``).
    """

    ranks: tuple[int, ...]
    scores: tuple[float, ...]
    score_name: str
    lower_is_better: bool
    length: int
    length_name: str = "turns"
    details: dict[str, float] = field(default_factory=dict)

    def wins(self, seat: int) -> float:
        """1 for a sole winner, 1/k for each of k seats sharing the first rank."""
        if self.ranks[seat] != 1:
            return 0.0
        return 1 / sum(1 for r in self.ranks if r == 1)


class GameType(Protocol):
    """A game the platform hosts (see the module docstring)."""

    name: str  # e.g. "nova-luna": records' "game", URLs, storage
    title: str  # e.g. "Nova Luna"
    command: str  # the command line's name, e.g. "novaluna"
    min_seats: int
    max_seats: int
    #: False when seat order changes nothing (simultaneous play): a tournament
    #: then plays each deal once per table instead of once per seat rotation.
    seats_matter: bool
    #: A solo benchmark reports the share of games better than this score.
    solo_threshold: int
    bots: BotRegistry
    web: WebGame | None  # None until the game can be played in the browser
    #: ``"module:attribute"`` of the game's encoding for the research environments
    #: (``tabletop.research.encoding.Encoding``; loaded only when asked for: it needs
    #: numpy), or None.
    research: str | None

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """Add the game's variant options (e.g. ``--first-game``) to a command."""

    def options(self, args: argparse.Namespace, players: int) -> JSON:
        """The variant options from parsed arguments; ``OptionsError`` if they do not
        fit ``players``."""

    def check_bot(self, spec: str, players: int) -> None:
        """Raise ``BotSpecError`` unless ``spec`` names a bot that can play here."""

    def new_table(self, players: int, options: JSON, names: list[str], seed: int) -> Table:
        """A new game, shuffled from ``seed``."""

    def verify(self, record: Any) -> str:
        """Replay a record, checking every action and the result; return a one-line
        summary of how it went. Raise ``RecordError`` at the first violation."""

    def outcome(self, record: JSON) -> Outcome:
        """The outcome of a finished game's record (one the game wrote itself)."""

    def add_commands(self, commands: Any) -> None:
        """Add the game's own subcommands (terminal play) to the ``argparse``
        subparsers ``commands``; each sets ``run=function(args) -> exit status``."""

    def bench(self, seconds: float, runs: int, selfplay: bool = False) -> int:
        """Print the engine's speed figures (the median of ``runs``); the exit status.
        With ``selfplay`` only raw random games against the selfplay harness's."""


#: The games this platform ships: name -> "module:attribute" of the ``GameType``.
BUILTIN = {
    "nova-luna": "tabletop.games.novaluna.gametype:GAME",
    "nmbr9": "tabletop.games.nmbr9.gametype:GAME",
}

#: Games added from outside the package, e.g. by tests: ``name=module:attribute``
#: pairs separated by ``;``. A server started in a subprocess sees them too.
GAMES_VARIABLE = "TABLETOP_GAMES"

_REGISTRY: dict[str, str] = dict(BUILTIN)
_LOADED: dict[str, GameType] = {}


def register_game(name: str, target: str) -> None:
    """Host the game whose ``GameType`` is ``target`` (``"module:attribute"``) as
    ``name``, in this process; see ``GAMES_VARIABLE`` for other processes."""
    _REGISTRY[name] = target
    _LOADED.pop(name, None)


def _registry() -> dict[str, str]:
    for pair in filter(None, os.environ.get(GAMES_VARIABLE, "").split(";")):
        name, _, target = pair.partition("=")
        _REGISTRY.setdefault(name.strip(), target.strip())
    return _REGISTRY


def game_types() -> dict[str, GameType]:
    """Every game, by name (each module is imported the first time it is asked for)."""
    return {name: get_game(name) for name in _registry()}


def get_game(name: str) -> GameType:
    """The game called ``name``; ``OptionsError`` if there is none."""
    if name not in _LOADED:
        registry = _registry()
        if not isinstance(name, str) or name not in registry:
            raise OptionsError(f"unknown game {name!r}; choose from {', '.join(sorted(registry))}")
        module, _, attribute = registry[name].partition(":")
        _LOADED[name] = getattr(import_module(module), attribute)
    return _LOADED[name]
