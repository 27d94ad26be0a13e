"""The learned value of a NMBR 9 position, and how the planner's kernel uses it.

A position (the board after a placement, with the unturned cards and the rounds
left) is described by the kernel's ``features``: the 14 features of the planner's
hand-tuned evaluation taken on the whole board (exposed area, perimeter and dead
squares per level, the footprint's bounding box, single-tile levels), then the
rounds left ``R``, the score so far and the 10 unturned counts. The value, the
points still to come, is linear::

    v = sum_i (a_i + b_i R/19) phi_i + c_R + sum_q e_q remaining_q

Its first two blocks have the hand-tuned evaluation's exact shape (every weight
``a + b R/19``), so a model *is* a one-move evaluation: ``policy_weights`` gives the
kernel's 30 weights, and maximising points now plus the value of the after-state
picks the same placement as the kernel's evaluation with those weights (the other
terms are equal for every placement of a card). ``coefficients`` go to the kernel
whole as its ``value`` setting, for rollouts cut short after ``horizon`` cards.

``predict`` is the numpy reference the tests hold the kernel's inference to. Playing
needs neither numpy nor torch: the planner reads the model with ``shipped_model``
(plain JSON) and the kernel does the arithmetic; numpy is imported only to fit or to
check (``design``, ``predict``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy is the training's and the tests' (the `data`/`rl` extras)
    import numpy.typing as npt

    Matrix = npt.NDArray[Any]

#: The kernel's board features per position (``_nmbr9kernel.c``, section 4b).
BOARD_FEATURES = 14
#: ``features()`` gives the board features, then rounds left, score, 10 unturned counts.
ROUNDS_AT, SCORE_AT, REMAINING_AT = BOARD_FEATURES, BOARD_FEATURES + 1, BOARD_FEATURES + 2
#: The model's numbers: a (14), b (14), c_R for R = 0..20 (21), e (10).
MAX_ROUNDS = 20
COEFFICIENTS = 2 * BOARD_FEATURES + MAX_ROUNDS + 1 + 10
#: The kernel's one-move evaluation weights (``DEFAULT_W``).
WEIGHTS = 30
#: The shipped model, in the package data.
SHIPPED = "value_model.json"


def design(features: Matrix | list[list[float]]) -> Matrix:
    """Rows of ``features()`` (n x 26) as the model's inputs (n x COEFFICIENTS): the
    board features, the same times R/19, a one-hot R, the unturned counts."""
    import numpy as np

    features = np.atleast_2d(np.asarray(features, dtype=np.float64))
    board = features[:, :BOARD_FEATURES]
    rounds = features[:, ROUNDS_AT].astype(np.int64)
    onehot = np.zeros((len(features), MAX_ROUNDS + 1))
    onehot[np.arange(len(features)), np.clip(rounds, 0, MAX_ROUNDS)] = 1.0
    fade = (rounds / 19.0)[:, None]
    remaining = features[:, REMAINING_AT : REMAINING_AT + 10]
    return np.hstack([board, board * fade, onehot, remaining])


@dataclass(frozen=True)
class ValueModel:
    """The fitted ``coefficients``: the value of the rollout policy with the kernel's
    evaluation ``weights`` (the policy that played the data; the planner's learned
    level plays its playouts with it), and how they were made (``provenance``: the
    command, the seed, the games, the fit's error)."""

    coefficients: tuple[float, ...]
    weights: tuple[float, ...]
    provenance: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.coefficients) != COEFFICIENTS or len(self.weights) != WEIGHTS:
            raise ValueError(f"a value model has {COEFFICIENTS} coefficients and {WEIGHTS} weights")

    def predict(self, features: Matrix | list[list[float]]) -> Matrix:
        """Points still to come for rows of ``features()`` (the numpy reference)."""
        import numpy as np

        values: Matrix = design(features) @ np.asarray(self.coefficients)
        return values

    def policy_weights(self) -> list[float]:
        """The kernel's 30 evaluation weights of the policy greedy in this value: they
        rank placements as points now plus this value of the after-state
        (``DEFAULT_W``'s layout: area, perimeter and dead squares per level, each a
        constant and an R/19 part; bounding box; single-tile levels; no saturation
        or digit-mass term)."""
        a = self.coefficients[:BOARD_FEATURES]
        b = self.coefficients[BOARD_FEATURES : 2 * BOARD_FEATURES]
        weights: list[float] = []
        for block in (slice(0, 4), slice(4, 8), slice(8, 12)):
            weights += [*a[block], *b[block]]
        weights += [a[12], b[12], a[13], b[13], 0.0, 0.0]
        return weights

    def to_json(self) -> dict[str, Any]:
        return {
            "coefficients": list(self.coefficients),
            "weights": list(self.weights),
            "provenance": self.provenance,
        }

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ValueModel:
        return cls(
            tuple(float(x) for x in data["coefficients"]),
            tuple(float(x) for x in data["weights"]),
            dict(data.get("provenance", {})),
        )

    @classmethod
    def load(cls, path: Path) -> ValueModel:
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")))


def shipped_model() -> ValueModel:
    """The model in the package data (``data/value_model.json``)."""
    text = resources.files("tabletop.games.nmbr9").joinpath("data", SHIPPED).read_text("utf-8")
    return ValueModel.from_json(json.loads(text))
