"""NMBR 9 in the browser: its page's files and how its rounds are shown (``GamePage``).

Every seat places this round's tile at the same time (``SIMULTANEOUS``): each
placement is an action of its own, applied and stored as it arrives; the round
resolves when the last seat's placement is applied. Until then a placement is
*pending*: only its seat's view holds it (``view_json``), the log says only that the seat
has placed, and the seat may take it back (``TAKE_BACK``).

>>> from tabletop.games.nmbr9.gametype import GAME
>>> options = GAME.check_setup([{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], {})
>>> match = GAME.new_match(2, options, seed=5)
>>> sorted(match.active_seats())
[0, 1]
>>> first = match.choices(0)[0]["action"]
>>> match.apply(0, first).log["text"]
'placed their 2'
>>> match.has_pending(0), sorted(match.active_seats()), match.view(1)["pending"]
(True, [1], None)
>>> match.view(1)["boards"][0]["tiles"]  # seat 0's placement is hidden from seat 1
[]
>>> applied = match.apply(1, match.choices(1)[0]["action"])
>>> applied.reveals, applied.log["resolved"]["round"], match.view(1)["round"]
(True, 0, 1)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from ...core.game import JSON
from ...core.match import TAKE_BACK
from ...core.page import page_modules
from ...core.rounds import RoundPage
from ...i18n import N_, Part, part, parts_text
from .bots import hint_bot
from .records import Recorder, placement_json, replay, result_json
from .rules import Board, Placed, State, View

#: A bot seat's name is its label without the note in brackets: the page translates
#: those names too (tabletop.i18n), so pybabel must find them.
BOT_NAMES = (N_("Random"), N_("Greedy"))

#: Bots offered, strongest last; ``spec`` is what ``make_bot`` takes.
BOTS: list[JSON] = [
    {"spec": "random", "label": N_("Random (beginner)")},
    {"spec": "greedy", "label": N_("Greedy (casual)")},
    {"spec": "planner:fast", "label": N_("Planner fast")},
    {"spec": "planner:normal", "label": N_("Planner normal")},
    {"spec": "planner:strong", "label": N_("Planner strong")},
    {"spec": "planner:learned", "label": N_("Planner learned")},
]


class Nmbr9Page(RoundPage[Recorder]):
    """NMBR 9's browser side; a round's placements, their log entries, take-back and
    undo as every simultaneous game's (``core.rounds.RoundPage``)."""

    action_kind = "place"
    #: undo (``RoundPage.undo``): a seat's placement of the last resolved round goes,
    #: and the card turned next is not turned yet (the deck's order is fixed: it comes
    #: again); the other seats' placements of that round stay
    unresolved = N_("no round has resolved yet: you have no placement to undo")

    assets = resources.files(__package__).joinpath("web")
    modules = page_modules(intro=["intro.css"], full=["intro.css", "board.css"])
    notation_hint = N_("that is not a placement: write r<rotation>@x,y, e.g. r1@3,-2")

    def facts(self) -> JSON:
        return {"take_back": TAKE_BACK, "tiles": _tiles_json()}

    def view_json(self, view: View) -> JSON:
        return _view_json(view)

    def choices(self, view: View) -> list[JSON]:
        """``{"action": "r1@3,-2", "level": 1}`` per legal placement of this round's tile."""
        legal = view.legal_with_levels()
        return [{"action": f"r{r}@{x},{y}", "level": level} for (r, x, y), level in legal]

    def acted_parts(self, facts: JSON) -> list[Part]:
        return [part(N_("placed their {card}"), card=facts["card"])]

    def taken_back_parts(self, facts: JSON) -> list[Part]:
        return [part(N_("took back their {card}"), card=facts["card"])]

    def round_log(self, number: int, entry: JSON) -> JSON:
        return _round_log(number, entry["card"], entry["placements"])

    def replay_rounds(self, record: Any, on_round: Callable[[Recorder], None]) -> None:
        replay(record, on_round)

    def result_json(self, state: State) -> JSON:
        return result_json(state)

    def hint(self, view: View, seed: int) -> JSON:
        action, reason = hint_bot(seed=seed).explain(view)
        return {"action": str(action), "reason": str(reason), "parts": list(reason.parts)}


@cache
def _tiles_json() -> dict[str, list[str]]:
    """The digits' shapes as in ``tiles.json`` (rows top to bottom, ``#`` a square)."""
    text = resources.files(__package__).joinpath("data/tiles.json").read_text("utf-8")
    shapes: dict[str, list[str]] = json.loads(text)
    return shapes


def _round_log(number: int, card: int, placements: list[JSON | None]) -> JSON:
    """The facts of a resolved round: every seat's placement of ``card``."""
    shown = [None if p is None else {**p, "points": card * p["level"]} for p in placements]
    parts = [part(N_("round {n} ({card}): "), n=number + 1, card=card)]
    for seat, p in enumerate(shown):
        if p is not None:
            key = N_("seat {seat} {move} on level {level}")
            if len(parts) > 1:
                key = N_(", seat {seat} {move} on level {level}")
            move = f"r{p['rotation']}@{p['x']},{p['y']}"
            parts.append(part(key, seat=seat + 1, move=move, level=p["level"]))
    return {
        "kind": "round",
        "round": number,
        "card": card,
        "placements": shown,
        "parts": parts,
        "text": parts_text(parts),
    }


@lru_cache(maxsize=1 << 16)
def _tile_json(tile: Placed) -> JSON:
    """A tile as views show it (tiles never change once laid: one dict per tile)."""
    return {
        "digit": tile.digit,
        "rotation": tile.rotation,
        "x": tile.x,
        "y": tile.y,
        "level": tile.level,
    }


def _view_json(view: View) -> JSON:
    """``view.to_json()`` with ``"pending"`` (the viewer's own placement of this round),
    built as the server builds one per seat after every placement: other seats' boards
    are read as the view keeps them (their tiles), not rebuilt as boards."""
    boards = []
    for board in view._boards:  # a Board, or the tiles of a board with a pending tile
        tiles = board.tiles if isinstance(board, Board) else board
        score = board.score if isinstance(board, Board) else sum(t.digit * t.level for t in tiles)
        boards.append({"score": score, "tiles": [_tile_json(t) for t in tiles]})
    return {
        "viewer": view.viewer,
        "players": view.game.players,
        "round": view.round,
        "rounds": view.rounds,
        "removed": view.removed,
        "card": view.card,
        "turned": list(view.turned),
        "unturned": list(view.unturned),
        "over": view.is_over,
        "has_placed": list(view.has_placed),
        "boards": boards,
        "pending": None if view.pending is None else placement_json(view.pending),
    }
