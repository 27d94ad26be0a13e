"""An analysed game: each decision's loss and mark, and each seat's summary.

>>> scale = Scale("points", "{value:.1f}", inaccuracy=2, mistake=5, blunder=10, accuracy=8)
>>> move = judged_move(3, "r0@0,0", "r1@2,0", 80.0, 86.5, 0.5, scale)
>>> move.loss, move.mark, round(move.accuracy, 1)
(6.5, 'mistake', 44.4)
>>> judged_move(4, "a", "b", 80.0, 80.4, 0.5, scale).loss  # within the noise
0.0
>>> judged_move(5, "a", "b", 80.0, 81.96, 0.5, scale).mark  # shown as 2.0: marked
'inaccuracy'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from ..core.analysis import JSON, Scale

#: The costliest moves a seat's summary names.
COSTLIEST = 3
#: A scale's pattern as the platform reads its precision: "{value:.1f}", "{value:.0%}".
_PRECISION = re.compile(r"\{value:\.(\d+)([f%])\}")


def shown_loss(scale: Scale, loss: float) -> float:
    """``loss`` rounded as ``scale`` shows it ("5 %" for 0.0496), so that a shown loss
    and its mark never disagree: the mark is earned by the loss as people read it.

    >>> share = Scale("chance to win", "{value:.0%}", 0.05, 0.12, 0.25, 0.08)
    >>> shown_loss(share, 0.0496), share.mark(shown_loss(share, 0.0496))
    (0.05, 'inaccuracy')
    """
    found = _PRECISION.search(scale.pattern)
    if found is None:  # a pattern the platform cannot read: the loss as measured
        return loss
    digits = int(found[1]) + (2 if found[2] == "%" else 0)
    return round(loss, digits)


@dataclass(frozen=True)
class JudgedMove:
    """One decision with its values, loss (best minus played, 0 within the search's
    noise) and mark."""

    index: int
    label: str
    played: str
    best: str
    value_played: float
    value_best: float
    loss: float
    mark: str | None
    accuracy: float  # percent
    facts: JSON = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {
            "index": self.index,
            "label": self.label,
            "played": self.played,
            "best": self.best,
            "value_played": round(self.value_played, 4),
            "value_best": round(self.value_best, 4),
            "loss": round(self.loss, 4),
            "mark": self.mark,
            "accuracy": round(self.accuracy, 1),
            **self.facts,
        }


def judged_move(
    index: int,
    played: str,
    best: str,
    value_played: float,
    value_best: float,
    noise: float,
    scale: Scale,
    label: str = "",
    facts: JSON | None = None,
) -> JudgedMove:
    """A decision's loss, mark and accuracy from its values (see the module)."""
    loss = shown_loss(scale, scale.loss(value_played, value_best))
    if loss <= noise or played == best:
        loss = 0.0
    accuracy = 100.0 * math.exp(-loss / scale.accuracy)
    return JudgedMove(
        index,
        label,
        played,
        best,
        value_played,
        value_best,
        loss,
        scale.mark(loss),
        accuracy,
        facts or {},
    )


@dataclass(frozen=True)
class SeatReport:
    """A seat's moves and summary: average loss, accuracy (the mean of its moves'),
    and its costliest moves."""

    seat: int
    name: str
    moves: list[JudgedMove]

    @property
    def average_loss(self) -> float:
        return sum(m.loss for m in self.moves) / len(self.moves) if self.moves else 0.0

    @property
    def accuracy(self) -> float:
        return sum(m.accuracy for m in self.moves) / len(self.moves) if self.moves else 100.0

    def count(self, mark: str) -> int:
        return sum(m.mark == mark for m in self.moves)

    @property
    def costliest(self) -> list[JudgedMove]:
        costly = sorted((m for m in self.moves if m.loss > 0), key=lambda m: (-m.loss, m.index))
        return costly[:COSTLIEST]

    def to_json(self) -> JSON:
        return {
            "seat": self.seat,
            "name": self.name,
            "accuracy": round(self.accuracy, 1),
            "average_loss": round(self.average_loss, 4),
            "inaccuracies": self.count("inaccuracy"),
            "mistakes": self.count("mistake"),
            "blunders": self.count("blunder"),
            "costliest": [m.index for m in self.costliest],
            "moves": [m.to_json() for m in self.moves],
        }


@dataclass(frozen=True)
class Analysis:
    """A whole game analysed: what ``analyse --json`` prints and the server stores."""

    game: str
    budget: int
    seed: int
    scale: Scale
    seats: list[SeatReport]
    hindsight: JSON | None = None
    facts: JSON = field(default_factory=dict)  # e.g. each seat's final score

    def to_json(self) -> JSON:
        shown: dict[str, Any] = {
            "game": self.game,
            "budget": self.budget,
            "seed": self.seed,
            "scale": self.scale.to_json(),
            "seats": [s.to_json() for s in self.seats],
        }
        if self.hindsight is not None:
            shown["hindsight"] = self.hindsight
        shown.update(self.facts)
        return shown
