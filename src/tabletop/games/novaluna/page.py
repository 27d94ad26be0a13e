"""Nova Luna in the browser: its page's files and how its moves are shown (``GamePage``).

>>> from tabletop.games.novaluna.gametype import GAME
>>> options = GAME.check_setup([{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], {})
>>> match = GAME.new_match(2, options, seed=5)
>>> (seat,) = match.active_seats()
>>> first = match.choices(seat)[0]["action"]
>>> match.apply(seat, first).log["text"]
'took a yellow 4 from space 1 and laid it as the first tile (at 0,0)'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

from ...core.game import JSON, GameType
from ...core.page import Applied, Step, Undo, page_modules, undo_last_move
from ...i18n import N_, Part, part, parts_text
from .bots import hint_bot
from .records import Recorder, replay, result_json
from .rules import END_PHASE, REFILL, Action, Place, State, View
from .rules.display import cell_key
from .rules.tiles import TILES

#: A bot seat's name is its label without the note in brackets: the page translates
#: those names too (tabletop.i18n), so pybabel must find them.
BOT_NAMES = (N_("Random"), N_("Greedy"), N_("MCTS hard"))

#: Bots offered per mode, strongest last; ``spec`` is what ``make_bot`` takes.
BOTS: dict[str, list[JSON]] = {
    "standard": [
        {"spec": "random", "label": N_("Random (beginner)")},
        {"spec": "greedy", "label": N_("Greedy (casual)")},
        {"spec": "mcts:easy", "label": N_("MCTS easy")},
        {"spec": "mcts:normal", "label": N_("MCTS normal")},
        {"spec": "mcts:hard", "label": N_("MCTS hard (3 s a move)")},
        {"spec": "mcts:strong", "label": N_("MCTS strong")},
    ],
    "solo": [
        {"spec": "random", "label": N_("Random")},
        {"spec": "greedy", "label": N_("Greedy")},
        {"spec": "solo:fast", "label": N_("Solo planner fast")},
        {"spec": "solo:normal", "label": N_("Solo planner normal")},
        {"spec": "solo:strong", "label": N_("Solo planner strong")},
    ],
}


#: Why a move cannot be undone: the player has seen the tiles a refill drew.
REFILLED = N_("a refill has revealed new tiles since your last move, so it cannot be undone")


class NovaLunaPage:
    """Nova Luna's browser side."""

    assets = resources.files(__package__).joinpath("web")
    modules = page_modules(
        intro=["tiles.css", "colours.css"], full=["tiles.css", "colours.css", "board.css"]
    )
    notation_hint = N_("that is not an action: write space@x,y, 'refill' or 'end'")

    def facts(self) -> JSON:
        return {"tiles": _tiles_json()}

    def view_json(self, view: View) -> JSON:
        return _view_json(view)

    def choices(self, view: View) -> list[JSON]:
        state = view._state  # the view's own copy: its pile is sorted
        out: list[JSON] = []
        for action in view.legal_actions():
            if isinstance(action, Place):
                covers = [list(c) for c in state.preview(action)]
                out.append(
                    {
                        "action": str(action),
                        "space": action.space,
                        "cell": [action.x, action.y],
                        "covers": covers,
                    }
                )
            else:
                out.append({"action": str(action)})
        return out

    def play(self, recorder: Recorder, seat: int, action: Action) -> Applied:
        state = recorder.state
        before = state.pile_count
        tile = state.wheel[action.space] if isinstance(action, Place) else 0
        covered = recorder.apply(action, seat)
        log: JSON = {"seat": seat, "action": str(action), "kind": _kind(action)}
        if isinstance(action, Place):
            log.update(
                space=action.space,
                tile=tile,
                cell=[action.x, action.y],
                beside=beside(state.displays[seat].tiles, action.x, action.y),
                covered=[list(c) for c in covered],
            )
        drawn = before - state.pile_count
        log["drawn"] = drawn
        log["text"] = _log_text(log, state.is_over)
        return Applied(log=log, reveals=drawn > 0)

    def result_json(self, state: State) -> JSON:
        return result_json(state)

    def frames(self, game: GameType, record: Any) -> list[JSON]:
        frames: list[JSON] = []
        log: list[JSON] = []

        def on_turn(rec: Recorder) -> None:
            displays = rec.state.displays
            log.extend(
                _turn_log(turn, displays[turn["seat"]].tiles) for turn in rec.turns[len(log) :]
            )
            view = _view_json(rec.state.view())
            if rec.state.is_over:
                view["result"] = result_json(rec.state)
            frames.append({"view": view, "log": list(log)})

        replay(record, on_turn)
        return frames

    def hint(self, view: View, seed: int) -> JSON:
        action, reason = hint_bot(view.game.mode, seed=seed).explain(view)
        return {"action": str(action), "reason": str(reason), "parts": list(reason.parts)}

    def undo(self, steps: Sequence[Step], seat: int) -> Undo | str:
        """The last move and the bots' after it, never across a refill's new tiles."""
        return undo_last_move(steps, seat, REFILLED)


@cache
def _tiles_json() -> list[JSON]:
    """The tiles as in ``tiles.json``, for the page to draw."""
    text = resources.files(__package__).joinpath("data/tiles.json").read_text("utf-8")
    tiles: list[JSON] = json.loads(text)
    return tiles


def _kind(action: Action) -> str:
    if action == REFILL:
        return "refill"
    if action == END_PHASE:
        return "end"
    return "place"


def _log_text(log: JSON, over: bool) -> str:
    """The entry's English text; its ``parts`` (msgids and arguments, joined with
    nothing between) are set on ``log`` for the page and any client to translate."""
    kind = log["kind"]
    if kind == "refill":
        parts = [part(N_("refilled the wheel ({n} new tiles)"), n=log["drawn"])]
    elif kind == "end":
        parts = [part(N_("ended phase 1; the wheel was refilled ({n} new tiles)"), n=log["drawn"])]
    else:
        parts = _place_parts(log)
        if log["drawn"]:
            parts.append(
                part(N_("; the wheel was empty and was refilled ({n} new tiles)"), n=log["drawn"])
            )
    if over:
        parts.append(part(N_("; the game is over")))
    log["parts"] = parts
    return parts_text(parts)


#: Where a new tile lies from a neighbour, checked in this order: (side, dx, dy) with
#: the neighbour at (x + dx, y + dy); y grows downwards, as the page draws it.
_SIDES = (("right", -1, 0), ("left", 1, 0), ("below", 0, -1), ("above", 0, 1))


def beside(tiles: dict[int, int], x: int, y: int) -> JSON | None:
    """A tile laid at ``x, y`` in board terms: a neighbour and the side it lies on,
    ``{"side": "right", "tile": 17}`` (right of tile 17); ``None`` for a first tile.

    ``tiles`` maps cell keys to tile ids (a ``Display``'s); the cell itself is skipped.

    >>> beside({cell_key(0, 0): 5}, 1, 0)
    {'side': 'right', 'tile': 5}
    >>> beside({cell_key(0, 0): 5}, 0, -1)
    {'side': 'above', 'tile': 5}
    >>> beside({cell_key(0, 0): 5}, 0, 0) is None
    True
    """
    for side, dx, dy in _SIDES:
        tile = tiles.get(cell_key(x + dx, y + dy))
        if tile is not None:
            return {"side": side, "tile": tile}
    return None


#: "took a red 3 from space 4 and laid it ..." for a first tile and for each side.
_TOOK = {
    None: N_(
        "took a {colour} {cost} from space {space} and laid it as the first tile (at {x},{y})"
    ),
    "right": N_(
        "took a {colour} {cost} from space {space} and laid it right of the {colour2} {cost2}"
        " (at {x},{y})"
    ),
    "left": N_(
        "took a {colour} {cost} from space {space} and laid it left of the {colour2} {cost2}"
        " (at {x},{y})"
    ),
    "above": N_(
        "took a {colour} {cost} from space {space} and laid it above the {colour2} {cost2}"
        " (at {x},{y})"
    ),
    "below": N_(
        "took a {colour} {cost} from space {space} and laid it below the {colour2} {cost2}"
        " (at {x},{y})"
    ),
}


def _place_parts(take: JSON) -> list[Part]:
    """``"took a red 3 from space 4 and laid it right of the blue 2 (at 1,0), covering
    2 tasks"`` as parts (tabletop.i18n)."""
    tile = TILES[take["tile"]]
    x, y = take["cell"]
    where = take.get("beside")
    args: JSON = {"colour": tile.color, "cost": tile.cost, "space": take["space"], "x": x, "y": y}
    if where is not None:
        other = TILES[where["tile"]]
        args.update(colour2=other.color, cost2=other.cost)
    parts = [part(_TOOK[None if where is None else where["side"]], **args)]
    n = len(take["covered"])
    if n == 1:
        parts.append(part(N_(", covering 1 task")))
    elif n:
        parts.append(part(N_(", covering {n} tasks"), n=n))
    return parts


def _turn_log(turn: JSON, display: dict[int, int]) -> JSON:
    """A log entry for one turn of a record (a refill and a take in one); ``display``
    is the seat's display after it."""
    log: JSON = {"seat": turn["seat"], "kind": "place" if "space" in turn else "refill"}
    if "space" in turn:
        log.update({k: turn[k] for k in ("space", "tile", "cell", "covered")})
        log["beside"] = beside(display, *turn["cell"])
        parts = _place_parts(log)
        if turn["refill"]:
            parts.insert(0, part(N_("after a refill, ")))
    else:
        parts = [part(N_("refilled the wheel"))]
    log["parts"] = parts
    log["text"] = parts_text(parts)
    return log


def _view_json(view: View) -> JSON:
    out = view.to_json()
    del out["legal_actions"]  # the server sends choices, with previews, to the seat to move
    state = view._state  # the hidden copy: its pile is sorted, so nothing secret is left
    out["mode"] = view.game.mode
    out["supply"] = view.game.supply
    out["can_refill"] = state.can_refill()
    out["can_end_phase"] = state.can_end_phase()
    if view.game.solo:
        out["solo"] = {
            "phase1_score": state.phase1_score if view.phase == 2 or view.is_over else None,
            "score_so_far": state.scores_so_far(),
        }
    return out
