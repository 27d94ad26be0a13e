"""Training the learned value: play, record, fit (numpy only, no torch).

Each iteration plays ``games`` solo deals with the planner's rollout policy (its
one-move evaluation, the kernel's ``mode="heur"``: what the planner's playouts do),
records every after-state's ``features()`` with the points that still came
(final score minus score then), and fits the linear value by ridge least squares:
the value of that policy. The first iteration's policy uses the hand-tuned weights;
each later one is greedy in the previous value (``policy_weights``: policy
iteration). A model is a policy with its own value (``weights``, ``coefficients``):
the kept one is the pair whose policy scores best on ``check`` fresh deals, with
the hand-tuned policy's mean beside it in the provenance.

Deals are a pure function of the seed, the kernel is deterministic, and the fit
is a fixed linear solve: a seed gives the same model on any machine.

    python -m tabletop.games.nmbr9.learning --out value_model.json --seed 1
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

try:
    import numpy as np
except ModuleNotFoundError as err:  # playing never needs numpy; training does
    raise ModuleNotFoundError(
        "training the learned value needs numpy, in the optional extra rl: "
        "pip install 'tabletop[rl]'",
        name=err.name,
    ) from err

from ..bots.compiled import KERNEL, kernel
from ..rules import DRAWN, FULL_DECK
from .value import COEFFICIENTS, SCORE_AT, ValueModel, design

Matrix = np.typing.NDArray[np.float64]

#: The documented setting: what made the shipped model (about 2 minutes here).
GAMES, ITERATIONS, CHECK, RIDGE = 8000, 3, 400, 1.0
Tile = tuple[int, int, int, int, int]


def deals(seed: int, label: str, count: int) -> list[list[int]]:
    """``count`` shuffled decks, a pure function of (seed, label)."""
    out = []
    for i in range(count):
        deck = list(FULL_DECK)
        random.Random(f"nmbr9 value {seed} {label} {i}").shuffle(deck)
        out.append(deck)
    return out


def play_and_record(deck: Sequence[int], weights: Sequence[float]) -> tuple[Matrix, Matrix]:
    """One game of the rollout policy: features of each after-state with cards still
    to come, and the points each then still scored."""
    tiles: list[Tile] = []
    rows = []
    for i, digit in enumerate(deck):
        remaining = [deck[i + 1 :].count(q) for q in range(10)]
        rounds_left = len(deck) - 1 - i
        r, x, y, info = kernel.choose(
            tiles, digit, remaining, rounds_left, mode="heur", weights=list(weights)
        )
        tiles.append((digit, r, x, y, info["level"]))
        if rounds_left:
            rows.append(kernel.features(tiles, remaining, rounds_left))
    features = np.asarray(rows, dtype=np.float64)
    final = sum(d * level for d, _, _, _, level in tiles)
    return features, final - features[:, SCORE_AT]


def dataset(decks: Sequence[Sequence[int]], weights: Sequence[float]) -> tuple[Matrix, Matrix]:
    parts = [play_and_record(deck, weights) for deck in decks]
    return np.vstack([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def fit(features: Matrix, target: Matrix, ridge: float = RIDGE) -> tuple[np.ndarray, float]:
    """Ridge least squares on the model's design; returns coefficients and RMSE.
    Unturned counts are a fixed function of the deal's past, so a light ridge keeps
    the solve well posed without bending the fit."""
    x = design(features)
    gram = x.T @ x + ridge * np.eye(COEFFICIENTS)
    coefficients = np.linalg.solve(gram, x.T @ target)
    rmse = float(np.sqrt(np.mean((x @ coefficients - target) ** 2)))
    return coefficients, rmse


def policy_mean(decks: Sequence[Sequence[int]], weights: Sequence[float]) -> float:
    """Mean solo score of the one-move policy with these weights (played in C)."""
    scores = kernel.solo_scores(
        [list(d) for d in decks], mode="heur", weights=list(weights), threads=1
    )
    return statistics.fmean(scores)


def train(
    games: int = GAMES,
    seed: int = 1,
    iterations: int = ITERATIONS,
    check: int = CHECK,
    command: str = "",
    say: Callable[[str], None] = lambda line: None,
) -> ValueModel:
    if not KERNEL.built:
        raise RuntimeError("training plays with the compiled kernel, which was not built")
    kernel.setup_tiles(DRAWN)
    hand_tuned = kernel.default_weights()
    check_decks = deals(seed, "check", check)
    baseline = policy_mean(check_decks, hand_tuned)
    say(f"hand-tuned one-move policy: mean {baseline:.2f} over {check} check deals")
    weights, score, best, history = hand_tuned, baseline, None, []
    for it in range(iterations):
        start = time.monotonic()
        features, target = dataset(deals(seed, f"train {it}", games), weights)
        coefficients, rmse = fit(features, target)
        model = ValueModel(tuple(float(c) for c in coefficients), tuple(weights))
        history.append(
            {
                "iteration": it,
                "positions": len(target),
                "rmse": round(rmse, 3),
                "policy_mean": round(score, 3),
                "target_mean": round(float(target.mean()), 3),
            }
        )
        if best is None or score > best[0]:
            best = (score, model)
        weights = model.policy_weights()
        score = policy_mean(check_decks, weights)
        say(
            f"iteration {it}: {len(target)} positions, rmse {rmse:.2f}; the policy greedy "
            f"in this value scores {score:.2f} ({time.monotonic() - start:.0f} s)"
        )
    assert best is not None  # iterations >= 1 (the parser says so)
    provenance = {
        "command": command,
        "seed": seed,
        "games_per_iteration": games,
        "iterations": iterations,
        "check_deals": check,
        "ridge": RIDGE,
        "data": "solo deals played by the planner's one-move rollout policy (kernel mode "
        "heur): the hand-tuned weights, then each iteration's policy greedy in the "
        "previous value",
        "hand_tuned_policy_mean": round(baseline, 3),
        "kept_policy_mean": round(best[0], 3),
        "history": history,
    }
    return ValueModel(best[1].coefficients, best[1].weights, provenance)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tabletop.games.nmbr9.learning",
        description="Train the NMBR 9 planner's learned value (numpy; about 2 minutes "
        "on two cores at the defaults).",
    )
    parser.add_argument("--out", type=Path, required=True, help="the model file to write")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=GAMES, help="deals per iteration")
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--check", type=int, default=CHECK, help="deals that pick the model")
    args = parser.parse_args(argv)
    if args.games < 4 or args.iterations < 1 or args.check < 1:
        parser.error("need --games >= 4, --iterations >= 1, --check >= 1")
    command = "python -m tabletop.games.nmbr9.learning " + " ".join(
        f"--{k} {v}"
        for k, v in (
            ("seed", args.seed),
            ("games", args.games),
            ("iterations", args.iterations),
            ("check", args.check),
        )
    )
    model = train(
        args.games,
        args.seed,
        args.iterations,
        args.check,
        command,
        say=lambda line: print(line, file=sys.stderr, flush=True),
    )
    model.save(args.out)
    print(f"wrote {args.out}")
    return 0
