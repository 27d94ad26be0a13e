"""Analysing records: one game (``analyse``), or a file of them over several
processes (``analyse_records``). Deterministic for a record, budget and seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor

from ..core.analysis import JSON, Analyser, decision_seed
from ..core.errors import RecordError
from ..core.game import GameType, get_game
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
    record is not a finished game of ``game``."""
    analyser = analyser_of(game)
    budget = analyser.default_budget if budget is None else budget
    if budget < 1:
        raise ValueError("the budget is a positive number")
    if not game.read_record(record).state.is_over:  # checks every action and the result
        raise RecordError("only a finished game can be analysed")
    scale = analyser.scale(record)
    names = record["players"]
    moves: dict[int, list[JudgedMove]] = {seat: [] for seat in range(len(names))}
    for done, decision in enumerate(analyser.decisions(record), 1):
        judgement = analyser.judge(decision, budget, decision_seed(seed, record, decision.index))
        moves[decision.seat].append(
            judged_move(
                decision.index,
                str(decision.played),
                str(judgement.best),
                judgement.value_played,
                judgement.value_best,
                judgement.noise,
                scale,
                decision.label,
                {**decision.facts, **judgement.facts},
            )
        )
        if progress is not None:
            progress(done)
    seats = [SeatReport(seat, names[seat], moves[seat]) for seat in range(len(names))]
    best = analyser.hindsight(record, budget, seed) if hindsight else None
    return Analysis(game.name, budget, seed, scale, seats, best, {"result": record.get("result")})


def count_decisions(game: GameType, record: JSON) -> int:
    """How many decisions ``analyse`` will judge (for a progress bar)."""
    return sum(1 for _ in analyser_of(game).decisions(record))


def _analyse_one(job: tuple[str, JSON, int | None, int]) -> JSON:
    name, record, budget, seed = job
    try:
        return analyse(get_game(name), record, budget, seed).to_json()
    except RecordError as err:
        return {"error": str(err)}


def analyse_records(
    game: GameType, records: list[JSON], budget: int | None, seed: int, jobs: int = 1
) -> Iterator[JSON]:
    """Each record's analysis as JSON (or ``{"error"}``), in order, over ``jobs``
    processes."""
    work = [(game.name, record, budget, seed) for record in records]
    if jobs <= 1 or len(work) <= 1:
        yield from map(_analyse_one, work)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_analyse_one, work)
