"""The 68 Nova Luna tiles, loaded once from the package's ``tiles.json``.

>>> TILES[2].color, TILES[2].cost, dict(TILES[2].tasks[0])
('red', 2, {'red': 4})
>>> TILES[2].task_text(0)
'4 red'
>>> len(TILES) - 1  # index 0 is unused so that ``TILES[id]`` works
68

The engine works on flat tuples indexed by tile id (``TILE_COLOR``,
``TILE_COST``, ``TILE_TASKS``) because attribute access is slow in playouts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType

COLORS: tuple[str, ...] = ("red", "blue", "cyan", "yellow")
COLOR_INDEX: Mapping[str, int] = MappingProxyType({c: i for i, c in enumerate(COLORS)})
TILE_IDS = range(1, 69)


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile: its colour, its cost (time) and its 0–3 tasks.

    A task maps colour names to how many tiles of that colour it needs.
    """

    id: int
    color: str
    cost: int
    tasks: tuple[Mapping[str, int], ...]

    def task_text(self, index: int) -> str:
        """``"2 blue + 1 yellow"`` for a task of this tile."""
        return " + ".join(f"{n} {c}" for c, n in self.tasks[index].items())


def _load() -> tuple[Tile | None, ...]:
    text = resources.files("tabletop.games.novaluna").joinpath("data/tiles.json").read_text("utf-8")
    tiles: list[Tile | None] = [None] * 69
    for raw in json.loads(text):
        tasks = tuple(MappingProxyType(dict(task)) for task in raw["tasks"])
        tiles[raw["id"]] = Tile(raw["id"], raw["color"], raw["cost"], tasks)
    return tuple(tiles)


TILES: tuple[Tile, ...] = _load()  # type: ignore[assignment]  # TILES[0] is None

#: Colour index (see ``COLORS``) of each tile id; index 0 is a placeholder.
TILE_COLOR: tuple[int, ...] = (-1,) + tuple(COLOR_INDEX[TILES[i].color] for i in TILE_IDS)
#: Cost of each tile id.
TILE_COST: tuple[int, ...] = (0,) + tuple(TILES[i].cost for i in TILE_IDS)
#: Tasks of each tile id, each task a tuple of ``(colour index, count)`` pairs.
TILE_TASKS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = ((),) + tuple(
    tuple(tuple((COLOR_INDEX[c], n) for c, n in task.items()) for task in TILES[i].tasks)
    for i in TILE_IDS
)


def _watch_masks(tasks: tuple[tuple[tuple[int, int], ...], ...]) -> tuple[tuple[int, int], ...]:
    masks: dict[int, int] = {}
    for i, task in enumerate(tasks):
        for c, _ in task:
            masks[c] = masks.get(c, 0) | 1 << i
    return tuple(sorted(masks.items()))


#: Per tile: ``(colour, mask of the tasks needing it)`` pairs.
TILE_WATCH: tuple[tuple[tuple[int, int], ...], ...] = tuple(_watch_masks(t) for t in TILE_TASKS)
