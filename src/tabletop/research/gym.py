"""Gymnasium environments for the single-player games, one class for every game with
an encoding and a solo mode.

``SoloEnv(game)`` plays the registered game ``game`` alone; importing
``tabletop.research`` registers ``tabletop/<Name>Solo-v0`` for every such game
(``gymnasium.make("tabletop/NovaLunaSolo-v0")``, ``"tabletop/Nmbr9Solo-v0"``), and
``register()`` registers games added to the registry later. The observation is the
same vector as the PettingZoo environments' ``"observation"``
(docs/research-gymnasium.md), ``float32`` scaled onto ``[0, 1]`` entry by entry
(``Setup.scaler``; ``env.unwrapped.setup.scaler.unscale(obs)`` gives the raw
values back); the legal actions are ``info["action_mask"]``
(``np.int8``) and ``env.action_masks()`` (what sb3-contrib's MaskablePPO asks for).

Rewards come at the end of the episode: Nova Luna solo gives minus the final
score (phase 1 + phase 2; lower scores are better, so the reward is higher);
NMBR 9 solo gives the points scored. Every other step gives 0.

An NMBR 9 game on a small window (``size``) may run out of room for the next card:
the episode then ends **truncated** (``truncated=True``, reward 0,
``info["truncation"] == "window_full"``, ``info["score"]`` the points so far, an
all-zero mask), never with an empty mask to act on.

An action the mask forbids ends the episode at once (``terminated=True``,
``info["illegal_action"] = True``) with the reward ``illegal_penalty``: by
default the encoding's, -1000 for Nova Luna (every finished game scores above
-600) and -100 for NMBR 9 (every finished game scores 0 or more).

>>> env = NovaLunaSoloEnv()
>>> obs, info = env.reset(seed=3)
>>> obs.shape, obs.dtype, float(obs.min()) >= 0, float(obs.max()) <= 1
((533,), dtype('float32'), True, True)
>>> info["action_mask"].dtype, bool((env.action_masks() == info["action_mask"]).all())
(dtype('int8'), True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, SupportsInt

import gymnasium
import numpy as np
from gymnasium import spaces

from .encoding import Dealer, Encoder, encoding, gym_id, solo_games

if TYPE_CHECKING:
    from ..core.game import State

#: Former names of the encodings' penalties (read when asked for: importing this module
#: loads no encoding, so that a game's encoding may import the research package).
_PENALTIES = {"NOVALUNA_ILLEGAL_PENALTY": "nova-luna", "NMBR9_ILLEGAL_PENALTY": "nmbr9"}


def __getattr__(name: str) -> float:
    if name in _PENALTIES:
        return encoding(_PENALTIES[name]).illegal_penalty
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class SoloEnv(gymnasium.Env):
    """The registered game ``game`` for one seat; ``options`` are the game's variant
    options (NMBR 9 ``remove`` and ``size``); ``illegal_penalty`` defaults to the
    encoding's."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}

    def __init__(
        self,
        game: str,
        render_mode: str | None = None,
        illegal_penalty: float | None = None,
        **options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}")
        encoded = encoding(game)
        self.setup = setup = encoded.setup(1, **options)
        self.game_name = game
        self.observation_space = spaces.Box(0.0, 1.0, setup.observation_shape, dtype=np.float32)
        self._scale = setup.scaler
        self.action_space = spaces.Discrete(setup.actions)
        self.render_mode = render_mode
        if illegal_penalty is None:
            illegal_penalty = encoded.illegal_penalty
        self.illegal_penalty = float(illegal_penalty)
        self._mask = np.zeros(setup.actions, dtype=np.int8)
        self._dealer = Dealer()
        self.game_seed: int | None = None  # the seed of the game dealt, after reset()
        self.encoder: Encoder = None  # type: ignore[assignment]  # until reset()

    @property
    def game_state(self) -> State | None:
        """The rules' state of the game in progress."""
        return self.encoder.state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game, dealt from ``seed`` (or the env's own generator, seeded by the
        last seed given); ``options`` may fix the deal: Nova Luna ``{"pile": 68 tile
        ids in draw order}``, NMBR 9 ``{"deck": 20 digits in order}``."""
        super().reset(seed=seed)
        self.game_seed = self._dealer.next(seed)  # the seed selfplay deals from
        self.encoder = self.setup.deal(self.game_seed, options or {})
        self._mask = self.encoder.mask(0)
        if self.render_mode == "human":
            self.render()
        return self._scale(self.encoder.observe(0)), {"action_mask": self._mask}

    def step(self, action: SupportsInt) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        index = int(action)
        encoder = self.encoder
        if not (0 <= index < len(self._mask) and self._mask[index]):
            info: dict[str, Any] = {
                "action_mask": np.zeros_like(self._mask),
                "illegal_action": True,
            }
            self._mask = info["action_mask"]
            return self._scale(encoder.observe(0)), self.illegal_penalty, True, False, info
        encoder.apply(index, 0)
        over = encoder.is_over
        truncation = None if over else encoder.truncation
        reward = encoder.reward_scores()[0] if over else 0.0
        self._mask = encoder.mask(0)
        info = {"action_mask": self._mask}
        if over or truncation is not None:
            info["score"] = encoder.solo_score()
        if truncation is not None:
            info["truncation"] = truncation
        if self.render_mode == "human":
            self.render()
        return self._scale(encoder.observe(0)), reward, over, truncation is not None, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as ``np.int8`` (the name MaskablePPO looks for)."""
        return self._mask

    def render(self) -> str | None:
        text = self.encoder.render(None)
        if self.render_mode == "ansi":
            return text
        if self.render_mode == "human":
            print(text)
        return None


class NovaLunaSoloEnv(SoloEnv):
    """Nova Luna solo (``tabletop/NovaLunaSolo-v0``) under its former name."""

    def __init__(
        self, render_mode: str | None = None, illegal_penalty: float | None = None
    ) -> None:
        super().__init__("nova-luna", render_mode, illegal_penalty)


class Nmbr9SoloEnv(SoloEnv):
    """NMBR 9 solo (``tabletop/Nmbr9Solo-v0``) under its former name (``remove``,
    ``size`` as ``SoloEnv``'s options)."""

    def __init__(
        self, render_mode: str | None = None, illegal_penalty: float | None = None, **options: Any
    ) -> None:
        super().__init__("nmbr9", render_mode, illegal_penalty, **options)


def register() -> list[str]:
    """Register ``tabletop/<Name>Solo-v0`` for every registered game with an encoding
    and a solo mode not registered yet (games added later too); the ids, all of them."""
    ids = []
    for name in solo_games():
        env_id = gym_id(name)
        if env_id not in gymnasium.registry:
            # Gymnasium's ``EnvCreator`` takes keyword arguments only; SoloEnv's required
            # ``game`` comes from ``kwargs``, which its Protocol cannot express.
            gymnasium.register(
                id=env_id,
                entry_point=SoloEnv,  # type: ignore[arg-type]
                kwargs={"game": name},
            )
        ids.append(env_id)
    return ids
