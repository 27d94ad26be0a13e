"""PettingZoo AEC environments for Nova Luna (2–4 players) and NMBR 9 (1–4 players).

Agents are ``"player_0"`` … ``"player_{n-1}"`` (seat numbers). Each observation
is ``{"observation": int16 vector, "action_mask": int8 vector}``; the encodings
are in ``research.novaluna`` and ``research.nmbr9`` (docs/research-pettingzoo.md).

* Nova Luna: ``agent_selection`` is the seat whose marker is furthest back
  (the top of the rearmost stack), so one agent may act several times in a row.
* NMBR 9: every round the seats that have not placed act one after another in
  seat order; each placement stays pending (hidden from the other seats'
  observations) until the last seat has placed and the round resolves.

Rewards come only when the game ends (every agent gets its reward on the last
step): ``reward="rank"`` (default) gives ``1 - 2 * (rank - 1) / (players - 1)``
— +1 for first, -1 for last, evenly between; with one player (NMBR 9 solo)
the score is used. ``reward="score"`` gives Nova Luna's discs placed (solo:
minus the final score, lower being better there) and NMBR 9's points.

An action the mask forbids raises ``IllegalActionError`` and changes nothing.

>>> env = NovaLunaEnv(players=2)
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["action_mask"].dtype, int(obs["action_mask"].sum()), env.agent_selection
(dtype('int8'), 3, 'player_1')
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ..core.errors import IllegalActionError
from ..games.nmbr9 import rules as n9
from ..games.novaluna import rules as nl
from . import nmbr9 as n9enc
from . import novaluna as nlenc

REWARDS = ("rank", "score")


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` whose ``last()`` and ``step()`` go to the
    environment directly: the inherited ones read their attributes through the
    wrapper's ``__getattr__``, a third of a fast environment's step time. Same checks,
    same results."""

    def last(self, observe: bool = True) -> tuple:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        env = self.env
        self._has_updated = True
        if not env.agents:
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            env.step(action)


def rank_reward(rank: int, players: int) -> float:
    """``+1`` for rank 1, ``-1`` for the last rank, evenly between.

    >>> [rank_reward(r, 3) for r in (1, 2, 3)]
    [1.0, 0.0, -1.0]
    """
    return 1.0 - 2.0 * (rank - 1) / (players - 1)


class _TabletopAEC(AECEnv):
    """What both games share: agents, resets, seeds, the end-of-game rewards."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4, "is_parallelizable": False}

    def __init__(self, players: int, reward: str, render_mode: str | None) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {REWARDS}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}")
        self.players = players
        self.reward_kind = reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        self._low, self._high, (self._obs_size,), dtype=np.int16
                    ),
                    "action_mask": spaces.Box(0, 1, (self._actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self._actions) for a in self.possible_agents}
        self._rng = random.Random()
        self.state: Any = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game: dealt from ``seed`` if given, else from the env's own generator
        (itself seeded by the last seed given), so runs repeat exactly. ``options`` may
        fix the deal instead: Nova Luna ``{"pile": 68 tile ids in draw order,
        "start_stack": seats bottom to top}``, NMBR 9 ``{"deck": 20 digits in order}``
        (duplicate play: every agent population meets the same deal)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self._new_game(self._rng.getrandbits(64), options or {})
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._to_act()]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._apply(self._seat[agent], int(action))
        if self.state.is_over:
            final = self._final_rewards()
            for a in self.agents:
                self.rewards[a] = final[self._seat[a]]
                self.terminations[a] = True
            self._accumulate_rewards()
        else:
            self.agent_selection = self.possible_agents[self._to_act()]
        if self.render_mode == "human":
            self.render()

    def _final_rewards(self) -> list[float]:
        if self.reward_kind == "rank" and self.players > 1:
            return [rank_reward(r, self.players) for r in self._ranks()]
        return [float(s) for s in self._scores()]

    def render(self) -> str | None:
        text = self._text()
        if self.render_mode == "ansi":
            return text
        if self.render_mode == "human":
            print(text)
        return None

    def close(self) -> None:
        pass


class NovaLunaEnv(_TabletopAEC):
    """Nova Luna for 2–4 players (``first_game``: the rulebook's smaller supplies).

    ``players=1`` plays the solo game through the same interface (the Gymnasium
    environment ``tabletop/NovaLunaSolo-v0`` is the usual way to play it)."""

    metadata = {**_TabletopAEC.metadata, "name": "novaluna_v0"}
    _low, _high = nlenc.LOW, nlenc.HIGH
    _actions = nlenc.ACTIONS

    def __init__(
        self,
        players: int = 2,
        *,
        first_game: bool = False,
        reward: str = "rank",
        render_mode: str | None = None,
    ) -> None:
        self.game = nl.Game(players=players, first_game=first_game)
        self._obs_size = nlenc.observation_size(players)
        self.encoder: nlenc.Encoder | None = None
        super().__init__(players, reward, render_mode)

    def _new_game(self, seed: int, options: dict) -> None:
        self.state = self.game.new_state(
            seed, pile=options.get("pile"), start_stack=options.get("start_stack")
        )
        self.encoder = nlenc.Encoder(self.state)

    def _to_act(self) -> int:
        return self.state.current_seat

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        enc = self.encoder
        if seat == self.state.current_seat and not self.state.is_over:
            mask = enc.mask()
        else:
            mask = np.zeros(nlenc.ACTIONS, dtype=np.int8)
        return {"observation": enc.observe(seat), "action_mask": mask}

    def _apply(self, seat: int, action: int) -> None:
        try:
            self.encoder.apply(action)
        except nl.IllegalActionError as e:
            raise IllegalActionError(f"action {action}: {e}") from None

    def _ranks(self) -> list[int]:
        ranking = self.state.result().ranking
        return [ranking.index(s) + 1 for s in range(self.players)]

    def _scores(self) -> list[float]:
        result = self.state.result()
        if isinstance(result, nl.SoloResult):
            return [-float(result.total)]
        return [float(self.state.discs_placed(s)) for s in range(self.players)]

    def _text(self) -> str:
        return nlenc.render(self.state)


class Nmbr9Env(_TabletopAEC):
    """NMBR 9 for 1–4 players on a ``size`` × ``size`` window (``remove``: cards taken
    out unseen, ``None`` for the rulebook's random 1–4)."""

    metadata = {**_TabletopAEC.metadata, "name": "nmbr9_v0"}
    _low, _high = n9enc.LOW, n9enc.HIGH

    def __init__(
        self,
        players: int = 2,
        *,
        remove: int | None = 0,
        size: int = n9enc.SIZE,
        reward: str = "rank",
        render_mode: str | None = None,
    ) -> None:
        self.game = n9.Game(players=players, remove=remove)
        self.size = size
        self._actions = n9enc.actions(size)
        self._obs_size = n9enc.observation_size(players, size)
        super().__init__(players, reward, render_mode)

    def _new_game(self, seed: int, options: dict) -> None:
        self.state = self.game.new_state(seed, deck=options.get("deck"))
        self._masks: dict[int, tuple[int, np.ndarray]] = {}  # seat -> (placements, mask)
        self._placements = 0

    def _mask(self, seat: int) -> np.ndarray:
        """The seat's mask, computed once per placement made (observe, then step)."""
        cached = self._masks.get(seat)
        if cached is None or cached[0] != self._placements:
            cached = self._placements, n9enc.legal_mask(self.state, seat, self.size)
            self._masks[seat] = cached
        return cached[1]

    def _to_act(self) -> int:
        return self.state.acting_seats()[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What the seat sees, and its legal placements if it has still to place this
        round (whether or not it is ``agent_selection`` yet: the round is simultaneous)."""
        seat = self._seat[agent]
        return {
            "observation": n9enc.observe(self.state, seat, self.size),
            "action_mask": self._mask(seat).copy(),
        }

    def _apply(self, seat: int, action: int) -> None:
        state = self.state
        if not 0 <= action < self._actions:
            raise IllegalActionError(f"action {action} is outside 0..{self._actions - 1}")
        if not self._mask(seat)[action]:
            place = n9enc.decode(action, self.size)
            raise IllegalActionError(
                f"action {action} ({place} for the {state.card}) is not a legal placement "
                "in the window"
            )
        state.apply(n9enc.decode(action, self.size), seat)
        self._placements += 1

    def _ranks(self) -> list[int]:
        return list(self.state.result().ranks)

    def _scores(self) -> list[float]:
        return [float(s) for s in self.state.result().scores]

    def _text(self) -> str:
        seat = None if self.state.is_over else self._to_act()
        return n9enc.render(self.state, seat)
