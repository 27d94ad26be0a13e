"""Types of mcts's C kernel (``_mctskernel.c``): mypy cannot read a compiled module."""

from collections.abc import Sequence

#: (players, solo, phase, meeple, on_wheel, drawn, current, refilled, over, turn,
#: next_stamp, phase1_score, phase1_discs, wheel, supply, time, stamp, displays, covered): the
#: last five one entry per seat, a display ((x, y, tile, open task mask), ...) in the
#: order laid.
KernelPosition = tuple[
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[tuple[tuple[int, int, int, int], ...], ...],
    tuple[int, ...],
]
#: (candidates, rollout plies, rollout samples, exploration, time weight, near weight,
#: sharpness, weights of tasks two and three or more tiles short, turn weight):
#: ``mcts.Settings``.
KernelParams = tuple[int, int, int, float, float, float, float, float, float, float]
#: (space, x, y, visits, summed value): space -1 is "end phase 1", -2 "refill".
KernelChild = tuple[int, int, int, int, float]

def setup(
    colors: Sequence[int],
    costs: Sequence[int],
    tasks: Sequence[Sequence[Sequence[tuple[int, int]]]],
    /,
) -> None: ...
def search(
    position: KernelPosition,
    unseen: Sequence[int],
    params: KernelParams,
    iterations: int,
    max_seconds: float,
    seed: int,
    played: tuple[int, int, int] | None = None,
    fair: int = 0,
    /,
) -> tuple[int, list[KernelChild], int]: ...
def candidates(
    position: KernelPosition, params: KernelParams, /
) -> list[tuple[tuple[int, int, int], float]]: ...
def leaf(position: KernelPosition, params: KernelParams, /) -> list[float]: ...
