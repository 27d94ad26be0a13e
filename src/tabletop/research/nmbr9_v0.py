"""NMBR 9 for PettingZoo, by PettingZoo's convention: ``env()`` and ``raw_env()``.

>>> from tabletop.research import nmbr9_v0
>>> env = nmbr9_v0.env(players=4)
>>> env.reset(seed=7)
>>> env.possible_agents
['player_0', 'player_1', 'player_2', 'player_3']
"""

from __future__ import annotations

from .aec import Nmbr9Env, OrderEnforcingWrapper


def raw_env(**kwargs) -> Nmbr9Env:
    """The bare environment (keyword arguments as ``Nmbr9Env``)."""
    return Nmbr9Env(**kwargs)


def env(**kwargs):
    """The environment with PettingZoo's order checks (``aec.OrderEnforcingWrapper``, a
    faster ``last()`` on PettingZoo's own). The raw environment checks every action itself
    (``IllegalActionError``), so PettingZoo's ``AssertOutOfBoundsWrapper`` would only
    repeat that check."""
    return OrderEnforcingWrapper(raw_env(**kwargs))


__all__ = ["env", "raw_env"]
