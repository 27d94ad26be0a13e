"""``State.random_action`` draws what ``rng.choice(legal_actions())`` draws."""

from __future__ import annotations

import random

import pytest

from tabletop.games.novaluna.rules import Game


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_action_is_choice_of_legal_actions(players: int) -> None:
    for seed in range(8):
        state = Game(players=players).new_state(seed)
        mine, theirs = random.Random(seed), random.Random(seed)
        while not state.is_over:
            action = state.random_action(mine)
            assert action == theirs.choice(state.legal_actions())
            assert state.view(0).random_action(random.Random(seed)) == random.Random(seed).choice(
                state.legal_actions()
            )
            state.apply(action)
        with pytest.raises(ValueError):
            state.random_action(mine)
