"""How a game ended: ``State.result()``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class StandardResult:
    """Outcome of a 2–4 player game. ``ranking`` lists seats, best first."""

    ranking: tuple[int, ...]
    discs_left: tuple[int, ...]
    tiles_taken: tuple[int, ...]
    winner_by_last_disc: bool

    @property
    def winner(self) -> int:
        return self.ranking[0]


@dataclass(frozen=True, slots=True)
class SoloResult:
    """Outcome of a solo game (lower is better)."""

    phase1: int
    phase2: int
    discs_placed: int
    tiles_taken: int

    @property
    def total(self) -> int:
        return self.phase1 + self.phase2


Result = StandardResult | SoloResult
