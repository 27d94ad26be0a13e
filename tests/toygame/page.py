"""Toy Draft in the browser: its page's files and how its turns are shown (``GamePage``).

>>> from toygame.gametype import GAME
>>> options = GAME.check_setup([{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], {})
>>> match = GAME.new_match(2, options, seed=5)
>>> [c["action"] for c in match.choices(0)]
['take 1', 'take 2', 'take 3']
>>> applied = match.apply(0, "take 2")
>>> applied.log["text"] == f"took the {applied.log['tile']}", applied.reveals
(True, True)
>>> "pile" in match.view(None), match.view(None)["pile_count"]
(False, 11)
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from typing import Any

from tabletop.core.game import JSON, GameType
from tabletop.core.page import Applied, Step, Undo, page_modules, undo_last_move
from tabletop.i18n import N_, part, parts_text

from .bots import REGISTRY
from .records import Recorder, replay, result_json
from .rules import State, Take, View

#: The bots the page offers, strongest last (``spec`` is what ``REGISTRY.make`` takes).
BOTS: list[JSON] = [
    {"spec": "random", "label": N_("Random (beginner)")},
    {"spec": "greedy", "label": N_("Greedy (casual)")},
]


class ToyPage:
    """Toy Draft's browser side."""

    assets = resources.files(__package__).joinpath("web")
    modules = page_modules(intro=["toy.css"], full=["toy.css"])
    notation_hint = N_("that is not an action: write take 1, take 2 or take 3")

    def facts(self) -> JSON:
        return {}

    def view_json(self, view: View) -> JSON:
        return _view_json(view)

    def choices(self, view: View) -> list[JSON]:
        """``{"action": "take 2", "slot": 1, "tile": 9}`` per tile on offer."""
        return [
            {"action": str(a), "slot": a.slot, "tile": view.market[a.slot]}
            for a in view.legal_actions()
        ]

    def play(self, recorder: Recorder, seat: int, action: Take) -> Applied:
        tile = recorder.apply(action, seat)
        log = _turn_log({"seat": seat, "slot": action.slot, "tile": tile}, recorder.state.is_over)
        return Applied(log=log, reveals=True)  # a tile came from the hidden pile

    def result_json(self, state: State) -> JSON:
        return result_json(state)

    def frames(self, game: GameType, record: Any) -> list[JSON]:
        frames: list[JSON] = []
        log: list[JSON] = []

        def on_turn(rec: Recorder) -> None:
            over = rec.state.is_over
            for number in range(len(log), len(rec.turns)):
                log.append(_turn_log(rec.turns[number], over and number == len(rec.turns) - 1))
            view = _view_json(rec.state.view(None))
            if over:
                view["result"] = result_json(rec.state)
            frames.append({"view": view, "log": list(log)})

        replay(record, on_turn)
        return frames

    def hint(self, view: View, seed: int) -> JSON:
        action, reason = REGISTRY.make_explaining("greedy", seed=seed).explain(view)
        return {"action": str(action), "reason": str(reason), "parts": list(reason.parts)}

    def undo(self, steps: Sequence[Step], seat: int) -> Undo | str:
        """Every take reveals a tile from the pile: never undone."""
        return undo_last_move(steps, seat, N_("a tile came from the pile since your move"))


def _turn_log(turn: JSON, over: bool) -> JSON:
    parts = [part(N_("took the {tile}"), tile=turn["tile"])]
    if over:
        parts.append(part(N_("; the game is over")))
    return {**turn, "kind": "take", "parts": parts, "text": parts_text(parts)}


def _view_json(view: View) -> JSON:
    """The page's view: built from ``view``, so the pile's order is not in it."""
    return {
        "viewer": view.seat,
        "players": view.game.players,
        "turn": view.turn,
        "turns": view.game.turns,
        "current_seat": view.current_seat,
        "market": list(view.market),
        "hands": [list(hand) for hand in view.hands],
        "scores": [sum(hand) for hand in view.hands],
        "pile_count": view.pile_count,
        "over": view.is_over,
    }
