"""Nova Luna's research environments: masks, turn order, hidden information, rewards."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tabletop.games.novaluna.rules import Game
from tabletop.games.novaluna.rules.tiles import TILE_COST
from tabletop.research import novaluna as enc
from tabletop.research import novaluna_v0
from tabletop.research.aec import IllegalActionError, NovaLunaEnv
from tabletop.research.gym import NOVALUNA_ILLEGAL_PENALTY, NovaLunaSoloEnv


def legal_indices(mask: np.ndarray) -> set[int]:
    return set(np.flatnonzero(mask).tolist())


def play(env: NovaLunaEnv, rng: random.Random, check=None) -> list[str]:
    """Play the raw AEC env to the end with random legal actions; the agents that acted."""
    acted = []
    while not env.game_state.is_over:
        agent = env.agent_selection
        obs = env.observe(agent)
        if check:
            check(env, agent, obs)
        acted.append(agent)
        env.step(rng.choice(sorted(legal_indices(obs["action_mask"]))))
    return acted


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_mask_is_exactly_the_engines_legal_actions_throughout_a_game(players):
    def check(env, agent, obs):
        state = env.game_state
        expected = {enc.encode(a, state) for a in state.legal_actions()}
        assert legal_indices(obs["action_mask"]) == expected
        assert obs["action_mask"].dtype == np.int8
        assert env.encoder.legal_actions() == np.flatnonzero(obs["action_mask"]).tolist()
        for a in state.legal_actions():
            assert enc.decode(enc.encode(a, state), state) == a

    env = NovaLunaEnv(players=players)
    env.reset(seed=players)
    play(env, random.Random(players), check)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_stepping_the_env_plays_the_same_game_as_the_engines_apply(players):
    env = NovaLunaEnv(players=players)
    env.reset(seed=20 + players)
    twin = env.game_state.clone()
    rng = random.Random(players)
    while not env.game_state.is_over:
        action = rng.choice(sorted(legal_indices(env.observe(env.agent_selection)["action_mask"])))
        twin.apply(enc.decode(action, twin))
        env.step(action)
        assert env.game_state.view().to_json() == twin.view().to_json()
    assert env.game_state.result() == twin.result()


def test_the_agent_to_act_is_the_rearmost_seat_and_may_act_several_times_in_a_row():
    def check(env, agent, obs):
        state = env.game_state
        assert agent == f"player_{state.turn_order()[0]}" == f"player_{state.current_seat}"
        assert obs["observation"][2] == 1  # "you are to move"
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()

    env = NovaLunaEnv(players=3)
    env.reset(seed=5)
    acted = play(env, random.Random(5), check)
    assert any(a == b for a, b in zip(acted, acted[1:], strict=False))


def test_the_grid_radius_follows_from_the_tile_costs():
    """A seat's time exceeds no other's by more than 7, so with p players it is at most
    (268 + 7 (p - 1)) / p: the most tiles a seat can hold is how many of the cheapest
    fit in that; solo, 11 tiles per phase. The k-th tile lies k - 1 steps out."""
    costs = sorted(TILE_COST[1:])
    assert sum(costs) == 268
    for players, most in ((2, 45), (3, 34), (4, 29)):
        budget = (268 + 7 * (players - 1)) // players
        assert sum(costs[:most]) <= budget < sum(costs[: most + 1])
    assert enc.MAX_TILES == 45 and enc.RADIUS == 45 - 1 and enc.GRID == 89


def test_the_grid_radius_bounds_every_display_in_two_player_games():
    # the bound in research/novaluna.py: a seat holds at most 45 tiles with two players
    rng = random.Random(3)
    for seed in range(30):
        state = Game(players=2).new_state(seed)
        state.random_playout(rng)
        assert max(len(d.tiles) for d in state.displays) <= enc.MAX_TILES


def pile_with_shuffled_rest(seed: int, shuffle: int) -> list[int]:
    pile = list(Game(players=2).new_state(seed).pile_order())
    rest = pile[11:]
    random.Random(shuffle).shuffle(rest)
    return pile[:11] + rest


def test_pettingzoo_observations_hold_no_pile_order():
    """Two games whose piles differ only in the order of the unseen tiles give every
    seat the same observations and masks until a refill shows a tile."""
    envs = [novaluna_v0.env(players=2) for _ in range(2)]
    for k, env in enumerate(envs):
        env.reset(options={"pile": pile_with_shuffled_rest(1, k), "start_stack": [0, 1]})
    a, b = (e.unwrapped for e in envs)
    assert a.game_state.pile_order() != b.game_state.pile_order()
    rng = random.Random(0)
    steps = 0
    while a.game_state.drawn == 11 and not a.game_state.is_over:
        for agent in a.possible_agents:
            oa, ob = a.observe(agent), b.observe(agent)
            assert np.array_equal(oa["observation"], ob["observation"])
            assert np.array_equal(oa["action_mask"], ob["action_mask"])
        legal = sorted(legal_indices(a.observe(a.agent_selection)["action_mask"]))
        action = rng.choice(legal)
        envs[0].step(action)
        envs[1].step(action)
        steps += 1
    assert steps >= 8


def test_gymnasium_observations_hold_no_pile_order():
    envs = [NovaLunaSoloEnv(), NovaLunaSoloEnv()]
    first = [
        env.reset(options={"pile": pile_with_shuffled_rest(2, k)}) for k, env in enumerate(envs)
    ]
    assert np.array_equal(first[0][0], first[1][0])
    rng = random.Random(1)
    while envs[0].game_state.phase == 1:
        action = rng.choice(sorted(legal_indices(envs[0].action_masks())))
        (oa, ra, ta, _, ia), (ob, rb, tb, _, ib) = (env.step(action) for env in envs)
        if envs[0].game_state.phase == 1:
            assert np.array_equal(oa, ob) and (ra, ta) == (rb, tb)
            assert np.array_equal(ia["action_mask"], ib["action_mask"])


def test_the_unseen_part_is_the_pile_as_a_multiset():
    env = NovaLunaEnv(players=2)
    env.reset(seed=4)
    play(env, random.Random(4), lambda env, agent, obs: check_unseen(env, obs))


def check_unseen(env, obs):
    unseen = enc.split(obs["observation"], 2)["unseen"]
    assert sorted((np.flatnonzero(unseen) + 1).tolist()) == list(env.game_state.unseen_tiles())


@pytest.mark.parametrize("reward", ["rank", "score"])
def test_rewards_come_only_at_the_end_rank_plus_one_to_minus_one_or_discs_placed(reward):
    env = novaluna_v0.env(players=3, reward=reward)
    env.reset(seed=11)
    rng = random.Random(11)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, rew, terminated, truncated, _ = env.last()
        totals[agent] += rew
        if terminated or truncated:
            env.step(None)
            continue
        assert rew == 0
        env.step(rng.choice(sorted(legal_indices(obs["action_mask"]))))
    result = env.unwrapped.game_state.result()
    if reward == "rank":
        expected = {f"player_{s}": 1.0 - k for k, s in enumerate(result.ranking)}
    else:
        expected = {f"player_{s}": 20.0 - left for s, left in enumerate(result.discs_left)}
    assert totals == expected


def test_an_illegal_action_is_refused_and_changes_nothing():
    env = NovaLunaEnv(players=2)
    env.reset(seed=1)
    before = env.observe(env.agent_selection)["observation"]
    with pytest.raises(IllegalActionError):
        env.step(enc.encode_place(0, 5, 5))  # not next to anything
    with pytest.raises(IllegalActionError):
        env.step(enc.END_PHASE_ACTION)  # only solo has phases
    with pytest.raises(IllegalActionError):
        env.step(enc.REFILL_ACTION)  # the wheel is full
    for bad in (-1, enc.ACTIONS, enc.encode_place(1, 0, 1)):
        with pytest.raises(IllegalActionError):
            env.step(bad)
    assert np.array_equal(before, env.observe(env.agent_selection)["observation"])


def test_the_solo_gymnasium_reward_is_minus_the_final_score_at_the_end():
    env = NovaLunaSoloEnv()
    _, info = env.reset(seed=9)
    rng = random.Random(9)
    rewards = []
    terminated = False
    while not terminated:
        action = rng.choice(sorted(legal_indices(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        assert not truncated
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == -env.game_state.result().total == -info["score"]
    assert not env.action_masks().any()


def test_an_illegal_solo_action_ends_the_episode_with_the_documented_penalty():
    env = NovaLunaSoloEnv()
    env.reset(seed=2)
    _, reward, terminated, truncated, info = env.step(enc.REFILL_ACTION)  # no solo refill
    assert (reward, terminated, truncated) == (NOVALUNA_ILLEGAL_PENALTY, True, False)
    assert info["illegal_action"] and not info["action_mask"].any()
    assert NOVALUNA_ILLEGAL_PENALTY == -1000.0


def test_an_encoder_survives_pickling():
    """OpenSpiel serialises states by pickling them (the Encoder's packer cannot be)."""
    import pickle

    from tabletop.games.novaluna.rules import Game as NovaLuna
    from tabletop.research.novaluna import Encoder

    enc = Encoder(NovaLuna(players=2).new_state(seed=3))
    copy = pickle.loads(pickle.dumps(enc))
    assert (copy.observe(1) == enc.observe(1)).all() and (copy.mask() == enc.mask()).all()
