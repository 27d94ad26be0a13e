"""Learning from your mistakes: a marked decision's position shown again, and a move
tried there judged by the game's analyser.

The position is the deciding seat's own view just before the decision (the
analyser's ``Decision.view``: what the seat knew then, nothing more), drawn as the
game's page draws a live game's, with the seat's legal moves as its choices. A try
is judged like the move played was: the analyser searches the decision again with
the try in the played move's place, at the analysis's budget and seed, so the try
meets the same sampled futures as the moves it is compared with. A try within the
search's noise of the best move is solved.

Both are top-level functions taking the game's name: the server runs them in its
bot processes (``server.analyses``).
"""

from __future__ import annotations

from dataclasses import replace

from ..core.analysis import JSON, Decision, decision_seed
from ..core.errors import IllegalActionError, RecordError
from ..core.game import GameType, get_game
from ..i18n import N_
from .report import judged_move
from .run import analyser_of


def decision_of(game: GameType, record: JSON, index: int) -> Decision:
    """Decision ``index`` of ``record``; ``RecordError`` if there is none."""
    for decision in analyser_of(game).decisions(record):
        if decision.index == index:
            return decision
    raise RecordError(f"the record has no decision {index}")


def position(game_name: str, record: JSON, index: int) -> JSON:
    """What the deciding seat saw before decision ``index``: ``{"index", "seat",
    "view", "choices"}``, the view and choices as the game's page gets them in a live
    game (built from the seat's view alone: no hidden information)."""
    game = get_game(game_name)
    decision = decision_of(game, record, index)
    page = game.page
    if page is None:
        raise RecordError(f"{game.title} has no page to draw the position on")
    return {
        "index": index,
        "seat": decision.seat,
        "view": page.view_json(decision.view),
        "choices": page.choices(decision.view),
    }


#: The refusal of a try that is no legal move in the position.
NOT_LEGAL = N_("{action} is not a legal move in this position")


def legal_try(game: GameType, decision: Decision, text: str) -> object:
    """``text`` read as a move in ``decision``'s position: ``InvalidActionError`` if it
    is not one in the game's notation, ``IllegalActionError`` if it is not legal there."""
    tried = game.parse_action(text)
    if tried not in decision.view.legal_actions():
        raise IllegalActionError(NOT_LEGAL, action=text)
    return tried


def check_try(game_name: str, record: JSON, index: int, text: str) -> str:
    """The try ``text`` in the game's own notation, if it is legal in decision
    ``index``'s position (see ``legal_try``): checked before any search is queued."""
    game = get_game(game_name)
    return str(legal_try(game, decision_of(game, record, index), text))


def judge_try(
    game_name: str, record: JSON, index: int, text: str, budget: int, seed: int, stored: JSON
) -> JSON:
    """The move ``text`` tried in decision ``index``'s position, judged against the
    best: ``{"index", "action", "value", "value_best", "loss", "mark", "solved"}``
    (``loss`` 0 within the search's noise: solved), and the try in the game's words
    (``"words"``) where the analyser describes moves. ``stored``: the decision as the
    stored analysis judged it (its ``played``, ``best`` and their values): trying
    either of those needs no search. ``InvalidActionError`` for a malformed try,
    ``IllegalActionError`` for one not legal there."""
    game = get_game(game_name)
    analyser = analyser_of(game)
    decision = decision_of(game, record, index)
    tried = legal_try(game, decision, text)
    name = str(tried)
    if name == stored["best"]:
        value, best, noise = stored["value_best"], stored["value_best"], 0.0
    elif name == stored["played"]:
        value, best, noise = stored["value_played"], stored["value_best"], 0.0
    else:
        seeded = decision_seed(seed, record, index)
        judgement = analyser.judge(replace(decision, played=tried), budget, seeded)
        value, best, noise = judgement.value_played, judgement.value_best, judgement.noise
    scale = analyser.scale(record)
    move = judged_move(index, name, stored["best"], value, best, noise, scale)
    shown: JSON = {
        "index": index,
        "action": name,
        "value": round(value, 4),
        "value_best": round(best, 4),
        "loss": move.loss,
        "mark": move.mark,
        "solved": move.loss == 0,
    }
    describe = getattr(analyser, "describe", None)
    if describe is not None:
        shown["words"] = describe(decision.view, tried)
    return shown
