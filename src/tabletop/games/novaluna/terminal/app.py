"""Terminal play: humans (hot-seat) against bots, or the solo game.

``play_from_args`` is what ``novaluna play`` and ``novaluna solo`` run. A
``Session`` owns the game (a ``Recorder``), the seats and the console; it draws
the board for each human turn, reads a line, and answers with a move, a
command's output or a message saying what was wrong — never a traceback.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from rich.console import Console, RenderableType
from rich.text import Text

from ....console import Seat, bot_specs, make_seats
from ....terminal import TerminalSession, chosen_seed, new_game
from ....terminal import play_from_args as play_session
from ..bots import ExplainingBot, hint_bot, hint_spec, make_bot
from ..records import Recorder
from ..rules import (
    TILES,
    Action,
    EndPhase,
    Game,
    IllegalActionError,
    InvalidActionError,
    Place,
    Refill,
    State,
    parse_action,
)
from . import render

HELP = """\
[bold]How to play[/bold]
• On your turn take one of the [bold]next three tiles clockwise after the moon figure ☾[/bold] \
(marked [green]▶ take[/green] on the wheel) and lay it in your display, edge to edge with \
one of your tiles.
• Type [bold]space@x,y[/bold]: [bold]3@1,0[/bold] takes the tile on wheel space 3 and lays it \
on column x=1, row y=0 of your display (x grows to the right, y downwards; your first tile \
goes on 0,0). The free cells are shown in [green]green[/green] with their coordinates.
• A tile's [bold]tasks[/bold] are coloured letters: [bold]BBY[/bold] is fulfilled when 2 blue \
and 1 yellow tiles are connected to that tile — touching it, or chained to a touching tile \
through tiles of the same colour (the tile itself never counts; diagonals never count). \
Fulfilled tasks are covered with one of your discs at once: ○ open, ● covered.
{mode}
[bold]Commands[/bold]: [bold]hint[/bold] (what the strongest bot would play, and why) · \
[bold]preview 3@1,0[/bold] (which tasks a move would fulfil) · [bold]moves[/bold] (every \
legal move) · [bold]board[/bold] (draw the board again) · [bold]help[/bold] · \
[bold]quit[/bold] (save the record and stop)."""

HELP_STANDARD = """\
• Your marker moves along the moon track by the tile's cost (the number after its \
colour). Whoever is [bold]furthest back[/bold] moves next (on a shared space the marker \
on top), so cheap tiles can give you several turns in a row.
• [bold]Goal[/bold]: place all your discs first. If the tiles run out, fewest discs left wins.
• [bold]refill[/bold]: with only 1 or 2 tiles on the wheel you may type refill first (then \
your move); an empty wheel refills itself."""

HELP_SOLO = """\
• [bold]Solo[/bold]: no moon track and no refills. Phase 1: place at least 8 discs, then type \
[bold]end[/bold] (or keep going); the wheel is refilled for phase 2, where you try to place \
all 21. Each phase scores the cost of all your tiles + 10 per missing disc \
(8 in phase 1, 21 in phase 2). Lower is better: under 100 is good."""


def setup(args: argparse.Namespace) -> tuple[Game, list[Seat], int]:
    """The game, the seats and the seed the options ask for."""
    seed = chosen_seed(args.seed)
    if args.command == "solo":
        players, humans, first_game, specs = 1, 1, False, ["greedy"]
    else:
        players, humans = args.players, args.humans
        first_game, specs = args.first_game, bot_specs(args.bots)
        if players == 1:
            humans = 1
    game = new_game(Game, players=players, first_game=first_game)
    return game, make_seats(players, humans, specs, seed, make_bot), seed


def play_from_args(args: argparse.Namespace) -> int:
    """Run ``novaluna play`` / ``novaluna solo``; return the exit status."""
    return play_session(
        f"novaluna {args.command}",
        args.save,
        "novaluna",
        lambda: setup(args),
        Recorder.new,
        Session,
    )


# -- playing ----------------------------------------------------------------------


class Session(TerminalSession[Recorder]):
    """A game of Nova Luna being played in the terminal."""

    def __init__(self, console: Console, rec: Recorder, seats: list[Seat], path: Path) -> None:
        super().__init__(console, rec, seats, path)
        self.events: list[Text] = []
        self._hinter: ExplainingBot | None = None

    @property
    def state(self) -> State:
        return self.rec.state

    @property
    def labels(self) -> list[str]:
        return [seat.label for seat in self.seats]

    def play_on(self) -> str:
        seat = self.state.current_seat
        if self.seats[seat].bot is not None:
            self.bot_turn(seat)
            return ""
        return self.human_turn(seat)

    def intro(self) -> None:
        game = self.state.game
        what = "solo game" if game.solo else f"{game.players}-player game"
        self.console.rule(Text(f"Nova Luna · {what} · seed {self.rec.seed}", style="bold"))
        self.console.print(
            Text.assemble(
                "Type ",
                ("help", "bold"),
                " at any prompt for the rules and commands. Record: ",
                (str(self.path.resolve()), "bold"),
                "\n",
            )
        )

    def show_end(self) -> None:
        self.console.print(self.board_view(final=True))
        self.console.print()
        self.console.print(render.result_view(self.state, self.labels))

    def show_stopped(self, stopped: str, where: str) -> None:
        """What happened since the last board, and how to go on."""
        self.flush_events()
        self.console.print(
            Text.assemble(
                f"{stopped.capitalize()}: game not finished. Record saved to ",
                (where, "bold"),
                "\nCheck it with: novaluna replay ",
                where,
            )
        )

    # -- the board ----------------------------------------------------------------

    def who(self, seat: int) -> str:
        """``"You"``, ``"Player 2 (seat 2)"`` or ``"Bot greedy (seat 2)"``."""
        if len(self.seats) == 1 or self.seats[seat].label == "You":
            return "You"
        return f"{self.seats[seat].label} (seat {seat + 1})"

    def header(self) -> Text:
        state = self.state
        text = Text.assemble(("Nova Luna", "bold"), f" · turn {state.turn + 1}")
        if not state.game.solo:
            text.append(" · pile ")
            text.append(f"{state.pile_count} tiles")
        if not state.is_over:
            seat = state.current_seat
            text.append(" · to move: ")
            text.append_text(render.seat_text(self.who(seat), seat))
        return text

    def board_view(self, *, final: bool = False) -> RenderableType:
        events, self.events = self.events, []
        header = Text("Final position", style="bold") if final else self.header()
        return render.board(
            self.state, self.labels, width=self.console.width, header=header, events=events
        )

    def draw_board(self) -> None:
        """Clear the terminal (or start a new paragraph) and draw the board."""
        self.new_screen()
        self.console.print(self.board_view())
        self.console.print(render.options_text(self.state))

    def flush_events(self) -> None:
        for event in self.events:
            self.console.print(event)
        self.events = []

    # -- turns -------------------------------------------------------------------

    def bot_turn(self, seat: int) -> None:
        bot = self.seats[seat].bot
        assert bot is not None
        action = bot.choose(self.state.view())
        assert isinstance(action, Action)  # a Nova Luna bot chooses a Nova Luna action
        self.apply(seat, action)

    def human_turn(self, seat: int) -> str:
        """Prompt until the human moves; return why play stops, or ``""``."""
        self.draw_board()
        turn = self.state.turn
        return self.read_turn(seat, lambda: self.state.turn == turn and not self.state.is_over)

    def prompt(self, seat: int) -> Text:
        text = render.seat_text(self.who(seat), seat)
        example = render.example_move(self.state)
        text.append(f" ▸ your move (e.g. {example}), or help, hint, quit: ", style="bold")
        return text

    def empty_line_hint(self, seat: int) -> str:
        return f"Type a move like {render.example_move(self.state)}, or help."

    def command(self, seat: int, command: str, rest: str) -> bool:
        if command == "hint":
            self.show_hint()
        elif command in ("preview", "p"):
            self.show_preview(rest)
        elif command in ("moves", "legal"):
            self.show_moves()
        elif command in ("board", "show", "look"):
            self.draw_board()
        else:
            return False
        return True

    # -- moves -------------------------------------------------------------------

    def parse(self, text: str) -> Action | None:
        """The action ``text`` stands for, or ``None`` after saying what is wrong."""
        state = self.state
        if re.fullmatch(r"[0-9]{1,6}", text):  # a wheel space alone; "²" is a digit too
            return self.bare_space(int(text))
        looks_like_move = "@" in text or any(ch.isdigit() for ch in text)
        if not looks_like_move and text.lower() not in ("refill", "end"):
            example = render.example_move(state)
            space, _, cell = example.partition("@")
            self.error(
                f"I don't understand {text!r}. Type a move like {example} (take from space "
                f"{space}, lay it at {cell}), or help, hint, quit."
            )
            return None
        return self.parsed(parse_action, text)

    def bare_space(self, space: int) -> Action | None:
        """``"3"`` alone: fine when there is exactly one free cell."""
        cells = self.state.legal_cells()
        if len(cells) == 1 and space in self.state.takeable_spaces():
            return Place(space, *cells[0])
        free = "  ".join(f"{x},{y}" for x, y in cells)
        self.error(f"Where should it go? Type {space}@x,y with a free cell: {free}")
        return None

    def move(self, seat: int, text: str) -> None:
        action = self.parse(text)
        if action is None:
            return
        try:
            self.apply(seat, action)
        except IllegalActionError as err:
            self.error(f"{err}.")
            return
        if isinstance(action, (Refill, EndPhase)):
            self.draw_board()

    def apply(self, seat: int, action: Action) -> None:
        """Apply a legal action, note what happened for the next board, save."""
        state = self.state
        tile = state.wheel[action.space] if isinstance(action, Place) else 0
        phase, on_wheel = state.phase, state.on_wheel
        covered = self.rec.apply(action)
        who = render.seat_text(self.who(seat), seat)
        if isinstance(action, Place):
            self.note_place(who, seat, tile, action, covered)
            if state.refilled and not state.is_over:
                self.note_auto_refill(phase)
        elif isinstance(action, Refill):
            added = state.on_wheel - on_wheel
            self.events.append(
                who + Text(f" refilled the wheel: {render.plural(added, 'new tile')}.")
            )
        else:
            self.events.append(
                who
                + Text(
                    f" ended phase 1 with score {state.phase1_score}; "
                    "the wheel was refilled for phase 2."
                )
            )
        self.save()

    def note_place(
        self, who: Text, seat: int, tile: int, action: Place, covered: list[tuple[int, int, int]]
    ) -> None:
        text = who + Text(f" took {render.describe_place(tile, action)}")
        if covered:
            text.append(f": covered {render.plural(len(covered), 'task')}", style="bold")
            text.append(f" ({render.covered_text(self.state, seat, covered)})")
        text.append(".")
        self.events.append(text)

    def note_auto_refill(self, phase_before: int) -> None:
        state = self.state
        if state.game.solo and phase_before == 1 and state.phase == 2:
            message = (
                f"The wheel is empty: phase 1 ends with score {state.phase1_score}. "
                "The wheel was refilled for phase 2."
            )
        else:
            message = f"The wheel was empty and was refilled ({state.pile_count} tiles left)."
        self.events.append(Text(message, style="bold yellow"))

    # -- commands ----------------------------------------------------------------

    def show_help(self) -> None:
        mode = HELP_SOLO if self.state.game.solo else HELP_STANDARD
        self.console.print(HELP.format(mode=mode))

    def show_hint(self) -> None:
        mode = self.state.game.mode
        if self._hinter is None:
            self._hinter = hint_bot(mode)
        with self.console.status("thinking…"):
            action, reason = self._hinter.explain(self.state.view())
        assert isinstance(action, Action)  # a Nova Luna bot chooses a Nova Luna action
        text = Text.assemble(
            ("Hint", "bold cyan"), f" ({hint_spec(mode)} bot): ", (str(action), "bold")
        )
        text.append(f" — {render.describe_action(action, self.state)}: {reason}")
        self.console.print(text)

    def show_preview(self, text: str) -> None:
        state = self.state
        try:
            action = parse_action(text)
            found = state.preview(action) if isinstance(action, Place) else None
        except (InvalidActionError, IllegalActionError) as err:
            self.error(f"preview: {err}")
            return
        if not isinstance(action, Place):
            self.error(f"preview: preview takes a move like {render.example_move(state)}")
            return
        tile = state.wheel[action.space]
        message = Text.assemble((str(action), "bold"), f": take the {render.tile_name(tile)}")
        if not state.game.solo:
            seat = state.current_seat
            end = state.time[seat] + TILES[tile].cost
            message.append(f", your marker moves to space {end % 24}")
        if found:
            message.append(f" — would cover {render.plural(len(found), 'task')}: ", style="bold")
            message.append(self.preview_tasks(action, tile, found))
        else:
            message.append(" — would cover no task")
        self.console.print(message)

    def preview_tasks(self, action: Place, tile: int, found: list[tuple[int, int, int]]) -> str:
        display = self.state.view().display(self.state.current_seat)
        parts = []
        for x, y, index in found:
            on = tile if (x, y) == action.cell else display[(x, y)][0]
            task = TILES[on].tasks[index]
            where = (
                "the new tile"
                if (x, y) == action.cell
                else f"the {render.tile_name(on)} at {x},{y}"
            )
            parts.append(f"{render.task_words(task)} on {where}")
        return "; ".join(parts)

    def show_moves(self) -> None:
        actions = [str(a) for a in self.state.legal_actions()]
        self.console.print(
            Text.assemble((f"{len(actions)} legal moves: ", "bold"), " ".join(actions))
        )
