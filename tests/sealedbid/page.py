"""Sealed Bids in the browser: its page's files and how its rounds are shown.

Playing, taking back, the log entries, undo and the replay's frames are every
simultaneous game's (``tabletop.core.rounds.RoundPage``); this page says what a bid and
a resolved round look like, and what each seat sees (``view_json``: built from the
engine's ``View``, so neither the prizes' order nor another seat's pending bid is in
it — only *that* a seat has bid).

>>> from sealedbid.gametype import GAME
>>> options = GAME.check_setup([{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], {})
>>> match = GAME.new_match(2, options, seed=5)
>>> match.apply(0, "bid 6").log["text"], match.has_pending(0)
('bid on the 2', True)
>>> match.view(1)["acted"], match.view(1)["pending"], match.view(0)["pending"]
([True, False], None, 6)
>>> applied = match.apply(1, "bid 2")
>>> applied.reveals, applied.log["resolved"]["text"]
(True, 'round 1, prize 2: seat 1 bid 6, seat 2 bid 2; seat 1 takes it')
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import Any

from tabletop.core.game import JSON
from tabletop.core.match import TAKE_BACK
from tabletop.core.page import page_modules
from tabletop.core.rounds import RoundPage
from tabletop.i18n import N_, Part, part, parts_text

from .bots import REGISTRY, GreedyBot
from .records import Recorder, replay, result_json
from .rules import CARDS, State, View, winner

#: The bots the page offers, strongest last (``spec`` is what ``REGISTRY.make`` takes).
BOTS: list[JSON] = [
    {"spec": "random", "label": N_("Random (beginner)")},
    {"spec": "greedy", "label": N_("Greedy (casual)")},
]


class SealedBidsPage(RoundPage[Recorder]):
    """Sealed Bids' browser side."""

    action_kind = "bid"
    assets = resources.files(__package__).joinpath("web")
    modules = page_modules(intro=["sealed.css"], full=["sealed.css"])
    notation_hint = N_("that is not a bid: write bid 1 to bid 6")

    def facts(self) -> JSON:
        return {"take_back": TAKE_BACK}

    def view_json(self, view: View) -> JSON:
        return _view_json(view)

    def choices(self, view: View) -> list[JSON]:
        """``{"action": "bid 4", "card": 4}`` per card the seat may bid."""
        return [{"action": str(bid), "card": bid.card} for bid in view.legal_actions()]

    def acted_parts(self, facts: JSON) -> list[Part]:
        return [part(N_("bid on the {prize}"), prize=facts["prize"])]

    def taken_back_parts(self, facts: JSON) -> list[Part]:
        return [part(N_("took back their bid on the {prize}"), prize=facts["prize"])]

    def round_log(self, number: int, entry: JSON) -> JSON:
        """Every bid of a resolved round, and who took the prize."""
        bids, prize = entry["bids"], entry["prize"]
        parts = [part(N_("round {n}, prize {prize}: "), n=number + 1, prize=prize)]
        for seat, bid in enumerate(bids):
            key = N_("seat {seat} bid {card}") if seat == 0 else N_(", seat {seat} bid {card}")
            parts.append(part(key, seat=seat + 1, card=bid))
        taker = winner(bids) if None not in bids else None
        if taker is None:
            parts.append(part(N_("; a tie: nobody takes it")))
        else:
            parts.append(part(N_("; seat {seat} takes it"), seat=taker + 1))
        return {
            "kind": "round",
            "round": number,
            "prize": prize,
            "bids": list(bids),
            "winner": taker,
            "parts": parts,
            "text": parts_text(parts),
        }

    def replay_rounds(self, record: Any, on_round: Callable[[Recorder], None]) -> None:
        replay(record, on_round)

    def result_json(self, state: State) -> JSON:
        return result_json(state)

    def hint(self, view: View, seed: int) -> JSON:
        action, reason = GreedyBot().explain(view)
        return {"action": str(action), "reason": str(reason), "parts": list(reason.parts)}


def _view_json(view: View) -> JSON:
    """The page's view: from ``view``, so it holds what its seat may know, no more."""
    players = view.game.players
    out: JSON = {
        "viewer": view.seat,
        "players": players,
        "round": view.round,
        "rounds": CARDS,
        "prize": view.prize,
        "revealed": list(view.revealed),
        "history": [list(bids) for bids in view.history],
        "won": [list(prizes) for prizes in view.won],
        "scores": [sum(prizes) for prizes in view.won],
        "cards": [view.cards(seat) for seat in range(players)],
        "acted": list(view.acted),
        "pending": view.pending,
        "over": view.is_over,
    }
    return out


__all__ = ["BOTS", "REGISTRY", "SealedBidsPage"]
