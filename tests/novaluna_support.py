"""Shared helpers for the Nova Luna rules-engine tests.

Everything here is written independently of the engine's incremental structures:
``reference_fulfilled`` recomputes task fulfilment from scratch with a plain BFS,
so tests can compare the engine against it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path

from tabletop.games.novaluna.rules import TILES, Action, Place, State, parse_action
from tabletop.games.novaluna.rules.display import Display, cell_key, cell_xy

ALL_IDS = tuple(range(1, 69))
REPO = Path(__file__).resolve().parent.parent
SHARED_TILES_JSON = REPO.parent / "shared" / "nova-luna" / "tiles.json"

Cell = tuple[int, int]
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))


# -- looking up real tiles ------------------------------------------------------


def tile_with(color: str, *, task: Mapping[str, int] | None = None, cost: int | None = None) -> int:
    """The smallest real tile id of ``color`` having ``task`` (and ``cost``), from tiles.json."""
    for tile in TILES[1:]:
        if tile.color != color or (cost is not None and tile.cost != cost):
            continue
        if task is None or any(dict(t) == dict(task) for t in tile.tasks):
            return tile.id
    raise LookupError(f"no {color} tile with task {task} and cost {cost}")


def task_index(tile_id: int, task: Mapping[str, int]) -> int:
    """Index of ``task`` on tile ``tile_id``."""
    for i, t in enumerate(TILES[tile_id].tasks):
        if dict(t) == dict(task):
            return i
    raise LookupError(f"tile {tile_id} has no task {task}")


def plain(color: str) -> int:
    """The task-less 1-cost tile of ``color`` (ids 1, 18, 35, 52)."""
    (tid,) = [t.id for t in TILES[1:] if t.color == color and not t.tasks]
    return tid


# -- displays ---------------------------------------------------------------------


def lay(display: Display, x: int, y: int, tile: int, *, cover: bool = True) -> list[tuple]:
    """Lay ``tile`` on ``(x, y)``; return the newly fulfilled tasks as sorted ``(x, y, i)``.

    With ``cover`` (the default, as the game does) the fulfilled tasks get a disc.
    """
    found = display.lay(tile, cell_key(x, y))
    out = sorted((*cell_xy(c), i) for c, i in found)
    if cover:
        for c, i in found:
            display.cover(c, i)
    return out


def build_display(layout: Mapping[Cell, int], *, cover: bool = True) -> Display:
    """A display laid tile by tile in the dict's order (first cell must be (0, 0)).

    Every later cell must touch an earlier one edge to edge, as in the game.
    """
    display = Display()
    placed: set[Cell] = set()
    for (x, y), tile in layout.items():
        if placed:
            assert any((x + dx, y + dy) in placed for dx, dy in NEIGHBOURS), (x, y)
        else:
            assert (x, y) == (0, 0), "the first tile of a display lies on (0, 0)"
        lay(display, x, y, tile, cover=cover)
        placed.add((x, y))
    return display


def fulfilled(display: Display, x: int, y: int, index: int) -> bool:
    return display.is_fulfilled(cell_key(x, y), index)


def covered(display: Display, x: int, y: int, index: int) -> bool:
    return display.is_covered(cell_key(x, y), index)


def layout_of(display: Display) -> dict[Cell, int]:
    return {cell_xy(k): t for k, t in display.tiles.items()}


def reference_count(layout: Mapping[Cell, int], cell: Cell, color: str) -> int:
    """Brute force: ``color`` tiles that count for a task on the tile at ``cell``.

    Tiles of ``color`` touching the task tile edge to edge, plus everything
    connected to them through an edge-to-edge chain of ``color`` tiles; the task
    tile itself never counts, each tile counts once.
    """
    seen: set[Cell] = set()
    todo: list[Cell] = []
    x, y = cell
    for dx, dy in NEIGHBOURS:
        n = (x + dx, y + dy)
        if n in layout and TILES[layout[n]].color == color:
            todo.append(n)
    while todo:
        c = todo.pop()
        if c in seen or c == cell:
            continue
        seen.add(c)
        cx, cy = c
        for dx, dy in NEIGHBOURS:
            n = (cx + dx, cy + dy)
            if n in layout and n not in seen and TILES[layout[n]].color == color:
                todo.append(n)
    return len(seen)


def reference_fulfilled(layout: Mapping[Cell, int]) -> set[tuple[int, int, int]]:
    """Brute force: every fulfilled task ``(x, y, i)`` of a layout."""
    out = set()
    for cell, tile in layout.items():
        for i, task in enumerate(TILES[tile].tasks):
            if all(reference_count(layout, cell, c) >= n for c, n in task.items()):
                out.add((*cell, i))
    return out


# -- piles and scripted games -----------------------------------------------------------


def make_pile(
    wheel: Mapping[int, int] | Sequence[int] = (), draws: Sequence[int] = ()
) -> list[int]:
    """A 68-id pile putting chosen tiles on chosen wheel spaces.

    ``wheel`` is either ``{space: tile}`` for spaces 1..11 or a sequence laid on
    spaces 1, 2, ... in order; ``draws`` are the next tiles of the draw pile, top
    first. Everything else follows in ascending id order.
    """
    if not isinstance(wheel, Mapping):
        wheel = {space: tile for space, tile in enumerate(wheel, start=1)}
    assert all(1 <= s <= 11 for s in wheel), wheel
    chosen = list(wheel.values()) + list(draws)
    assert len(set(chosen)) == len(chosen), "a tile can only be used once"
    rest = iter(t for t in ALL_IDS if t not in set(chosen))
    head = [wheel[s] if s in wheel else next(rest) for s in range(1, 12)]
    pile = head + list(draws) + list(rest)
    assert sorted(pile) == list(ALL_IDS)
    return pile


def play(state: State, *moves: str | Action) -> list[list[tuple[int, int, int]]]:
    """Apply moves given in notation (or as actions); return what each covered."""
    out = []
    for move in moves:
        action = parse_action(move) if isinstance(move, str) else move
        out.append(state.apply(action))
    return out


def next_space(state: State) -> int:
    """The first occupied space clockwise after the meeple."""
    return state.takeable_spaces()[0]


def take_next(state: State, x: int, y: int) -> list[tuple[int, int, int]]:
    """Take the nearest tile clockwise and lay it on ``(x, y)``."""
    return state.apply(Place(next_space(state), x, y))


def snapshot(state: State) -> tuple:
    """Everything observable about a state, for before/after comparisons."""
    return (state.view().to_json(), state.pile_order(), state.is_over)


def greedy_action(state: State, rng: random.Random) -> Action:
    """The placement covering the most tasks (ties broken by ``rng``)."""
    places = [a for a in state.legal_actions() if isinstance(a, Place)]
    return max(places, key=lambda a: (len(state.preview(a)), rng.random()))
