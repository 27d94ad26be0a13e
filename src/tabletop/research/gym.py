"""Gymnasium environments for the single-player games: Nova Luna solo and NMBR 9 solo.

``gymnasium.make("tabletop/NovaLunaSolo-v0")`` and ``gymnasium.make("tabletop/Nmbr9Solo-v0")``
work once ``tabletop.research`` is imported. The observation is the same vector
as the PettingZoo environments' ``"observation"`` (docs/research-gymnasium.md);
the legal actions are ``info["action_mask"]`` (``np.int8``) and
``env.action_masks()`` (what sb3-contrib's MaskablePPO asks for).

Rewards come at the end of the episode: Nova Luna solo gives minus the final
score (phase 1 + phase 2; lower scores are better, so the reward is higher);
NMBR 9 solo gives the points scored. Every other step gives 0.

An action the mask forbids ends the episode at once (``terminated=True``,
``info["illegal_action"] = True``) with the reward ``illegal_penalty``: by
default -1000 for Nova Luna (every finished game scores above -600) and -100
for NMBR 9 (every finished game scores 0 or more).

>>> env = NovaLunaSoloEnv()
>>> obs, info = env.reset(seed=3)
>>> obs.shape, info["action_mask"].dtype, bool((env.action_masks() == info["action_mask"]).all())
((533,), dtype('int8'), True)
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..games.nmbr9 import rules as n9
from ..games.novaluna import rules as nl
from . import nmbr9 as n9enc
from . import novaluna as nlenc

NOVALUNA_ILLEGAL_PENALTY = -1000.0
NMBR9_ILLEGAL_PENALTY = -100.0


class _SoloEnv(gymnasium.Env):
    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}

    def __init__(self, render_mode: str | None, illegal_penalty: float) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.illegal_penalty = float(illegal_penalty)
        self._mask = np.zeros(self.action_space.n, dtype=np.int8)
        self._rng = random.Random()
        self.state: Any = None

    def reset(
        self, *, seed: int | None = None, options: dict | None = None
    ) -> tuple[np.ndarray, dict]:
        """A new game, dealt from ``seed`` (or the env's own generator, seeded by the
        last seed given); ``options`` may fix the deal: Nova Luna ``{"pile": 68 tile
        ids in draw order}``, NMBR 9 ``{"deck": 20 digits in order}``."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self._new_game(self._rng.getrandbits(64), options or {})
        self._mask = self._legal_mask()
        if self.render_mode == "human":
            self.render()
        return self._observe(), {"action_mask": self._mask}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        action = int(action)
        if not (0 <= action < len(self._mask) and self._mask[action]):
            info = {"action_mask": np.zeros_like(self._mask), "illegal_action": True}
            self._mask = info["action_mask"]
            return self._observe(), self.illegal_penalty, True, False, info
        self._apply(action)
        over = self.state.is_over
        reward = self._final_reward() if over else 0.0
        self._mask = self._legal_mask()
        info: dict[str, Any] = {"action_mask": self._mask}
        if over:
            info["score"] = self._score()
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, over, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as ``np.int8`` (the name MaskablePPO looks for)."""
        return self._mask

    def render(self) -> str | None:
        text = self._text()
        if self.render_mode == "ansi":
            return text
        if self.render_mode == "human":
            print(text)
        return None


class NovaLunaSoloEnv(_SoloEnv):
    """Nova Luna solo (``tabletop/NovaLunaSolo-v0``); encodings as ``research.novaluna``."""

    def __init__(
        self, render_mode: str | None = None, illegal_penalty: float = NOVALUNA_ILLEGAL_PENALTY
    ) -> None:
        self.game = nl.Game(players=1)
        self.observation_space = spaces.Box(
            nlenc.LOW, nlenc.HIGH, (nlenc.observation_size(1),), dtype=np.int16
        )
        self.action_space = spaces.Discrete(nlenc.ACTIONS)
        self.encoder: nlenc.Encoder | None = None
        super().__init__(render_mode, illegal_penalty)

    def _new_game(self, seed: int, options: dict) -> None:
        self.state = self.game.new_state(seed, pile=options.get("pile"))
        self.encoder = nlenc.Encoder(self.state)

    def _legal_mask(self) -> np.ndarray:
        return self.encoder.mask()

    def _observe(self) -> np.ndarray:
        return self.encoder.observe(0)

    def _apply(self, action: int) -> None:
        self.encoder.apply(action)

    def _score(self) -> int:
        return self.state.result().total

    def _final_reward(self) -> float:
        return -float(self._score())

    def _text(self) -> str:
        return nlenc.render(self.state)


class Nmbr9SoloEnv(_SoloEnv):
    """NMBR 9 solo (``tabletop/Nmbr9Solo-v0``) on a ``size`` × ``size`` window."""

    def __init__(
        self,
        render_mode: str | None = None,
        illegal_penalty: float = NMBR9_ILLEGAL_PENALTY,
        *,
        remove: int | None = 0,
        size: int = n9enc.SIZE,
    ) -> None:
        self.game = n9.Game(players=1, remove=remove)
        self.size = size
        self.observation_space = spaces.Box(
            n9enc.LOW, n9enc.HIGH, (n9enc.observation_size(1, size),), dtype=np.int16
        )
        self.action_space = spaces.Discrete(n9enc.actions(size))
        super().__init__(render_mode, illegal_penalty)

    def _new_game(self, seed: int, options: dict) -> None:
        self.state = self.game.new_state(seed, deck=options.get("deck"))

    def _legal_mask(self) -> np.ndarray:
        return n9enc.legal_mask(self.state, 0, self.size)

    def _observe(self) -> np.ndarray:
        return n9enc.observe(self.state, 0, self.size)

    def _apply(self, action: int) -> None:
        self.state.apply(n9enc.decode(action, self.size), 0)

    def _score(self) -> int:
        return self.state.result().scores[0]

    def _final_reward(self) -> float:
        return float(self._score())

    def _text(self) -> str:
        return n9enc.render(self.state)
