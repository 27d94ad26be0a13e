"""Every tensor a network is given lies on [0, 1] (issue 31: OpenSpiel's DQN, fed raw
action indices up to 23,763 in the information state, diverged to NaN in its first
game): the PettingZoo and Gymnasium observations and OpenSpiel's observation and
information-state tensors, over random play of every game with an encoding."""

from __future__ import annotations

import random

import gymnasium
import numpy as np
import pytest

from tabletop.research import aec
from tabletop.research.encoding import encoding, gym_id, solo_games, spiel_name

from research_support import research_games, seats

GAMES = research_games()
SEEDS = range(12)
CASES = [(game, players) for game in GAMES for players in sorted(set(seats(game)) | {2})]


def assert_unit(tensor, what: str) -> None:
    values = np.asarray(tensor)
    assert values.dtype == np.float32, f"{what}: {values.dtype}"
    assert np.isfinite(values).all(), what
    low, high = float(values.min()), float(values.max())
    assert low >= 0.0 and high <= 1.0, f"{what}: values from {low} to {high}"


@pytest.mark.parametrize(("game", "players"), CASES)
def test_pettingzoo_observations_lie_on_the_unit_interval(game, players):
    env = aec.env(game, players=players)
    space = env.observation_space(env.possible_agents[0])["observation"]
    assert (space.low == 0).all() and (space.high == 1).all() and space.dtype == np.float32
    for seed in SEEDS:
        env.reset(seed=seed)
        rng = random.Random(seed)
        while env.agents:
            for agent in env.agents:
                obs = env.observe(agent)
                assert_unit(obs["observation"], f"{game} {players}p seed {seed} {agent}")
                assert space.contains(obs["observation"])
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


@pytest.mark.parametrize("game", solo_games())
def test_gymnasium_observations_lie_on_the_unit_interval(game):
    env = gymnasium.make(gym_id(game))
    for seed in SEEDS:
        obs, info = env.reset(seed=seed)
        rng = random.Random(seed)
        over = False
        while not over:
            assert_unit(obs, f"{game} solo seed {seed}")
            assert env.observation_space.contains(obs)
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            obs, _, over, _, info = env.step(action)
        assert_unit(obs, f"{game} solo seed {seed}, over")


@pytest.mark.parametrize(("game", "players"), CASES)
def test_openspiel_tensors_lie_on_the_unit_interval(game, players):
    pyspiel = pytest.importorskip("pyspiel")
    from tabletop.research import openspiel

    openspiel.register()
    spiel = pyspiel.load_game(spiel_name(game), {"players": players})
    for seed in SEEDS:
        rng = random.Random(seed)
        state = spiel.new_initial_state()
        while True:
            for seat in range(players):
                what = f"{game} {players}p seed {seed} seat {seat}, history {len(state.history())}"
                assert_unit(np.array(state.observation_tensor(seat), np.float32), what)
                assert_unit(np.array(state.information_state_tensor(seat), np.float32), what)
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game", GAMES)
def test_the_scaler_gives_the_raw_observation_back(game):
    setup = encoding(game).setup(2)
    encoder = setup.deal(7, {})
    rng = random.Random(7)
    for _ in range(12):
        if encoder.is_over:
            break
        seat = encoder.acting()
        raw = encoder.observe(seat)
        assert (setup.scaler.unscale(setup.scaler(raw)) == raw).all()
        encoder.apply(rng.choice(encoder.legal_actions(seat)), seat)
