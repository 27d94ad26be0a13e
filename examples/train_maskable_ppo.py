"""Train sb3-contrib's MaskablePPO on two-player Nova Luna against ``random``, on the CPU.

    pip install '.[rl]'
    python examples/train_maskable_ppo.py --steps 24576 --png learning-curve.png

The learner plays ``tabletop.research.versus.NovaLunaVersusRandomEnv`` (the PettingZoo
environment with the other seat played by ``random``; reward: +0.1 per disc placed,
-0.1 per disc the opponent places, +1 win / -1 loss at the end). Every ``--eval-every``
steps the policy (greedy: the most likely legal action) plays ``--eval-games`` games
against ``random`` on fixed deals, and so does ``random`` itself as the baseline; the
script prints the win rates and draws them, with the training episodes' mean return,
as a learning curve.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from tabletop.research.versus import NovaLunaVersusRandomEnv

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


PPO_SETTINGS = {
    "n_steps": 1024,
    "batch_size": 256,
    "n_epochs": 4,
    "learning_rate": 3e-4,
    "gamma": 0.995,
    "ent_coef": 0.01,
    "policy_kwargs": {"net_arch": [128, 128]},
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
    model = MaskablePPO("MlpPolicy", env, seed=seed, device="cpu", verbose=0, **kwargs)
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
    parser.add_argument("--steps", type=int, default=30_000, help="training steps")
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
