"""Bots choose legal actions and never read the draw pile's order."""

from __future__ import annotations

import random

import pytest

from novaluna.bots import BotSpecError, bot_names, make_bot
from novaluna.bots.greedy import GreedyBot
from novaluna.rules import END_PHASE, REFILL, Game, Place


@pytest.mark.parametrize("name", ["random", "greedy"])
@pytest.mark.parametrize("players", [1, 2, 4])
def test_bots_play_legal_games(name, players):
    state = Game(players).new_state(seed=players)
    bot = make_bot(name, seed=1)
    while not state.is_over:
        action = bot.choose(state.view())
        assert action in state.legal_actions()
        state.apply(action)


def _reorder_unseen(state, seed):
    """The same position with the unseen part of the pile in another order."""
    pile = list(state.pile_order())
    rest = pile[state.drawn :]
    random.Random(seed).shuffle(rest)
    other = state.clone()
    other._pile = tuple(pile[: state.drawn] + rest)
    return other


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_choice_does_not_depend_on_pile_order(name):
    rng = random.Random(0)
    state = Game(3).new_state(seed=9)
    for _ in range(25):
        shuffled = _reorder_unseen(state, rng.random())
        assert make_bot(name, seed=5).choose(state.view()) == make_bot(name, seed=5).choose(
            shuffled.view()
        )
        state.apply(rng.choice(state.legal_actions()))


def test_greedy_takes_a_covering_move():
    """Greedy prefers a placement that covers a task now."""
    for seed in range(100):
        state = Game(2).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            covering = [
                a for a in state.legal_actions() if isinstance(a, Place) and state.preview(a)
            ]
            if covering:
                choice = GreedyBot(seed=1).choose(state.view())
                assert state.preview(choice)
                return
            state.apply(rng.choice(state.legal_actions()))
    pytest.fail("no covering move came up")


def test_greedy_ends_solo_phase_one_when_allowed():
    for seed in range(30):
        state = Game(1).new_state(seed=seed)
        bot = GreedyBot(seed=seed)
        while state.phase == 1 and not state.is_over:
            action = bot.choose(state.view())
            if END_PHASE in state.legal_actions():
                assert action == END_PHASE
                return
            state.apply(action)
    pytest.fail("greedy never reached 8 discs in phase 1")


def test_greedy_explains_its_hint():
    state = Game(2).new_state(seed=3)
    action, reason = GreedyBot(seed=0).explain(state.view())
    assert action in state.legal_actions()
    assert "cost" in reason or action in (REFILL, END_PHASE)


def test_unknown_bot_and_bad_option():
    assert {"random", "greedy"} <= set(bot_names())
    with pytest.raises(BotSpecError, match="unknown bot 'zz'"):
        make_bot("zz")
    with pytest.raises(BotSpecError, match="takes no option"):
        make_bot("greedy:hard")


def test_same_seed_same_choices():
    state = Game(2).new_state(seed=1)
    a, b = make_bot("random", seed=4), make_bot("random", seed=4)
    for _ in range(20):
        choice = a.choose(state.view())
        assert choice == b.choose(state.view())
        state.apply(choice)
