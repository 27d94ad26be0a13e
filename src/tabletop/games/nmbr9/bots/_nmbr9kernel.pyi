"""Types of the C search kernel (``_nmbr9kernel.c``): mypy cannot read a compiled module."""

from collections.abc import Sequence
from typing import Literal, TypedDict, overload

#: A laid tile as the kernel takes it: (digit, rotation, x, y, level), in placement order.
KernelTile = tuple[int, int, int, int, int]

class Candidate(TypedDict):
    """One of the placements played out (Monte Carlo mode only)."""

    move: tuple[int, int, int, int]  # rotation, x, y, level
    mean: float  # mean final score over its sampled futures
    heur: float  # the one-move evaluation
    samples: int

class ChooseInfo(TypedDict):
    level: int
    legal_moves: int
    rollouts: int
    value: float
    seconds: float
    candidates: list[Candidate]  # best first; empty in greedy mode

def setup_tiles(rows: Sequence[Sequence[str]], /) -> None: ...
def legal_placements(
    tiles: Sequence[KernelTile], digit: int, /
) -> list[tuple[int, int, int, int]]: ...
def choose(
    tiles: Sequence[KernelTile],
    digit: int,
    remaining: Sequence[int],
    rounds_left: int,
    seed: int = 0,
    **settings: object,
) -> tuple[int, int, int, ChooseInfo]: ...
@overload
def solo_scores(
    decks: Sequence[Sequence[int]],
    *,
    seed: int = 0,
    game_threads: int = 1,
    timing: Literal[False] = False,
    **settings: object,
) -> list[int]: ...
@overload
def solo_scores(
    decks: Sequence[Sequence[int]],
    *,
    seed: int = 0,
    game_threads: int = 1,
    timing: Literal[True],
    **settings: object,
) -> tuple[list[int], list[list[float]], list[int]]: ...
def default_weights() -> list[float]: ...
def shapes() -> dict[int, list[tuple[int, list[tuple[int, int]]]]]: ...
def candidates(
    tiles: Sequence[KernelTile],
    digit: int,
    remaining: Sequence[int],
    rounds_left: int,
    count: int = 16,
    /,
    **settings: object,
) -> list[tuple[int, int, int, int]]: ...
def evaluate(
    tiles: Sequence[KernelTile],
    digit: int,
    remaining: Sequence[int],
    rounds_left: int,
    moves: Sequence[tuple[int, int, int]],
    samples: int,
    /,
    seed: int = 0,
    **settings: object,
) -> list[list[int]]: ...
def hindsight(
    cards: Sequence[int], /, width: int = 8, **settings: object
) -> tuple[int, list[tuple[int, int, int, int]]]: ...
def features(
    tiles: Sequence[KernelTile], remaining: Sequence[int], rounds_left: int, /
) -> list[float]: ...
def value(
    tiles: Sequence[KernelTile],
    remaining: Sequence[int],
    rounds_left: int,
    model: Sequence[float],
    /,
) -> float: ...
