"""The OpenSpiel games: OpenSpiel's own checks, chance nodes, hidden information, MCTS."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from tabletop.games.nmbr9.rules import FULL_DECK  # noqa: E402
from tabletop.games.novaluna.rules import Game  # noqa: E402
from tabletop.research import nmbr9 as n9enc  # noqa: E402
from tabletop.research import openspiel  # noqa: E402
from tabletop.research.encoding import spiel_name  # noqa: E402

from research_support import research_games, seats  # noqa: E402

GAMES = research_games()


@pytest.fixture(autouse=True)
def spiel_games():
    openspiel.register()  # every registered game with an encoding, the toy included


def play_to(state, rng: random.Random, stop) -> None:
    """Random moves and chance outcomes (by their probabilities) until ``stop(state)``."""
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


#: The parameters each game is checked with; a game not named here: its fewest and
#: most seats.
SIM_PARAMS = {
    "nova-luna": [{"players": 1}, {"players": 3}],
    "nmbr9": [{"players": 1}, {"players": 2, "remove": 3}],
}
SIM_CASES = [
    (game, params)
    for game in GAMES
    for params in SIM_PARAMS.get(game, [{"players": p} for p in seats(game)])
]


@pytest.mark.parametrize(("game", "params"), SIM_CASES)
def test_pyspiel_random_sim_test_passes(game, params):
    game = pyspiel.load_game(spiel_name(game), params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_nova_luna_chance_nodes_draw_from_the_remaining_tiles_uniformly():
    state = pyspiel.load_game(openspiel.NOVA_LUNA, {"players": 2}).new_initial_state()
    assert [o for o, _ in state.chance_outcomes()] == [0, 1]  # the start stack
    rng = random.Random(3)
    draws = 0
    while not state.is_terminal():
        if state.is_chance_node() and state.encoder.stack is not None:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            left = list(state.engine.unseen_tiles()) if state.engine else list(range(1, 69))
            for tile in state.encoder.draws:
                left.remove(tile)
            assert sorted(o + 1 for o, _ in outcomes) == left
            assert len({p for _, p in outcomes}) == 1
            draws += 1
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert draws > 11  # the set-up and at least one refill


def test_nmbr9_chance_nodes_follow_the_unturned_cards():
    state = pyspiel.load_game(openspiel.NMBR9, {"players": 2}).new_initial_state()
    rng = random.Random(5)
    turned: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = dict(state.chance_outcomes())
            assert sum(outcomes.values()) == pytest.approx(1.0)
            left = Counter(FULL_DECK) - Counter(turned)
            assert outcomes == pytest.approx(
                {d: c / sum(left.values()) for d, c in left.items() if c}
            )
            card = rng.choice(list(outcomes))
            turned.append(card)
            state.apply_action(card)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(turned) == 20


def test_nova_luna_observations_never_show_the_pile_order():
    """Two games with the same public history but different piles beyond it look the
    same: the state holds no pile order, only the draws made."""
    game = pyspiel.load_game(openspiel.NOVA_LUNA, {"players": 2})
    state = game.new_initial_state()
    play_to(state, random.Random(1), lambda s: s.engine is not None and s.engine.turn >= 6)
    other = state.clone()
    engine = other.engine
    rest = list(engine.unseen_tiles())
    random.Random(2).shuffle(rest)
    engine.arrange_pile(rest)  # a different secret order
    for seat in (0, 1):
        assert state.observation_tensor(seat) == other.observation_tensor(seat)
        assert state.observation_string(seat) == other.observation_string(seat)
    tensor = np.array(state.observation_tensor(0))
    assert tensor.shape == (game.observation_tensor_size(),)
    # the pile as a multiset is public; state and observation agree on it
    unseen = tensor[-68:]
    assert sorted(np.flatnonzero(unseen) + 1) == list(engine.unseen_tiles())


def test_nmbr9_a_seats_pending_placement_never_reaches_another_seats_observation():
    game = pyspiel.load_game(openspiel.NMBR9, {"players": 2})
    state = game.new_initial_state()
    play_to(state, random.Random(4), lambda s: s.engine.round >= 3 and s.current_player() == 0)
    before = [state.observation_tensor(1), state.observation_string(1)]
    infos = set()  # seat 1 knows that seat 0 has placed (it is its turn), not where
    seen = set()
    for action in state.legal_actions()[:5]:
        child = state.child(action)
        assert child.current_player() == 1
        assert [child.observation_tensor(1), child.observation_string(1)] == before
        infos.add(child.information_state_string(1))
        seen.add(tuple(child.observation_tensor(0)))
        # once the round resolves, seat 1 learns seat 0's placement
        resolved = child.child(child.legal_actions()[0])
        assert str(action) in resolved.information_state_string(1).split()
    assert len(seen) > 1  # the seat itself sees its own placement
    assert len(infos) == 1
    raw = n9enc.ENCODING.setup(2).scaler.unscale(before[0])  # the tensor is scaled
    parts = n9enc.split(raw, 2)
    assert parts["header"][4] == 1  # seat 1 is still to place


def test_nmbr9_the_card_is_not_shown_before_its_chance_node():
    state = pyspiel.load_game(openspiel.NMBR9, {"players": 1}).new_initial_state()
    assert state.is_chance_node()
    raw = n9enc.ENCODING.setup(1).scaler.unscale(state.observation_tensor(0))
    assert raw[3] == -1


def test_mcts_plays_legal_nova_luna_moves():
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(openspiel.NOVA_LUNA, {"players": 2})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while moves < 3:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1


def test_the_engine_draws_what_the_chance_nodes_chose():
    state = Game(players=2).new_state(seed=7)
    order = state.pile_order()
    wanted = list(order[-3:])
    state.arrange_pile(wanted)
    assert state.pile_order()[11:14] == tuple(wanted)
    assert sorted(state.pile_order()) == sorted(order)
    with pytest.raises(ValueError):
        state.arrange_pile([order[0]])  # on the wheel, not in the pile


@pytest.mark.parametrize("name", GAMES)
def test_the_games_provide_information_state_tensors(name):
    game = pyspiel.load_game(spiel_name(name), {"players": 2})
    assert game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    play_to(state, random.Random(6), lambda s: len(s.history()) >= 30)
    for seat in (0, 1):
        tensor = state.information_state_tensor(seat)
        assert len(tensor) == game.information_state_tensor_size()
        observation = state.observation_tensor(seat)
        assert tensor[: len(observation)] == observation  # the observation comes first


def test_nova_luna_information_state_ignores_the_pile_order_and_follows_the_play():
    game = pyspiel.load_game(openspiel.NOVA_LUNA, {"players": 2})
    state = game.new_initial_state()
    play_to(state, random.Random(8), lambda s: s.engine is not None and s.engine.turn >= 5)
    other = state.clone()
    rest = list(other.engine.unseen_tiles())
    random.Random(9).shuffle(rest)
    other.engine.arrange_pile(rest)  # the hidden information: the pile's order
    for seat in (0, 1):
        assert state.information_state_tensor(seat) == other.information_state_tensor(seat)
    legal = state.legal_actions()
    one, two = state.child(legal[0]), state.child(legal[-1])  # visible: different moves
    for seat in (0, 1):
        assert one.information_state_tensor(seat) != two.information_state_tensor(seat)


def test_nmbr9_information_state_hides_another_seats_pending_placement():
    game = pyspiel.load_game(openspiel.NMBR9, {"players": 2})
    state = game.new_initial_state()
    play_to(state, random.Random(10), lambda s: s.engine.round >= 2 and s.current_player() == 0)
    legal = state.legal_actions()
    one, two = state.child(legal[0]), state.child(legal[-1])  # seat 0's hidden placement
    assert one.current_player() == two.current_player() == 1
    assert one.information_state_tensor(1) == two.information_state_tensor(1)
    assert one.information_state_string(1) == two.information_state_string(1)
    assert one.information_state_tensor(0) != two.information_state_tensor(0)  # its own
    # seat 1's placement resolves the round: now seat 1 sees where seat 0 placed
    action = one.legal_actions()[0]
    assert action in two.legal_actions()
    resolved_one, resolved_two = one.child(action), two.child(action)
    assert resolved_one.information_state_tensor(1) != resolved_two.information_state_tensor(1)
    # the card turned next is visible too
    assert resolved_one.is_chance_node()
    cards = [card for card, _ in resolved_one.chance_outcomes()]
    first, second = resolved_one.child(cards[0]), resolved_one.child(cards[-1])
    assert first.information_state_tensor(1) != second.information_state_tensor(1)
