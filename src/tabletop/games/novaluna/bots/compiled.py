"""The solo planner's compiled search kernel (``_solokernel.c``): imported here and
nowhere else, because setup.py builds it as an optional extension.

Where ``pip install`` found no C compiler, ``kernel`` is None: the ``solo`` levels
play as ``greedy`` (in the solo game the strongest bot in pure Python: it scores
better there than ``mcts``), and solo games cannot be analysed (games of 2-4 players
can: their analysis searches with ``mcts``). ``KERNEL`` says so
(``tabletop.core.kernels``).
"""

from __future__ import annotations

from ....core.kernels import Kernel

try:
    from . import _solokernel as kernel
except ImportError:  # installed without a C compiler
    kernel = None  # type: ignore[assignment]

KERNEL = Kernel(
    "Nova Luna",
    kernel,
    ("solo",),
    "greedy",
    "solo games cannot be analysed",
    label="the solo planner bots",
)

__all__ = ["KERNEL", "kernel"]
