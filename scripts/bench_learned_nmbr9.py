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


def summary(
    name: str, scores: list[int], times: list[float], rollouts: list[int], base: list[int] | None
) -> str:
    """One configuration's line: mean, seconds and playouts per move, paired difference."""
    line = (
        f"{name:>12}: mean {statistics.fmean(scores):6.2f} over {len(scores)} deals,"
        f" {statistics.fmean(times):.3f} s/move,"
        f" {statistics.fmean(rollouts) / 20:6.0f} playouts/move"
    )
    if base is not None and base is not scores:
        diff = [s - b for s, b in zip(scores, base, strict=True)]
        se = statistics.stdev(diff) / len(diff) ** 0.5 if len(diff) > 1 else 0.0
        line += f", paired {statistics.fmean(diff):+.2f} ± {se:.2f}"
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("configs", nargs="+")
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--first", type=int, default=1, help="first deal's seed")
    parser.add_argument("--seed", type=int, default=1, help="the planner's seed")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=0, help="print running figures every N deals")
    args = parser.parse_args()
    decks = [
        list(Game(players=1).new_state(seed).deck_order())
        for seed in range(args.first, args.first + args.deals)
    ]
    configs = [settings_of(spec) for spec in args.configs]
    # every configuration plays each chunk of deals in turn, so the load of a shared
    # machine falls on all of them alike and a run stopped early is still paired
    # (a deal's game does not depend on the others: the same scores in any chunks)
    chunk = args.chunk or len(decks)
    results: dict[str, tuple[list[int], list[float], list[int]]] = {
        name: ([], [], []) for name, _ in configs
    }
    for first in range(0, len(decks), chunk):
        for name, settings in configs:
            scores, times, rollouts = kernel.solo_scores(
                decks[first : first + chunk],
                seed=args.seed,
                timing=True,
                **{**settings, "threads": args.threads},
            )
            results[name][0].extend(scores)
            results[name][1].extend(t for game in times for t in game)
            results[name][2].extend(rollouts)
        base = results[configs[0][0]][0]
        for name, _ in configs:
            print(summary(name, *results[name], base), flush=True)
        print(flush=True)


if __name__ == "__main__":
    main()
