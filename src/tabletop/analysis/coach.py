"""The coach of a casual game: one move judged right after it was made, from the view
of the seat that made it (what it knew then, nothing more), at a small budget.

The judgement is the analysis's own (``Analyser.judge`` and ``judged_move``): the
same values, thresholds and words, so that a coach's note and the post-game analysis
of the same move speak alike. It is handed the seat's ``View`` (never the state), so
the hidden part of the game (NMBR 9's card order, Nova Luna's pile) cannot reach it.

A game's analyser may set ``coach_budget`` (its unit of search work per judged move,
chosen so that a move is judged in well under a second); without it the coach uses a
tenth of its ``default_budget``.

>>> from tabletop.core.game import get_game
>>> game = get_game("nmbr9")
>>> coach_budget(analyser_of(game)) > 0
True
"""

from __future__ import annotations

from typing import Any

from ..core.analysis import JSON, Analyser, Decision, Scale
from ..core.game import get_game
from .report import judged_move
from .run import analyser_of, described

#: The share of an analyser's default budget a coach uses where the game sets none.
DEFAULT_SHARE = 10


def coach_budget(analyser: Analyser) -> int:
    """The budget per coached move: the analyser's ``coach_budget``, else a tenth of
    its default budget (at least 1)."""
    chosen = getattr(analyser, "coach_budget", None)
    if isinstance(chosen, int) and chosen > 0:
        return chosen
    return max(1, analyser.default_budget // DEFAULT_SHARE)


def coached_action(analyser: Analyser, view: Any, action: Any) -> Any:
    """``action`` as the analyser names it (NMBR 9: a symmetric digit's turns are one
    placement), where it has a ``canonical(view, action)``; else as it is."""
    canonical = getattr(analyser, "canonical", None)
    return action if canonical is None else canonical(view, action)


def coach_move(
    game_name: str,
    scale: JSON,
    view: Any,
    seat: int,
    played_text: str,
    ply: int,
    budget: int,
    seed: int,
) -> JSON:
    """Judge the move ``played_text`` that ``seat`` made from ``view`` (its view just
    before, as the move ``ply`` of the game): the analysis's judged move as JSON
    (``loss``, ``mark``, ``best``, the words of both moves) plus ``seat`` and ``ply``.
    A top-level function: the server's bot processes run it."""
    game = get_game(game_name)
    analyser = analyser_of(game)
    played = coached_action(analyser, view, game.parse_action(played_text))
    decision = Decision(ply, seat, view, played, "")
    judgement = analyser.judge(decision, budget, seed)
    move = judged_move(
        ply,
        str(played),
        str(judgement.best),
        judgement.value_played,
        judgement.value_best,
        judgement.noise,
        Scale.from_json(scale),
        "",
        described(analyser, decision, judgement.best),
    )
    return {**move.to_json(), "seat": seat, "ply": ply, "budget": budget}
