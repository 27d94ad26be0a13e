"""OpenSpiel's own DQN (``open_spiel.python.pytorch.dqn``, through ``rl_environment``)
trains on both games with finite losses. Issue 31: fed the raw history (action indices
up to 23,763) in Nova Luna's information state, its loss went 1.7e6, inf, NaN in the
first game and the agent then returned no action.

Needs torch (the extra ``rl``) and dm-tree (OpenSpiel's DQN imports it): without them
the test is skipped, saying so."""

from __future__ import annotations

import math

import pytest

pyspiel = pytest.importorskip("pyspiel")
from tabletop.research import openspiel  # noqa: E402 - after the skip

STEPS = 400  # agent steps per game, every seat's together


@pytest.fixture
def libraries():
    """OpenSpiel's ``rl_environment`` and torch ``dqn`` modules, imported when
    the test runs, not when it is collected: torch takes seconds to import, and every
    worker of a parallel run collects this module while one runs it. Networks this small
    run faster on one thread than on several (measured: NMBR 9's run 0.8-1.0 s against
    3.5-5.4 s on two busy cores); other tests keep torch's default."""
    torch = pytest.importorskip("torch", reason="OpenSpiel's DQN needs torch (pip install '.[rl]')")
    pytest.importorskip("tree", reason="OpenSpiel's DQN needs dm-tree (pip install dm-tree)")
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import dqn

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield rl_environment, dqn
    torch.set_num_threads(threads)


@pytest.mark.parametrize("name", [openspiel.NOVA_LUNA, openspiel.NMBR9])
def test_openspiel_dqn_trains_with_finite_losses(name, libraries):
    rl_environment, dqn = libraries
    env = rl_environment.Environment(pyspiel.load_game(name, {"players": 2}))
    env.seed(0)
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = [
        dqn.DQN(
            seat,
            state_representation_size=size,
            num_actions=actions,
            hidden_layers_sizes=[32],
            replay_buffer_capacity=1000,
            batch_size=16,
            learn_every=4,
            min_buffer_size_to_learn=32,
            update_target_network_every=50,
            seed=seat,
        )
        for seat in range(2)
    ]
    losses: list[float] = []
    steps = games = 0
    time_step = env.reset()
    while steps < STEPS or not time_step.last():
        if time_step.last():
            for agent in agents:
                agent.step(time_step)
            games += 1
            time_step = env.reset()
            continue
        seat = time_step.observations["current_player"]
        output = agents[seat].step(time_step)
        loss = agents[seat].loss
        if loss is not None:
            losses.append(float(loss))
        assert output is not None, f"the DQN gave up after losses {losses[-5:]}"
        time_step = env.step([output.action])
        steps += 1
    assert len(losses) >= 50, f"only {len(losses)} learning steps in {steps} moves"
    assert all(math.isfinite(loss) for loss in losses), losses
    assert max(losses) < 100, f"the largest loss was {max(losses)}"  # rewards are ±1
    assert games >= 1
