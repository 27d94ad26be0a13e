"""What a game gives the platform so that its finished games can be analysed.

A game's ``GameType.analysis`` names (``"module:attribute"``) an ``Analyser``: it
walks a record's decisions, each with the view of the seat that made it (what that
seat knew then, nothing more), and judges one decision at a time with its strong
bot's search: the value of the move played and of the best move it finds, in the
game's own terms (``Scale``). The platform (``tabletop.analysis``) turns judgements
into losses, marks and summaries, runs them and shows them.

>>> scale = Scale("points", "{value:.1f}", inaccuracy=2, mistake=5, blunder=10, accuracy=8)
>>> scale.mark(1.0), scale.mark(6.0), scale.mark(12.0)
(None, 'mistake', 'blunder')
>>> scale.format(87.25)
'87.2'
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .game import State

JSON = dict[str, Any]

#: The marks, from the mildest: a move whose loss reaches the threshold gets the mark.
MARKS = ("inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Scale:
    """How a game's values read and how large a loss earns each mark.

    ``unit`` names the value ("points", "chance to win"); ``pattern`` formats one
    (``str.format`` with ``value``). A move's accuracy is ``100 * exp(-loss /
    accuracy)`` percent: ``accuracy`` is the loss that leaves about 37 %."""

    unit: str
    pattern: str
    inaccuracy: float
    mistake: float
    blunder: float
    accuracy: float
    #: False where a lower value is better (Nova Luna solo's final score): the loss is
    #: then played minus best.
    higher_is_better: bool = True

    def loss(self, value_played: float, value_best: float) -> float:
        """How much worse the played value is than the best (never below 0)."""
        gap = value_best - value_played if self.higher_is_better else value_played - value_best
        return max(0.0, gap)

    def mark(self, loss: float) -> str | None:
        """The mark a move with this ``loss`` earns, or None."""
        found = None
        for name, threshold in zip(
            MARKS, (self.inaccuracy, self.mistake, self.blunder), strict=True
        ):
            if loss >= threshold:
                found = name
        return found

    def format(self, value: float) -> str:
        return self.pattern.format(value=value)

    def to_json(self) -> JSON:
        return {
            "unit": self.unit,
            "pattern": self.pattern,
            "inaccuracy": self.inaccuracy,
            "mistake": self.mistake,
            "blunder": self.blunder,
            "accuracy": self.accuracy,
            "higher_is_better": self.higher_is_better,
        }

    @classmethod
    def from_json(cls, shown: JSON) -> Scale:
        return cls(
            shown["unit"],
            shown["pattern"],
            shown["inaccuracy"],
            shown["mistake"],
            shown["blunder"],
            shown["accuracy"],
            shown.get("higher_is_better", True),
        )


@dataclass(frozen=True)
class Decision:
    """One decision of a record: the ``index``-th (0-based, in the record's order) by
    ``seat``, with ``view`` (the seat's view just before it: what it knew) and the
    action ``played``. ``label`` names it for people ("round 3", "turn 12")."""

    index: int
    seat: int
    view: Any  # the game's own View type: the platform never looks inside
    played: Any  # the game's own action type, written with str()
    label: str
    facts: JSON = field(default_factory=dict)  # anything the game shows beside the move


@dataclass(frozen=True)
class Judgement:
    """A decision judged by the search: its ``best`` action and the values of the
    move played and of the best, in the game's ``Scale``. ``noise``: how far apart two
    equally good moves' values may come out at this budget (a loss up to it counts 0).
    ``facts``: anything more the game reports (shown in ``--json``)."""

    best: Any
    value_played: float
    value_best: float
    noise: float = 0.0
    facts: JSON = field(default_factory=dict)


class Analyser(Protocol):
    """A game's analysis: see the module docstring.

    An analyser whose search may be missing from an installation (a compiled kernel not
    built, ``tabletop.core.kernels``) also has ``check_available(record)``: it raises
    ``Unavailable`` where it cannot judge ``record`` here (``None``: any game at all);
    ``tabletop.analysis.run.check_available`` asks it before any work."""

    #: The budget used when none is given (the game's own unit of search work: NMBR 9
    #: playouts per candidate, Nova Luna search iterations).
    default_budget: int

    def scale(self, record: JSON) -> Scale:
        """The values' scale for this game (e.g. solo or not)."""
        ...

    def decisions(self, record: JSON) -> Iterator[Decision]:
        """Every decision of a finished game's record, in order; ``RecordError`` if the
        record is not a valid finished game."""
        ...

    def judge(self, decision: Decision, budget: int, seed: int) -> Judgement:
        """The decision judged from its view alone, deterministic for ``seed``."""
        ...

    def position(self, record: JSON, index: int) -> State:
        """A fresh copy of the true state just before decision ``index`` (the game is
        over, so nothing is secret any more): the page draws the board after the
        move played and after the best one from it."""
        ...

    def hindsight(self, record: JSON, budget: int, seed: int) -> JSON | None:
        """The best game the search finds knowing what was hidden (NMBR 9: the card
        order), as ``{"score", ...}``; None for a game that offers none."""
        ...


def decision_seed(seed: int, record: JSON, index: int) -> int:
    """A seed per decision, from the analysis ``seed``, the game's own seed and the
    decision's index: the same decision is judged alike whatever else is analysed."""
    key = f"analysis {seed} {record.get('seed')} {index}".encode()
    return int.from_bytes(hashlib.sha256(key).digest()[:8], "big") >> 2
