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


def test_a_kept_table_view_still_shows_the_position_it_was_given() -> None:
    from tabletop.core.game import get_game

    table = get_game("nova-luna").new_table(2, {}, ["Ann", "Bob"], 5)
    rng = random.Random(1)
    for _ in range(12):
        seat = table.acting()[0]
        kept = table.view(seat)
        before = kept.to_json()
        table.apply(seat, kept.random_action(rng))
        assert kept.to_json() == before
        assert table.view(table.acting()[0]).to_json() != before
