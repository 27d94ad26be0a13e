"""The bots' compiled search kernels: the solo planner's (``_solokernel.c``) and
mcts's (``_mctskernel.c``), imported here and nowhere else, because setup.py builds
them as optional extensions.

Where ``pip install`` found no C compiler, ``kernel`` and ``mcts_kernel`` are None:
the ``solo`` levels play as ``greedy`` (in the solo game the strongest bot in pure
Python: it scores better there than ``mcts``), solo games cannot be analysed (games of
2-4 players can: their analysis searches with ``mcts`` in Python), and ``mcts:strong``
searches in Python, with far fewer iterations in its time. ``KERNEL`` says so
(``tabletop.core.kernels``); a compiler builds both kernels or neither.
"""

from __future__ import annotations

from ....core.kernels import Kernel

try:
    from . import _mctskernel as mcts_kernel
    from . import _solokernel as kernel
except ImportError:  # installed without a C compiler
    kernel = None  # type: ignore[assignment]
    mcts_kernel = None  # type: ignore[assignment]

KERNEL = Kernel(
    "Nova Luna",
    kernel,
    ("solo",),
    "greedy",
    "mcts:strong searches in Python; solo games cannot be analysed",
    label="the solo planner bots",
)

__all__ = ["KERNEL", "kernel", "mcts_kernel"]
