"""Nova Luna for PettingZoo, by PettingZoo's convention: ``env()`` and ``raw_env()``.

>>> from tabletop.research import novaluna_v0
>>> env = novaluna_v0.env(players=3)
>>> env.reset(seed=7)
>>> env.possible_agents
['player_0', 'player_1', 'player_2']
"""

from __future__ import annotations

from .aec import NovaLunaEnv, OrderEnforcingWrapper


def raw_env(**kwargs) -> NovaLunaEnv:
    """The bare environment (keyword arguments as ``NovaLunaEnv``)."""
    return NovaLunaEnv(**kwargs)


def env(**kwargs):
    """The environment with PettingZoo's order checks (``aec.OrderEnforcingWrapper``, a
    faster ``last()`` on PettingZoo's own). The raw environment checks every action itself
    (``IllegalActionError``), so PettingZoo's ``AssertOutOfBoundsWrapper`` would only
    repeat that check."""
    return OrderEnforcingWrapper(raw_env(**kwargs))


__all__ = ["env", "raw_env"]
