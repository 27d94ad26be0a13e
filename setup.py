"""Builds the bots' C search kernels and the research encodings' C loops; everything
else is in pyproject.toml.

Every extension is optional: on a machine without a C compiler setuptools prints the
compile error and the install goes on without it. The package then plays its pure
Python bots in place of the planners and says so (``tabletop.core.kernels``), and the
research encodings use their pure Python and numpy paths, to the same results
(``tabletop.games.nmbr9.encoding.COMPILED``, ``tabletop.research.encoding.TENSORS_COMPILED``;
``python -m tabletop.research.bench`` says which serve).
"""

import platform

from setuptools import Extension, setup

# popcount in one instruction where the CPU has it (every x86-64 machine of this kind)
POPCOUNT = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []

setup(
    ext_modules=[
        # The solo planner's search: without it the solo levels play as greedy
        Extension(
            "tabletop.games.novaluna.bots._solokernel",
            ["src/tabletop/games/novaluna/bots/_solokernel.c"],
            extra_compile_args=["-O2", "-std=c11", "-pthread"],
            extra_link_args=["-pthread"],
            optional=True,
        ),
        # Nova Luna's mcts searching in C (its strong level): without it that level
        # searches in Python, with fewer iterations in its time
        Extension(
            "tabletop.games.novaluna.bots._mctskernel",
            ["src/tabletop/games/novaluna/bots/_mctskernel.c"],
            depends=["src/tabletop/games/novaluna/_novalunarules.h"],
            extra_compile_args=["-O2", "-std=c11", "-ffp-contract=off"],
            optional=True,
        ),
        # NMBR 9's planner and analysis: without it the planner plays as greedy
        Extension(
            "tabletop.games.nmbr9.bots._nmbr9kernel",
            ["src/tabletop/games/nmbr9/bots/_nmbr9kernel.c"],
            # no fused multiply-add: evaluations, and so a seed's moves, are the same
            # on every machine
            extra_compile_args=["-O2", "-std=c11", "-pthread", "-ffp-contract=off", *POPCOUNT],
            extra_link_args=["-pthread"],
            optional=True,
        ),
        # NMBR 9's OpenSpiel game and research mask in C: without it the pure Python
        # ChanceEncoder and mask serve
        Extension(
            "tabletop.games.nmbr9._nmbr9fast",
            ["src/tabletop/games/nmbr9/_nmbr9fast.c"],
            # no fused multiply-add: the scaled observation is bitwise Scaler's
            extra_compile_args=["-O2", "-std=c11", "-ffp-contract=off"],
            optional=True,
        ),
        # The research tensors' scaling and listing in C: without it numpy serves
        Extension(
            "tabletop.research._tensorfast",
            ["src/tabletop/research/_tensorfast.c"],
            # -O3: the scaling loop vectorised (SSE2 holds the same float32 rounding)
            extra_compile_args=["-O3", "-std=c11", "-ffp-contract=off"],
            optional=True,
        ),
        # Nova Luna's OpenSpiel game (chance nodes, observation, mask) in C: without it
        # the pure Python ChanceEncoder serves
        Extension(
            "tabletop.games.novaluna._novalunafast",
            ["src/tabletop/games/novaluna/_novalunafast.c"],
            depends=["src/tabletop/games/novaluna/_novalunarules.h"],
            # no fused multiply-add: the scaled observation is bitwise Scaler's
            extra_compile_args=["-O2", "-std=c11", "-ffp-contract=off"],
            optional=True,
        ),
    ]
)
