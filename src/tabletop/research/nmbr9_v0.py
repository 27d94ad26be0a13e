"""NMBR 9 for PettingZoo, by PettingZoo's convention: ``env()`` and ``raw_env()``
(keyword arguments as ``aec.TabletopEnv``'s for ``"nmbr9"``), and ``parallel_env()``,
a round per step (``parallel.TabletopParallelEnv``: rounds are simultaneous).

>>> from tabletop.research import nmbr9_v0
>>> env = nmbr9_v0.env(players=4)
>>> env.reset(seed=7)
>>> env.possible_agents
['player_0', 'player_1', 'player_2', 'player_3']
>>> observations, infos = parallel_env(players=2).reset(seed=7)
>>> sorted(observations)
['player_0', 'player_1']
"""

from __future__ import annotations

from functools import partial

from . import aec, parallel

env = partial(aec.env, "nmbr9")
raw_env = partial(aec.raw_env, "nmbr9")
parallel_env = partial(parallel.parallel_env, "nmbr9")

__all__ = ["env", "parallel_env", "raw_env"]
