"""NMBR 9 on a small window: a size that cannot hold the first tile is refused, and a
game that runs out of room ends truncated with a documented signal, never with an empty
mask on a live agent (PettingZoo AEC and parallel, Gymnasium)."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tabletop.research  # noqa: F401  (registers the Gymnasium environments)
from tabletop.research import nmbr9 as enc
from tabletop.research import nmbr9_v0
from tabletop.research.gym import Nmbr9SoloEnv

SIZES = st.integers(enc.MIN_SIZE, 24)
SEEDS = st.integers(0, 2**32 - 1)
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_the_smallest_window_holds_every_first_tile_and_one_less_does_not():
    def holds(size: int) -> bool:
        return all(
            any(enc.in_window(d, enc.Place(r, 0, 0), size) for r in range(4)) for d in range(10)
        )

    assert enc.MIN_SIZE == 7
    assert holds(enc.MIN_SIZE) and not holds(enc.MIN_SIZE - 1)


@pytest.mark.parametrize("size", [-3, 0, 1, 4, 6])
def test_a_window_that_cannot_hold_the_first_tile_is_refused(size):
    for make in (
        lambda: nmbr9_v0.env(players=2, size=size),
        lambda: nmbr9_v0.raw_env(players=1, size=size),
        lambda: gymnasium.make("tabletop/Nmbr9Solo-v0", size=size),
        lambda: Nmbr9SoloEnv(size=size),
    ):
        with pytest.raises(ValueError, match="size"):
            make()


@pytest.mark.parametrize("size", [7.5, "12", True])
def test_a_window_size_that_is_not_a_whole_number_is_refused(size):
    with pytest.raises(ValueError, match="size"):
        nmbr9_v0.env(players=2, size=size)


def play_aec(players: int, size: int, seed: int) -> dict:
    """Random masked play to the end; the last step's infos, terminations, truncations."""
    env = nmbr9_v0.env(players=players, size=size)
    env.reset(seed=seed)
    rng = random.Random(seed)
    ended: dict = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            ended[agent] = (terminated, truncated, info, reward)
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size, f"{agent} is live with an empty mask (size {size}, seed {seed})"
        env.step(int(rng.choice(legal)))
    return ended


@PROPERTY
@given(players=st.integers(1, 4), size=SIZES, seed=SEEDS)
def test_random_masked_play_never_sees_an_empty_mask_on_a_live_agent(players, size, seed):
    ended = play_aec(players, size, seed)
    assert set(ended) == {f"player_{s}" for s in range(players)}
    kinds = {(terminated, truncated) for terminated, truncated, _, _ in ended.values()}
    assert kinds in ({(True, False)}, {(False, True)})  # every agent ends the same way
    if kinds == {(False, True)}:
        for _, _, info, reward in ended.values():
            assert info["truncation"] == "window_full" and reward == 0


def test_a_small_window_truncates_every_agent_at_a_round_boundary():
    """Size 12, two players: the window runs out of room (seed 0 does within a few
    rounds); every agent is truncated, no seat's placement is left pending, and the
    infos name the reason."""
    env = nmbr9_v0.env(players=2, size=12)
    env.reset(seed=0)
    rng = random.Random(0)
    while not any(env.truncations.values()):
        assert not any(env.terminations.values())
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = env.unwrapped.game_state
    assert all(env.truncations.values()) and not state.is_over
    assert all(p is None for p in state.placed)  # truncated between rounds
    assert any(enc.window_is_full(state, s, 12) for s in range(2))
    assert all(info == {"truncation": "window_full"} for info in env.infos.values())
    assert set(env.rewards.values()) == {0}


@PROPERTY
@given(size=SIZES, seed=SEEDS)
def test_the_solo_gymnasium_env_never_forces_the_illegal_action_penalty(size, seed):
    env = gymnasium.make("tabletop/Nmbr9Solo-v0", size=size)
    _, info = env.reset(seed=seed)
    rng = random.Random(seed)
    terminated = truncated = False
    while not (terminated or truncated):
        legal = np.flatnonzero(info["action_mask"])
        assert legal.size, f"a live episode with an empty mask (size {size}, seed {seed})"
        _, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert "illegal_action" not in info
    if truncated:
        assert not terminated and reward == 0.0
        assert info["truncation"] == "window_full"
        assert info["score"] == env.unwrapped.game_state.score(0)
        assert not info["action_mask"].any()


def test_the_solo_gymnasium_env_on_a_10_window_truncates_instead_of_the_penalty():
    """The issue's case: size 10 ran into the -100 penalty at step 7-8."""
    env = gymnasium.make("tabletop/Nmbr9Solo-v0", size=10)
    _, info = env.reset(seed=1)
    rng = random.Random(1)
    steps, truncated = 0, False
    while not truncated:
        _, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        steps += 1
        assert not terminated
    assert steps < 20 and info["truncation"] == "window_full" and reward == 0.0
