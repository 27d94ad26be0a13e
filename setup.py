"""Builds the solo planner's C search kernel; everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "tabletop.games.novaluna.bots._solokernel",
            ["src/tabletop/games/novaluna/bots/_solokernel.c"],
            extra_compile_args=["-O2", "-std=c11", "-pthread"],
            extra_link_args=["-pthread"],
        )
    ]
)
