"""PettingZoo parallel environments, for the games whose rounds are simultaneous (NMBR 9).

``TabletopParallelEnv(game, players, ...)`` plays the registered game ``game`` a round
per ``step``: every live agent gives its action at once, ``step(actions)`` checks them
all against the masks (``IllegalActionError``, or ``ValueError`` for a missing or
unknown agent, before anything changes), applies them and resolves the round. So no
agent can see another's action of the round before it resolves: an observation is
always taken between rounds. ``parallel_env(game, ...)`` makes one;
``nmbr9_v0.parallel_env`` is NMBR 9's. A game whose seats take turns (Nova Luna) is
refused (``ValueError``): play it with ``aec.env``.

Observations, masks, rewards, terminations, truncations and infos are the AEC
environment's (``aec.TabletopEnv``) at the end of each round: the same seed deals the
same game, the same actions give the same results, and a small NMBR 9 window that runs
out of room truncates every agent with ``infos[agent]["truncation"] ==
"window_full"``.

>>> env = parallel_env("nmbr9", players=2)
>>> observations, infos = env.reset(seed=1)
>>> sorted(observations), observations["player_1"]["action_mask"].dtype
(['player_0', 'player_1'], dtype('int8'))
>>> actions = {a: int(o["action_mask"].nonzero()[0][0]) for a, o in observations.items()}
>>> observations, rewards, terminations, truncations, infos = env.step(actions)
>>> env.game_state.round, rewards
(1, {'player_0': 0.0, 'player_1': 0.0})
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from ..core.errors import IllegalActionError
from .aec import REWARDS, TabletopEnv, global_state, observation_space, shown, state_space
from .encoding import Dealer, Encoder, encoding, final_rewards, pettingzoo_name

if TYPE_CHECKING:
    from ..core.game import State


class TabletopParallelEnv(ParallelEnv):  # type: ignore[misc]  # pettingzoo ships no types
    """The registered game ``game`` (simultaneous rounds) for ``players`` seats (the
    encoding's default if None); ``reward``, ``render_mode`` and the game's options
    (NMBR 9 ``remove`` and ``size``) as ``aec.TabletopEnv``'s."""

    metadata: dict[str, Any] = {
        "render_modes": TabletopEnv.metadata["render_modes"],
        "render_fps": TabletopEnv.metadata["render_fps"],
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        *,
        reward: str = "zero_sum",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {REWARDS}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}")
        encoded = encoding(game)
        if not encoded.simultaneous:
            raise ValueError(
                f"the seats of {game!r} take turns, its rounds are not simultaneous: "
                "play it with the AEC environment (tabletop.research.aec.env)"
            )
        players = encoded.default_players if players is None else players
        self.setup = setup = encoded.setup(players, **options)
        self.metadata = {**self.metadata, "name": pettingzoo_name(game)}
        self.game_name = game
        self.players = players
        self.reward_kind = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents: list[str] = []
        self._scale = setup.scaler
        self._spaces = {a: observation_space(setup) for a in self.possible_agents}
        self._actions = {a: spaces.Discrete(setup.actions) for a in self.possible_agents}
        self.state_space = state_space(setup, players)
        self._dealer = Dealer()
        self.game_seed: int | None = None  # the seed of the game dealt, after reset()
        self.encoder: Encoder = None  # type: ignore[assignment]  # until reset()

    @property
    def game_state(self) -> State | None:  # as TabletopEnv's
        """The rules' state of the game in progress."""
        return self.encoder.state

    def state(self) -> np.ndarray:
        """The global state, as ``TabletopEnv.state``'s (for centralised training)."""
        return global_state(self.encoder, self._scale, self.players)

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._actions[agent]

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """A new game, dealt as ``TabletopEnv.reset`` deals it (the same seed, the same
        game); ``options`` may fix the deal (NMBR 9 ``{"deck": 20 digits}``)."""
        self.game_seed = self._dealer.next(seed)  # the seed selfplay deals from
        self.encoder = self.setup.deal(self.game_seed, options or {})
        self.agents = self.possible_agents[:]
        # a window a setup accepts holds every first tile: no game is truncated yet
        assert self.encoder.truncation is None
        return {a: self._observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        encoder = self.encoder
        return {
            "observation": self._scale(encoder.observe(seat)),
            "action_mask": encoder.mask(seat),
        }

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, dict[str, np.ndarray]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """One round: ``actions`` holds an action index for every live agent (and no
        other). All are checked before any is applied."""
        if not self.agents:
            raise ValueError("the game has ended: reset() starts a new one")
        unknown = sorted(set(actions) - set(self.agents))
        missing = [a for a in self.agents if a not in actions]
        if unknown or missing:
            raise ValueError(
                f"a round needs one action from every live agent: missing {missing}, "
                f"not live {unknown}"
            )
        encoder = self.encoder
        seats = [self.possible_agents.index(a) for a in self.agents]
        chosen = {}
        for agent, seat in zip(self.agents, seats, strict=True):
            action = int(actions[agent])
            if not 0 <= action < self.setup.actions or not encoder.mask(seat)[action]:
                raise IllegalActionError(f"{agent}: action {action} is not legal now")
            chosen[seat] = action
        for seat in sorted(chosen):
            assert encoder.acting() == seat, "every seat acts once a round, in seat order"
            encoder.apply(chosen[seat], seat)
        agents = self.agents
        observations = {a: self._observe(a) for a in agents}
        rewards = dict.fromkeys(agents, 0.0)
        terminations = dict.fromkeys(agents, encoder.is_over)
        truncation = None if encoder.is_over else encoder.truncation
        truncations = dict.fromkeys(agents, truncation is not None)
        infos: dict[str, dict[str, Any]] = {
            a: {} if truncation is None else {"truncation": truncation} for a in agents
        }
        if encoder.is_over:
            final = final_rewards(encoder, self.players, self.reward_kind)
            rewards = {a: final[self.possible_agents.index(a)] for a in agents}
        if encoder.is_over or truncation is not None:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        # between rounds nothing is pending: every seat's view is the whole position
        return shown(self.encoder.render(None), self.render_mode)

    def close(self) -> None:
        pass


def parallel_env(game: str, **kwargs: Any) -> TabletopParallelEnv:
    """The parallel environment of ``game`` (keyword arguments as
    ``TabletopParallelEnv``)."""
    return TabletopParallelEnv(game, **kwargs)


__all__ = ["TabletopParallelEnv", "parallel_env"]
