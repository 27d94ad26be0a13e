"""``novaluna bench``: random-playout throughput of the engine, one process."""

from __future__ import annotations

import itertools
import random
import time
from functools import partial

from ...core.game import get_game
from ...harness.bench import median_of, per_second, print_selfplay_bench
from .rules import Game


def playouts_per_second(game: Game, seconds: float, seed: int = 0) -> float:
    """Full random games per second: setup plus ``random_playout``."""
    rng = random.Random(seed)
    seeds = itertools.count()

    def twenty() -> int:
        for _ in range(20):
            game.new_state(next(seeds)).random_playout(rng)
        return 20

    return per_second(twenty, seconds)


def legal_action_microseconds(game: Game, seconds: float, seed: int = 0) -> float:
    """Mean time of one ``legal_actions()`` call over mid-game positions."""
    rng = random.Random(seed)
    states = []
    for i in range(50):
        state = game.new_state(i)
        for _ in range(rng.randrange(10, 40)):
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_over:
            states.append(state)

    def all_states() -> int:
        for state in states:
            state.legal_actions()
        return len(states)

    return 1e6 / per_second(all_states, seconds)


def mcts_iterations_per_second(
    game: Game, seconds: float, seed: int = 0, compiled: bool = False
) -> float:
    """Search iterations per second of the ``mcts`` bot from mid-game positions, in
    Python or (``compiled``, as ``mcts:strong``) in its C kernel."""
    from .bots.greedy import GreedyBot
    from .bots.mcts import MctsBot, Settings

    state = game.new_state(seed)
    greedy = GreedyBot(seed)
    for _ in range(4 * game.players):
        state.apply(greedy.choose(state.view()))
    bot = MctsBot(Settings(iterations=2_000_000, max_seconds=seconds, compiled=compiled), seed)
    start = time.perf_counter()
    root = bot.search(state.view())
    return root.visits / (time.perf_counter() - start)


def selfplay_bench(seconds: float, runs: int, players: tuple[int, ...] = (2,)) -> None:
    """Raw random games against ``random`` bots in the selfplay harness."""

    def raw(count: int) -> float:
        return playouts_per_second(Game(players=count), seconds)

    print_selfplay_bench(get_game("nova-luna"), raw, seconds, runs, players)


def run_bench(seconds: float = 1.0, runs: int = 5, selfplay: bool = False) -> int:
    print(f"novaluna bench: median of {runs} runs of {seconds:g} s each, one process")
    if selfplay:
        selfplay_bench(seconds, runs, players=(1, 2, 4))
        return 0
    for label, game in (
        ("solo", Game(players=1)),
        ("2 players", Game(players=2)),
        ("3 players", Game(players=3)),
        ("4 players", Game(players=4)),
    ):
        median, values = median_of(partial(playouts_per_second, game, seconds), runs)
        spread = ", ".join(f"{v:.0f}" for v in values)
        print(f"  random playouts, {label:9}: {median:7.0f} games/s   (runs: {spread})")
    median, values = median_of(lambda: legal_action_microseconds(Game(2), seconds), runs)
    print(f"  legal_actions(), 2 players mid-game: {median:.1f} µs per call")
    from .bots.compiled import mcts_kernel

    kinds = [("", False)] + [(", in C", True)] * (mcts_kernel is not None)
    for players in (2, 4):
        for kind, compiled in kinds:
            median, values = median_of(
                partial(mcts_iterations_per_second, Game(players), seconds, compiled=compiled),
                runs,
            )
            spread = ", ".join(f"{v:.0f}" for v in values)
            print(
                f"  mcts search{kind}, {players} players mid-game: {median:.0f} iterations/s"
                f"   (runs: {spread})"
            )
    selfplay_bench(seconds, runs)
    return 0
