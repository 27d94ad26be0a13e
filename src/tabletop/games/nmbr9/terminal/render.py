"""Rich renderings of NMBR 9: boards with their levels, the tile to place, the cards.

Everything here is a pure function from engine objects (``Board``, ``View``,
``State``) to ``Text`` lines or rich renderables; nothing prints. Colour
carries meaning, but every square also says it in characters: the digit of
its top tile and a raised level mark (``7²`` is a 7 on level 2), box lines
between tiles, so the plain-text output (no TTY) reads the same.

>>> from tabletop.games.nmbr9.rules import Board
>>> board = Board()
>>> _ = board.place(9, 0, 0, 0), board.place(9, 0, 3, 0), board.place(5, 3, 0, 0)
>>> print("\\n".join(line.plain.rstrip() for line in board_lines(board, margin=0)[:6]))
      0   1   2   3   4   5
    ┌───────────────┬───────┐
  0 │ 5¹  5¹  5¹  5¹│ 9   9 │ 0
    │       ┌───┐   │       │
  1 │ 5¹  5¹│ 9 │ 5¹│ 9   9 │ 1
    │       ├───┤   │   ┌───┘
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ....console import Block
from ..rules import DISTINCT, Board, Place, Placed, Result, State, View
from ..rules.board import NEIGHBOURS

#: Per level: two background tones (neighbouring tiles alternate) and the text colour.
LEVEL_STYLES: tuple[tuple[str, str, str], ...] = (
    ("grey35", "grey46", "bright_white"),  # the table
    ("deep_sky_blue4", "deep_sky_blue3", "bright_white"),
    ("green4", "green3", "black"),
    ("gold3", "yellow3", "black"),
    ("dark_orange3", "dark_orange", "black"),
    ("red3", "indian_red", "bright_white"),
    ("magenta3", "medium_violet_red", "bright_white"),  # 6 and higher
)
BORDER_STYLE = "grey62"
EMPTY_STYLE = "grey39"
AXIS_STYLE = "dim"
SEAT_STYLE = ("bold magenta", "bold green", "bold bright_cyan", "bold dark_orange")
SHAPE_STYLE = "bold bright_cyan"
SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹"
PREVIEW_MARK = "+"
MARGIN = 2  # empty squares drawn around the player's own tiles
OTHER_MARGIN = 1  # ... and around the other boards (drawn small)

#: (up, down, left, right) lines meeting at a corner -> the box-drawing character
CORNERS = {
    (False, False, False, False): " ",
    (True, True, False, False): "│",
    (False, False, True, True): "─",
    (False, True, False, True): "┌",
    (False, True, True, False): "┐",
    (True, False, False, True): "└",
    (True, False, True, False): "┘",
    (True, True, False, True): "├",
    (True, True, True, False): "┤",
    (False, True, True, True): "┬",
    (True, False, True, True): "┴",
    (True, True, True, True): "┼",
    (True, False, False, False): "╵",
    (False, True, False, False): "╷",
    (False, False, True, False): "╴",
    (False, False, False, True): "╶",
}

Square = tuple[int, int]


# -- small words -------------------------------------------------------------------


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def where(level: int) -> str:
    """``'on the table'`` or ``'on level 2'``."""
    return "on the table" if level == 0 else f"on level {level}"


def level_mark(level: int) -> str:
    """The raised level mark after a digit: none on the table, ``²`` on level 2."""
    return "" if level == 0 else "".join(SUPERSCRIPT[int(c)] for c in str(level))


def seat_text(label: str, seat: int) -> Text:
    """A seat's name in the seat's colour (only the name: appended text stays plain)."""
    return Text(label, style=SEAT_STYLE[seat % len(SEAT_STYLE)])


def level_style(level: int, tone: int = 0) -> str:
    """The background (and text colour) of a square on ``level``."""
    a, b, fg = LEVEL_STYLES[min(level, len(LEVEL_STYLES) - 1)]
    return f"bold {fg} on {b if tone else a}"


def tile_tones(board: Board) -> list[int]:
    """Per tile, tone 0 or 1: a tile takes a tone that the tiles it touches on its own
    level do not have where possible, so neighbours of one level look different."""
    tones: list[int] = []
    planes: dict[int, dict[Square, int]] = {}
    for index, tile in enumerate(board.tiles):
        plane = planes.setdefault(tile.level, {})
        squares = tile.squares()
        near = Counter(
            tones[plane[(x + dx, y + dy)]]
            for x, y in squares
            for dx, dy in NEIGHBOURS
            if (x + dx, y + dy) in plane
        )
        tones.append(0 if not near[0] else 1 if not near[1] else int(near[1] < near[0]))
        for square in squares:
            plane[square] = index
    return tones


def _frame(board: Board, margin: int) -> tuple[range, range]:
    """The columns and rows to draw: the tiles (or 0..3 on an empty board) and a margin."""
    x0, y0, x1, y1 = board.bounds() if board.tiles else (0, 0, 3, 3)
    return range(x0 - margin, x1 + margin + 1), range(y0 - margin, y1 + margin + 1)


# -- the boards ----------------------------------------------------------------------


def board_lines(board: Board, *, margin: int = MARGIN, new: int | None = None) -> list[Text]:
    """A board drawn large: a box around every tile, each square showing the digit of its
    top tile and its level mark on the level's colour; x across the top and bottom, y
    down both sides. The tile with index ``new`` is marked with ``+`` (a preview).
    """
    squares = board.squares
    tiles = board.tiles
    tones = tile_tones(board)
    xs, ys = _frame(board, margin)

    def owner(x: int, y: int) -> int | None:
        found = squares.get((x, y))
        return None if found is None else found[1]

    def fill(index: int | None) -> str:
        return "" if index is None else level_style(tiles[index].level, tones[index])

    def vertical(x: int, y: int) -> bool:  # a line between (x - 1, y) and (x, y)
        return owner(x - 1, y) != owner(x, y)

    def horizontal(x: int, y: int) -> bool:  # a line between (x, y - 1) and (x, y)
        return owner(x, y - 1) != owner(x, y)

    labels = Text("     ", style=AXIS_STYLE)
    for x in xs:
        labels.append(f"{x:^3} ", style=AXIS_STYLE)
    lines = [labels]
    for y in [*ys, ys.stop]:
        # the line above row y: corners and horizontal edges
        line = Text("    ")
        for x in [*xs, xs.stop]:
            up, down = vertical(x, y - 1), vertical(x, y)
            left, right = horizontal(x - 1, y), horizontal(x, y)
            char = CORNERS[(up, down, left, right)]
            if char == " ":
                line.append(" ", style=fill(owner(x, y)))
            else:
                line.append(char, style=BORDER_STYLE)
            if x == xs.stop:
                break
            if right:
                line.append("───", style=BORDER_STYLE)
            else:
                line.append("   ", style=fill(owner(x, y)))
        lines.append(line)
        if y == ys.stop:
            break
        # row y: squares and vertical edges
        line = Text(f"{y:>3} ", style=AXIS_STYLE)
        for x in [*xs, xs.stop]:
            if vertical(x, y):
                line.append("│", style=BORDER_STYLE)
            else:
                line.append(" ", style=fill(owner(x, y)))
            if x == xs.stop:
                break
            index = owner(x, y)
            if index is None:
                line.append(" · ", style=EMPTY_STYLE)
            else:
                tile = tiles[index]
                mark = PREVIEW_MARK if index == new else " "
                text = f"{mark}{tile.digit}{level_mark(tile.level) or ' '}"
                style = fill(index) + (" underline" if index == new else "")
                line.append(text, style=style)
        line.append(f" {y}", style=AXIS_STYLE)
        lines.append(line)
    lines.append(labels.copy())
    return lines


def compact_lines(board: Board, *, margin: int = OTHER_MARGIN) -> list[Text]:
    """A board drawn small: two characters a square (digit and level mark), no lines
    between tiles (the tones tell neighbours apart), x labelled every 5 columns."""
    squares = board.squares
    tiles = board.tiles
    tones = tile_tones(board)
    xs, ys = _frame(board, margin)
    head = [" "] * (2 * len(xs) + 2)
    for i, x in enumerate(xs):
        if x % 5 == 0 and all(c == " " for c in head[max(0, 2 * i - 1) : 2 * i + 3]):
            for j, c in enumerate(str(x)):
                head[2 * i + j] = c
    lines = [Text("    " + "".join(head).rstrip(), style=AXIS_STYLE)]
    for y in ys:
        line = Text(f"{y:>3} ", style=AXIS_STYLE)
        for x in xs:
            found = squares.get((x, y))
            if found is None:
                line.append("· ", style=EMPTY_STYLE)
            else:
                tile = tiles[found[1]]
                text = f"{tile.digit}{level_mark(tile.level) or ' '}"
                line.append(text, style=level_style(tile.level, tones[found[1]]))
        lines.append(line)
    return lines


def large_width(board: Board, margin: int = MARGIN) -> int:
    xs, ys = _frame(board, margin)
    return 4 * len(xs) + 6 + max(len(str(y)) for y in ys)


def level_table(board: Board) -> Text:
    """Tiles and points per level and the total, in three aligned lines.

    >>> board = Board()
    >>> _ = board.place(9, 0, 0, 0), board.place(9, 0, 3, 0), board.place(5, 3, 0, 0)
    >>> print(level_table(board).plain)
    level     0   1  total
    tiles     2   1      3
    points    0   5      5
    """
    levels = max((t.level for t in board.tiles), default=0) + 1
    tiles = [0] * levels
    points = [0] * levels
    for tile in board.tiles:
        tiles[tile.level] += 1
        points[tile.level] += tile.digit * tile.level
    head = Text("level  ", style="dim")
    count = Text("tiles  ", style="dim")
    score = Text("points ", style="dim")
    for level in range(levels):
        head.append(f"{level:>4}", style=level_style(level).replace("bold ", ""))
        count.append(f"{tiles[level]:>4}")
        score.append(f"{points[level]:>4}")
    head.append("  total", style="bold")
    count.append(f"{len(board.tiles):>7}")
    score.append(f"{board.score:>7}", style="bold")
    return Text("\n").join([head, count, score])


def legend(*, preview: bool = False) -> Text:
    """The level colours and what the marks mean."""
    text = Text("Levels ", style="dim")
    for level in range(len(LEVEL_STYLES)):
        name = "0 table" if level == 0 else f"{level}+" if level == len(LEVEL_STYLES) - 1 else level
        text.append(f" {name} ", style=level_style(level))
    text.append("  7² = a 7 on level 2 (no mark: on the table)", style="dim")
    if preview:
        text.append(f" · {PREVIEW_MARK} = the tile you preview", style="dim")
    return text


def board_title(label: str, seat: int, board: Board) -> Text:
    """``You · 25 points · 13 tiles``."""
    text = seat_text(label, seat)
    text.append(f" · {plural(board.score, 'point')} · {plural(len(board.tiles), 'tile')}")
    return text


def board_block(
    title: Text,
    board: Board,
    *,
    large: bool,
    width: int,
    new: int | None = None,
    note: Text | None = None,
) -> Block:
    """A board with its title above and its levels table below; drawn small if ``large``
    is false or the large drawing would not fit ``width``."""
    if large and large_width(board) <= width:
        lines = board_lines(board, new=new)
    else:
        lines = compact_lines(board)
    drawing = Text("\n").join(lines)
    drawing.no_wrap = True
    table = level_table(board)
    parts: list[Text] = [title] + ([note] if note is not None else []) + [drawing, table]
    need = max(max(line.cell_len for line in lines), *(p.cell_len for p in parts[:-2]), 30)
    return Group(*parts), need


def shape_lines(digit: int, rotation: int) -> list[Text]:
    """A rotation drawn with ``██`` per square and dim dots for the empty squares of its
    box (whose top-left corner is the x,y of the notation)."""
    rows = next(s for s in DISTINCT[digit] if s.rotation == rotation).rows()
    lines = []
    for row in rows:
        line = Text()
        for ch in row:
            line.append("██" if ch == "#" else "· ", style=SHAPE_STYLE if ch == "#" else "dim")
        lines.append(line)
    return lines


def rotation_name(digit: int, rotation: int) -> str:
    """``r1``, or ``r1 = r3`` for the 0 and the 8 (half a turn changes nothing)."""
    if len(DISTINCT[digit]) == 2:
        return f"r{rotation} = r{rotation + 2}"
    return f"r{rotation}"


def example_move(view: View) -> Place | None:
    """A legal placement to show as an example: the first one on the highest level."""
    legal = view.legal_with_levels()
    if not legal:
        return None
    top = max(level for _, level in legal)
    return next(place for place, level in legal if level == top)


def tile_panel(view: View) -> Group:
    """The card's digit in each distinct rotation side by side, with how many places
    each has and how high it can go; then an example, the count and the top level."""
    digit = view.card
    assert digit is not None
    legal = view.legal_with_levels()
    first = not view.board.tiles
    grid = Table.grid(padding=(0, 4))
    cells: list[RenderableType] = []
    for shape in DISTINCT[digit]:
        here = [level for place, level in legal if place.rotation == shape.rotation]
        lines = [Text(rotation_name(digit, shape.rotation), style="bold")]
        lines += shape_lines(digit, shape.rotation)
        lines += [Text()] * (4 - shape.height)
        if first:
            lines.append(Text("anywhere", style="dim"))
        elif here:
            lines.append(Text(plural(len(here), "place"), style="dim"))
            lines.append(Text(f"up to level {max(here)}" if max(here) else "table only"))
        else:
            lines.append(Text("no place", style="dim"))
        grid.add_column(no_wrap=True, vertical="top")
        cells.append(Text("\n").join(lines))
    grid.add_row(*cells)
    title = Text.assemble(
        ("Your tile: ", "bold"),
        (f" {digit} ", level_style(1)),
        f"  in its {len(DISTINCT[digit])} rotations (quarter turns clockwise)",
    )
    if len(DISTINCT[digit]) == 2:
        title.append(f"; r2 and r3 of the {digit} are the same as r0 and r1", style="dim")
    summary = Text()
    example = example_move(view)
    if first:
        summary.append("Your first tile goes anywhere on the table: ", style="bold")
        summary.append(f"e.g. {example}", style="bold")
        summary.append(" puts the top-left corner of its box on square 0,0.")
    else:
        top = max(level for _, level in legal)
        summary.append(f"{plural(len(legal), 'legal placement')}", style="bold")
        summary.append(" · highest level now: ")
        summary.append(f"{top}", style="bold")
        summary.append(f" (+{plural(digit * top, 'point')})" if top else " (the table: no points)")
        summary.append(f" · e.g. {example}", style="bold")
        summary.append(f" lies {where(top)}")
    return Group(title, grid, summary)


# -- the cards -------------------------------------------------------------------------


def cards_text(view: View) -> Text:
    """Cards turned so far, the ones still to come per digit, and the rounds left."""
    text = Text("Cards turned: ", style="bold")
    turned = list(view.turned)
    current = view.card if not view.is_over else None
    done = turned[:-1] if current is not None else turned
    text.append(" ".join(str(d) for d in done) or "none yet")
    if current is not None:
        text.append(" · now: ")
        text.append(f" {current} ", style=level_style(1))
    left = Counter(view.unturned)
    text.append("\nStill to come: ", style="bold")
    for digit in range(10):
        text.append(f"{digit}", style="bold" if left[digit] else "dim")
        text.append(f"×{left[digit]}  ", style="" if left[digit] else "dim")
    text.append(f"({plural(len(view.unturned), 'card')})")
    after = view.rounds_left
    text.append(f"\n{plural(after, 'more round')} after this one" if current is not None else "")
    if view.removed:
        text.append(
            f"; {view.removed} of the {plural(len(view.unturned), 'card')} still face down "
            f"{'is' if view.removed == 1 else 'are'} removed unseen and will never be turned"
        )
    text.append(".")
    return text


# -- moves -----------------------------------------------------------------------------


def moves_text(view: View, per_group: int = 12) -> Text:
    """Every legal placement, grouped by level (highest first) and rotation."""
    digit = view.card
    assert digit is not None  # asked for by a seat to move: the game is not over
    legal = view.legal_with_levels()
    if not view.board.tiles:
        return Text(
            f"Your first {digit} may go anywhere, in any rotation "
            f"({', '.join(f'r{s.rotation}' for s in DISTINCT[digit])}); e.g. r0@0,0."
        )
    text = Text(f"{plural(len(legal), 'legal placement')} of the {digit}:", style="bold")
    for level in sorted({lv for _, lv in legal}, reverse=True):
        places = [p for p, lv in legal if lv == level]
        text.append(f"\n  {where(level)} (+{digit * level}): ", style="bold")
        if len(places) <= per_group:
            text.append("  ".join(str(p) for p in places))
            continue
        parts = []
        for shape in DISTINCT[digit]:
            mine = [p for p in places if p.rotation == shape.rotation]
            if mine:
                shown = " ".join(str(p) for p in mine[:3])
                more = " …" if len(mine) > 3 else ""
                parts.append(f"r{shape.rotation} ×{len(mine)} ({shown}{more})")
        text.append("\n    " + "\n    ".join(parts))
    return text


def placed_text(label: str, seat: int, placed: Placed, total: int) -> Text:
    """``You: the 7 r1@2,0 on level 1, +7 (total 19)``."""
    text = seat_text(label, seat)
    text.append(f": {placed.action} {where(placed.level)}, ")
    points = placed.digit * placed.level
    text.append(f"+{points}", style="bold" if points else "")
    text.append(f" (total {total})")
    return text


def round_summary(number: int, digit: int, items: Sequence[Text]) -> Text:
    """``Round 3 · card 7 — You: r1@2,0 on level 1, +7 (total 19)``; with several
    seats, one line each under the round's line."""
    text = Text.assemble((f"Round {number}", "bold"), " · card ", (f" {digit} ", level_style(1)))
    if len(items) == 1:
        return text + Text(" — ") + items[0]
    text.append(" — what everybody did:")
    for item in items:
        text.append("\n  • ")
        text.append_text(item)
    return text


# -- the end ---------------------------------------------------------------------------


def result_view(state: State, labels: Sequence[str], good: int) -> RenderableType:
    """The ranking (equal totals share a rank) with the points and tiles per level."""
    result: Result = state.result()
    table = Table(
        title=Text("Result", style="bold"),
        caption="tiles per level: how many tiles each player has on that level",
        box=box.ROUNDED,
    )
    levels = max((t.level for b in state.boards for t in b.tiles), default=0)
    for name in ("rank", "player", "points", *(f"level {lv}" for lv in range(levels + 1))):
        table.add_column(name, justify="left" if name == "player" else "right")
    for seat in result.ranking:
        board = state.boards[seat]
        per = Counter(t.level for t in board.tiles)
        table.add_row(
            str(result.ranks[seat]),
            seat_text(labels[seat], seat),
            Text(str(result.scores[seat]), style="bold"),
            *(str(per[lv]) for lv in range(levels + 1)),
        )
    if len(labels) == 1:
        score = result.scores[0]
        verdict = "a good game!" if score >= good else f"a good game scores {good} or more"
        return Group(table, Text(f"Solo score {score} — {verdict}", style="bold"))
    winners = result.winners
    if len(winners) == 1:
        headline = seat_text(labels[winners[0]], winners[0])
        headline.append(f" won with {plural(result.scores[winners[0]], 'point')}.")
    else:
        headline = Text(" and ").join(seat_text(labels[s], s) for s in winners)
        headline.append(f" share first place with {plural(result.scores[winners[0]], 'point')}.")
    return Group(table, headline)
