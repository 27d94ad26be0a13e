"""Sealed Bids' analysis (``analysis.py``): every bid judged from its seat's view as the
round began; spending the highest card on the lowest prize is a loss, the greedy bid
on it none to speak of."""

from __future__ import annotations

import doctest

from sealedbid import analysis
from sealedbid.gametype import GAME
from sealedbid.rules import Bid, Game
from tabletop.analysis import analyse
from tabletop.harness.selfplay import play_game


def test_doctests() -> None:
    assert doctest.testmod(analysis).failed == 0


def test_every_bid_is_judged_from_a_view_without_the_round_s_other_bids() -> None:
    record = play_game(GAME, ["random", "random", "greedy"], seed=4)
    decisions = list(analysis.ANALYSER.decisions(record))
    assert len(decisions) == 18 and [d.index for d in decisions] == list(range(18))
    for decision in decisions:
        assert decision.view.acted == (False, False, False) and decision.view.pending is None
        assert decision.played in decision.view.legal_actions()
        position = analysis.ANALYSER.position(record, decision.index)
        assert position.view(decision.seat) == decision.view


def test_the_highest_card_on_the_lowest_prize_is_a_loss() -> None:
    seed = next(s for s in range(100) if Game(2).new_state(s).prizes[0] == 1)
    rec = GAME.new_recorder(2, {}, ["A", "B"], seed)
    rec.apply(Bid(6), 0)
    rec.apply(Bid(2), 1)
    while not rec.state.is_over:
        for seat in rec.state.acting_seats():
            rec.apply(rec.state.legal_actions(seat)[0], seat)
    report = analyse(GAME, rec.to_record(), budget=40)
    first = report.seats[0].moves[0]
    assert first.loss > 1 and str(first.best) != "bid 6"
