"""Nova Luna for two as a single-agent Gymnasium environment: one learner against ``random``.

``NovaLunaVersusRandomEnv`` wraps the PettingZoo environment (``research.aec.NovaLunaEnv``,
two players): the learner takes one seat (drawn at each reset, so it learns to move
first and second), the other seat plays the ``random`` policy (uniform over its mask,
as ``novaluna selfplay --bots random``), and ``step`` returns once the learner is to
move again or the game is over. It is what ``examples/train_maskable_ppo.py`` trains.

**Observation**: the PettingZoo observation of the learner's seat, ``float32`` scaled
onto ``[0, 1]`` entry by entry (``SCALER``; ``SCALER.unscale`` gives the raw values
back). Until issue 31 it was the raw observation divided by 32 (inputs from -2 to
9.4), which the documented MaskablePPO runs were trained on. The mask is
``info["action_mask"]`` and ``action_masks()`` (sb3-contrib's MaskablePPO).

**Reward**: ``disc_reward`` (default 0.1) for each disc the learner places and minus
as much for each disc the opponent places during the step (the game is a race to place
all 21 discs: a dense signal for the lead), plus at the end the rank reward: +1 for a
win, -1 for a loss. An action the mask forbids ends the episode with
``illegal_penalty`` (-2).

>>> env = NovaLunaVersusRandomEnv()
>>> obs, info = env.reset(seed=1)
>>> obs.dtype, obs.shape, bool(env.action_masks()[info["action_mask"] == 1].all())
(dtype('float32'), (944,), True)
"""

from __future__ import annotations

import random
from typing import Any, SupportsInt

import gymnasium
import numpy as np
from gymnasium import spaces

from ..games.novaluna import encoding as nlenc
from .aec import NovaLunaEnv

#: The two-player observation's bounds (``research.encoding.Scaler``).
SCALER = nlenc.ENCODING.setup(2).scaler


class NovaLunaVersusRandomEnv(gymnasium.Env):
    """Two-player Nova Luna, the learner against the ``random`` policy (see the module)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        disc_reward: float = 0.1,
        illegal_penalty: float = -2.0,
        render_mode: str | None = None,
    ) -> None:
        self.aec = NovaLunaEnv(players=2)
        self.disc_reward = float(disc_reward)
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        size = nlenc.observation_size(2)
        self.observation_space = spaces.Box(0.0, 1.0, (size,), dtype=np.float32)
        self.action_space = spaces.Discrete(nlenc.ACTIONS)
        self.learner = 0
        self._rng = random.Random()
        self._mask = np.zeros(nlenc.ACTIONS, dtype=np.int8)

    @property
    def agent(self) -> str:
        """The learner's PettingZoo agent name."""
        return self.aec.possible_agents[self.learner]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; ``options`` may fix ``{"learner": seat}`` and the AEC's deal options."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        options = dict(options or {})
        self.learner = options.pop("learner", self._rng.randrange(2))
        self.aec.reset(seed=self._rng.getrandbits(64), options=options)
        self._play_opponent()
        return self._observe(), {"action_mask": self._mask}

    def step(self, action: SupportsInt) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        index = int(action)
        if not (0 <= index < len(self._mask) and self._mask[index]):
            self._mask = np.zeros_like(self._mask)
            info: dict[str, Any] = {"action_mask": self._mask, "illegal_action": True}
            return self._observe(), self.illegal_penalty, True, False, info
        before = self._disc_lead()
        self.aec.step(index)
        self._play_opponent()
        reward = self.disc_reward * (self._disc_lead() - before)
        over = self.aec.encoder.is_over
        info = {"action_mask": self._mask}
        if over:
            reward += self.aec.rewards[self.agent]
            info["won"] = self.aec.rewards[self.agent] > 0
        return self._observe(), reward, over, False, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions (``np.int8``; all 0 once the game is over)."""
        return self._mask

    def render(self) -> str | None:
        return self.aec.render() if self.render_mode == "ansi" else None

    def _play_opponent(self) -> None:
        """The ``random`` policy moves until the learner is to move or the game ends."""
        enc = self.aec.encoder  # asked, not its rules' state: the compiled one replays it
        while not enc.is_over and (seat := enc.acting()) != self.learner:
            self.aec.step(self._rng.choice(np.flatnonzero(enc.mask(seat)).tolist()))
        self._mask = enc.mask(self.learner)

    def _disc_lead(self) -> int:
        """Discs the learner has placed minus those the opponent has (the learner's
        observation: its seat first, each seat's discs placed second)."""
        seats = nlenc.split(self.aec.encoder.observe(self.learner), 2)["seats"]
        return int(seats[0, 1]) - int(seats[1, 1])

    def _observe(self) -> np.ndarray:
        obs = self.aec.encoder.observe(self.learner)
        return SCALER(obs)
