"""NMBR 9's research environments: masks, simultaneous rounds, hidden placements, rewards."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tabletop.games.nmbr9.rules import Game
from tabletop.research import nmbr9 as enc
from tabletop.research import nmbr9_v0
from tabletop.research.aec import IllegalActionError, Nmbr9Env
from tabletop.research.gym import NMBR9_ILLEGAL_PENALTY, Nmbr9SoloEnv


def legal_indices(mask: np.ndarray) -> list[int]:
    return np.flatnonzero(mask).tolist()


@pytest.mark.parametrize("players", [1, 3])
def test_the_mask_is_the_engines_legal_placements_inside_the_window(players):
    env = Nmbr9Env(players=players)
    env.reset(seed=players)
    rng = random.Random(players)
    while not env.game_state.is_over:
        agent = env.agent_selection
        seat = env.possible_agents.index(agent)
        mask = env.observe(agent)["action_mask"]
        state = env.game_state
        inside = {enc.encode(p) for p in state.legal_actions(seat) if enc.in_window(state.card, p)}
        assert set(legal_indices(mask)) == inside and inside
        env.step(rng.choice(sorted(inside)))


def test_the_window_leaves_room_for_a_placement_in_random_games():
    rng = random.Random(7)
    for seed in range(40):
        env = Nmbr9Env(players=1)
        env.reset(seed=seed)
        while not env.game_state.is_over:
            assert not enc.window_is_full(env.game_state, 0)
            env.step(rng.choice(legal_indices(env.observe("player_0")["action_mask"])))


def test_seats_act_one_after_another_within_a_round():
    env = Nmbr9Env(players=3)
    env.reset(seed=2)
    rng = random.Random(2)
    for round_ in range(3):
        for seat in range(3):
            assert env.agent_selection == f"player_{seat}" and env.game_state.round == round_
            env.step(rng.choice(legal_indices(env.observe(env.agent_selection)["action_mask"])))


def test_a_seats_observation_is_unchanged_by_another_seats_pending_placement():
    env = nmbr9_v0.env(players=2)
    env.reset(seed=3)
    rng = random.Random(3)
    for _ in range(6):  # three rounds
        before = env.unwrapped.observe("player_1")
        obs, *_ = env.last()
        assert env.agent_selection == "player_0"
        env.step(rng.choice(legal_indices(obs["action_mask"])))
        pending = env.unwrapped.observe("player_1")
        assert np.array_equal(before["observation"], pending["observation"])
        assert np.array_equal(before["action_mask"], pending["action_mask"])
        # seat 0 sees its own pending tile
        own = enc.split(env.unwrapped.observe("player_0")["observation"], 2)["boards"][0]
        assert own[0].sum() > 0
        obs, *_ = env.last()
        env.step(rng.choice(legal_indices(obs["action_mask"])))


def test_gymnasium_observations_hold_no_deck_order_only_the_unturned_multiset():
    decks = []
    base = list(Game(players=1).new_state(5).deck_order())
    for k in range(2):
        rest = base[1:]
        random.Random(k).shuffle(rest)
        decks.append([base[0], *rest])
    assert decks[0] != decks[1]
    envs = [Nmbr9SoloEnv(), Nmbr9SoloEnv()]
    (oa, ia), (ob, ib) = (
        env.reset(options={"deck": d}) for env, d in zip(envs, decks, strict=True)
    )
    assert np.array_equal(oa, ob) and np.array_equal(ia["action_mask"], ib["action_mask"])
    unturned = enc.split(envs[0].setup.scaler.unscale(oa), 1)["unturned"]  # raw counts
    assert unturned.sum() == 19 and unturned[base[0]] == 1


@pytest.mark.parametrize("reward", ["rank", "score"])
def test_rewards_come_only_at_the_end_shared_ranks_or_points(reward):
    env = nmbr9_v0.env(players=3, reward=reward, remove=15)
    env.reset(seed=8)
    rng = random.Random(8)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, rew, terminated, truncated, _ = env.last()
        totals[agent] += rew
        if terminated or truncated:
            env.step(None)
            continue
        assert rew == 0
        env.step(rng.choice(legal_indices(obs["action_mask"])))
    result = env.unwrapped.game_state.result()
    if reward == "rank":
        expected = {f"player_{s}": 1.0 - (r - 1) for s, r in enumerate(result.ranks)}
    else:
        expected = {f"player_{s}": float(p) for s, p in enumerate(result.scores)}
    assert totals == expected


def test_an_illegal_placement_is_refused():
    env = Nmbr9Env(players=2)
    env.reset(seed=1)
    with pytest.raises(IllegalActionError):
        env.step(enc.encode(enc.Place(0, 15, 15)))


def test_the_solo_gymnasium_reward_is_the_points_at_the_end():
    env = Nmbr9SoloEnv(remove=10)
    _, info = env.reset(seed=4)
    rng = random.Random(4)
    rewards, terminated = [], False
    while not terminated:
        _, reward, terminated, _, info = env.step(rng.choice(legal_indices(info["action_mask"])))
        rewards.append(reward)
    assert len(rewards) == 10
    assert rewards[:-1] == [0.0] * 9 and rewards[-1] == env.game_state.result().scores[0]


def test_an_illegal_solo_placement_ends_the_episode_with_the_documented_penalty():
    env = Nmbr9SoloEnv()
    env.reset(seed=2)
    mask = env.action_masks()
    illegal = int(np.flatnonzero(mask == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (NMBR9_ILLEGAL_PENALTY, True, True)
    assert NMBR9_ILLEGAL_PENALTY == -100.0


def test_pettingzoo_observations_hold_no_deck_order():
    """Two games whose decks differ only after the cards turned so far give every seat
    the same observations and masks, round after round, until the decks part."""
    base = list(Game(players=2).new_state(6).deck_order())
    decks = [base[:3] + sorted(base[3:]), base[:3] + sorted(base[3:], reverse=True)]
    assert decks[0] != decks[1]
    envs = [nmbr9_v0.env(players=2) for _ in decks]
    for env, deck in zip(envs, decks, strict=True):
        env.reset(options={"deck": deck})
    a, b = (e.unwrapped for e in envs)
    rng = random.Random(6)
    while a.game_state.round < 3:
        for agent in a.possible_agents:
            oa, ob = a.observe(agent), b.observe(agent)
            assert np.array_equal(oa["observation"], ob["observation"])
            assert np.array_equal(oa["action_mask"], ob["action_mask"])
        action = rng.choice(legal_indices(a.observe(a.agent_selection)["action_mask"]))
        for env in envs:
            env.step(action)


def test_a_chance_game_ends_when_no_placement_fits_the_window():
    """OpenSpiel's NMBR 9 ends the game when the seat to place has no placement inside
    the window (never seen on 40 × 40): on a window of 8 × 8 it comes soon."""
    from tabletop.research.encoding import CHANCE, TERMINAL

    game = enc.ENCODING.setup(1, size=8).undealt()
    rng = random.Random(1)
    while game.acting() != TERMINAL:
        if game.acting() == CHANCE:
            game.apply_chance(rng.choice(game.chance_outcomes())[0])
            assert game.stuck == enc.window_is_full(game.state, 0, 8)
        else:
            game.apply(rng.choice(game.legal_actions(0)), 0)
    assert game.stuck and not game.state.is_over and game.is_over
