"""Rich renderings of a Nova Luna position: wheel, moon track, displays, results.

Everything here is a pure function from a ``State`` (plus seat labels) to a
rich renderable or ``Text``; nothing prints. Colours carry meaning but every
cell also says it in words or letters, so the plain-text output (no TTY) reads
the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich import box
from rich.console import Group, JustifyMethod, RenderableType
from rich.table import Table
from rich.text import Text

from ....console import Block, pack
from ..rules import COLORS, DISCS, TILES, EndPhase, Place, Refill, SoloResult, State
from ..rules.state import SOLO_PHASE1_DISCS, TRACK_SPACES

LETTER = {"red": "R", "blue": "B", "cyan": "C", "yellow": "Y"}
TILE_STYLE = {
    "red": "bold white on red3",
    "blue": "bold white on blue3",
    "cyan": "bold black on dark_cyan",
    "yellow": "bold black on gold1",
}
LETTER_STYLE = {
    "red": "bold red1",
    "blue": "bold dodger_blue1",
    "cyan": "bold cyan",
    "yellow": "bold yellow1",
}
SEAT_STYLE = ("bold magenta", "bold green", "bold bright_white", "bold dark_orange")
COVERED = "●"
OPEN = "○"
MEEPLE = "☾"
CELL_WIDTH = 8
WHEEL_WIDTH = 10
ORDINAL = ("now", "2nd", "3rd", "4th")


# -- tiles and tasks ----------------------------------------------------------


def tile_name(tile: int) -> str:
    """``"red 3"``: a tile's colour and cost."""
    t = TILES[tile]
    return f"{t.color} {t.cost}"


def tile_chip(tile: int, width: int = 0) -> Text:
    """The tile's colour and cost on its colour, centred in ``width`` cells."""
    name = tile_name(tile)
    return Text(name.center(max(width, len(name))), style=TILE_STYLE[TILES[tile].color])


def task_text(task: Mapping[str, int], *, dim: bool = False) -> Text:
    """A task as coloured letters: ``BBY`` = 2 blue and 1 yellow."""
    text = Text()
    for color in COLORS:
        text.append(LETTER[color] * task.get(color, 0), style="dim" if dim else LETTER_STYLE[color])
    return text


def task_words(task: Mapping[str, int]) -> str:
    """``"2 blue + 1 yellow"``."""
    return " + ".join(f"{task[c]} {c}" for c in COLORS if task.get(c))


def tasks_line(tile: int) -> Text:
    """All tasks of a tile on one line, or ``no task``."""
    tasks = TILES[tile].tasks
    if not tasks:
        return Text("no task", style="dim")
    return Text(" ").join(task_text(task) for task in tasks)


def seat_text(label: str, seat: int) -> Text:
    """A seat's name in the seat's colour (only the name: appended text stays plain)."""
    return Text.assemble((label, SEAT_STYLE[seat % len(SEAT_STYLE)]))


# -- the moon wheel -----------------------------------------------------------


def _wheel_cell(state: State, space: int, takeable: list[int]) -> Text:
    head = Text(f"{space:>2} ", style="bold")
    if space in takeable:
        head.append("▶ take", style="bold green")
    tile = state.wheel[space]
    if not tile:
        if space == state.meeple:
            body = Text(f"{MEEPLE} meeple", style="bold bright_white")
        else:
            body = Text("empty", style="dim")
        return Text("\n").join([head, body, Text()])
    return Text("\n").join([head, tile_chip(tile, WHEEL_WIDTH), tasks_line(tile)])


def wheel_table(state: State) -> Table:
    """The 12 wheel spaces as a ring: 0–5 left to right, then 6–11 back."""
    takeable = [] if state.is_over else state.takeable_spaces()
    table = Table(
        box=box.ROUNDED,
        show_header=False,
        show_lines=True,
        padding=(0, 1),
        title=Text.assemble(
            ("Moon wheel", "bold"),
            f"  {MEEPLE} on space {state.meeple} · pile {state.pile_count} tiles",
        ),
        caption="clockwise: 0 → 5 along the top, 6 → 11 right to left along the bottom",
        caption_style="dim",
    )
    for _ in range(6):
        table.add_column(width=WHEEL_WIDTH, no_wrap=True)
    for row in (range(6), range(11, 5, -1)):
        table.add_row(*(_wheel_cell(state, space, takeable) for space in row))
    return table


# -- the moon track and the players -------------------------------------------


def _stacks(state: State) -> dict[int, list[int]]:
    """Seats per moon-track space, bottom of the stack first."""
    stacks: dict[int, list[int]] = {}
    for seat in sorted(range(state.game.players), key=lambda s: state.stamp[s]):
        stacks.setdefault(state.time[seat] % TRACK_SPACES, []).append(seat)
    return stacks


def track_strip(state: State) -> Text:
    """The 24 moon-track spaces with each seat's marker, stacks drawn upwards."""
    stacks = _stacks(state)
    height = max(len(s) for s in stacks.values())
    lines = []
    for level in reversed(range(height)):
        line = Text()
        for space in range(TRACK_SPACES):
            stack = stacks.get(space, [])
            if level < len(stack):
                line.append(f"{stack[level] + 1:>3}", style=SEAT_STYLE[stack[level]])
            else:
                line.append("   ")
        lines.append(line)
    numbers = Text()
    numbers.append("".join(f"{space:>3}" for space in range(TRACK_SPACES)), style="dim")
    lines.append(numbers)
    return Text("\n").join(lines)


def players_table(state: State, labels: Sequence[str]) -> Table:
    """Per seat: discs left, tiles taken, moon-track space and turn order."""
    order = state.turn_order()
    stacks = _stacks(state)
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("seat", "right"),
        ("player", "left"),
        ("discs left", "right"),
        ("tiles", "right"),
        ("moon track", "left"),
        ("turn order", "left"),
    )
    for name, justify in columns:
        table.add_column(name, justify=justify)
    for seat in range(state.game.players):
        space = state.time[seat] % TRACK_SPACES
        stack = stacks[space]
        where = f"space {space:>2}"
        if len(stack) > 1:
            where += " top" if stack[-1] == seat else " under"
        rank = order.index(seat)
        moves = Text(f"▶ {ORDINAL[rank]}", style="bold green") if rank == 0 else ORDINAL[rank]
        table.add_row(
            str(seat + 1),
            seat_text(labels[seat], seat),
            str(state.supply[seat]),
            str(len(state.displays[seat].tiles)),
            where,
            moves,
        )
    return table


def track_panel(state: State, labels: Sequence[str]) -> Group:
    """The players table, the moon-track strip and the rule that orders turns."""
    note = Text(
        "↑ seat markers on the 24 spaces; a stack's top marker is drawn highest.\n"
        "The marker furthest back moves next; on a shared space, the top one.\n"
        "Taking a tile moves your marker forward by the tile's cost.",
        style="dim",
    )
    title = Text("Moon track", style="bold")
    return Group(title, players_table(state, labels), Text(), track_strip(state), note)


# -- solo status ---------------------------------------------------------------


def solo_status(state: State) -> Text:
    """Phase, discs placed and the running score of a solo game."""
    placed = state.discs_placed(0)
    cost = state.scores_so_far()
    text = Text.assemble(("Solo", "bold"), f" · phase {state.phase} · ")
    if state.phase == 1:
        missing = max(0, SOLO_PHASE1_DISCS - placed)
        text.append(f"discs placed {placed} (phase-1 goal {SOLO_PHASE1_DISCS})")
        text.append(f" · {plural(state.on_wheel, 'tile')} on the wheel, no refills\n")
        text.append(f"Phase-1 score now {cost + 10 * missing}", style="bold")
        text.append(f" = tiles {cost} + 10 × {missing} missing discs (lower is better)")
        if state.can_end_phase():
            text.append("\nYou may type end to close phase 1 now", style="bold green")
            text.append(" (or go on taking tiles: each costs points).")
    else:
        missing = DISCS - placed
        phase2 = cost + 10 * missing
        text.append(f"discs placed {placed} of {DISCS}")
        text.append(f" · {plural(state.on_wheel, 'tile')} on the wheel, no refills\n")
        text.append(f"Phase 1 scored {state.phase1_score} · ")
        text.append(f"phase-2 score now {phase2}", style="bold")
        text.append(f" = tiles {cost} + 10 × {missing} missing discs · ")
        text.append(f"total now {state.phase1_score + phase2}", style="bold")
    return text


# -- displays -----------------------------------------------------------------


def _tile_cell(tile: int, flags: tuple[bool, ...]) -> Text:
    lines = [tile_chip(tile, CELL_WIDTH)]
    for task, covered in zip(TILES[tile].tasks, flags, strict=True):
        line = Text(f" {COVERED if covered else OPEN} ", style="bold" if covered else "")
        line.append_text(task_text(task, dim=covered))
        lines.append(line)
    cell = Text("\n").join(lines)
    cell.justify = "left"
    return cell


def display_title(state: State, seat: int, label: str) -> Text:
    """``You · seat 1 · 18 discs left · 3 tiles``."""
    tiles = len(state.displays[seat].tiles)
    text = seat_text(label, seat)
    if not state.game.solo:
        text.append(f" · seat {seat + 1}")
    text.append(f" · {plural(state.supply[seat], 'disc')} left")
    text.append(f" · {plural(tiles, 'tile')}")
    return text


def display_grids(state: State, seat: int, *, free: bool = False, width: int = 0) -> list[Table]:
    """One seat's display as grids with x (columns) and y (rows) coordinates.

    With ``free``, the empty cells where a tile may go show their coordinates.
    A display wider than ``width`` is cut into bands of columns, one grid each.
    """
    cells = state.view().display(seat)
    free_cells = set(state.legal_cells(seat)) if free else set()
    coords = set(cells) | free_cells or {(0, 0)}
    xs = list(range(min(x for x, _ in coords), max(x for x, _ in coords) + 1))
    ys = range(min(y for _, y in coords), max(y for _, y in coords) + 1)
    per_band = max(1, (width - 5) // (CELL_WIDTH + 1)) if width else len(xs)
    bands = [xs[i : i + per_band] for i in range(0, len(xs), per_band)]
    return [_grid(cells, free_cells, band, ys) for band in bands]


def _grid(
    cells: Mapping[tuple[int, int], tuple[int, tuple[bool, ...]]],
    free_cells: set[tuple[int, int]],
    xs: Sequence[int],
    ys: range,
) -> Table:
    table = Table(box=box.SQUARE, show_lines=True, padding=0, header_style="dim")
    table.add_column("y\\x", justify="right", style="dim", no_wrap=True)
    for x in xs:
        table.add_column(str(x), justify="center", width=CELL_WIDTH, no_wrap=True)
    for y in ys:
        row: list[RenderableType] = [str(y)]
        for x in xs:
            if (x, y) in cells:
                row.append(_tile_cell(*cells[(x, y)]))
            elif (x, y) in free_cells:
                row.append(Text(f"{x},{y}", style="green"))
            else:
                row.append("")
        table.add_row(*row)
    return table


def grid_width(table: Table) -> int:
    """The printed width of a display grid (borders included)."""
    return 5 + (len(table.columns) - 1) * (CELL_WIDTH + 1)  # the y labels take 3


# -- the moves on offer ---------------------------------------------------------


def _or_list(items: Sequence[str]) -> str:
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " or " + items[-1]


def example_move(state: State) -> str:
    """A legal take-and-place to show as an example (the first one)."""
    for action in state.legal_actions():
        if isinstance(action, Place):
            return str(action)
    return "refill"


def options_text(state: State) -> Text:
    """What the player to move may type, spelled out from the legal moves."""
    spaces = state.takeable_spaces()
    cells = state.legal_cells()
    text = Text("Your move: ", style="bold")
    text.append("take a tile from space ")
    text.append(_or_list([f"{s} ({tile_name(state.wheel[s])})" for s in spaces]))
    if cells == [(0, 0)] and not state.displays[state.current_seat].tiles:
        text.append(" — your first tile goes on 0,0")
    else:
        text.append(" and lay it on a free cell: ")
        text.append("  ".join(f"{x},{y}" for x, y in cells), style="green")
    text.append(f"\nType space@x,y, e.g. {example_move(state)}", style="bold")
    if state.can_refill():
        text.append(
            f"\nor refill: only {state.on_wheel} tile{'s' if state.on_wheel > 1 else ''} "
            "left, you may refill the wheel before you take",
            style="bold yellow",
        )
    if state.can_end_phase():
        text.append("\nor end: close phase 1 now and start phase 2", style="bold yellow")
    text.append(
        "\nMore: help · hint · preview " + example_move(state) + " · moves · board · quit",
        style="dim",
    )
    return text


# -- describing actions ---------------------------------------------------------


def covered_text(state: State, seat: int, covered: Sequence[tuple[int, int, int]]) -> str:
    """``"BBY on the blue 4 at 0,0; RR on the red 3 at 1,0"``."""
    display = state.view().display(seat)
    parts = []
    for x, y, index in covered:
        tile = display[(x, y)][0]
        task = "".join(LETTER[c] * n for c, n in _ordered(TILES[tile].tasks[index]))
        parts.append(f"{task} on the {tile_name(tile)} at {x},{y}")
    return "; ".join(parts)


def _ordered(task: Mapping[str, int]) -> list[tuple[str, int]]:
    return [(c, task[c]) for c in COLORS if task.get(c)]


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def describe_place(tile: int, action: Place) -> str:
    """``"the red 3 from space 5 and laid it at 1,0"`` (after ``took``)."""
    return f"the {tile_name(tile)} from space {action.space} and laid it at {action.x},{action.y}"


def describe_action(action: Place | Refill | EndPhase, state: State) -> str:
    """An action to be taken, in words (for hints)."""
    if isinstance(action, Place):
        tile = state.wheel[action.space]
        return (
            f"take the {tile_name(tile)} from space {action.space}, lay it at {action.x},{action.y}"
        )
    if isinstance(action, Refill):
        return "refill the wheel first"
    return "end phase 1 now"


# -- the end -------------------------------------------------------------------


def result_view(state: State, labels: Sequence[str]) -> RenderableType:
    """The final ranking (or the solo scores)."""
    result = state.result()
    if isinstance(result, SoloResult):
        table = Table(title=Text("Solo result", style="bold"), box=box.ROUNDED)
        for name in ("phase 1", "phase 2", "total", "discs placed", "tiles taken"):
            table.add_column(name, justify="right")
        table.add_row(
            str(result.phase1),
            str(result.phase2),
            Text(str(result.total), style="bold"),
            f"{result.discs_placed} of 21",
            str(result.tiles_taken),
        )
        verdict = "under 100: a good score!" if result.total < 100 else "lower is better"
        return Group(table, Text(f"Final score {result.total} — {verdict}", style="bold"))
    table = Table(title=Text("Result", style="bold"), box=box.ROUNDED)
    for name in ("rank", "player", "discs left", "tiles taken"):
        table.add_column(name, justify="left" if name == "player" else "right")
    for rank, seat in enumerate(result.ranking, 1):
        table.add_row(
            str(rank),
            seat_text(f"{labels[seat]} (seat {seat + 1})", seat),
            str(result.discs_left[seat]),
            str(result.tiles_taken[seat]),
        )
    winner = result.winner
    if result.winner_by_last_disc:
        how = "placed the last disc"
    elif result.discs_left[result.ranking[1]] == result.discs_left[winner]:
        how = "the tiles ran out with a tie on discs left; the tie goes to whoever would move next"
    else:
        how = "had the fewest discs left when the tiles ran out"
    headline = Text.assemble(seat_text(labels[winner], winner), f" won: {how}.")
    return Group(table, headline)


# -- the whole board --------------------------------------------------------------


def display_block(state: State, seat: int, label: str, *, free: bool, width: int) -> Block:
    """A display with its title line, and its width."""
    title = display_title(state, seat, label)
    grids = display_grids(state, seat, free=free, width=width)
    return Group(title, *grids), max(title.cell_len, *(grid_width(g) for g in grids))


def wheel_block(state: State) -> Block:
    return wheel_table(state), 6 * (WHEEL_WIDTH + 3) + 1


def track_block(state: State, labels: Sequence[str]) -> Block:
    return track_panel(state, labels), 3 * TRACK_SPACES


def event_list(events: Sequence[Text]) -> Table:
    """Events as an indented list; long ones wrap under their own start."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=1)
    grid.add_column()
    for event in events:
        grid.add_row("•", event)
    return grid


def board(
    state: State,
    labels: Sequence[str],
    *,
    width: int,
    header: Text,
    events: Sequence[Text] = (),
) -> Group:
    """The whole picture for the player to move, most needed nearest the prompt.

    From the top: the other displays and the moon track, what happened since
    the player's last turn, then the player's own display and the wheel.
    """
    mover = state.current_seat
    parts: list[RenderableType] = [header, Text()]
    if not state.game.solo:
        others = [
            display_block(state, s, labels[s], free=False, width=width)
            for s in range(state.game.players)
            if s != mover
        ]
        parts.extend([pack([*others, track_block(state, labels)], width), Text()])
    if events:
        parts.extend([Text("Latest moves:", style="bold"), event_list(events)])
        parts.append(Text())
    own = display_block(state, mover, labels[mover], free=not state.is_over, width=width)
    parts.append(pack([own, wheel_block(state)], width))
    if state.game.solo:
        parts.append(solo_status(state))
    return Group(*parts)
