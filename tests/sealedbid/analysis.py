"""Sealed Bids' analysis: each bid judged by the bidding seat's mean final total of
prizes over worlds drawn from what it could not see — the prizes' order still unseen
and the other seats' bids of that round — the rest of the game bid greedily by all.

>>> from tabletop.analysis import analyse
>>> from tabletop.harness.selfplay import play_game
>>> from sealedbid.gametype import GAME
>>> report = analyse(GAME, play_game(GAME, ["greedy", "random"], seed=2), budget=20)
>>> len(report.seats[0].moves), min(m.loss for m in report.seats[0].moves) >= 0
(6, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from tabletop.core.analysis import JSON, Decision, Judgement, Scale

from .bots import GreedyBot
from .records import Recorder, replay
from .rules import CARDS, Bid, Game, State, View

SCALE = Scale("prizes", "{value:.1f}", inaccuracy=1, mistake=2.5, blunder=5, accuracy=3)


class SealedBidsAnalyser:
    default_budget = 50

    def scale(self, record: JSON) -> Scale:
        return SCALE

    def decisions(self, record: JSON) -> Iterator[Decision]:
        """Every bid, judged from its seat's view as the round began (the other seats'
        bids of the round unseen, as the rules have them all bid at once)."""
        for number, state in enumerate(_round_starts(record)):
            for seat, bid in enumerate(record["rounds"][number]["bids"]):
                index = number * state.game.players + seat
                # "frame": the replay's step after this bid (one step per round)
                facts = {"frame": number + 1}
                yield Decision(
                    index, seat, state.view(seat), Bid(bid), f"round {number + 1}", facts
                )

    def judge(self, decision: Decision, budget: int, seed: int) -> Judgement:
        view: View = decision.view
        rng = random.Random(seed)
        worlds = [_world(view, rng) for _ in range(budget)]
        values = {bid: _mean(view, bid, worlds) for bid in view.legal_actions()}
        best = max(values, key=lambda bid: (values[bid], -bid.card))
        return Judgement(best, values[decision.played], values[best], noise=0.0)

    def position(self, record: JSON, index: int) -> State:
        players = len(record["players"])
        return _round_starts(record)[index // players].clone()

    def hindsight(self, record: JSON, budget: int, seed: int) -> JSON | None:
        return None


def _round_starts(record: JSON) -> list[State]:
    """The true state as each round began (a finished record: ``RecordError`` else)."""
    starts: list[State] = []

    def on_round(rec: Recorder) -> None:
        if not rec.state.is_over:
            starts.append(rec.state.clone())

    replay(record, on_round)
    return starts


def _world(view: View, rng: random.Random) -> tuple[list[int], list[int]]:
    """One world the seat cannot tell from the real one: the unseen prizes in an order,
    and each seat's bid of this round drawn from its cards."""
    unseen = [p for p in range(1, CARDS + 1) if p not in view.revealed]
    rng.shuffle(unseen)
    bids = [rng.choice(view.cards(seat)) for seat in range(view.game.players)]
    return unseen, bids


def _mean(view: View, bid: Bid, worlds: list[tuple[list[int], list[int]]]) -> float:
    """The seat's mean final total when it bids ``bid`` in each world, greedy after."""
    seat, greedy, total = view.seat, GreedyBot(), 0
    assert seat is not None  # a decision's view is its seat's
    players = view.game.players
    for unseen, bids in worlds:
        state = State(
            Game(players),
            [*view.revealed, *unseen],
            view.round,
            [view.cards(s) for s in range(players)],
            [None] * players,
            [list(w) for w in view.won],
            list(view.history),
        )
        for other, card in enumerate(bids):
            state.apply(bid if other == seat else Bid(card), other)
        while not state.is_over:
            for other in state.acting_seats():
                state.apply(greedy.choose(state.view(other)), other)
        total += sum(state.won[seat])
    return total / len(worlds)


ANALYSER = SealedBidsAnalyser()
