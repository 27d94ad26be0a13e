"""Seeded selfplay plays the same games whatever the harness's speed-ups.

The digests were taken with the harness before it was made faster (issue 18,
part 6): a change that alters any record of these runs fails here. ``created``
(the clock) and ``engine`` (the version) are left out; everything else of every
record counts, so the moves, the covered tasks and the results must all agree.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from tabletop.core.game import get_game
from tabletop.harness.selfplay import selfplay

CASES = [
    ("nova-luna", ["random", "random"], 30, "04211da923cd8fc6"),
    ("nova-luna", ["random"], 10, "67fe61c24ec55d97"),
    ("nova-luna", ["random"] * 4, 10, "669d5ca5814fff6a"),
    ("nova-luna", ["greedy", "random"], 5, "05f5f4701213f304"),
    ("nmbr9", ["random", "random"], 10, "30ba21d61768ffc8"),
    ("nmbr9", ["greedy", "random", "random"], 3, "331516af2962a9c5"),
]


def digest(name: str, specs: list[str], games: int) -> str:
    game = get_game(name)
    h = hashlib.sha256()
    for record in selfplay(game, specs, games, 0, {}, progress=False):
        kept = {k: v for k, v in record.items() if k not in ("created", "engine")}
        h.update(json.dumps(kept, sort_keys=True).encode())
    return h.hexdigest()[:16]


@pytest.mark.parametrize(("name", "specs", "games", "expected"), CASES)
def test_seeded_selfplay_plays_the_same_games(
    name: str, specs: list[str], games: int, expected: str
) -> None:
    assert digest(name, specs, games) == expected


@pytest.mark.parametrize("name", ["nova-luna", "nmbr9"])
def test_selfplay_records_replay(name: str) -> None:
    game = get_game(name)
    for record in selfplay(game, ["random", "random"], 5, 100, {}, progress=False):
        game.verify(json.loads(json.dumps(record)))
