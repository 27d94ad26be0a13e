"""Nova Luna behind the web server: log entries say where a tile went in board terms."""

from __future__ import annotations

import random

from tabletop.games.novaluna.gametype import GAME as NOVA_LUNA
from tabletop.games.novaluna.rules.tiles import TILES

SIDES = {"right": (-1, 0), "left": (1, 0), "below": (0, -1), "above": (0, 1)}


def check_beside(entries: list[dict]) -> int:
    """Each place entry's ``beside`` is a tile its seat laid earlier, on the side it says;
    only a seat's first tile has none. Returns how many entries were checked."""
    laid: dict[int, dict[tuple[int, int], int]] = {}
    checked = 0
    for entry in entries:
        if entry["kind"] != "place":
            continue
        mine = laid.setdefault(entry["seat"], {})
        x, y = entry["cell"]
        where = entry["beside"]
        if not mine:
            assert where is None
            assert "as the first tile" in entry.get("text", "as the first tile")
        else:
            dx, dy = SIDES[where["side"]]
            assert mine[(x + dx, y + dy)] == where["tile"], entry
            tile = TILES[where["tile"]]
            side = where["side"] + ("" if where["side"] in ("above", "below") else " of")
            assert f"laid it {side} the {tile.color} {tile.cost} (at {x},{y})" in entry["text"]
            checked += 1
        mine[(x, y)] = entry["tile"]
    return checked


def test_live_log_and_replay_frames_say_beside_which_tile_each_tile_was_laid() -> None:
    game = NOVA_LUNA
    match = game.new_match(3, {}, seed=4)
    chooser = random.Random(1)
    entries = []
    while not match.is_over():
        seat = match.to_move()
        entries.append(match.apply(seat, chooser.choice(match.choices(seat))["action"]).log)
    assert check_beside(entries) > 40
    frames = game.replay(match.record(["A", "B", "C"]))
    assert check_beside(frames[-1]["log"]) > 40
