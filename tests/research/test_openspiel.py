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
    "nova-luna": [{"players": 1}, {"players": 3}, {"players": 2, "imperfect_information": True}],
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
        # the Python game's draws (the compiled one's reference, replayed, where built)
        python = getattr(state.encoder, "reference", state.encoder)
        if state.is_chance_node() and python.stack is not None:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            left = list(state.engine.unseen_tiles()) if state.engine else list(range(1, 69))
            for tile in python.draws:
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


def test_nmbr9_strings_at_a_chance_node_show_that_no_card_is_turned():
    """The engine's deck holds some card at every round; until the chance node turns it
    no string may name one (it showed "card 0", the lowest card left)."""
    game = pyspiel.load_game(openspiel.NMBR9, {"players": 2})
    state = game.new_initial_state()
    rng = random.Random(12)
    chance_nodes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance_nodes += 1
            for seat in (0, 1):
                text = state.observation_string(seat)
                assert "no card turned yet" in text.splitlines()[0]
                assert "card 0" not in text and f"card {state.engine.card}" not in text
                words = state.information_state_string(seat).split()
                assert len([w for w in words if w.startswith("card")]) == state.engine.round
            assert "no card turned yet" in str(state)
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            card = state.engine.card
            assert f"card {card}" in state.observation_string(0).splitlines()[0]
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert chance_nodes == 20


# -- resampling an information state (ISMCTS) ---------------------------------------

#: Games for the resampling tests, with the information each hides; every other game
#: with an encoding at two seats.
RESAMPLE_CASES = [
    (openspiel.NOVA_LUNA, {"players": 2}),
    (openspiel.NOVA_LUNA, {"players": 3}),
    (openspiel.NMBR9, {"players": 2}),
    (openspiel.NMBR9, {"players": 3, "remove": 2}),
] + [(spiel_name(game), {"players": 2}) for game in GAMES if game not in ("nova-luna", "nmbr9")]


def sampler(seed: int):
    return pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)


def information(state, player: int) -> tuple:
    return (
        state.information_state_string(player),
        tuple(state.information_state_tensor(player)),
        state.observation_string(player),
        tuple(state.observation_tensor(player)),
    )


@pytest.mark.parametrize(("name", "params"), RESAMPLE_CASES)
@pytest.mark.parametrize("seed", range(4))
def test_a_resampled_state_keeps_what_the_player_knows(name, params, seed):
    """Property over random play: at random points, for every player, the resampled
    state gives that player the same information state and observation (string and
    tensor), the same player to act, and the same legal actions if it acts; the state
    then plays on to the end."""
    game = pyspiel.load_game(name, params)
    rng = random.Random(seed)
    state = game.new_initial_state()
    checked = 0
    # the shipped games' games are long: some points of each; any other, every point
    share = 0.15 if name in (openspiel.NOVA_LUNA, openspiel.NMBR9) else 1.0
    while not state.is_terminal():
        if rng.random() < share:
            for player in range(game.num_players()):
                sample = state.resample_from_infostate(player, sampler(rng.randrange(1 << 30)))
                assert information(sample, player) == information(state, player)
                assert sample.current_player() == state.current_player()
                assert len(sample.history()) == len(state.history())
                if state.current_player() == player:
                    assert sample.legal_actions() == state.legal_actions()
                checked += 1
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 5
    play_to(sample, rng, lambda s: False)  # a resampled state is a whole game
    assert sample.is_terminal()


def test_nmbr9_resampling_redraws_the_other_seats_pending_placements_and_the_deck():
    game = pyspiel.load_game(openspiel.NMBR9, {"players": 3})
    state = game.new_initial_state()
    play_to(state, random.Random(13), lambda s: s.engine.round >= 4 and s.current_player() == 2)
    history = state.history()
    pending = {len(history) - 2, len(history) - 1}  # seats 0 and 1 placed this round
    placements, decks = set(), set()
    for seed in range(12):
        sample = state.resample_from_infostate(2, sampler(seed))
        redrawn = sample.history()
        assert [a for i, a in enumerate(redrawn) if i not in pending] == [
            a for i, a in enumerate(history) if i not in pending
        ]
        placements.add(tuple(redrawn[i] for i in sorted(pending)))
        decks.add(sample.engine.deck_order())
        turned = state.engine.round + 1
        assert sample.engine.deck_order()[:turned] == state.engine.deck_order()[:turned]
        assert sorted(sample.engine.deck_order()) == sorted(state.engine.deck_order())
        # the same seed, the same sample: the randomness is the sampler's
        again = state.resample_from_infostate(2, sampler(seed))
        assert again.history() == redrawn
        assert again.engine.deck_order() == sample.engine.deck_order()
    assert len(placements) > 6 and len(decks) > 6
    # seat 0 saw nothing of seat 1's pending placement, but knows its own
    own = state.resample_from_infostate(0, sampler(1)).history()
    assert own[len(history) - 2] == history[-2]


def test_nova_luna_resampling_reshuffles_only_the_pile():
    game = pyspiel.load_game(openspiel.NOVA_LUNA, {"players": 2})
    state = game.new_initial_state()
    play_to(state, random.Random(14), lambda s: s.engine is not None and s.engine.turn >= 8)
    piles = set()
    for seed in range(8):
        sample = state.resample_from_infostate(0, sampler(seed))
        assert sample.history() == state.history()  # every move is public
        assert str(sample) == str(state)
        drawn = state.engine.drawn
        assert sample.engine.pile_order()[:drawn] == state.engine.pile_order()[:drawn]
        assert sorted(sample.engine.pile_order()) == sorted(state.engine.pile_order())
        piles.add(sample.engine.pile_order())
    assert len(piles) == 8


@pytest.mark.parametrize(
    ("name", "params"),
    [
        (openspiel.NMBR9, {"players": 2}),
        (openspiel.NMBR9, {"players": 3, "remove": 14}),
        (openspiel.NOVA_LUNA, {"players": 2, "imperfect_information": True}),
    ],
)
def test_openspiels_ismcts_plays_whole_games(name, params):
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=3, random_state=rng)
    bot.set_resampler(  # seeded (the bot's own sampler is not)
        lambda state, player: state.resample_from_infostate(
            player, sampler(int(rng.randint(1 << 30)))
        )
    )
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif name == openspiel.NOVA_LUNA and moves >= 12:
            state.apply_action(state.legal_actions()[0])  # the rest quickly
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
    assert moves >= 12


def test_ismcts_runs_with_its_own_unseeded_sampler():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(openspiel.NMBR9, {"players": 2})
    rng = np.random.RandomState(4)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rng)
    state = game.new_initial_state()
    play_to(state, random.Random(15), lambda s: s.current_player() == 1)
    assert bot.step(state) in state.legal_actions()


def test_nova_luna_is_perfect_information_unless_declared_otherwise():
    plain = pyspiel.load_game(openspiel.NOVA_LUNA, {"players": 2})
    information = pyspiel.GameType.Information
    assert plain.get_type().information == information.PERFECT_INFORMATION
    declared = pyspiel.load_game(openspiel.NOVA_LUNA, {"players": 2, "imperfect_information": True})
    assert declared.get_type().information == information.IMPERFECT_INFORMATION
    assert declared.num_distinct_actions() == plain.num_distinct_actions()
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game(openspiel.NMBR9, {"imperfect_information": True})  # it is already


# -- public observations --------------------------------------------------------------


def public_type(recall: bool):
    return pyspiel.IIGObservationType(
        public_info=True, perfect_recall=recall, private_info=pyspiel.PrivateInfoType.NONE
    )


def public(game, state, recall: bool) -> list[tuple]:
    """Per player: the public observation's tensor and string, through both of
    OpenSpiel's ways to ask for it."""
    from open_spiel.python.observation import make_observation

    py = make_observation(game, public_type(recall))
    cc = pyspiel._Observation(game, game.make_observer(public_type(recall), {}))
    out = []
    for player in range(game.num_players()):
        py.set_from(state, player)
        cc.set_from(state, player)
        tensor = tuple(py.tensor)
        parts = [np.asarray(part.data, np.float32).ravel() for part in cc.tensors()]
        assert tuple(np.concatenate(parts)) == tensor
        text = py.string_from(state, player)
        assert cc.string_from(state, player) == text
        out.append((tensor, text))
    return out


@pytest.mark.parametrize("recall", [False, True])
def test_nmbr9_public_observation_shows_no_pending_placement(recall):
    game = pyspiel.load_game(openspiel.NMBR9, {"players": 3})
    state = game.new_initial_state()
    play_to(state, random.Random(16), lambda s: s.engine.round >= 3 and s.current_player() == 1)
    seen = set()
    for action in state.legal_actions()[:6]:
        child = state.child(action)  # seat 1's placement: private until the round resolves
        views = public(game, child, recall)
        assert len(set(views)) == 1  # the same for every player
        seen.add(views[0])
        assert child.observation_tensor(1) != list(views[0][0])[: len(child.observation_tensor(1))]
    assert len(seen) == 1  # nothing of the private placement shows
    (tensor, text), (before, before_text) = seen.pop(), public(game, state, recall)[0]
    if recall:  # that seat 1 has placed is public (it is seat 2's turn), not where
        assert text == before_text + " ?" and text.endswith("? ?")
    else:  # the boards as of the last resolved round: as before seat 1 placed
        assert (tensor, text) == (before, before_text)
    view = (before, before_text)
    # a turned card and a resolved round are public
    resolved = state.child(state.legal_actions()[0])
    resolved = resolved.child(resolved.legal_actions()[0])
    assert resolved.is_chance_node()
    assert public(game, resolved, recall)[0] != view
    assert "?" not in public(game, resolved, recall)[0][1] or recall


@pytest.mark.parametrize("recall", [False, True])
def test_nova_luna_public_observation_is_everyones_and_ignores_the_pile(recall):
    game = pyspiel.load_game(openspiel.NOVA_LUNA, {"players": 3})
    state = game.new_initial_state()
    play_to(state, random.Random(17), lambda s: s.engine is not None and s.engine.turn >= 6)
    views = public(game, state, recall)
    assert len(set(views)) == 1
    other = state.clone()
    rest = list(other.engine.unseen_tiles())
    random.Random(18).shuffle(rest)
    other.engine.arrange_pile(rest)
    assert public(game, other, recall) == views
    assert public(game, state.child(state.legal_actions()[0]), recall) != views


@pytest.mark.parametrize("name", [openspiel.NOVA_LUNA, openspiel.NMBR9])
def test_observer_requests_without_a_meaning_here_are_refused(name):
    game = pyspiel.load_game(name, {"players": 2})
    private = pyspiel.PrivateInfoType
    for public_info, kind in [(False, private.SINGLE_PLAYER), (True, private.ALL_PLAYERS)]:
        for recall in (False, True):
            iig = pyspiel.IIGObservationType(
                public_info=public_info, perfect_recall=recall, private_info=kind
            )
            with pytest.raises(ValueError, match="not supported"):
                game.make_py_observer(iig)
            with pytest.raises(ValueError, match="not supported"):  # through pyspiel too
                game.make_observer(iig, {})


def test_nmbr9_observation_at_a_chance_node_counts_every_card_not_turned():
    """Before the chance node turns a card, the observation's ``unturned`` counts are
    the chance node's own odds (they left out the engine's placeholder card)."""
    game = pyspiel.load_game(openspiel.NMBR9, {"players": 2, "remove": 3})
    scaler = n9enc.ENCODING.setup(2, remove=3).scaler
    state = game.new_initial_state()
    rng = random.Random(19)
    while not state.is_terminal():
        if state.is_chance_node():
            odds = dict(state.chance_outcomes())
            for seat in (0, 1):
                raw = scaler.unscale(state.observation_tensor(seat))  # the tensor is scaled
                unturned = n9enc.split(raw, 2)["unturned"]
                total = unturned.sum()
                assert total == 20 - len(state.history()) // 3
                assert {d: unturned[d] / total for d in odds} == pytest.approx(odds)
            state.apply_action(rng.choice(list(odds)))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
