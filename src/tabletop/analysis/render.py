"""An analysis as people read it in a terminal: a table per seat (rich), its summary
and, where the game offers one, the best game with hindsight."""

from __future__ import annotations

import os

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..core.analysis import JSON, Scale
from .words import count_words, label_words, move_words

MARK_STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
MARK_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def scale_of(analysis: JSON) -> Scale:
    return Scale.from_json(analysis["scale"])


def seat_table(seat: JSON, scale: Scale) -> Table:
    """One seat's moves: played, best (in the game's words), both values, the loss and
    the mark. The short columns never wrap, nor are cut ("inaccura…"): only the words
    of the moves wrap where the width is short."""
    table = Table(title=f"{seat['name']}", title_justify="left", expand=False)
    for header, justify in [
        ("#", "right"),
        ("move", "left"),
        ("played", "left"),
        ("best", "left"),
        (f"value played ({scale.unit})", "right"),
        ("value best", "right"),
        ("loss", "right"),
        ("mark", "left"),
    ]:
        wraps = header in ("played", "best")
        table.add_column(header, justify=justify, no_wrap=not wraps, overflow="fold")  # type: ignore[arg-type]
    for move in seat["moves"]:
        mark = move["mark"]
        table.add_row(
            str(move["index"] + 1),
            label_words(move),
            move_words(move, "played"),
            "" if move["best"] == move["played"] else move_words(move, "best"),
            scale.format(move["value_played"]),
            scale.format(move["value_best"]),
            scale.format(move["loss"]) if move["loss"] else "",
            Text(f"{MARK_SIGNS[mark]} {mark}", style=MARK_STYLES[mark]) if mark else "",
        )
    return table


def seat_summary(seat: JSON, scale: Scale) -> Text:
    """``Ann: accuracy 91.2 %, average loss 1.3 points; 1 inaccuracy, 0 mistakes, ...``."""
    line = Text()
    line.append(f"{seat['name']}: ", style="bold")
    line.append(f"accuracy {seat['accuracy']:.1f} %, ")
    line.append(f"average loss {scale.format(seat['average_loss'])} {scale.unit}; ")
    counts = [
        count_words(seat[key], mark)
        for key, mark in (
            ("inaccuracies", "inaccuracy"),
            ("mistakes", "mistake"),
            ("blunders", "blunder"),
        )
    ]
    line.append(", ".join(counts))
    by_index = {m["index"]: m for m in seat["moves"]}
    costly = [by_index[i] for i in seat["costliest"]]
    if costly:
        named = "; ".join(
            f"{label_words(m)}, {move_words(m, 'played')} (−{scale.format(m['loss'])})"
            for m in costly
        )
        line.append(f"; costliest: {named}")
    return line


def hindsight_line(analysis: JSON) -> Text | None:
    """``With hindsight (the hidden order known), 141 was possible``: a game whose
    analyser searches with what was hidden known (NMBR 9 does)."""
    best = analysis.get("hindsight")
    if not best:
        return None
    text = Text()
    text.append("With hindsight ", style="bold")
    text.append(f"(the hidden order known), {best['score']} was possible")
    scores = best.get("scores")
    if scores:
        text.append(f"; the seats scored {', '.join(str(s) for s in scores)}")
    return text


def render(analysis: JSON) -> RenderableType:
    """The whole analysis: every seat's table, then the summaries and hindsight."""
    scale = scale_of(analysis)
    parts: list[RenderableType] = [seat_table(seat, scale) for seat in analysis["seats"]]
    parts.extend(seat_summary(seat, scale) for seat in analysis["seats"])
    best = hindsight_line(analysis)
    if best is not None:
        parts.append(best)
    parts.append(
        Text(
            f"budget {analysis['budget']}, seed {analysis['seed']}; marks at a loss of "
            f"{scale.format(scale.inaccuracy)} (?!), {scale.format(scale.mistake)} (?) and "
            f"{scale.format(scale.blunder)} (??) {scale.unit}",
            style="dim",
        )
    )
    return Group(*parts)


#: The width of the tables where the output is not a terminal (a pipe, a file): rich
#: would take 80 columns and squeeze the table; ``COLUMNS`` still decides if it is set.
PIPED_WIDTH = 200


def output_console() -> Console:
    """A console for the analysis: a terminal's own width, else a wide page."""
    console = Console()
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console = Console(width=PIPED_WIDTH)
    return console


def print_analysis(analysis: JSON, console: Console | None = None) -> None:
    (console or output_console()).print(render(analysis))
