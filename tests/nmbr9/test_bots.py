"""NMBR 9 bots: legal play, determinism, and no peeking at the deck order."""

from __future__ import annotations

import random

import pytest

from tabletop.games.nmbr9.bots import REGISTRY, hint_bot, make_bot
from tabletop.games.nmbr9.rules import Game, State

FAST = {"random": "random", "greedy": "greedy", "planner": "planner:fast"}


def specs() -> list[str]:
    return [FAST.get(name, name) for name in REGISTRY.names()]


def play_to(seed: int, rounds: int, players: int = 1) -> State:
    """A game played by the greedy bot for ``rounds`` rounds."""
    state = Game(players=players).new_state(seed)
    bots = [make_bot("greedy", seed=s) for s in range(players)]
    while state.round < rounds:
        for seat in state.acting_seats():
            state.apply(bots[seat].choose(state.view(seat)), seat)
    return state


def reshuffled(state: State, rng: random.Random) -> State:
    """The same position with the cards not yet turned in another order."""
    deck = list(state.deck_order())
    turned = state.round + 1
    rest = deck[turned:]
    while rest == deck[turned:] and len(set(rest)) > 1:
        rng.shuffle(rest)
    other = Game(players=state.game.players, remove=state.removed).new_state(
        deck=deck[:turned] + rest
    )
    other.round, other.boards = state.round, [b.clone() for b in state.boards]
    return other


@pytest.mark.parametrize("spec", specs())
@pytest.mark.parametrize("rounds", [0, 6, 13])
def test_choices_do_not_change_when_the_unseen_deck_order_changes(spec, rounds):
    state = play_to(seed=rounds + 3, rounds=rounds)
    rng = random.Random(rounds)
    choice = make_bot(spec, seed=11).choose(state.view(0))
    for _ in range(3):
        other = reshuffled(state, rng)
        assert other.deck_order() != state.deck_order()
        assert make_bot(spec, seed=11).choose(other.view(0)) == choice


@pytest.mark.parametrize("spec", specs())
def test_bots_play_legal_games_with_removed_cards_and_several_seats(spec):
    state = Game(players=3, remove=2).new_state(seed=4)
    bots = [make_bot(spec, seed=seat) for seat in range(3)]
    while not state.is_over:
        for seat in state.acting_seats():
            action = bots[seat].choose(state.view(seat))
            assert action in state.legal_actions(seat)
            state.apply(action, seat)
    assert state.round == 18


@pytest.mark.parametrize("spec", specs())
def test_a_bot_with_the_same_seed_chooses_the_same(spec):
    state = play_to(seed=8, rounds=9)
    first = make_bot(spec, seed=5).choose(state.view(0))
    assert make_bot(spec, seed=5).choose(state.view(0)) == first


def test_a_bot_refuses_to_choose_when_there_is_nothing_to_place():
    state = play_to(seed=2, rounds=3, players=2)
    state.apply(state.legal_actions(0)[0], 0)
    with pytest.raises(ValueError, match="nothing to place"):
        make_bot("greedy").choose(state.view(0))


def test_greedy_takes_the_highest_level_and_the_hint_gives_a_reason():
    state = play_to(seed=6, rounds=8)
    view = state.view(0)
    top = max(level for _, level in view.legal_with_levels())
    action = make_bot("greedy", seed=1).choose(view)
    assert state.level_of(action) == top
    hinted, reason = hint_bot(seed=1).explain(view)
    assert hinted in state.legal_actions(0) and reason


def test_unknown_bots_and_options_are_refused_with_the_names():
    with pytest.raises(ValueError, match="unknown bot 'nobody'; choose from"):
        make_bot("nobody")
    with pytest.raises(ValueError, match="takes no option"):
        make_bot("greedy:fast")
