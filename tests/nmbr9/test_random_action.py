"""``View.random_action`` draws what ``rng.choice(legal_actions())`` draws."""

from __future__ import annotations

import random

import pytest

from tabletop.games.nmbr9.rules import Game


@pytest.mark.parametrize("players", [1, 2, 4])
def test_random_action_is_choice_of_legal_actions(players: int) -> None:
    for seed in range(3):
        state = Game(players=players).new_state(seed)
        rng = random.Random(seed)
        while not state.is_over:
            for seat in state.acting_seats():
                view = state.view(seat)
                mine, theirs = random.Random(rng.random()), random.Random()
                theirs.setstate(mine.getstate())
                action = view.random_action(mine)
                assert action == theirs.choice(view.legal_actions())
                assert mine.getstate() == theirs.getstate()
                state.apply(action, seat)
        with pytest.raises(ValueError):
            state.view(0).random_action(rng)
