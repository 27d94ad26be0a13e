"""Types of the solo planner's C kernel (``_solokernel.c``): mypy cannot read a
compiled module."""

from collections.abc import Sequence

#: A display as the kernel takes it: ((cell key, tile id), ...), sorted.
KernelDisplay = Sequence[tuple[int, int]]
#: (space, cell key), or (-1, None) for "end phase 1".
KernelMove = tuple[int, int | None]
#: (value, moves, end display, end wheel, end meeple, discs, cost)
SearchLine = tuple[
    float, tuple[KernelMove, ...], tuple[tuple[int, int], ...], tuple[int, ...], int, int, int
]
#: A phase-1 end state: (display, wheel, meeple).
KernelEnd = tuple[KernelDisplay, Sequence[int], int]

def setup_tiles(
    colors: Sequence[int],
    costs: Sequence[int],
    tasks: Sequence[Sequence[Sequence[tuple[int, int]]]],
    /,
) -> None: ...
def search(
    display: KernelDisplay,
    wheel: Sequence[int],
    meeple: int,
    phase: int,
    phase1_tiles: int,
    params: Sequence[float],
    beam: int,
    budget: int,
    keep: int,
    allow_end: bool,
    /,
) -> tuple[list[SearchLine], int]: ...
def counts(display: KernelDisplay, /) -> tuple[int, int, int, int, int]: ...
def gain(display: KernelDisplay, tile: int, cell: int, /) -> tuple[int, int, int, int, int]: ...
def phase2_scores(
    ends: Sequence[KernelEnd],
    orders: Sequence[Sequence[int]],
    params: Sequence[float],
    beam: int,
    budget: int,
    threads: int = 1,
    /,
) -> tuple[list[list[float]], int]: ...
