"""What the platform needs from a game: one description, one engine contract, a registry.

A game is described once, by a ``GameType``: its static facts (name, title,
seats, dynamics, options, bots, its page and research encoding) and a few
hooks (parse an action, check options, start or read a record). Its engine's
``State`` meets one contract whichever the game — which seats act now, each
seat's legal actions, applying one seat's action, a seat's view (secrets removed
by construction), the ``Outcome`` — for turn order (``SEQUENTIAL``, Nova Luna)
and simultaneous rounds (``SIMULTANEOUS``, NMBR 9) alike, as OpenSpiel's dynamics
do. Everything else is written once over that: the offline ``Table``
(``core.table``: command line, harnesses), the server's ``Match``
(``core.match``), ratings and replays. A game module never imports another game.

>>> game = get_game("nova-luna")
>>> game.title, game.command, (game.min_seats, game.max_seats), game.dynamics
('Nova Luna', 'novaluna', (1, 4), 'sequential')
>>> sorted(BUILTIN)  # the shipped games; register_game hosts more
['nmbr9', 'nova-luna']
>>> set(BUILTIN) <= set(game_types())
True
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import import_module
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..i18n import N_, Part
from .errors import BotSpecError, OptionsError, RecordError
from .limits import UNLIMITED, BotLimits
from .options import Option, add_flags, check_declared, read_flags
from .outcome import Outcome

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from .analysis import Analyser
    from .bots import Bot, BotRegistry
    from .kernels import Kernel
    from .match import Match
    from .page import GamePage
    from .table import Table
    from .tutorial import Tutorial

#: JSON-ready data: what records, options and the page's messages are made of.
JSON = dict[str, Any]

#: ``GameType.dynamics``: one seat acts at a time, or several at once, each seat's action
#: of the round hidden from the others until the last one arrives.
SEQUENTIAL = "sequential"
SIMULTANEOUS = "simultaneous"

#: ``GameType.replay_step``: what one step of the replay page shows.
TURN = "turn"
ROUND = "round"


class View(Protocol):
    """What one seat may know: a bot chooses from it, and it holds nothing more."""

    def legal_actions(self) -> Sequence[object]: ...


class State(Protocol):
    """The engine contract: one game's true state, secrets included.

    Actions are small immutable values whose ``str()`` is the game's notation
    (``GameType.parse_action`` reads it back). ``apply`` raises
    ``IllegalActionError`` and changes nothing if the action is not legal.
    """

    @property
    def is_over(self) -> bool: ...

    def acting_seats(self) -> Sequence[int]:
        """The seats that must act now, in the order they are asked; empty once over.

        One seat in a sequential game; in a simultaneous round every seat that has
        not acted yet."""

    def legal_actions(self, seat: int) -> Sequence[object]:
        """``seat``'s legal actions now (empty if it is not acting)."""

    # Any: the game's own action type, which the platform cannot name; it passes back
    # only actions the same game made (``legal_actions``, ``parse_action``).
    def apply(self, action: Any, seat: int) -> object:
        """Apply ``seat``'s ``action``; what it returns is the game's own detail."""

    def view(self, seat: int | None) -> View:
        """What ``seat`` (``None``: a spectator) may know."""

    def outcome(self) -> Outcome:
        """How the finished game came out; ``ValueError`` while it goes on."""


class Recorder(Protocol):
    """A game in progress together with its record (the game's record format)."""

    players: list[str]
    created: str  # when the game was made (ISO 8601), as its record says

    @property
    def state(self) -> State: ...

    def apply(self, action: Any, seat: int) -> object:  # Any: as in ``State.apply``
        """Apply ``seat``'s action to the state and record it (unchanged if illegal)."""

    def lend_view(self, seat: int) -> View:
        """``seat``'s view for a bot to choose from now (valid until the next action)."""

    def to_record(self) -> JSON: ...

    def clone(self) -> Recorder: ...


#: The first line of every daily result to share (``GameType.daily_share``).
DAILY_HEADLINE = N_("{game} daily {day}: {score}")


def share_line(key: str, **args: Any) -> Part:
    """A line of a daily result to share: a msgid and its arguments."""
    return {"key": key, "args": args}


def plain_number(value: float) -> int | float:
    """A score as a person writes it: 87, not 87.0."""
    return int(value) if float(value).is_integer() else value


#: why a server without the research extra refuses action indices
NO_INDICES = N_(
    "this server reads action indices only with numpy installed; send the action's notation"
)


class GameType:
    """A game the platform hosts: subclass it, set the facts, implement the hooks.

    The platform's generic behaviour (tables, matches, setup checks, summaries)
    is written here once over the hooks; a game overrides only what is its own.
    """

    # -- facts ---------------------------------------------------------------------------
    name: ClassVar[str]  # e.g. "nova-luna": records' "game", URLs, storage, ratings
    title: ClassVar[str]  # e.g. "Nova Luna"
    command: ClassVar[str]  # the command line's name, e.g. "novaluna"
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    dynamics: ClassVar[str] = SEQUENTIAL
    #: False when seat order changes nothing (simultaneous play): a tournament then
    #: plays each deal once per table instead of once per seat rotation.
    seats_matter: ClassVar[bool] = True
    #: A solo benchmark reports the share of games better than this score.
    solo_threshold: ClassVar[float] = 0
    #: The bot that plays for a seat whose time ran out.
    default_bot: ClassVar[str] = "random"
    #: Bots that answer in milliseconds: the server runs them in its quick lane.
    quick_bots: ClassVar[frozenset[str]] = frozenset({"random"})
    #: False when every seat sees the same (no hidden hands): one view serves all.
    view_depends_on_seat: ClassVar[bool] = True
    #: The game's variant options, each declared once (``core.options.Option``): the
    #: page's fields, ``check_options``, the command-line flags all come from them.
    declared_options: ClassVar[tuple[Option, ...]] = ()
    #: The tournament that seeds the bots' ratings (``scripts/seed_bot_ratings.py``):
    #: seats per table and deals per table, every bot the page offers at every table.
    rating_seed: ClassVar[tuple[int, int]] = (2, 10)
    #: ``"module:attribute"`` of the game's research encoding (optional extra), or None;
    #: a module starting with ``.`` lies in the game's package (``".encoding:ENCODING"``,
    #: ``load``), so the game's folder moves without edits.
    research: ClassVar[str | None] = None
    #: ``"module:attribute"`` of the game's ``analysis.Analyser`` (finished games judged
    #: move by move), or None; relative as ``research``.
    analysis: ClassVar[str | None] = None
    #: ``"module:attribute"`` of the game's interactive tutorial (``core.tutorial.Tutorial``:
    #: its steps as data), or None; relative as ``research``. The lobby's "Learn to play".
    tutorial: ClassVar[str | None] = None
    #: The daily challenge (``tabletop.daily``): the seats and options of each day's
    #: deal, and the arguments of the game's own terminal play that deal the same way
    #: (``<game> daily`` adds ``--seed``).
    daily_players: ClassVar[int] = 1
    daily_options: ClassVar[JSON] = {}
    daily_play: ClassVar[tuple[str, ...]] = ("play", "--players", "1")

    bots: BotRegistry
    #: Bots offered on the page per mode (``"standard"``, ``"solo"``): ``{"spec", "label"}``.
    bot_offers: dict[str, list[JSON]]
    #: The strong bots' compiled search kernel (``core.kernels``), for a game that has
    #: one: where it was not built, they play as a fallback, and the game says so.
    kernel: Kernel | None = None
    #: The browser side, or None if the game is not played in the browser.
    page: GamePage[Any] | None = None  # Any: the game's own recorder type

    # -- hooks every game implements -----------------------------------------------------

    def parse_action(self, text: str) -> object:
        """The action written ``text`` (``InvalidActionError`` if it is none)."""
        raise NotImplementedError

    def new_recorder(self, players: int, options: JSON, names: list[str], seed: int) -> Recorder:
        """A new game, shuffled from ``seed``, with checked ``options``."""
        raise NotImplementedError

    def read_record(self, record: Any) -> Recorder:
        """Replay a record, checking every action and the result; ``RecordError`` at
        the first violation."""
        raise NotImplementedError

    def summary(self, recorder: Recorder) -> str:
        """A one-line account of a game, e.g. ``'Ann wins ...; then Bob 4 — 37 turns'``."""
        raise NotImplementedError

    # -- hooks a game may override ------------------------------------------------------

    def outcome(self, record: JSON) -> Outcome:
        """The outcome of a finished game's record (one the game wrote itself): by
        default the record replayed (``read_record``) and its state's ``outcome()``.
        A game may read it from the record instead where that is much faster; the
        conformance suite checks that both agree."""
        return self.read_record(record).state.outcome()

    def check_table(self, options: JSON, players: int) -> None:
        """``OptionsError`` if the checked ``options`` do not fit together or at a
        table of ``players`` (the rules' own limits); by default nothing."""

    def check_options(self, options: JSON, players: int) -> JSON:
        """The options normalised (every declared option, defaults filled in);
        ``OptionsError`` if they are unknown, malformed or do not fit ``players``
        (``declared_options``, then ``check_table``)."""
        checked = check_declared(self.declared_options, options, players)
        self.check_table(checked, players)
        return checked

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """Add the game's variant options (e.g. ``--first-game``) to a command: the
        flags of ``declared_options``."""
        add_flags(parser, self.declared_options)

    def options_from_args(self, args: argparse.Namespace) -> JSON:
        """The variant options as ``check_options`` takes them, from parsed arguments."""
        return read_flags(args, self.declared_options)

    def add_commands(self, commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        """Add the game's own subcommands (terminal play) to the ``argparse``
        subparsers ``commands``; each sets ``run=function(args) -> exit status``."""

    def bench(self, seconds: float, runs: int, selfplay: bool = False) -> int:
        """Print the engine's speed figures (the median of ``runs``); the exit status.

        By default the ``run_bench`` of the game folder's ``bench.py``, if it has one,
        below the line saying what is weaker here (``kernel_warning``)."""
        warning = self.kernel_warning()
        if warning is not None:
            print(f"warning: {warning}")
        package = self.package
        if find_spec(f"{package}.bench") is None:
            print(f"{self.title} has no engine benchmark")
            return 0
        bench = import_module(f"{package}.bench")
        return int(bench.run_bench(seconds=seconds, runs=runs, selfplay=selfplay))

    def play(self, args: argparse.Namespace) -> int:
        """Terminal play (``add_commands``): the ``play_from_args`` of the game folder's
        ``terminal/app.py``, imported only when a game is played."""
        package = self.package
        return int(import_module(f"{package}.terminal.app").play_from_args(args))

    def bot_refusal(
        self, spec: str, bot: Bot, players: int, limits: BotLimits
    ) -> OptionsError | None:
        """Why the bot ``spec`` cannot play at a table of ``players`` within ``limits``
        (the error's key starts ``"seat {seat}: "``), or None."""
        return None

    def action_from_index(self, state: State, seat: int, index: int) -> object | None:
        """The action that the research encoding's action ``index`` stands for in
        ``state`` for ``seat`` (``None`` if it names none), as outside bots may send
        it (docs/bot-api.md); ``OptionsError`` where the encoding cannot be loaded."""
        raise OptionsError(N_("this game takes actions in its notation only"))

    def limit_bot(self, bot: Bot, seconds: float) -> None:
        """Bound a bot's search to ``seconds`` a move (the server's limit)."""

    def daily_share(self, record: JSON, day: str) -> list[Part]:
        """A finished daily game's result to share, without spoilers: one translatable
        line each (``{"key", "args"}``). By default the score; a game says more."""
        score = self.outcome(record).scores[0]
        return [share_line(DAILY_HEADLINE, game=self.title, day=day, score=plain_number(score))]

    def seat_record(self, recorder: Recorder, seat: int) -> JSON:
        """The game so far as ``seat`` has seen it, for a program that plays that seat
        (the server's bot API): the game's record without the seed or anything else of
        the unseen order, with ``"seat"`` and ``"revealed"`` (the chance outcomes the
        seat has seen, in order), and without the moves hidden from the seat. It holds
        nothing the seat's page has not shown. ``RecordError`` if the game offers none:
        then outside programs cannot play it."""
        raise RecordError(f"{self.title} offers no seat records: outside programs cannot play it")

    def determinize(self, seat_record: Any, seed: int) -> State:
        """A full state consistent with ``seat_record`` (``seat_record``): the unseen
        order, and any move hidden from the seat, drawn from ``seed``, then the moves
        replayed, so that the seat's view is the one it was shown. ``RecordError`` for
        anything that is not such a record of this game."""
        raise RecordError(f"{self.title} offers no seat records: outside programs cannot play it")

    # -- written once ---------------------------------------------------------------------

    @property
    def offers_seat_records(self) -> bool:
        """Whether the game implements ``seat_record`` and ``determinize``: whether an
        outside program (a bot account) can play it."""
        own = type(self)
        return (
            own.seat_record is not GameType.seat_record
            and own.determinize is not GameType.determinize
        )

    def kernel_warning(self) -> str | None:
        """One line saying which bots play weaker here, and what cannot be done, because
        the game's compiled search kernel was not built; None when nothing is missing."""
        return None if self.kernel is None else self.kernel.warning()

    def plays_as(self, spec: str) -> str:
        """The bot ``spec`` really is here: itself, or its fallback where it needs a
        compiled kernel that was not built (the registry builds that one for it)."""
        return spec if self.kernel is None else self.kernel.plays_as(spec)

    def daily_bot(self) -> str:
        """The bot whose result the daily board shows beside the players': the strongest
        (last) the page offers for the daily's seats (a solo game's own, if it has any),
        named as it really plays (``plays_as``)."""
        mode = "solo" if self.daily_players == 1 and "solo" in self.bot_offers else "standard"
        for offer in reversed(self.bot_offers.get(mode, [])):
            try:
                self.check_bot(offer["spec"], self.daily_players)
            except BotSpecError:
                continue
            return self.plays_as(str(offer["spec"]))
        return self.default_bot

    @property
    def replay_step(self) -> str:
        """What one step of the replay page (``replay``'s frames) is: a ``ROUND`` in a
        simultaneous game, whose actions come to light a round at a time, else a
        ``TURN``. The page counts and names its steps by it."""
        return ROUND if self.dynamics == SIMULTANEOUS else TURN

    @property
    def option_fields(self) -> list[JSON]:
        """The game's options as the page offers them (``Option.page_field``)."""
        return [option.page_field() for option in self.declared_options]

    def options(self, args: argparse.Namespace, players: int) -> JSON:
        """The variant options the command line sets, checked for ``players`` (the
        options without a flag, such as a server's move clock, are left out)."""
        given = self.options_from_args(args)
        checked = self.check_options(given, players)
        return {name: checked[name] for name in given}

    def check_bot(self, spec: str, players: int, limits: BotLimits = UNLIMITED) -> None:
        """``BotSpecError`` unless ``spec`` names a bot that can play here."""
        refusal = self.bot_refusal(spec, self.bots.make(spec), players, limits)
        if refusal is not None:
            raise BotSpecError(refusal.key.removeprefix("seat {seat}: "), **refusal.params)

    def check_setup(self, seats: list[JSON], options: JSON, limits: BotLimits = UNLIMITED) -> JSON:
        """Validate a table's seats (``{"kind": "human"|"bot", "bot": spec}``) and
        options; the options normalised. ``OptionsError`` names the seat at fault."""
        checked = self.check_options(options, len(seats))
        for number, seat in enumerate(seats, 1):
            if seat.get("kind") == "bot":
                self._check_seat_bot(seat.get("bot"), number, len(seats), limits)
        return checked

    def _check_seat_bot(self, spec: object, number: int, players: int, limits: BotLimits) -> None:
        if not isinstance(spec, str) or not spec:
            raise OptionsError(N_("seat {seat} is a bot but names no bot"), seat=number)
        try:
            bot = self.bots.make(spec, seed=0)
        except BotSpecError as err:
            raise OptionsError(f"seat {number}: {err}") from None
        refusal = self.bot_refusal(spec, bot, players, limits)
        if refusal is not None:
            raise OptionsError(refusal.key, seat=number, **refusal.params)

    def new_table(self, players: int, options: JSON, names: list[str], seed: int) -> Table:
        """A new game to play offline (bots, the terminal)."""
        from .table import Table

        return Table(self.new_recorder(players, options, names, seed))

    def new_match(self, seats: int, options: JSON, seed: int) -> Match:
        """A new game as the server holds it (seats named by the server later)."""
        from .match import Match

        names = [f"Seat {i + 1}" for i in range(seats)]
        return Match(self, self.new_recorder(seats, options, names, seed))

    def verify(self, record: Any) -> str:
        """Replay a record, checking it; a one-line summary. ``RecordError`` otherwise."""
        return self.summary(self.read_record(record))

    def describe(self) -> JSON:
        """Static facts for the page: seats, dynamics, bots per mode, options, assets."""
        facts: JSON = {
            "name": self.name,
            "title": self.title,
            "seats": [self.min_seats, self.max_seats],
            "dynamics": self.dynamics,
            "bots": self.bot_offers,
            "options": self.option_fields,
            "replay_step": self.replay_step,
            "analysable": self.analysis is not None,
            "tutorial": self.tutorial is not None,
        }
        if self.page is not None:
            facts["modules"] = self.page.modules
            facts.update(self.page.facts())
        return facts

    def replay(self, record: Any) -> list[JSON]:
        """Frames of a record for the replay page: ``[{"view", "log"}]`` per step."""
        if self.page is None:
            raise RecordError(f"{self.title} has no replay page")
        return self.page.frames(self, record)

    def analyser(self) -> Analyser | None:
        """The game's analyser (``analysis``), imported when first asked for."""
        if self.analysis is None:
            return None
        found: Analyser = self.load(self.analysis)
        return found

    def lesson(self) -> Tutorial | None:
        """The game's tutorial (``tutorial``), imported when first asked for."""
        if self.tutorial is None:
            return None
        found: Tutorial = self.load(self.tutorial)
        return found

    @property
    def package(self) -> str:
        """The package the game's ``GameType`` lies in: relative names start there."""
        module = type(self).__module__
        return sys.modules[module].__package__ or module.rpartition(".")[0]

    def load(self, target: str) -> Any:  # Any: whatever the target names
        """What ``target`` (``"module:attribute"``, e.g. ``research``) names, its module
        imported; a module starting with ``.`` is found in the game's ``package``."""
        return load_target(target, self.package)

    @property
    def assets(self) -> Traversable:
        """The page's files (``index.js``, ``intro.js``, stylesheets), served at
        ``/static/games/<name>/``."""
        if self.page is None:
            raise AttributeError(f"{self.title} is not played in the browser")
        return self.page.assets


#: The games this platform ships: name -> their package in ``tabletop.games`` (each
#: one's ``GameType`` is ``gametype:GAME`` there, ``load_target``).
BUILTIN = {
    "nova-luna": ".novaluna",
    "nmbr9": ".nmbr9",
}
SHIPPED_PACKAGE = "tabletop.games"

#: Games added from outside the package, e.g. by tests: ``name=target`` pairs
#: separated by ``;`` (``register_game``). A server started in a subprocess sees them.
GAMES_VARIABLE = "TABLETOP_GAMES"

#: The game type a package holds when a registration names only the package.
GAME_TYPE_IN_PACKAGE = "gametype:GAME"


def load_target(target: str, package: str | None = None) -> Any:  # Any: what it names
    """What ``target`` names: ``"module:attribute"``, the module absolute or, starting
    with ``.``, relative to ``package``; a target without ``:`` names a game's package,
    whose ``GameType`` is ``gametype:GAME`` (``GAME_TYPE_IN_PACKAGE``).

    >>> load_target(".nmbr9", "tabletop.games").title
    'NMBR 9'
    >>> load_target("tabletop.games.nmbr9.gametype:GAME").name
    'nmbr9'
    """
    if ":" not in target:
        module, attribute = f"{target}.{GAME_TYPE_IN_PACKAGE}".split(":")
    else:
        module, _, attribute = target.partition(":")
    if module.startswith(".") and package is None:
        raise ValueError(f"{target!r} is relative: it needs the package it starts from")
    return getattr(import_module(module, package), attribute)


_REGISTRY: dict[str, str] = {name: SHIPPED_PACKAGE + package for name, package in BUILTIN.items()}
_LOADED: dict[str, GameType] = {}


def register_game(name: str, target: str) -> None:
    """Host the game whose ``GameType`` is ``target`` as ``name``, in this process:
    its package (``"toygame"``: ``toygame.gametype:GAME``) or ``"module:attribute"``;
    see ``GAMES_VARIABLE`` for other processes."""
    _REGISTRY[name] = target
    _LOADED.pop(name, None)


def _registry() -> dict[str, str]:
    for pair in filter(None, os.environ.get(GAMES_VARIABLE, "").split(";")):
        name, _, target = pair.partition("=")
        _REGISTRY.setdefault(name.strip(), target.strip())
    return _REGISTRY


def registered_names() -> list[str]:
    """The names of every game, without importing any."""
    return list(_registry())


def game_types() -> dict[str, GameType]:
    """Every game, by name (each module is imported the first time it is asked for)."""
    return {name: get_game(name) for name in _registry()}


def get_game(name: str) -> GameType:
    """The game called ``name``; ``OptionsError`` if there is none."""
    if name not in _LOADED:
        registry = _registry()
        if not isinstance(name, str) or name not in registry:
            raise OptionsError(f"unknown game {name!r}; choose from {', '.join(sorted(registry))}")
        _LOADED[name] = load_target(registry[name])
    return _LOADED[name]
