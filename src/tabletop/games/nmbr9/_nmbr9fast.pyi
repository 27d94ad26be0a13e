"""Types of the research mask in C (``_nmbr9fast.c``): mypy cannot read a compiled module."""

from collections.abc import Sequence

def setup(
    shapes: Sequence[Sequence[Sequence[tuple[int, int]]]], distinct: Sequence[Sequence[int]], /
) -> None: ...
def window_mask(
    out: object, tiles: Sequence[tuple[int, int, int, int, int]], digit: int, size: int, /
) -> None: ...
def mask_indices(mask: object, /) -> list[int]: ...
