"""Train sb3-contrib's MaskablePPO on two-player Nova Luna against ``random``, on the CPU.

    pip install '.[rl]'
    python examples/train_maskable_ppo.py --steps 30720 --png learning-curve.png

The learner plays ``tabletop.research.versus.NovaLunaVersusRandomEnv`` (the PettingZoo
environment with the other seat played by ``random``; reward: 0.1 x the change in the
learner's disc lead (its discs placed minus the opponent's) over the step, the
opponent's replies included, then +1 win / -1 loss at the end). The policy is
``GridPolicy``: the observation's display rows are drawn on a grid around the first tile
and one small convolution scores every (tile choice, cell) with the same weights, so
what it learns about one cell (lay next to matching colours, fulfil tasks) holds for
all of them; an MLP with one output per action (``MlpPolicy``) has to learn each of the
23,765 actions separately and did not hold its lead over ``random``. Every
``--eval-every`` steps the policy (greedy: the most likely legal action) plays
``--eval-games`` games against ``random`` on fixed deals, and so does ``random`` itself
as the baseline; the script prints the win rates and draws them, with the training
episodes' mean return, as a learning curve.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback
from torch import nn

from tabletop.research import novaluna as nlenc
from tabletop.research.versus import SCALER, NovaLunaVersusRandomEnv

EVAL_SEED = 10_000  # evaluation deals: seeds EVAL_SEED, EVAL_SEED + 1, ...


@dataclass
class Curve:
    """The figures of one run: evaluation points and training episodes."""

    steps: list[int] = field(default_factory=list)
    win_rate: list[float] = field(default_factory=list)
    episode_steps: list[int] = field(default_factory=list)
    episode_return: list[float] = field(default_factory=list)
    baseline: float = 0.0
    seconds: float = 0.0


def win_rate(policy, games: int, seed: int = EVAL_SEED) -> float:
    """The share of ``games`` won against ``random`` by ``policy(obs, mask) -> action``;
    game ``i`` is dealt from ``seed + i`` and the learner sits in seat ``i % 2``."""
    env = NovaLunaVersusRandomEnv()
    wins = 0
    for i in range(games):
        obs, info = env.reset(seed=seed + i, options={"learner": i % 2})
        done = False
        while not done:
            obs, _, done, _, info = env.step(policy(obs, info["action_mask"]))
        wins += info["won"]
    return wins / games


def random_policy(seed: int = 0):
    """The ``random`` policy: uniform over the legal actions."""
    rng = np.random.default_rng(seed)
    return lambda obs, mask: int(rng.choice(np.flatnonzero(mask)))


def model_policy(model: MaskablePPO):
    """The trained policy, greedy: its most likely legal action."""
    return lambda obs, mask: int(model.predict(obs, action_masks=mask, deterministic=True)[0])


class Evaluate(BaseCallback):
    """Records every training episode's return, and evaluates the model every ``every``
    steps: at the start of a rollout, that is after the update that used those steps."""

    def __init__(self, curve: Curve, every: int, games: int) -> None:
        super().__init__()
        self.curve, self.every, self.games = curve, every, games
        self._return = 0.0

    def _on_rollout_start(self) -> None:
        if not self.curve.steps or self.num_timesteps >= self.curve.steps[-1] + self.every:
            self._evaluate()

    def _on_step(self) -> bool:
        self._return += float(self.locals["rewards"][0])
        if self.locals["dones"][0]:
            self.curve.episode_steps.append(self.num_timesteps)
            self.curve.episode_return.append(self._return)
            self._return = 0.0
        return True

    def _on_training_end(self) -> None:
        if self.curve.steps[-1] != self.num_timesteps:
            self._evaluate()  # the model train() returns

    def _evaluate(self) -> None:
        rate = win_rate(model_policy(self.model), self.games)
        self.curve.steps.append(self.num_timesteps)
        self.curve.win_rate.append(rate)
        print(f"step {self.num_timesteps:>7}: {rate:.0%} won of {self.games}", flush=True)


# --- the policy: one convolution over the learner's display scores every cell -------------

CROP = 12  # cells within CROP steps of the first tile are scored by the convolution
SIDE = 2 * CROP + 1

_DISPLAYS = nlenc.HEADER + nlenc.WHEEL + 2 * nlenc.SEAT  # where the displays start
_GLOBAL = _DISPLAYS  # header, wheel and seats; then the unseen tiles after the displays


class GridNet(nn.Module):
    """Action logits per (tile choice, cell) from a convolution over the learner's display.

    The observation's display rows (``(1, x, y, tile id, colour, cost, tasks...)``) are
    drawn on a ``SIDE`` × ``SIDE`` grid around the first tile: per cell a learned
    embedding of the tile id there (0 = empty) and its open and covered tasks. Three
    3×3 convolutions give every cell a feature vector; each of the three takeable tiles
    gets an embedding of its id; the logit of laying tile ``c`` on a cell is a linear
    function of ``relu(cell + tile c)``, the same weights for every cell (so what is
    learnt on one cell holds on all of them). Cells farther than ``CROP`` from the first
    tile share one learned logit; refill and end-phase come from the global features
    (header, wheel, seats, unseen tiles), which with the pooled cell features also feed
    the value.
    """

    def __init__(self, channels: int = 32, embed: int = 8, hidden: int = 64) -> None:
        super().__init__()
        self.latent_dim_pi, self.latent_dim_vf = nlenc.ACTIONS, hidden
        tiles = nlenc.UNSEEN + 1
        self.cell_tile = nn.Embedding(tiles, embed)
        self.trunk = nn.Sequential(
            nn.Conv2d(embed + 3, channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
        )  # fmt: skip
        self.choice_tile = nn.Embedding(tiles, channels)
        self.head = nn.Linear(channels, 1)
        self.head.weight.data.mul_(0.01)  # a near-uniform policy to start
        self.far = nn.Parameter(torch.zeros(()))
        width = _GLOBAL + nlenc.UNSEEN
        self.globals = nn.Sequential(nn.Linear(width, hidden), nn.ReLU())
        self.other = nn.Linear(hidden, 2)  # refill, end phase
        self.other.weight.data.mul_(0.01)
        self.value = nn.Sequential(nn.Linear(hidden + 2 * channels, hidden), nn.ReLU())
        pad = nlenc.RADIUS - CROP
        outside = torch.ones(nlenc.GRID, nlenc.GRID)
        outside[pad : pad + SIDE, pad : pad + SIDE] = 0
        self.register_buffer("outside", outside)
        self.register_buffer("low", torch.tensor(SCALER.low))
        self.register_buffer("span", torch.tensor(SCALER.span))

    def _parts(self, obs: torch.Tensor):
        raw = torch.round(obs * self.span + self.low).long()  # SCALER.unscale
        batch = obs.shape[0]
        rows = raw[:, _DISPLAYS : _DISPLAYS + nlenc.MAX_TILES * nlenc.ROW]
        rows = rows.reshape(batch, nlenc.MAX_TILES, nlenc.ROW)  # the learner's display
        x, y, tile = rows[..., 1], rows[..., 2], rows[..., 3]
        inside = (rows[..., 0] == 1) & (x.abs() <= CROP) & (y.abs() <= CROP)
        where = torch.where(inside, (y + CROP) * SIDE + x + CROP, SIDE * SIDE)
        tasks = rows[..., 6:9]
        cells = torch.zeros(batch, SIDE * SIDE + 1, 3, device=obs.device)
        per_tile = torch.stack(
            [torch.ones_like(x), (tasks == 1).sum(-1), (tasks == 2).sum(-1)], -1
        ).float()
        cells.scatter_(1, where[..., None].expand(-1, -1, 3), per_tile)
        ids = torch.zeros(batch, SIDE * SIDE + 1, dtype=torch.long, device=obs.device)
        ids.scatter_(1, where, tile * inside)
        planes = torch.cat([self.cell_tile(ids), cells], -1)[:, :-1]
        planes = planes.transpose(1, 2).reshape(batch, -1, SIDE, SIDE)
        wheel = raw[:, nlenc.HEADER : nlenc.HEADER + nlenc.WHEEL].reshape(batch, 11, 4)
        takeable = wheel[..., 3:4] == torch.arange(1, 4, device=obs.device)  # (B, 11, 3)
        choice_ids = (wheel[..., 0:1] * takeable).sum(1)  # (B, 3), 0 if no such choice
        unseen = obs[:, -nlenc.UNSEEN :]  # 0 or 1 either way
        glob = self.globals(torch.cat([obs[:, :_GLOBAL], unseen], 1))
        return self.trunk(planes), self.choice_tile(choice_ids), glob

    def forward_actor(self, obs: torch.Tensor) -> torch.Tensor:
        return self._actor(*self._parts(obs))

    def forward_critic(self, obs: torch.Tensor) -> torch.Tensor:
        return self._critic(*self._parts(obs))

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        parts = self._parts(obs)
        return self._actor(*parts), self._critic(*parts)

    def _actor(self, cells, choices, glob) -> torch.Tensor:
        z = torch.relu(cells[:, None] + choices[..., None, None])  # (B, 3, C, SIDE, SIDE)
        crop = torch.einsum("bkcyx,c->bkyx", z, self.head.weight[0]) + self.head.bias
        pad = nlenc.RADIUS - CROP
        grid = nn.functional.pad(crop, (pad, pad, pad, pad)) + self.far * self.outside
        return torch.cat([grid.flatten(1), self.other(glob)], 1)

    def _critic(self, cells, choices, glob) -> torch.Tensor:
        pooled = torch.cat([cells.mean((2, 3)), cells.amax((2, 3))], 1)
        return self.value(torch.cat([glob, pooled], 1))


class GridPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's policy with ``GridNet`` in place of the MLP and the action layer."""

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = GridNet()

    def _build(self, lr_schedule) -> None:
        self._build_mlp_extractor()
        self.action_net = nn.Identity()  # GridNet's actor output is the logits
        self.value_net = nn.Linear(self.mlp_extractor.latent_dim_vf, 1)
        self.optimizer = self.optimizer_class(
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs
        )


PPO_SETTINGS = {
    "n_steps": 1024,
    "batch_size": 256,
    "n_epochs": 4,
    "learning_rate": 3e-4,
    "gamma": 0.995,
    "ent_coef": 0.01,
}


def train(
    steps: int, seed: int = 0, eval_every: int = 2048, eval_games: int = 100, **settings
) -> tuple[MaskablePPO, Curve]:
    """Train MaskablePPO for ``steps`` learner moves; evaluate along the way
    (``settings`` override ``PPO_SETTINGS``)."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    # the checks of every distribution's arguments cost a fifth of the time (23,765 logits)
    torch.distributions.Distribution.set_default_validate_args(False)
    env = NovaLunaVersusRandomEnv()
    env.reset(seed=seed)
    kwargs = {**PPO_SETTINGS, **settings}
    model = MaskablePPO(GridPolicy, env, seed=seed, device="cpu", verbose=0, **kwargs)
    curve = Curve()
    start = time.perf_counter()
    model.learn(steps, callback=Evaluate(curve, eval_every, eval_games))
    curve.seconds = time.perf_counter() - start
    curve.baseline = win_rate(random_policy(seed), eval_games)
    return model, curve


def plot(curve: Curve, path: str, eval_games: int) -> None:
    """The learning curve: evaluation win rate and the training episodes' mean return."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, left = plt.subplots(figsize=(7, 4), dpi=80)
    left.plot(curve.steps, curve.win_rate, "o-", color="C0", label="MaskablePPO (greedy)")
    left.axhline(curve.baseline, color="grey", ls="--", label="random")
    left.set(xlabel="training steps (learner moves)", ylim=(0, 1))
    left.set_ylabel(f"win rate vs random ({eval_games} games)", color="C0")
    right = left.twinx()
    window = max(1, len(curve.episode_return) // 20)
    smooth = np.convolve(curve.episode_return, np.ones(window) / window, mode="valid")
    right.plot(curve.episode_steps[window - 1 :], smooth, color="C1", alpha=0.7)
    right.set_ylabel(f"training return (mean of {window} episodes)", color="C1")
    left.legend(loc="lower right")
    left.set_title("Nova Luna, 2 players: MaskablePPO against random")
    fig.tight_layout()
    fig.savefig(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=30_720, help="training steps")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-every", type=int, default=2048, help="steps between evaluations")
    parser.add_argument("--eval-games", type=int, default=100, help="games per evaluation")
    parser.add_argument("--png", default="learning-curve.png", help="where to draw the curve")
    args = parser.parse_args()
    _, curve = train(args.steps, args.seed, args.eval_every, args.eval_games)
    print(f"trained {args.steps} steps in {curve.seconds:.0f} s")
    first, last = curve.win_rate[0], curve.win_rate[-1]
    print(f"won against random: {first:.0%} untrained, {last:.0%} trained")
    print(f"random itself vs random: {curve.baseline:.0%}")
    plot(curve, args.png, args.eval_games)
    print(f"learning curve: {args.png}")


if __name__ == "__main__":
    main()
