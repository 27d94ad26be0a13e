"""Post-game analysis, written once for every game: each decision of a finished game
judged from what its seat knew, with losses, marks and per-seat summaries.

A game takes part by naming an ``Analyser`` (``tabletop.core.analysis``) in its
``GameType.analysis``; ``analyse`` runs it, ``render`` shows it. See docs/analysis.md.
"""

from .report import Analysis, JudgedMove, SeatReport, judged_move
from .run import analyse, analyse_records, analyser_of, count_decisions

__all__ = [
    "Analysis",
    "JudgedMove",
    "SeatReport",
    "analyse",
    "analyse_records",
    "analyser_of",
    "count_decisions",
    "judged_move",
]
