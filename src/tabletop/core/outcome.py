"""How a finished game came out, in terms every part of the platform understands.

The engines build it (``State.outcome()``), the harnesses average it, the server
rates it: one typed value for every game, so no front end reads a game's own
result format.

>>> Outcome.from_scores((40, 52, 40), "score", lower_is_better=False, length=20).ranks
(2, 1, 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Outcome:
    """A finished game.

    ``ranks`` per seat, 1 = best, equal totals share a rank (``(1, 1, 3)``);
    ``scores`` per seat is the game's own figure (``score_name``), better when
    lower if ``lower_is_better``; ``length`` counts turns or rounds
    (``length_name``); ``details`` are further figures a solo benchmark
    averages (e.g. ``{"phase 1": 31}``).
    """

    ranks: tuple[int, ...]
    scores: tuple[float, ...]
    score_name: str
    lower_is_better: bool
    length: int
    length_name: str = "turns"
    details: dict[str, float] = field(default_factory=dict)

    @classmethod
    def from_scores(
        cls,
        scores: tuple[float, ...],
        score_name: str,
        *,
        lower_is_better: bool,
        length: int,
        length_name: str = "turns",
    ) -> Outcome:
        """Ranks from scores alone: equal scores share a rank."""
        sign = 1 if lower_is_better else -1
        ranks = tuple(1 + sum(sign * (o - s) < 0 for o in scores) for s in scores)
        return cls(ranks, scores, score_name, lower_is_better, length, length_name)

    def wins(self, seat: int) -> float:
        """1 for a sole winner, 1/k for each of k seats sharing the first rank."""
        if self.ranks[seat] != 1:
            return 0.0
        return 1 / sum(1 for r in self.ranks if r == 1)
