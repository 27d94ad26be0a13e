"""NMBR 9's PettingZoo parallel API: the native parallel environment passes PettingZoo's
parallel checkers, plays exactly as the AEC environment, converts both ways, and keeps a
round's placements secret until the round resolves."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test
from pettingzoo.test.seed_test import data_equivalence
from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec

from tabletop.core.errors import IllegalActionError
from tabletop.research import nmbr9 as enc
from tabletop.research import nmbr9_v0, novaluna_v0
from tabletop.research.parallel import TabletopParallelEnv, parallel_env

#: api_test's warnings of every observation that is a dict with an action mask (as in
#: test_checkers); any other warning fails.
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def raw(observation: np.ndarray, players: int) -> np.ndarray:
    """The integers of a scaled observation (every observation is scaled onto [0, 1])."""
    return enc.ENCODING.setup(players).scaler.unscale(observation)


def caught_warnings(check, *args, **kwargs) -> set[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check(*args, **kwargs)
    return {str(w.message) for w in caught if not issubclass(w.category, ResourceWarning)}


def random_actions(observations: dict, rng: random.Random) -> dict[str, int]:
    return {
        agent: int(rng.choice(np.flatnonzero(obs["action_mask"])))
        for agent, obs in sorted(observations.items())
    }


@pytest.mark.parametrize("players", [1, 2, 4])
def test_the_parallel_env_passes_pettingzoos_parallel_api_test(players):
    env = nmbr9_v0.parallel_env(players=players)
    assert isinstance(env, TabletopParallelEnv)
    assert not caught_warnings(parallel_api_test, env, num_cycles=25)


def test_a_small_window_passes_the_parallel_api_test_through_truncation():
    assert not caught_warnings(parallel_api_test, nmbr9_v0.parallel_env(players=3, size=9))


@pytest.mark.parametrize("players", [1, 3])
def test_the_same_seed_plays_the_same_parallel_game(players):
    """What PettingZoo's ``parallel_seed_test`` checks, with actions drawn from the masks:
    that checker samples actions without the mask, which a placement game refuses
    (almost every index is illegal), so it cannot run on NMBR 9."""

    def play(env: TabletopParallelEnv, seed: int) -> list:
        observations, infos = env.reset(seed=seed)
        rng, steps = random.Random(seed), [(observations, infos)]
        while env.agents:
            steps.append(env.step(random_actions(observations, rng)))
            observations = steps[-1][0]
        return steps

    envs = [nmbr9_v0.parallel_env(players=players, remove=12) for _ in range(2)]
    first, second = play(envs[0], 42), play(envs[1], 42)
    again = play(envs[0], 42)
    assert len(first) == 9  # reset and 8 rounds
    for a, b, c in zip(first, second, again, strict=True):
        assert data_equivalence(a, b) and data_equivalence(a, c)
    assert not data_equivalence(first, play(envs[1], 43))


def test_pettingzoos_parallel_seed_test_samples_unmasked_actions_which_are_refused():
    with pytest.raises(IllegalActionError):
        parallel_seed_test(lambda: nmbr9_v0.parallel_env(players=2), num_cycles=5)


def test_the_aec_env_is_parallelizable_and_nova_lunas_is_not():
    assert nmbr9_v0.env(players=2).unwrapped.metadata["is_parallelizable"] is True
    assert novaluna_v0.env(players=2).unwrapped.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(novaluna_v0.env(players=2))
    with pytest.raises(ValueError, match="take turns"):
        parallel_env("nova-luna", players=2)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_pettingzoos_aec_to_parallel_of_the_aec_env_passes_the_parallel_api_test(players):
    assert not caught_warnings(parallel_api_test, aec_to_parallel(nmbr9_v0.env(players=players)))


def test_parallel_to_aec_of_the_parallel_env_passes_the_api_test():
    aec = parallel_to_aec(nmbr9_v0.parallel_env(players=3))
    assert caught_warnings(api_test, aec, num_cycles=25) <= DICT_OBSERVATION_WARNINGS


def test_the_conversions_round_trip_to_the_same_environment():
    aec = nmbr9_v0.env(players=2)
    assert parallel_to_aec(aec_to_parallel(aec)) is aec
    par = nmbr9_v0.parallel_env(players=2)
    assert aec_to_parallel(parallel_to_aec(par)) is par


def same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for agent in a:
        for key in ("observation", "action_mask"):
            assert np.array_equal(a[agent][key], b[agent][key]), (agent, key)


@pytest.mark.parametrize(("players", "size", "reward"), [(2, 40, "rank"), (3, 10, "score")])
def test_the_parallel_env_plays_exactly_as_the_aec_env(players, size, reward):
    """Same seed, same actions: at every round's end the same observations, masks,
    rewards, terminations, truncations and infos (size 10 ends truncated)."""
    par = nmbr9_v0.parallel_env(players=players, size=size, reward=reward)
    aec = nmbr9_v0.raw_env(players=players, size=size, reward=reward)
    observations, _ = par.reset(seed=11)
    aec.reset(seed=11)
    rng = random.Random(11)
    while par.agents:
        same(observations, {a: aec.observe(a) for a in aec.agents})
        actions = random_actions(observations, rng)
        observations, rewards, terminations, truncations, infos = par.step(actions)
        for agent in aec.possible_agents:
            assert aec.agent_selection == agent
            aec.step(actions[agent])
        same(observations, {a: aec.observe(a) for a in aec.agents})
        assert rewards == aec.rewards
        assert terminations == aec.terminations and truncations == aec.truncations
        assert infos == aec.infos
    assert any(truncations.values()) == (size == 10)
    assert par.agents == [] and (par.game_state.is_over or all(truncations.values()))


def test_a_round_needs_every_agents_action_and_nothing_changes_before_it_has_them():
    """No agent can play first and look: a partial round, or one with an illegal action,
    is refused before any placement is made."""
    env = nmbr9_v0.parallel_env(players=2)
    observations, _ = env.reset(seed=5)
    rng = random.Random(5)
    actions = random_actions(observations, rng)
    with pytest.raises(ValueError, match="missing"):
        env.step({"player_0": actions["player_0"]})
    illegal = int(np.flatnonzero(observations["player_1"]["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step({"player_0": actions["player_0"], "player_1": illegal})
    with pytest.raises(ValueError, match="not live"):
        env.step({**actions, "player_7": 0})
    assert [len(b.tiles) for b in env.game_state.boards] == [0, 0]
    assert all(p is None for p in env.game_state.placed) and env.game_state.round == 0
    env.step(actions)
    assert [len(b.tiles) for b in env.game_state.boards] == [1, 1]


def test_no_observation_shows_another_agents_placement_of_the_round_before_it_resolves():
    """Through PettingZoo's parallel_to_aec (agents stepping one by one), each agent's
    observation while the round is open is what the last resolved round showed: the
    placements of agents that acted before it stay unseen. After the round resolves,
    every agent sees every board."""
    aec = parallel_to_aec(nmbr9_v0.parallel_env(players=3))
    aec.reset(seed=9)
    rng = random.Random(9)
    for _ in range(4):  # rounds
        before = {a: aec.observe(a) for a in aec.possible_agents}
        for agent in aec.possible_agents:
            assert aec.agent_selection == agent
            for other in aec.possible_agents:
                same({other: aec.observe(other)}, {other: before[other]})
            aec.step(int(rng.choice(np.flatnonzero(before[agent]["action_mask"]))))
        resolved = {
            a: enc.split(raw(aec.observe(a)["observation"], 3), 3) for a in aec.possible_agents
        }
        for k, agent in enumerate(aec.possible_agents):
            # seat k's own board (first in its rotation) is what every other seat shows
            for j, other in enumerate(aec.possible_agents):
                rotated = (k - j) % 3
                assert np.array_equal(
                    resolved[agent]["boards"][0], resolved[other]["boards"][rotated]
                )


def test_the_parallel_observations_hold_no_pending_placement_and_the_round_is_whole():
    """Every observation a parallel step returns is taken between rounds: the round
    counter has moved on, no seat is marked as having placed, and each seat's board in
    another's observation is its board in its own."""
    env = nmbr9_v0.parallel_env(players=2)
    observations, _ = env.reset(seed=4)
    rng = random.Random(4)
    for round_ in range(1, 6):
        observations, *_ = env.step(random_actions(observations, rng))
        parts = {a: enc.split(raw(o["observation"], 2), 2) for a, o in observations.items()}
        for part in parts.values():
            assert part["header"][1] == round_ and part["header"][4] == 1  # still to place
        assert np.array_equal(parts["player_0"]["boards"][1], parts["player_1"]["boards"][0])
        assert np.array_equal(parts["player_1"]["boards"][1], parts["player_0"]["boards"][0])
