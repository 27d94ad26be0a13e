"""What every game's ``bench`` shares: repeated measurements and their median.

>>> median_of(iter([3.0, 1.0, 2.0]).__next__, runs=3)
(2.0, [3.0, 1.0, 2.0])
"""

from __future__ import annotations

import io
import itertools
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.game import GameType


def median_of(measure: Callable[[], float], runs: int) -> tuple[float, list[float]]:
    """Run ``measure`` ``runs`` times: the median and every value (the machine's speed
    drifts, so one run says little)."""
    values = [measure() for _ in range(runs)]
    return statistics.median(values), values


def per_second(step: Callable[[], int], seconds: float) -> float:
    """How many units ``step()`` gets through per second, called until ``seconds``
    have passed (``step`` returns how many units it did)."""
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        done += step()
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def selfplay_per_second(
    game: GameType, specs: list[str], seconds: float, write: bool = False
) -> float:
    """Games per second of the selfplay harness (``play_game`` on seeds 0, 1, ...,
    each record summed up as ``selfplay`` does; ``write``: and written as ``--out``
    writes it, to memory): what the harness adds to the engine shows against the
    game's raw playouts."""
    from ..records import dumps
    from .selfplay import Summary, play_game

    seeds = itertools.count()
    summary = Summary(game, specs)
    out = io.StringIO()

    def five() -> int:
        for _ in range(5):
            record = play_game(game, specs, next(seeds))
            summary.add(record)
            if write:
                out.write(dumps(record) + "\n")
        out.seek(0)
        out.truncate()
        return 5

    return per_second(five, seconds)


def print_selfplay_bench(
    game: GameType, raw: Callable[[int], float], seconds: float, runs: int, players: tuple[int, ...]
) -> None:
    """For each seat count: the game's raw random games per second (``raw(players)``)
    beside ``random`` bots in the selfplay harness."""
    print("  selfplay harness (random bots; without and with --out) against raw random games:")
    for count in players:
        print_selfplay_against_raw(game, partial(raw, count), count, seconds, runs)


def print_selfplay_against_raw(
    game: GameType, raw: Callable[[], float], players: int, seconds: float, runs: int
) -> None:
    """One line: raw random playouts and ``random`` bots' selfplay of ``players``
    seats, without and with the records written, measured in turn in each run (the
    machine's drift hits all three alike)."""
    specs = ["random"] * players
    runs_ = [
        (raw(), selfplay_per_second(game, specs, seconds),
         selfplay_per_second(game, specs, seconds, write=True))
        for _ in range(runs)
    ]  # fmt: skip
    raw_median = statistics.median(r for r, _, _ in runs_)
    play_median = statistics.median(s for _, s, _ in runs_)
    written_median = statistics.median(w for _, _, w in runs_)
    spread = ", ".join(f"{r:.0f}/{s:.0f}/{w:.0f}" for r, s, w in runs_)
    print(
        f"  {players} player{'s' if players > 1 else ''}: raw playouts {raw_median:.0f} games/s;"
        f" selfplay {play_median:.0f} games/s ({100 * play_median / raw_median:.0f}% of raw),"
        f" records written {written_median:.0f} ({100 * written_median / raw_median:.0f}%)"
        f"   (runs raw/selfplay/written: {spread})"
    )
