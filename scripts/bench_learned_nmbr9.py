"""Paired benchmark of NMBR 9 planner settings on the same deals (the learned evaluation).

Plays every named configuration on solo deals seeds 1..N (``Game(players=1)
.new_state(seed)``, the deals of ``scripts/bench_analysis.py --game nmbr9``) with the
kernel's whole-game loop, and prints per configuration the mean, the seconds per
move, the playouts per move and the difference from the first configuration paired
by deal, with its standard error.

    PYTHONPATH=src .venv/bin/python scripts/bench_learned_nmbr9.py --deals 30 normal learned

Configurations are ``LEVELS`` names of the planner, or ``name=json`` with raw kernel
settings, e.g. ``'h4={"strength": "normal", "horizon": 4, "learned": "value"}'``
("learned": "rollout" | "root" | "both" | "value" takes the shipped model's weights for
the rollout policy, the root ranking, both, or both plus its value).
"""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

from tabletop.games.nmbr9.bots.compiled import kernel
from tabletop.games.nmbr9.bots.planner import LEVELS  # also sets up the kernel's tiles
from tabletop.games.nmbr9.learning.value import shipped_model
from tabletop.games.nmbr9.rules import Game


def settings_of(spec: str) -> tuple[str, dict[str, Any]]:
    name, _, raw = spec.partition("=")
    settings: dict[str, Any] = dict(json.loads(raw)) if raw else dict(LEVELS[name])
    learned = settings.pop("learned", None)
    if learned:
        model = shipped_model()
        weights = list(model.weights)
        if learned in ("rollout", "both", "value"):
            settings["weights"] = weights
            if learned == "rollout":
                settings["root_weights"] = kernel.default_weights()
        if learned == "root":
            settings["root_weights"] = weights
        if learned == "value":
            settings["value"] = list(model.coefficients)
    return name, settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("configs", nargs="+")
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--first", type=int, default=1, help="first deal's seed")
    parser.add_argument("--seed", type=int, default=1, help="the planner's seed")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    decks = [
        list(Game(players=1).new_state(seed).deck_order())
        for seed in range(args.first, args.first + args.deals)
    ]
    base: list[int] | None = None
    for spec in args.configs:
        name, settings = settings_of(spec)
        settings["threads"] = args.threads
        scores, times, rollouts = kernel.solo_scores(decks, seed=args.seed, timing=True, **settings)
        per_move = statistics.fmean(t for game in times for t in game)
        playouts = statistics.fmean(rollouts) / 20
        line = (
            f"{name:>12}: mean {statistics.fmean(scores):6.2f} over {len(scores)} deals,"
            f" {per_move:.3f} s/move, {playouts:6.0f} playouts/move"
        )
        if base is None:
            base = scores
        else:
            diff = [s - b for s, b in zip(scores, base, strict=True)]
            se = statistics.stdev(diff) / len(diff) ** 0.5 if len(diff) > 1 else 0.0
            line += f", paired {statistics.fmean(diff):+.2f} ± {se:.2f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
