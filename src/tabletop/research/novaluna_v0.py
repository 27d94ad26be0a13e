"""Nova Luna for PettingZoo, by PettingZoo's convention: ``env()`` and ``raw_env()``
(keyword arguments as ``aec.TabletopEnv``'s for ``"nova-luna"``).

>>> from tabletop.research import novaluna_v0
>>> env = novaluna_v0.env(players=3)
>>> env.reset(seed=7)
>>> env.possible_agents
['player_0', 'player_1', 'player_2']
"""

from __future__ import annotations

from functools import partial

from . import aec

env = partial(aec.env, "nova-luna")
raw_env = partial(aec.raw_env, "nova-luna")

__all__ = ["env", "raw_env"]
