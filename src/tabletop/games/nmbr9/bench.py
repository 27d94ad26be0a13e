"""``nmbr9 bench``: the engine's speed, one process.

* random games per second (1 and 4 players): setup plus ``random_playout``,
  every placement drawn uniformly from all legal ones;
* the time to list every legal placement (``Board.legal``, with ``Place``
  values) and to find them as bit masks (``Board.legal_masks``) on full
  late-game boards: 19 tiles laid by the greedy bot, the 20th card to place.
"""

from __future__ import annotations

import itertools
import random
import statistics
from collections.abc import Callable
from functools import partial

from ...core.game import get_game
from ...harness.bench import median_of, per_second, print_selfplay_bench
from .rules import Board, Game


def games_per_second(game: Game, seconds: float, seed: int = 0) -> float:
    """Full random games per second: setup plus ``random_playout``."""
    rng = random.Random(seed)
    seeds = itertools.count()

    def ten() -> int:
        for _ in range(10):
            game.new_state(next(seeds)).random_playout(rng)
        return 10

    return per_second(ten, seconds)


def late_boards(count: int = 20) -> list[tuple[Board, int]]:
    """Boards after 19 greedy rounds, each with the digit of the 20th card."""
    from .bots.greedy import GreedyBot

    boards = []
    for seed in range(count):
        state = Game(players=1).new_state(seed)
        bot = GreedyBot(seed)
        while state.round < 19:
            state.apply(bot.choose(state.view(0)))
        assert state.card is not None  # the 20th round is still to play
        boards.append((state.boards[0], state.card))
    return boards


def call_microseconds(
    boards: list[tuple[Board, int]], call: Callable[[Board, int], object], seconds: float
) -> float:
    """Mean time of ``call(board, digit)`` over ``boards``."""

    def all_boards() -> int:
        for board, digit in boards:
            call(board, digit)
        return len(boards)

    return 1e6 / per_second(all_boards, seconds)


def selfplay_bench(seconds: float, runs: int, players: tuple[int, ...] = (2,)) -> None:
    """Raw random games against ``random`` bots in the selfplay harness."""

    def raw(count: int) -> float:
        return games_per_second(Game(players=count), seconds)

    print_selfplay_bench(get_game("nmbr9"), raw, seconds, runs, players)


def run_bench(seconds: float = 1.0, runs: int = 5, selfplay: bool = False) -> int:
    print(f"nmbr9 bench: median of {runs} runs of {seconds:g} s each, one process")
    if selfplay:
        selfplay_bench(seconds, runs, players=(1, 2, 4))
        return 0
    for players in (1, 4):
        game = Game(players=players)
        median, values = median_of(partial(games_per_second, game, seconds), runs)
        spread = ", ".join(f"{v:.0f}" for v in values)
        placements = median * 20 * players
        print(
            f"  random games, {players} player{'s' if players > 1 else ' '}: {median:6.0f} games/s"
            f" = {placements:6.0f} placements/s   (runs: {spread})"
        )
    boards = late_boards()
    listed = statistics.mean(len(b.legal(d)) for b, d in boards)
    median, _ = median_of(lambda: call_microseconds(boards, Board.legal, seconds), runs)
    print(
        f"  every legal placement, late-game board (19 tiles): {median:.0f} µs "
        f"({listed:.0f} placements on average, as Place values)"
    )
    median, _ = median_of(lambda: call_microseconds(boards, Board.legal_masks, seconds), runs)
    print(f"  the same as bit masks (legal_masks): {median:.1f} µs")
    selfplay_bench(seconds, runs)
    return 0
