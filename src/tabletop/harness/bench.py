"""What every game's ``bench`` shares: repeated measurements and their median.

>>> median_of(iter([3.0, 1.0, 2.0]).__next__, runs=3)
(2.0, [3.0, 1.0, 2.0])
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


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
