"""The training environment: one learner seat against ``random`` (no torch needed)."""

from __future__ import annotations

import warnings

import numpy as np
from gymnasium.utils.env_checker import check_env

from tabletop.research.versus import NovaLunaVersusRandomEnv


def test_the_versus_env_passes_gymnasiums_checker():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(NovaLunaVersusRandomEnv(), skip_render_check=True)


def test_the_opponent_moves_until_the_learner_is_to_move_and_rewards_sum_to_the_outcome():
    env = NovaLunaVersusRandomEnv()
    rng = np.random.default_rng(0)
    for seat in (0, 1):
        obs, info = env.reset(seed=seat, options={"learner": seat})
        total, done = 0.0, False
        while not done:
            assert env.aec.game_state.current_seat == seat
            assert (env.action_masks() == env.aec.encoder.mask()).all()
            obs, reward, done, _, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
            total += reward
        state = env.aec.game_state
        lead = state.discs_placed(seat) - state.discs_placed(1 - seat)
        outcome = 1.0 if info["won"] else -1.0
        assert abs(total - (0.1 * lead + outcome)) < 1e-9
        assert not env.action_masks().any()


def test_an_illegal_action_ends_the_episode_with_the_penalty():
    env = NovaLunaVersusRandomEnv()
    _, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-2.0, True, True)
