"""The zero-sum reward (issue 31, the default since issue 48): ``zero_sum`` pays +1 / -1 /
0 and sums to 0; the rank reward pays a two-player draw +1 to both, a general-sum game."""

from __future__ import annotations

import random

import pytest

from tabletop.research import aec
from tabletop.research.encoding import zero_sum_rewards

from research_support import research_games, seats

GAMES = research_games()


def test_a_two_player_draw_pays_nothing_and_a_win_pays_the_loss():
    assert zero_sum_rewards([1, 1]) == [0.0, 0.0]
    assert zero_sum_rewards([2, 1]) == [-1.0, 1.0]
    assert sum(zero_sum_rewards([1, 2, 2, 4])) == pytest.approx(0.0)


def play_aec(game: str, players: int, seed: int, reward: str) -> dict[str, float]:
    env = aec.env(game, players=players, reward=reward)
    env.reset(seed=seed)
    rng = random.Random(seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, r, terminated, truncated, _ = env.last()
        total[agent] += r
        if terminated or truncated:
            env.step(None)
        else:
            legal = [i for i, m in enumerate(obs["action_mask"]) if m]
            env.step(rng.choice(legal))
    return total


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_zero_sum_rewards_sum_to_zero_and_rank_the_seats(game):
    players = max(2, seats(game)[0])
    for seed in range(30):
        rank = play_aec(game, players, seed, "rank")
        zero = play_aec(game, players, seed, "zero_sum")
        assert sum(zero.values()) == pytest.approx(0.0)
        mean = sum(rank.values()) / players
        assert zero == pytest.approx({a: r - mean for a, r in rank.items()})
        if len(set(rank.values())) == 1:  # a draw: +1 each by default, 0 each here
            assert set(zero.values()) == {0.0}


def test_the_toy_games_draws_pay_zero_to_both():
    for seed in range(200):
        rank = play_aec("toy", 2, seed, "rank")
        if set(rank.values()) == {1.0}:  # a draw: +1 to both by default
            assert play_aec("toy", 2, seed, "zero_sum") == {"player_0": 0.0, "player_1": 0.0}
            return
    pytest.fail("no draw in 200 toy games")


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_zero_sum_parameter(game):
    pyspiel = pytest.importorskip("pyspiel")
    from tabletop.research import openspiel
    from tabletop.research.encoding import spiel_name

    openspiel.register()
    utility = pyspiel.GameType.Utility
    general = pyspiel.load_game(spiel_name(game), {"players": 2, "zero_sum": False})
    assert general.get_type().utility == utility.GENERAL_SUM
    spiel = pyspiel.load_game(spiel_name(game), {"players": 2})  # the documented default
    assert spiel.get_type().utility == utility.ZERO_SUM
    assert spiel.utility_sum() == 0.0
    for seed in range(5):
        rng = random.Random(seed)
        state = spiel.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert sum(state.returns()) == pytest.approx(0.0)
        assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
        clone = state.clone()
        assert clone.returns() == state.returns()
    pyspiel.random_sim_test(spiel, num_sims=1, serialize=True, verbose=False)
    if seats(game)[0] == 1:  # one seat: its score, whatever zero_sum says
        solo = pyspiel.load_game(spiel_name(game), {"players": 1, "zero_sum": True})
        assert solo.get_type().utility == utility.GENERAL_SUM
