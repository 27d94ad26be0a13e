"""Toy Draft's analysis: each take judged by the mean final sum of the taking seat,
over piles drawn from the tiles that seat has not seen (never the real order), the
rest of the game played greedily by everybody.

>>> from tabletop.harness.selfplay import play_game
>>> from tabletop.analysis import analyse
>>> from toygame.gametype import GAME
>>> report = analyse(GAME, play_game(GAME, ["greedy"], seed=2), budget=20)
>>> [m.loss for m in report.seats[0].moves]
[0.0, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from tabletop.core.analysis import JSON, Decision, Judgement, Scale

from .records import replay
from .rules import TILES, Game, State, Take, View

SCALE = Scale("points", "{value:.1f}", inaccuracy=1, mistake=3, blunder=6, accuracy=4)


class ToyAnalyser:
    default_budget = 50

    def scale(self, record: JSON) -> Scale:
        return SCALE

    def decisions(self, record: JSON) -> Iterator[Decision]:
        views: list[View] = []
        replay(record, on_turn=lambda rec: views.append(rec.state.view(rec.state.current_seat)))
        for index, turn in enumerate(record["turns"]):
            yield Decision(
                index, turn["seat"], views[index], Take(turn["slot"]), f"turn {index + 1}"
            )

    def judge(self, decision: Decision, budget: int, seed: int) -> Judgement:
        view: View = decision.view
        rng = random.Random(seed)
        piles = [_unseen(view) for _ in range(budget)]
        for pile in piles:
            rng.shuffle(pile)
        values = {a: _mean(view, a, piles) for a in view.legal_actions()}
        best = max(values, key=lambda a: (values[a], -a.slot))
        return Judgement(best, values[decision.played], values[best], noise=0.0)

    def position(self, record: JSON, index: int) -> State:
        states: list[State] = []
        replay(record, on_turn=lambda rec: states.append(rec.state.clone()))
        return states[index]

    def hindsight(self, record: JSON, budget: int, seed: int) -> JSON | None:
        return None


def _unseen(view: View) -> list[int]:
    seen = set(view.market).union(*view.hands)
    return [tile for tile in range(1, TILES + 1) if tile not in seen]


def _mean(view: View, action: Take, piles: list[list[int]]) -> float:
    seat = view.current_seat
    total = 0
    for pile in piles:
        state = State(
            Game(view.game.players),
            list(pile),
            list(view.market),
            [list(h) for h in view.hands],
            view.turn,
        )
        state.apply(action, seat)
        while not state.is_over:
            market = state.market
            state.apply(Take(market.index(max(market))), state.current_seat)
        total += sum(state.hands[seat])
    return total / len(piles)


ANALYSER = ToyAnalyser()
