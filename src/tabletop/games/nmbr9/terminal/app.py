"""Terminal play: ``nmbr9 play`` — alone, against bots, or hot-seat.

``play_from_args`` is what the command runs. A ``Session`` owns the game (a
``Recorder``), the seats and the console. Every round the card is announced,
the bots place from their own views, then each human seat in turn gets its
screen (its own board large, the others as of the last completed round, the
tile in its rotations, the cards still to come) and types a placement or a
command. Wrong input gets a message saying what was wrong — never a
traceback. The record is saved after every round and whenever play stops.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from ....console import GAP, Block, Seat, bot_specs, make_seats, pack, read_line
from ....terminal import TerminalSession, chosen_seed, new_game
from ....terminal import play_from_args as play_session
from ..bots import ExplainingBot, hint_bot, hint_spec, make_bot
from ..gametype import GAME
from ..records import Recorder
from ..rules import (
    Game,
    IllegalActionError,
    InvalidActionError,
    Place,
    Placed,
    State,
    View,
    parse_action,
)
from . import render

HELP = """\
[bold]NMBR 9 in short[/bold]
• Each round one card is turned, and [bold]every player lays a tile of that digit[/bold] in \
their own area at the same time. Nobody sees the others' tile of the round until all have \
placed; then the next card is turned.{removed}
• Turn the tile as you like (never flip it); it sits on the square grid. Your first tile \
goes anywhere.
• [bold]Same level[/bold]: on a level that already has tiles (the table is level 0), the new \
tile must share a square edge with one of them.
• [bold]Going up[/bold]: a tile lies on level k when everything under it is level k−1. It must \
lie [bold]fully on tiles[/bold] (no overhang, no hole under it, all squares at the same height) \
and rest on [bold]at least two different tiles[/bold].
• [bold]Score[/bold]: at the end each tile is worth its digit × its level (a 7 on level 2 = 14; \
the table scores 0). Most points wins; equal totals share the rank.

[bold]Notation[/bold]: [bold]r1@3,-2[/bold] lays the tile turned [bold]r1[/bold] (r0…r3 = 0…3 \
quarter turns clockwise, as drawn under "Your tile") with the [bold]top-left corner of its box\
[/bold] on square x=3, y=−2 (x grows to the right, y downwards; both may be negative, the \
table has no edge). The level follows from what lies underneath. [bold]1@3,-2[/bold] works too.
[bold]Reading the board[/bold]: each square shows the digit of its top tile with its level \
raised after it ([bold]7²[/bold] = a 7 on level 2; no mark = on the table), lines run between \
tiles, colours go up with the level (see the legend). Other boards are shown as of the last \
finished round.

[bold]Commands[/bold]: [bold]r1@3,-2[/bold] place · [bold]preview r1@3,-2[/bold] (draw it, say \
its level or the rule it breaks) · [bold]moves[/bold] (every legal placement) · [bold]hint\
[/bold] (what the {hint} bot would play, and why) · [bold]cards[/bold] · [bold]board[/bold] \
(draw the screen again) · [bold]help[/bold] · [bold]quit[/bold] (save the record and stop)."""


def setup(args: argparse.Namespace) -> tuple[Game, list[Seat], int]:
    """The game, the seats and the seed the options ask for."""
    seed = chosen_seed(args.seed)
    players, humans = args.players, args.humans
    remove = None if args.remove == "random" else args.remove  # the option says "random"
    game = new_game(Game, players=players, remove=remove)
    return game, make_seats(players, humans, bot_specs(args.bots), seed, make_bot), seed


def play_from_args(args: argparse.Namespace) -> int:
    """Run ``nmbr9 play``; return the exit status."""
    return play_session(
        "nmbr9 play", args.save, "nmbr9", lambda: setup(args), Recorder.new, Session
    )


# -- playing ----------------------------------------------------------------------


class Session(TerminalSession[Recorder]):
    """A game of NMBR 9 being played in the terminal."""

    def __init__(self, console: Console, rec: Recorder, seats: list[Seat], path: Path) -> None:
        super().__init__(console, rec, seats, path)
        self.last_round: Text | None = None  # what everybody did in the last finished round
        self.this_round: dict[int, Placed] = {}
        self._hinter: ExplainingBot | None = None

    @property
    def state(self) -> State:
        return self.rec.state

    @property
    def humans(self) -> int:
        return sum(1 for seat in self.seats if seat.bot is None)

    @property
    def solo(self) -> bool:
        return len(self.seats) == 1

    @property
    def hot_seat(self) -> bool:
        """Several humans at one terminal: screens are cleared between them."""
        return self.humans > 1 and self.console.is_terminal

    def who(self, seat: int) -> str:
        """``"You"``, ``"Player 2"`` or ``"Bot greedy (seat 2)"``."""
        label = self.seats[seat].label
        return label if self.seats[seat].bot is None else f"{label} (seat {seat + 1})"

    @property
    def labels(self) -> list[str]:
        return [self.who(seat) for seat in range(len(self.seats))]

    # -- the game loop --------------------------------------------------------------

    def play_on(self) -> str:
        """Bots place, then every human seat; return why play stops, or ``""``."""
        state = self.state
        for seat in state.acting_seats():
            bot = self.seats[seat].bot
            if bot is not None:
                action = bot.choose(state.view(seat))
                assert isinstance(action, Place)  # an NMBR 9 bot chooses a placement
                self.apply(seat, action)
        for seat in state.acting_seats():
            if self.seats[seat].bot is None:
                stopped = self.human_turn(seat)
                if stopped:
                    return stopped
        return ""

    def apply(self, seat: int, action: Place) -> Placed:
        """Apply a placement (``IllegalActionError`` if it breaks a rule); when it ends
        the round, note what everybody did and save the record."""
        state = self.state
        number, digit = state.round, state.card
        assert digit is not None
        placed = self.rec.apply(action, seat)
        self.this_round[seat] = placed
        if state.round != number or state.is_over:
            items = [
                render.placed_text(self.who(s), s, p, state.boards[s].score)
                for s, p in sorted(self.this_round.items())
            ]
            self.last_round = render.round_summary(number + 1, digit, items)
            self.this_round = {}
            self.save()
        return placed

    def human_turn(self, seat: int) -> str:
        """Prompt until the seat places; return why play stops, or ``""``."""
        stopped = self.hand_over(seat)
        if stopped:
            return stopped
        self.draw_board(seat)
        number = self.state.round
        stopped = self.read_turn(
            seat, lambda: self.state.round == number and seat not in self.this_round
        )
        if stopped:
            return stopped
        if self.hot_seat and self.state.round == number:
            hide = Text("Press Enter to hide your board and pass on: ", style="bold")
            if read_line(self.console, hide) is None:
                return "end of input"
        return ""

    def hand_over(self, seat: int) -> str:
        """Hot-seat on a terminal: clear the screen and let the next player say when
        they are ready, so nobody sees another's screen."""
        if not self.hot_seat:
            return ""
        self.console.clear()
        text = Text.assemble(
            render.seat_text(self.who(seat), seat),
            f", your turn in round {self.state.round + 1}. Press Enter when the others "
            "are not looking: ",
        )
        return "end of input" if read_line(self.console, text) is None else ""

    def show_end(self) -> None:
        console = self.console
        if self.last_round is not None:
            console.print(self.last_round)
            console.print()
        console.print(Text("Final boards", style="bold"))
        blocks = [
            render.board_block(
                render.board_title(self.who(s), s, board),
                board,
                large=True,
                width=console.width,
            )
            for s, board in enumerate(self.state.boards)
        ]
        console.print(pack(blocks, console.width))
        console.print(render.legend())
        console.print()
        console.print(render.result_view(self.state, self.labels, GAME.solo_threshold))

    def show_stopped(self, stopped: str, where: str) -> None:
        """How far the game got."""
        state = self.state
        self.console.print(
            Text.assemble(
                f"{stopped.capitalize()}: game not finished "
                f"({render.plural(state.round, 'round')} of {state.rounds} played). "
                "Record saved to ",
                (where, "bold"),
            )
        )

    def after_finish(self, where: str) -> None:
        self.console.print(f"Check it with: nmbr9 replay {where}")

    # -- the screen ---------------------------------------------------------------

    def intro(self) -> None:
        state = self.state
        what = "solo game" if self.solo else f"{len(self.seats)}-player game"
        removed = f" · {state.removed} cards removed unseen" if state.removed else ""
        self.console.rule(
            Text(
                f"NMBR 9 · {what} · seed {self.rec.seed} · {state.rounds} rounds{removed}",
                style="bold",
            )
        )
        self.console.print(
            Text.assemble(
                "Type ",
                ("help", "bold"),
                " at any prompt for the rules, the notation and the commands. Record: ",
                (str(self.path.resolve()), "bold"),
            )
        )

    def header(self, seat: int) -> Text:
        state = self.state
        text = Text.assemble(("NMBR 9", "bold"), f" · round {state.round + 1} of {state.rounds}")
        text.append(" · card ")
        text.append(f" {state.card} ", style=render.level_style(1))
        if not self.solo:
            text.append(" · to place: ")
            text.append_text(render.seat_text(self.who(seat), seat))
        return text

    def screen(self, seat: int) -> RenderableType:
        """Everything the seat may see, the most needed nearest the prompt: the last
        round, the cards, the boards (the seat's own large, the others small, beside it
        if there is room, else above it) and the tile to place."""
        view = self.state.view(seat)
        width = self.console.width
        parts: list[RenderableType] = [self.header(seat)]
        if self.last_round is not None:
            parts.append(self.last_round)
        parts.extend([Text(), render.cards_text(view), Text()])
        title = render.board_title(self.who(seat), seat, view.board)
        title.append(" · your board", style="bold")
        own, own_width = render.board_block(title, view.board, large=True, width=width)
        others = self.others(view)
        if not others:
            parts.append(own)
        elif own_width + GAP + max(need for _, need in others) <= width:
            column: list[RenderableType] = [self.others_caption()]
            for block, _ in others:
                column.extend([block, Text()])
            beside = Table.grid(padding=(0, GAP))
            beside.add_column(vertical="top", no_wrap=True)
            beside.add_column(vertical="top", no_wrap=True)
            beside.add_row(own, Group(*column[:-1]))
            parts.append(beside)
        else:
            parts.extend([self.others_caption(), pack(others, width), Text(), own])
        parts.extend([render.legend(), Text(), render.tile_panel(view)])
        return Group(*parts)

    def others(self, view: View) -> list[Block]:
        """The other seats' boards, small, as of the last finished round."""
        blocks = []
        for s, board in enumerate(view.boards):
            if s == view.viewer:
                continue
            title = render.board_title(self.who(s), s, board)
            note = Text(
                "this round: ✓ placed (hidden for now)"
                if view.has_placed[s]
                else "this round: still to place",
                style="dim",
            )
            blocks.append(render.board_block(title, board, large=False, width=0, note=note))
        return blocks

    def others_caption(self) -> Text:
        done = self.state.round
        when = f"after round {done}" if done else "before the first round"
        return Text(f"Other boards ({when}):", style="bold")

    def draw_board(self, seat: int) -> None:
        """Clear the terminal (or start a new paragraph) and draw the seat's screen."""
        self.new_screen()
        self.console.print(self.screen(seat))

    def example(self, seat: int) -> str:
        example = render.example_move(self.state.view(seat))
        return str(example) if example is not None else "r0@0,0"

    def prompt(self, seat: int) -> Text:
        text = render.seat_text(self.who(seat), seat)
        text.append(
            f" ▸ place the {self.state.card} (e.g. {self.example(seat)}), "
            "or help, hint, moves, preview, quit: ",
            style="bold",
        )
        return text

    # -- typed lines ----------------------------------------------------------------

    def empty_line_hint(self, seat: int) -> str:
        return f"Type a placement like {self.example(seat)}, or help."

    def command(self, seat: int, command: str, rest: str) -> bool:
        if command == "hint":
            self.show_hint(seat)
        elif command in ("preview", "p"):
            self.show_preview(seat, rest)
        elif command in ("moves", "legal", "m"):
            self.console.print(render.moves_text(self.state.view(seat)))
        elif command in ("cards", "deck"):
            self.console.print(render.cards_text(self.state.view(seat)))
        elif command in ("board", "show", "look", "b"):
            self.draw_board(seat)
        else:
            return False
        return True

    def parse(self, seat: int, text: str) -> Place | None:
        """The placement ``text`` stands for, or ``None`` after saying what is wrong."""
        if "@" not in text and not any(ch.isdigit() for ch in text):
            example = self.example(seat)
            rotation, _, square = example.partition("@")
            self.error(
                f"I don't understand {text!r}. Type a placement like {example} (the tile "
                f"turned {rotation}, top-left corner of its box on square {square}), "
                "or help, hint, moves, quit."
            )
            return None
        return self.parsed(parse_action, text)

    def move(self, seat: int, text: str) -> None:
        action = self.parse(seat, text)
        if action is None:
            return
        number = self.state.round
        try:
            placed = self.apply(seat, action)
        except IllegalActionError as err:
            self.error(f"{err}.")
            return
        message = Text("✓ ", style="bold green")
        message.append_text(render.seat_text(self.who(seat), seat))
        message.append(f" placed the {placed.digit} at {placed.action}")
        message.append(f" {render.where(placed.level)}")
        message.append(f" (+{placed.digit * placed.level}).")
        if self.state.round == number and not self.state.is_over:
            message.append(" It stays hidden from the others until the round ends.", style="dim")
        self.console.print(message)

    # -- commands ----------------------------------------------------------------

    def show_help(self) -> None:
        removed = self.state.removed
        note = (
            f" In this game {removed} of the 20 cards were removed unseen: "
            f"{self.state.rounds} rounds, and nobody knows which digits are missing."
            if removed
            else ""
        )
        self.console.print(HELP.format(removed=note, hint=hint_spec()))

    def show_hint(self, seat: int) -> None:
        if self._hinter is None:
            self._hinter = hint_bot(self.rec.seed)
        with self.console.status("thinking…"):
            action, reason = self._hinter.explain(self.state.view(seat))
        text = Text.assemble(
            ("Hint", "bold cyan"), f" ({hint_spec()} bot): ", (str(action), "bold")
        )
        text.append(f" — {reason}. ")
        text.append(f"Type preview {action} to see it, or {action} to place it.", style="dim")
        self.console.print(text)

    def show_preview(self, seat: int, text: str) -> None:
        state = self.state
        if not text.strip():
            self.error(f"preview needs a placement, e.g. preview {self.example(seat)}.")
            return
        try:
            action = parse_action(text)
            level = state.level_of(action, seat)
        except (InvalidActionError, IllegalActionError) as err:
            self.error(f"preview: {err}.")
            return
        digit = state.card
        assert digit is not None
        board = state.view(seat).board.clone()
        before = board.score
        board.lay(digit, *action, level)
        title = Text.assemble(("Preview", "bold"), f" of {action} (nothing placed yet)")
        block, _ = render.board_block(
            title, board, large=True, width=self.console.width, new=len(board.tiles) - 1
        )
        self.console.print(block)
        self.console.print(render.legend(preview=True))
        message = Text.assemble(
            (str(action), "bold"),
            f": the {digit} would lie {render.where(level)}",
        )
        points = digit * level
        if points:
            message.append(f", +{points} (your score {before} → {before + points}). ")
        else:
            message.append(": no points. ")
        message.append(f"Type {action} to place it.", style="bold")
        self.console.print(message)
