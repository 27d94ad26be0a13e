"""The planner's compiled search kernel (``_nmbr9kernel.c``): imported here and
nowhere else, because setup.py builds it as an optional extension.

Where ``pip install`` found no C compiler, ``kernel`` is None: the ``planner`` levels
play as ``greedy`` (the strongest bot in pure Python), and games cannot be analysed
(the analysis and its hindsight search in the kernel). ``KERNEL`` says so
(``tabletop.core.kernels``).
"""

from __future__ import annotations

from ....core.kernels import Kernel

try:
    from . import _nmbr9kernel as kernel
except ImportError:  # installed without a C compiler
    kernel = None  # type: ignore[assignment]

KERNEL = Kernel("NMBR 9", kernel, ("planner",), "greedy", "games cannot be analysed")

__all__ = ["KERNEL", "kernel"]
