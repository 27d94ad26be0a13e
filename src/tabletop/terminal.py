"""What the games' terminal apps share, knowing no game: starting a session from the
command line (seed, game options, seats, the record file) and the session's frame (the
record saved as play goes, the play loop, the screen, typed lines and their commands).

A game's ``Session`` subclasses ``TerminalSession`` with its board, its turns and its
commands; its ``play_from_args`` calls ``play_from_args`` here.
"""

from __future__ import annotations

import random
import sys
from abc import abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, ParamSpec, Protocol, TypeVar

from rich.console import Console
from rich.text import Text

from .console import Seat, SetupError, default_save_path, make_console, read_line
from .core.errors import InvalidActionError
from .records import save

if TYPE_CHECKING:
    from .core.game import GameType

QUIT_WORDS = {"quit", "exit", "q", "stop"}
HELP_WORDS = {"help", "?", "h", "rules"}


class Position(Protocol):
    """What a session reads of a game's state."""

    @property
    def is_over(self) -> bool: ...


class Recording(Protocol):
    """What a session needs of a game's ``Recorder``: the game and its record."""

    @property
    def state(self) -> Position: ...

    @property
    def seed(self) -> int | None: ...

    def to_record(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=Recording)
G = TypeVar("G")
A = TypeVar("A")
P = ParamSpec("P")


def chosen_seed(seed: int | None) -> int:
    """The ``--seed`` given, else a random one (the intro shows it, so a game can be
    played again)."""
    return seed if seed is not None else random.randrange(1_000_000)


def new_game(make: Callable[P, G], *args: P.args, **options: P.kwargs) -> G:
    """``make(*args, **options)``, its ``ValueError`` (options the rules refuse) as
    ``SetupError``."""
    try:
        return make(*args, **options)
    except ValueError as err:
        raise SetupError(str(err)) from None


def play_from_args(
    command: str,
    save_to: str | None,
    prefix: str,
    setup: Callable[[], tuple[G, list[Seat], int]],
    new_recorder: Callable[[G, list[str], int], R],
    new_session: Callable[[Console, R, list[Seat], Path], TerminalSession[R]],
) -> int:
    """Set up (``setup()`` raises ``SetupError`` for bad options), save the empty record
    (to ``save_to``, else ``<prefix>-<time>.json``) and play; the exit status.

    ``command`` (``"nmbr9 play"``) starts the one-line messages of a failed start."""
    try:
        game, seats, seed = setup()
    except SetupError as err:
        print(f"{command}: {err}", file=sys.stderr)
        return 2
    path = Path(save_to) if save_to else default_save_path(prefix)
    rec = new_recorder(game, [seat.name for seat in seats], seed)
    session = new_session(make_console(), rec, seats, path)
    try:
        session.save()
    except OSError as err:
        print(f"{command}: cannot write the record to {path}: {err}", file=sys.stderr)
        return 2
    return session.run()


class TerminalSession(Generic[R]):
    """A game being played in the terminal: its ``Recorder``, seats, record file and
    console. Subclasses say how play goes on (``play_on``), draw the intro and the end
    (``intro``, ``show_end``, ``show_stopped``) and answer typed lines (``prompt``,
    ``command``, ``move``)."""

    def __init__(self, console: Console, rec: R, seats: list[Seat], path: Path) -> None:
        self.console = console
        self.rec = rec
        self.seats = seats
        self.path = path
        self._introduced = False

    def save(self) -> None:
        save(self.rec.to_record(), self.path)

    def run(self) -> int:
        """Play until the game ends or the user stops; save; exit status 0."""
        stopped = ""
        try:
            while not self.rec.state.is_over and not stopped:
                stopped = self.play_on()
        except KeyboardInterrupt:
            self.console.print()
            stopped = "interrupted"
        return self.finish(stopped)

    @abstractmethod
    def play_on(self) -> str:
        """Play up to the end of a human's turn: why play stops, or ``""``."""

    @abstractmethod
    def intro(self) -> None:
        """The title line and how to get help, once, above the first screen."""

    def finish(self, stopped: str) -> int:
        """Save, show the end of the game (or why play ``stopped`` and where the record
        is) and return 0."""
        self.save()
        where = str(self.path.resolve())
        if self.rec.state.is_over:
            if not self._introduced:
                self.introduce()
            self.console.print()
            self.show_end()
            self.console.print(Text.assemble("Record saved to ", (where, "bold")))
        else:
            self.show_stopped(stopped, where)
        self.after_finish(where)
        if self.rec.state.is_over and not stopped:
            self.offer_analysis()
        return 0

    def offer_analysis(self) -> None:
        """After a finished game: ``analyse`` shows every move judged by the strong bot
        (the table of ``<game> analyse``); anything else, or the end of input, leaves."""
        from .analysis.run import analyse, analyser_of, check_available, count_decisions
        from .core.errors import Unavailable

        record = self.rec.to_record()
        game = self.game_type()
        if game.analysis is None:
            return
        try:
            check_available(analyser_of(game), record)
        except Unavailable as err:  # said once, instead of an offer that cannot be kept
            self.console.print(Text(f"No analysis here: {err}.", style="yellow"))
            return
        line = read_line(
            self.console, Text("Type analyse to see every move judged, or press Enter to leave: ")
        )
        if line is None or line.strip().lower() not in ("analyse", "analyze", "a"):
            return
        from rich.progress import Progress

        from .analysis.render import print_analysis

        with Progress(console=self.console, transient=True) as bar:
            task = bar.add_task("Judging every move", total=count_decisions(game, record))
            report = analyse(game, record, progress=lambda done: bar.update(task, completed=done))
        print_analysis(report.to_json(), self.console)

    @abstractmethod
    def show_end(self) -> None:
        """The final position and the result."""

    @abstractmethod
    def show_stopped(self, stopped: str, where: str) -> None:
        """That the game stopped unfinished (why: ``stopped``), saved at ``where``."""

    def after_finish(self, where: str) -> None:
        """The last lines, below the end or the stop (none unless a game adds some)."""

    def new_screen(self) -> None:
        """Clear the terminal (or start a new paragraph), with the intro the first time."""
        if self.console.is_terminal:
            self.console.clear()
        else:
            self.console.print()
        if not self._introduced:
            self.introduce()

    def introduce(self) -> None:
        """The intro, and below it what plays weaker here (a compiled search kernel not
        built: ``GameType.kernel_warning``), once: after the screen is cleared, so that
        it stays in sight."""
        self.intro()
        warning = self.game_type().kernel_warning()
        if warning is not None:
            self.console.print(Text(f"Warning: {warning}", style="yellow"))
        self._introduced = True

    def game_type(self) -> GameType:
        """The game being played (its record names it)."""
        from .core.game import get_game
        from .records import record_game

        return get_game(record_game(self.rec.to_record()) or "")

    # -- typed lines ------------------------------------------------------------------

    def read_turn(self, seat: int, waiting: Callable[[], bool]) -> str:
        """Read and answer ``seat``'s lines while ``waiting()``: why play stops, or ``""``."""
        while waiting():
            line = read_line(self.console, self.prompt(seat))
            if line is None:
                return "end of input"
            stopped = self.handle(seat, line)
            if stopped:
                return stopped
        return ""

    def handle(self, seat: int, line: str) -> str:
        """Act on one typed line; return why play stops, or ``""``."""
        words = line.strip().split(maxsplit=1)
        if not words:
            self.say(self.empty_line_hint(seat), "yellow")
            return ""
        command = words[0].lower()
        rest = words[1] if len(words) > 1 else ""
        if command in QUIT_WORDS:
            return "quit"
        if command in HELP_WORDS:
            self.show_help()
        elif not self.command(seat, command, rest):
            self.move(seat, line.strip())
        return ""

    @abstractmethod
    def prompt(self, seat: int) -> Text:
        """What ``seat`` is asked to type."""

    @abstractmethod
    def empty_line_hint(self, seat: int) -> str:
        """The answer to an empty line."""

    @abstractmethod
    def show_help(self) -> None:
        """The rules and the commands."""

    @abstractmethod
    def command(self, seat: int, command: str, rest: str) -> bool:
        """Run the game's ``command`` (first word, lower case) with ``rest``; ``False``
        when it is none of them (then the line is a move)."""

    @abstractmethod
    def move(self, seat: int, text: str) -> None:
        """Play the move ``text`` stands for, or say what is wrong with it."""

    def parsed(self, parse: Callable[[str], A], text: str) -> A | None:
        """``parse(text)``, or ``None`` after saying why ``text`` is not a move."""
        try:
            return parse(text)
        except InvalidActionError as err:
            self.error(f"{err}.")
            return None

    def say(self, message: str, style: str = "") -> None:
        self.console.print(Text(message, style=style))

    def error(self, message: str) -> None:
        self.console.print(Text("✗ " + message, style="bold red"))
