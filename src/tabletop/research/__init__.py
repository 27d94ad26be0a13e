"""Environments for AI research: PettingZoo AEC, Gymnasium and OpenSpiel, written once
over each game's encoding (``research.encoding``; ``GameType.research`` names it).

Needs the optional extra ``rl`` (``pip install 'tabletop[rl]'``: gymnasium,
pettingzoo, numpy); the rest of ``tabletop`` never imports this package.
Importing it registers the Gymnasium environments of every game with a solo mode:

>>> import gymnasium, tabletop.research
>>> env = gymnasium.make("tabletop/Nmbr9Solo-v0")
>>> obs, info = env.reset(seed=0)
>>> int(info["action_mask"].sum()) > 0
True

PettingZoo has no registry: ``tabletop.research.aec.env(game)`` makes a game's AEC
environment, ``tabletop.research.novaluna_v0.env()`` and ``nmbr9_v0.env()`` those of
the two games. See docs/research-pettingzoo.md and docs/research-gymnasium.md.
``tabletop.research.openspiel`` (needs open-spiel, also in the extra) registers
the OpenSpiel games on import: docs/research-openspiel.md.
"""

from __future__ import annotations

try:
    from .gym import register as _register_gym
except ModuleNotFoundError as err:  # the base install has none of the extra rl
    if err.name not in ("gymnasium", "numpy", "pettingzoo"):
        raise
    raise ModuleNotFoundError(
        f"tabletop.research needs {err.name}, in the optional extra rl: pip install 'tabletop[rl]'",
        name=err.name,
    ) from err

_register_gym()
