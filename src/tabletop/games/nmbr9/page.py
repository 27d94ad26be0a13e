"""NMBR 9 in the browser: its page's files and how its rounds are shown (``GamePage``).

Every seat places this round's tile at the same time (``SIMULTANEOUS``): each
placement is an action of its own, applied and stored as it arrives; the round
resolves when the last seat's placement is applied. Until then a placement is
*pending*: only its seat sees it (``view_json``), the log says only that the seat
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
from collections.abc import Sequence
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from ...core.game import JSON, GameType
from ...core.match import TAKE_BACK
from ...core.page import Applied, Step, Undo, page_modules
from ...i18n import N_, part, parts_text
from .bots import hint_bot
from .records import Recorder, placement_json, replay, result_json
from .rules import Place, Placed, State, View

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
]

#: The longest time per move the game's own option may set, in seconds (the server's
#: ``time_limit`` of a turn-based game may be longer).
MAX_TIME_LIMIT = 3600


#: The game's options as the page offers them.
OPTION_FIELDS: list[JSON] = [
    {
        "name": "remove",
        "label": N_("Remove cards unseen before play"),
        "type": "choice",
        "choices": [
            {"value": 0, "label": N_("none (20 rounds)")},
            {"value": "random", "label": N_("a random number, 1 to 4")},
        ],
        "default": 0,
    },
    {
        "name": "time_limit",
        "label": N_("Move clock (the default bot places for a seat out of time)"),
        "type": "choice",
        "choices": [
            {"value": 0, "label": N_("none")},
            {"value": 30, "label": N_("30 s")},
            {"value": 60, "label": N_("60 s")},
            {"value": 120, "label": N_("2 min")},
        ],
        "default": 0,
        "max": MAX_TIME_LIMIT,  # what the API takes: the page offers the choices
    },
]


class Nmbr9Page:
    """NMBR 9's browser side."""

    assets = resources.files(__package__).joinpath("web")
    modules = page_modules(intro=["intro.css"], full=["intro.css", "board.css"])
    notation_hint = N_("that is not a placement: write r<rotation>@x,y, e.g. r1@3,-2")

    def facts(self) -> JSON:
        return {"take_back": TAKE_BACK, "tiles": _tiles_json()}

    def view_json(self, state: State, seat: int | None) -> JSON:
        return _live_view(state, seat)

    def choices(self, state: State, seat: int) -> list[JSON]:
        """``{"action": "r1@3,-2", "level": 1}`` per legal placement of this round's tile."""
        card = state.card
        assert card is not None  # the server asks only while the game is on
        legal = state.boards[seat].legal(card)
        return [{"action": f"r{r}@{x},{y}", "level": level} for (r, x, y), level in legal]

    def play(self, recorder: Recorder, seat: int, action: Place) -> Applied:
        state = recorder.state
        number, card = state.round, state.card
        assert card is not None  # the game is not over
        recorder.apply(action, seat)
        log: JSON = {"seat": seat, "kind": "place", "round": number, "card": card}
        parts = [part(N_("placed their {card}"), card=card)]
        resolved = state.round != number
        if resolved:  # the last placement of the round: all of them come to light
            entry = recorder.rounds[number]
            log["resolved"] = _round_log(number, card, entry["placements"])
            parts += [part(N_("; ")), *log["resolved"]["parts"]]
            if state.is_over:
                parts.append(part(N_("; the game is over")))
        log["parts"] = parts
        log["text"] = parts_text(parts)
        return Applied(log=log, reveals=resolved)

    def take_back(self, recorder: Recorder, seat: int) -> Applied:
        state = recorder.state
        number, card = state.round, state.card
        recorder.take_back(seat)
        log: JSON = {"seat": seat, "kind": "take-back", "round": number, "card": card}
        log["parts"] = [part(N_("took back their {card}"), card=card)]
        log["text"] = parts_text(log["parts"])
        return Applied(log=log, reveals=False)

    def result_json(self, state: State) -> JSON:
        return result_json(state)

    def frames(self, game: GameType, record: Any) -> list[JSON]:
        frames: list[JSON] = []
        log: list[JSON] = []

        def on_round(rec: Recorder) -> None:
            if rec.rounds and len(log) < len(rec.rounds):
                number = len(rec.rounds) - 1
                entry = rec.rounds[number]
                log.append(_round_log(number, entry["card"], entry["placements"]))
            frames.append({"view": _view_json(rec.state.view(None), rec.state), "log": list(log)})

        replay(record, on_round)
        return frames

    def hint(self, view: View, seed: int) -> JSON:
        action, reason = hint_bot(seed=seed).explain(view)
        return {"action": str(action), "reason": str(reason), "parts": list(reason.parts)}

    def undo(self, steps: Sequence[Step], seat: int) -> Undo | str:
        """``seat``'s placement of the last resolved round goes, and with it everything
        after it: the round is open again, the card turned next is not turned yet (the
        deck's order is fixed: it comes again). The other seats' placements of that
        round stay, in their order (they never saw ``seat``'s)."""
        ends = [ply for ply, step in enumerate(steps) if step.reveals]  # resolved rounds
        if not ends:
            return N_("no round has resolved yet: you have no placement to undo")
        start = ends[-2] + 1 if len(ends) > 1 else 0
        keep = tuple(p for p in range(start, ends[-1] + 1) if steps[p].seat != seat)
        return Undo(start, keep)


@cache
def _tiles_json() -> dict[str, list[str]]:
    """The digits' shapes as in ``tiles.json`` (rows top to bottom, ``#`` a square)."""
    text = resources.files(__package__).joinpath("data/tiles.json").read_text("utf-8")
    shapes: dict[str, list[str]] = json.loads(text)
    return shapes


def _live_view(state: State, seat: int | None) -> JSON:
    """``View(state, seat).to_json()`` with ``"pending"`` (the seat's own placement of
    this round) and, once over, ``"result"``; built straight from the state, as the
    server builds one per seat after every placement."""
    if seat is not None and not 0 <= seat < state.game.players:
        raise ValueError(f"there is no seat {seat}")
    boards = []
    for number, board in enumerate(state.boards):
        tiles, score = board.tiles, board.score
        if state.placed[number] is not None and number != seat:  # hidden: pending
            tiles, score = tiles[:-1], score - tiles[-1].digit * tiles[-1].level
        boards.append({"score": score, "tiles": [_tile_json(t) for t in tiles]})
    turned = state.turned()
    out: JSON = {
        "viewer": seat,
        "players": state.game.players,
        "round": state.round,
        "rounds": state.rounds,
        "removed": state.removed,
        "card": state.card,
        "turned": list(turned),
        "unturned": list(state.unturned()),
        "over": state.is_over,
        "has_placed": [p is not None for p in state.placed],
        "boards": boards,
    }
    pending = None if seat is None else state.placed[seat]
    out["pending"] = None if pending is None else placement_json(pending)
    if state.is_over:
        out["result"] = result_json(state)
    return out


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


def _view_json(view: View, state: State) -> JSON:
    out = view.to_json()
    out["pending"] = None if view.pending is None else placement_json(view.pending)
    if view.is_over:
        out["result"] = result_json(state)
    return out
