"""Analysing records: one game (``analyse``), or a file of them over several
processes (``analyse_records``). Deterministic for a record, budget and seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor

from ..core.analysis import JSON, Analyser, Decision, decision_seed
from ..core.errors import RecordError, Unavailable
from ..core.game import GameType, get_game
from ..core.page import page_view
from .report import Analysis, JudgedMove, SeatReport, judged_move


def analyser_of(game: GameType) -> Analyser:
    """The game's analyser; ``RecordError`` for a game that has none."""
    found = game.analyser()
    if found is None:
        raise RecordError(f"{game.title} games cannot be analysed")
    return found


def analyse(
    game: GameType,
    record: JSON,
    budget: int | None = None,
    seed: int = 0,
    *,
    hindsight: bool = True,
    progress: Callable[[int], None] | None = None,
) -> Analysis:
    """Every decision of a finished game's ``record`` judged at ``budget`` (the game's
    default if None); ``progress(n)`` after the n-th decision. ``RecordError`` if the
    record is not a finished game of ``game``; ``Unavailable`` if this installation
    cannot analyse it (``check_available``)."""
    analyser = analyser_of(game)
    check_available(analyser, record)
    budget = checked_budget(analyser, budget)
    check_finished(game, record)
    judged = []
    for done, decision in enumerate(analyser.decisions(record), 1):
        judged.append(judge(game, record, decision, budget, seed))
        if progress is not None:
            progress(done)
    best = analyser.hindsight(record, budget, seed) if hindsight else None
    return assemble(game, record, budget, seed, judged, best)


def check_available(analyser: Analyser, record: JSON | None) -> None:
    """``Unavailable`` where this installation cannot analyse ``record`` (``None``: any
    game of the analyser's): its search needs a compiled kernel that was not built."""
    check = getattr(analyser, "check_available", None)  # only analysers that may lack one
    if check is not None:
        check(record)


def checked_budget(analyser: Analyser, budget: int | None) -> int:
    """``budget``, or the game's default; ``ValueError`` unless positive."""
    budget = analyser.default_budget if budget is None else budget
    if budget < 1:
        raise ValueError("the budget is a positive number")
    return budget


def check_finished(game: GameType, record: JSON) -> None:
    """``RecordError`` unless ``record`` is a valid record of a finished game."""
    if not game.read_record(record).state.is_over:  # checks every action and the result
        raise RecordError("only a finished game can be analysed")


def judge(
    game: GameType, record: JSON, decision: Decision, budget: int, seed: int
) -> tuple[int, JudgedMove]:
    """One decision judged: its seat and the judged move."""
    analyser = analyser_of(game)
    scale = analyser.scale(record)
    judgement = analyser.judge(decision, budget, decision_seed(seed, record, decision.index))
    words = described(analyser, decision, judgement.best)
    move = judged_move(
        decision.index,
        str(decision.played),
        str(judgement.best),
        judgement.value_played,
        judgement.value_best,
        judgement.noise,
        scale,
        decision.label,
        {**decision.facts, **judgement.facts, **words},
    )
    return decision.seat, move


def described(analyser: Analyser, decision: Decision, best: object) -> JSON:
    """The move played and the best in the game's words, ``{"played_words",
    "best_words"}`` (``Part``s the page translates), where the analyser has an optional
    ``describe(view, action)``; nothing where it has none (the notation is shown)."""
    describe = getattr(analyser, "describe", None)
    if describe is None:
        return {}
    return {
        "played_words": describe(decision.view, decision.played),
        "best_words": describe(decision.view, best),
    }


def judge_index(game_name: str, record: JSON, index: int, budget: int, seed: int) -> JSON:
    """The ``index``-th decision of ``record`` judged, as ``{"seat", "move"}`` JSON (a
    top-level function: the server's bot processes run it, one decision per job)."""
    game = get_game(game_name)
    for decision in analyser_of(game).decisions(record):
        if decision.index == index:
            seat, move = judge(game, record, decision, budget, seed)
            return {"seat": seat, "move": move}
    raise RecordError(f"the record has no decision {index}")


def hindsight_of(game_name: str, record: JSON, budget: int, seed: int) -> JSON | None:
    """The game's best game with hindsight (a top-level function for bot processes)."""
    return analyser_of(get_game(game_name)).hindsight(record, budget, seed)


def assemble(
    game: GameType,
    record: JSON,
    budget: int,
    seed: int,
    judged: list[tuple[int, JudgedMove]],
    hindsight: JSON | None,
) -> Analysis:
    """The analysis of a game from its judged decisions (in any order)."""
    names = record["players"]
    moves: dict[int, list[JudgedMove]] = {seat: [] for seat in range(len(names))}
    for seat, move in sorted(judged, key=lambda item: item[1].index):
        moves[seat].append(move)
    seats = [SeatReport(seat, names[seat], moves[seat]) for seat in range(len(names))]
    scale = analyser_of(game).scale(record)
    return Analysis(
        game.name, budget, seed, scale, seats, hindsight, {"result": record.get("result")}
    )


def boards(game: GameType, record: JSON, index: int, best: str) -> JSON:
    """The board after decision ``index`` as played and as if ``best`` had been played
    instead, as the game's page draws a view: ``{"seat", "played", "best"}``, each
    ``{"action", "view"}``. ``RecordError`` if there is no such decision."""
    analyser = analyser_of(game)
    found = [d for d in analyser.decisions(record) if d.index == index]
    if not found or game.page is None:
        raise RecordError(f"the game has no decision {index}")
    decision = found[0]
    shown: JSON = {"index": index, "seat": decision.seat}
    for key, text in (("played", str(decision.played)), ("best", best)):
        state = analyser.position(record, index)
        state.apply(game.parse_action(text), decision.seat)
        shown[key] = {"action": text, "view": page_view(game.page, state, decision.seat)}
    return shown


def decision_indices(game_name: str, record: JSON) -> list[int]:
    """The indices of a record's decisions (a top-level function for bot processes)."""
    return [d.index for d in analyser_of(get_game(game_name)).decisions(record)]


def count_decisions(game: GameType, record: JSON) -> int:
    """How many decisions ``analyse`` will judge (for a progress bar)."""
    return sum(1 for _ in analyser_of(game).decisions(record))


def _analyse_one(job: tuple[str, JSON, int | None, int]) -> JSON:
    name, record, budget, seed = job
    try:
        return analyse(get_game(name), record, budget, seed).to_json()
    except RecordError as err:
        return {"error": str(err)}
    except Unavailable as err:
        return {"error": str(err), "unavailable": True}


def analyse_records(
    game: GameType, records: list[JSON], budget: int | None, seed: int, jobs: int = 1
) -> Iterator[JSON]:
    """Each record's analysis as JSON (or ``{"error"}``, with ``"unavailable": true``
    where this installation cannot analyse it), in order, over ``jobs`` processes."""
    work = [(game.name, record, budget, seed) for record in records]
    if jobs <= 1 or len(work) <= 1:
        yield from map(_analyse_one, work)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_analyse_one, work)
