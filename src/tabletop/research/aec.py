"""PettingZoo AEC environments, one class for every game with an encoding.

``TabletopEnv(game, players, ...)`` plays the registered game ``game`` through its
encoding (``research.encoding``); ``env(game, ...)`` wraps it as PettingZoo's
``env()`` does, and ``novaluna_v0``/``nmbr9_v0`` are those for the two games.
``NovaLunaEnv`` and ``Nmbr9Env`` are the environments under their former names.

Agents are ``"player_0"`` … ``"player_{n-1}"`` (seat numbers). Each observation
is ``{"observation": float32 vector, "action_mask": int8 vector}``, the observation
the encoding's scaled onto ``[0, 1]`` entry by entry (``setup.scaler``; its
``unscale`` gives the raw values back); the encodings are in each game's
``encoding`` module (docs/research-pettingzoo.md).

``agent_selection`` is the encoder's seat to act:

* Nova Luna: the seat whose marker is furthest back (the top of the rearmost
  stack), so one agent may act several times in a row.
* NMBR 9: every round the seats that have not placed act one after another in
  seat order; each placement stays pending (hidden from the other seats'
  observations) until the last seat has placed and the round resolves.

Rewards come only when the game ends (every agent gets its reward on the last
step): ``reward="zero_sum"`` (default) gives the rank reward
``1 - 2 * (rank - 1) / (players - 1)`` less its mean over the seats, summing to 0:
+1 for a win, -1 for a loss and 0 for a two-player draw; with one player (NMBR 9
solo) the score is used. ``reward="rank"`` is the rank reward itself — +1 for
first, -1 for last, evenly between — where a draw (a shared rank) pays both the
better rank: +1 each for a two-player draw, a general-sum game in which a draw
looks as good as a win. ``reward="score"`` gives Nova Luna's discs placed (solo:
minus the final score, lower being better there) and NMBR 9's points.

An NMBR 9 game on a small window (``size``) may run out of room: when a seat that
has still to place finds no placement inside the window, the round that begins
ends the episode **truncated** for every agent (``truncations`` all True, reward
0, ``infos[agent]["truncation"] == "window_full"``); no live agent ever has an
empty mask.

NMBR 9's rounds are simultaneous and every agent acts once per cycle, agents end
only at a cycle's end: ``metadata["is_parallelizable"]`` is True, so PettingZoo's
``aec_to_parallel`` converts it (``parallel.TabletopParallelEnv`` is the native
parallel environment).

An action the mask forbids raises ``IllegalActionError`` and changes nothing.

>>> env = NovaLunaEnv(players=2)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["action_mask"].dtype, int(obs["action_mask"].sum()), env.agent_selection
(dtype('int8'), 3, 'player_0')
>>> env = raw_env("nmbr9", players=3)
>>> env.reset(seed=1)
>>> env.agent_selection, env.metadata["name"]
('player_0', 'nmbr9_v0')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ..core.errors import IllegalActionError
from .encoding import (
    Dealer,
    Encoder,
    Setup,
    encoding,
    final_rewards,
    pettingzoo_name,
    rank_reward,
)

if TYPE_CHECKING:
    from ..core.game import State

REWARDS = ("rank", "zero_sum", "score")

#: What ``last()`` gives: the observation (None unless asked for), the reward, whether
#: the game ended and was truncated, and the agent's info (its ``action_mask``)
Last = tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # pettingzoo: no types
    """PettingZoo's ``OrderEnforcingWrapper`` whose ``last()`` and ``step()`` go to the
    environment directly: the inherited ones read their attributes through the
    wrapper's ``__getattr__``, a third of a fast environment's step time. Same checks,
    same results."""

    def last(self, observe: bool = True) -> Last:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        last: Last = self.env.last(observe)
        return last

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        env = self.env
        self._has_updated = True
        if not env.agents:
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            env.step(action)


def observation_space(setup: Setup) -> spaces.Dict:
    """An agent's observation space: the encoding's vector scaled onto ``[0, 1]``
    (``Setup.scaler``) and the action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, setup.observation_shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (setup.actions,), dtype=np.int8),
        }
    )


def state_space(setup: Setup, players: int) -> spaces.Box:
    """The global state's space: ``players`` observations end to end."""
    size = players * int(np.prod(setup.observation_shape))
    return spaces.Box(0.0, 1.0, (size,), dtype=np.float32)


def global_state(encoder: Encoder, scale: Callable[[Any], np.ndarray], players: int) -> np.ndarray:
    """Every seat's scaled observation, end to end (``TabletopEnv.state``)."""
    return np.concatenate([scale(encoder.observe(s)).ravel() for s in range(players)])


class TabletopEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no types
    """The registered game ``game`` for ``players`` seats (the encoding's default if
    None); ``options`` are the game's variant options (Nova Luna ``first_game``, NMBR 9
    ``remove`` and ``size``)."""

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi"],
        "render_fps": 4,
        "is_parallelizable": False,
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
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {REWARDS}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}")
        encoded = encoding(game)
        players = encoded.default_players if players is None else players
        self.setup = setup = encoded.setup(players, **options)
        self.metadata = {
            **self.metadata,
            "name": pettingzoo_name(game),
            "is_parallelizable": encoded.simultaneous,
        }
        self.game_name = game
        self.players = players
        self.reward_kind = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self._scale = setup.scaler
        self.observation_spaces = {a: observation_space(setup) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(setup.actions) for a in self.possible_agents}
        self.state_space = state_space(setup, players)
        self._dealer = Dealer()
        self.game_seed: int | None = None  # the seed of the game dealt, after reset()
        self.encoder: Encoder = None  # type: ignore[assignment]  # until reset()

    @property
    def game_state(self) -> State | None:
        """The rules' state of the game in progress."""
        return self.encoder.state

    def state(self) -> np.ndarray:
        """PettingZoo's global state, for centralised training (a critic that sees
        everything): every seat's observation in seat order, one flat ``float32``
        vector on ``[0, 1]`` (``state_space``). It shows each seat's pending NMBR 9
        placement too, so never hand it to an acting policy. The rules' state is
        ``game_state``."""
        return global_state(self.encoder, self._scale, self.players)

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: dealt from ``seed`` if given, else from the env's own generator
        (itself seeded by the last seed given), so runs repeat exactly. ``options`` may
        fix the deal instead: Nova Luna ``{"pile": 68 tile ids in draw order,
        "start_stack": seats bottom to top}``, NMBR 9 ``{"deck": 20 digits in order}``
        (duplicate play: every agent population meets the same deal)."""
        self.game_seed = self._dealer.next(seed)  # the seed selfplay deals from
        self.encoder = self.setup.deal(self.game_seed, options or {})
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        # a window a setup accepts holds every first tile: no game is truncated yet
        assert self.encoder.truncation is None
        self.agent_selection = self.possible_agents[self.encoder.acting()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What the seat sees, and its legal actions (NMBR 9: whenever it has still to
        place this round, whether or not it is ``agent_selection`` yet)."""
        seat = self._seat[agent]
        encoder = self.encoder
        return {
            "observation": self._scale(encoder.observe(seat)),
            "action_mask": encoder.mask(seat),
        }

    # Any: PettingZoo's action, an index (an int or a numpy integer), or None for an agent
    # that is done
    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        encoder = self.encoder
        encoder.apply(int(action), self._seat[agent])
        if encoder.is_over:
            final = final_rewards(encoder, self.players, self.reward_kind)
            for a in self.agents:
                self.rewards[a] = final[self._seat[a]]
                self.terminations[a] = True
            self._accumulate_rewards()
        elif encoder.truncation is not None:
            self._truncate(encoder.truncation)
        else:
            self.agent_selection = self.possible_agents[encoder.acting()]
        if self.render_mode == "human":
            self.render()

    def _truncate(self, reason: str) -> None:
        """The game cannot go on in the encoding: every agent is truncated (reward 0),
        its info naming the reason."""
        for a in self.agents:
            self.truncations[a] = True
            self.infos[a] = {"truncation": reason}

    def render(self) -> str | None:
        encoder = self.encoder
        return shown(
            encoder.render(None if encoder.is_over else encoder.acting()), self.render_mode
        )

    def close(self) -> None:
        pass


def shown(text: str, render_mode: str | None) -> str | None:
    """A rendering as ``render_mode`` asks: returned ("ansi"), printed ("human")."""
    if render_mode == "ansi":
        return text
    if render_mode == "human":
        print(text)
    return None


def raw_env(game: str, **kwargs: Any) -> TabletopEnv:
    """The bare environment of ``game`` (keyword arguments as ``TabletopEnv``)."""
    return TabletopEnv(game, **kwargs)


def env(game: str, **kwargs: Any) -> OrderEnforcingWrapper:
    """The environment with PettingZoo's order checks (``OrderEnforcingWrapper``, a
    faster ``last()`` on PettingZoo's own). The raw environment checks every action itself
    (``IllegalActionError``), so PettingZoo's ``AssertOutOfBoundsWrapper`` would only
    repeat that check."""
    return OrderEnforcingWrapper(raw_env(game, **kwargs))


class NovaLunaEnv(TabletopEnv):
    """Nova Luna for 2–4 players (``first_game``: the rulebook's smaller supplies);
    ``players=1`` plays the solo game (``tabletop/NovaLunaSolo-v0`` is the usual way)."""

    def __init__(self, players: int = 2, **kwargs: Any) -> None:
        super().__init__("nova-luna", players, **kwargs)


class Nmbr9Env(TabletopEnv):
    """NMBR 9 for 1–4 players on a ``size`` × ``size`` window (``remove``: cards taken
    out unseen, ``None`` for the rulebook's random 1–4)."""

    def __init__(self, players: int = 2, **kwargs: Any) -> None:
        super().__init__("nmbr9", players, **kwargs)


__all__ = [
    "IllegalActionError",
    "Nmbr9Env",
    "NovaLunaEnv",
    "OrderEnforcingWrapper",
    "TabletopEnv",
    "env",
    "raw_env",
    "rank_reward",
]
