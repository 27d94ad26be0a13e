"""The hidden-history rule of every simultaneous game's encoding
(``tabletop.research.rounds``), checked the same way for each (NMBR 9, Sealed Bids and
any game registered with ``simultaneous = True``): while a round is open, another
seat's action — which, and even whether it has acted — leaves a seat's observation as
it was; each seat acts once a round; OpenSpiel's information state hides the open
round's other actions (``hidden_moves``)."""

from __future__ import annotations

import random

import pytest

from tabletop.core.game import get_game
from tabletop.research.encoding import CHANCE, TERMINAL, encoding

from research_support import research_games

SIMULTANEOUS = [name for name in research_games() if encoding(name).simultaneous]


def test_the_simultaneous_games_are_there() -> None:
    assert {"nmbr9", "sealed-bids"} <= set(SIMULTANEOUS)


@pytest.mark.parametrize("name", SIMULTANEOUS)
def test_no_observation_changes_while_other_seats_act_in_the_open_round(name: str) -> None:
    players = min(3, get_game(name).max_seats)
    encoder = encoding(name).setup(players).deal(7, {})
    rng = random.Random(7)
    for _ in range(4):  # rounds
        seen = [encoder.observe(seat).tolist() for seat in range(players)]
        acted: list[int] = []
        for _ in range(players):
            seat = encoder.acting()
            assert seat not in acted and seat not in (CHANCE, TERMINAL)
            encoder.apply(rng.choice(encoder.legal_actions(seat)), seat)
            acted.append(seat)
            if len(acted) < players:  # the round is still open
                for other in range(players):
                    if other != seat:
                        assert encoder.observe(other).tolist() == seen[other], (seat, other)
                seen[seat] = encoder.observe(seat).tolist()
        assert sorted(acted) == list(range(players))


@pytest.mark.parametrize("name", SIMULTANEOUS)
def test_the_information_state_hides_the_open_rounds_other_actions(name: str) -> None:
    undealt = encoding(name).setup(2).undealt()
    history: list[int] = []
    rng = random.Random(3)
    while undealt.acting() != 1:  # the chance node, then seat 0's action
        acting = undealt.acting()
        if acting == CHANCE:
            outcome = rng.choice(undealt.chance_outcomes())[0]
            undealt.apply_chance(outcome)
        else:
            outcome = rng.choice(undealt.legal_actions(acting))
            undealt.apply(outcome, acting)
        history.append(outcome)
    assert undealt.hidden_moves(1, history) == [len(history) - 1]
    assert undealt.hidden_moves(0, history) == []
    text = undealt.information_string(1, history)
    assert text.split()[-1] == "?" and undealt.action_string(history[-1]) not in text
