"""NMBR 9 for PettingZoo, by PettingZoo's convention: ``env()`` and ``raw_env()``
(keyword arguments as ``aec.TabletopEnv``'s for ``"nmbr9"``).

>>> from tabletop.research import nmbr9_v0
>>> env = nmbr9_v0.env(players=4)
>>> env.reset(seed=7)
>>> env.possible_agents
['player_0', 'player_1', 'player_2', 'player_3']
"""

from __future__ import annotations

from functools import partial

from . import aec

env = partial(aec.env, "nmbr9")
raw_env = partial(aec.raw_env, "nmbr9")

__all__ = ["env", "raw_env"]
