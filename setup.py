"""Builds the bots' C search kernels and NMBR 9's optional research mask; everything else
is in pyproject.toml."""

import platform

from setuptools import Extension, setup

# popcount in one instruction where the CPU has it (every x86-64 machine of this kind)
POPCOUNT = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []

setup(
    ext_modules=[
        Extension(
            "tabletop.games.novaluna.bots._solokernel",
            ["src/tabletop/games/novaluna/bots/_solokernel.c"],
            extra_compile_args=["-O2", "-std=c11", "-pthread"],
            extra_link_args=["-pthread"],
        ),
        Extension(
            "tabletop.games.nmbr9.bots._nmbr9kernel",
            ["src/tabletop/games/nmbr9/bots/_nmbr9kernel.c"],
            # no fused multiply-add: evaluations, and so a seed's moves, are the same
            # on every machine
            extra_compile_args=["-O2", "-std=c11", "-pthread", "-ffp-contract=off", *POPCOUNT],
            extra_link_args=["-pthread"],
        ),
        # The research encoding's mask in C: optional, the encoding falls back to the
        # pure Python mask without it (``tabletop.games.nmbr9.encoding.COMPILED``)
        Extension(
            "tabletop.games.nmbr9._nmbr9fast",
            ["src/tabletop/games/nmbr9/_nmbr9fast.c"],
            extra_compile_args=["-O2", "-std=c11"],
            optional=True,
        ),
    ]
)
