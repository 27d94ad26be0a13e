"""``nmbr9 bench``: the engine's speed, one process.

* random games per second (1 and 4 players): setup plus ``random_playout``,
  every placement drawn uniformly from all legal ones;
* the time to list every legal placement (``Board.legal``, with ``Place``
  values) and to find them as bit masks (``Board.legal_masks``) on full
  late-game boards: 19 tiles laid by the greedy bot, the 20th card to place.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from .rules import Board, Game


def games_per_second(game: Game, seconds: float, seed: int = 0) -> float:
    """Full random games per second: setup plus ``random_playout``."""
    rng = random.Random(seed)
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(10):
            game.new_state(games).random_playout(rng)
            games += 1
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - start)


def late_boards(count: int = 20) -> list[tuple[Board, int]]:
    """Boards after 19 greedy rounds, each with the digit of the 20th card."""
    from .bots.greedy import GreedyBot

    boards = []
    for seed in range(count):
        state = Game(players=1).new_state(seed)
        bot = GreedyBot(seed)
        while state.round < 19:
            state.apply(bot.choose(state.view(0)))
        boards.append((state.boards[0], state.card))
    return boards


def call_microseconds(
    boards: list[tuple[Board, int]], call: Callable[[Board, int], object], seconds: float
) -> float:
    """Mean time of ``call(board, digit)`` over ``boards``."""
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for board, digit in boards:
            call(board, digit)
        calls += len(boards)
    return (time.perf_counter() - start) / calls * 1e6


def _median(measure: Callable[[], float], runs: int) -> tuple[float, list[float]]:
    values = [measure() for _ in range(runs)]
    return statistics.median(values), values


def run_bench(seconds: float = 1.0, runs: int = 5) -> int:
    print(f"nmbr9 bench: median of {runs} runs of {seconds:g} s each, one process")
    for players in (1, 4):
        game = Game(players=players)
        median, values = _median(lambda g=game: games_per_second(g, seconds), runs)
        spread = ", ".join(f"{v:.0f}" for v in values)
        placements = median * 20 * players
        print(
            f"  random games, {players} player{'s' if players > 1 else ' '}: {median:6.0f} games/s"
            f" = {placements:6.0f} placements/s   (runs: {spread})"
        )
    boards = late_boards()
    listed = statistics.mean(len(b.legal(d)) for b, d in boards)
    median, _ = _median(lambda: call_microseconds(boards, Board.legal, seconds), runs)
    print(
        f"  every legal placement, late-game board (19 tiles): {median:.0f} µs "
        f"({listed:.0f} placements on average, as Place values)"
    )
    median, _ = _median(lambda: call_microseconds(boards, Board.legal_masks, seconds), runs)
    print(f"  the same as bit masks (legal_masks): {median:.1f} µs")
    return 0
