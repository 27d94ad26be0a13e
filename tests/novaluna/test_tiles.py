"""Data invariants of the 68 tiles (RULES.md, "Components")."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import pytest

from tabletop.games.novaluna.rules import COLORS, TILES
from tabletop.games.novaluna.rules.tiles import TILE_COLOR, TILE_COST, TILE_IDS, TILE_TASKS

from novaluna_support import SHARED_TILES_JSON

REAL = [t for t in TILES[1:]]
COST_SPREAD = {1: 1, 2: 2, 3: 4, 4: 4, 5: 3, 6: 2, 7: 1}


def test_68_tiles_with_ids_1_to_68():
    """RULES.md: "68 tiles ... ids 1–68"; TILES[id] is the tile with that id."""
    assert len(REAL) == 68
    assert [t.id for t in REAL] == list(range(1, 69))
    assert list(TILE_IDS) == list(range(1, 69))


def test_four_colours_with_17_tiles_each():
    """RULES.md: "17 in each colour: red, blue, cyan ..., yellow"."""
    assert set(COLORS) == {"red", "blue", "cyan", "yellow"}
    assert Counter(t.color for t in REAL) == {c: 17 for c in COLORS}


@pytest.mark.parametrize("color", ["red", "blue", "cyan", "yellow"])
def test_cost_spread_per_colour(color):
    """RULES.md: "per colour one 1, two 2s, four 3s, four 4s, three 5s, two 6s, one 7"."""
    costs = Counter(t.cost for t in REAL if t.color == color)
    assert costs == COST_SPREAD


def test_total_cost_is_268():
    """RULES.md: "total cost of all tiles: 268"."""
    assert sum(t.cost for t in REAL) == 268


def test_128_tasks_and_0_to_3_per_tile():
    """RULES.md: "0–3 tasks" per tile, "128 tasks in all"."""
    assert all(0 <= len(t.tasks) <= 3 for t in REAL)
    assert sum(len(t.tasks) for t in REAL) == 128


def test_tasks_are_multisets_of_1_to_4_colours():
    """RULES.md: "a task is a multiset of 1–4 colours" written as {colour: count}."""
    for tile in REAL:
        for task in tile.tasks:
            assert task, tile
            assert set(task) <= set(COLORS), tile
            assert all(isinstance(n, int) and n >= 1 for n in task.values()), tile
            assert 1 <= sum(task.values()) <= 4, tile


def test_only_the_1_cost_tiles_have_no_tasks():
    """The four 1-cost tiles are the task-less ones (used as neutral tiles in tests)."""
    assert sorted(t.id for t in REAL if not t.tasks) == sorted(t.id for t in REAL if t.cost == 1)


def test_tasks_are_read_only():
    """Tiles are shared data: a task mapping cannot be changed by accident."""
    with pytest.raises(TypeError):
        TILES[2].tasks[0]["red"] = 1  # type: ignore[index]


def test_flat_tables_agree_with_tiles():
    """The engine's flat lookup tables describe the same tiles as ``TILES``."""
    for tile in REAL:
        assert COLORS[TILE_COLOR[tile.id]] == tile.color
        assert TILE_COST[tile.id] == tile.cost
        flat = [{COLORS[c]: n for c, n in task} for task in TILE_TASKS[tile.id]]
        assert flat == [dict(task) for task in tile.tasks]


def test_task_text():
    """Tasks render as "2 blue + 1 yellow"."""
    assert TILES[22].task_text(0) == "2 blue + 1 yellow"


def test_package_copy_equals_shared_reference():
    """The package's tiles.json is the reference list "beside" RULES.md."""
    if not SHARED_TILES_JSON.exists():
        pytest.skip(f"{SHARED_TILES_JSON} not found")
    package = (
        resources.files("tabletop.games.novaluna").joinpath("data/tiles.json").read_text("utf-8")
    )
    assert json.loads(package) == json.loads(SHARED_TILES_JSON.read_text("utf-8"))


def test_loaded_tiles_equal_the_json():
    """``TILES`` is exactly what the package's tiles.json says."""
    raw = json.loads(
        resources.files("tabletop.games.novaluna").joinpath("data/tiles.json").read_text("utf-8")
    )
    loaded = [
        {"id": t.id, "color": t.color, "cost": t.cost, "tasks": [dict(x) for x in t.tasks]}
        for t in REAL
    ]
    assert loaded == sorted(raw, key=lambda r: r["id"])
