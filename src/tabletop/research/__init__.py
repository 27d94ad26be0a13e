"""Environments for AI research: PettingZoo AEC and Gymnasium, for both games.

Needs the optional extra ``rl`` (``pip install 'tabletop[rl]'``: gymnasium,
pettingzoo, numpy); the rest of ``tabletop`` never imports this package.
Importing it registers the Gymnasium environments:

>>> import gymnasium, tabletop.research
>>> env = gymnasium.make("tabletop/Nmbr9Solo-v0")
>>> obs, info = env.reset(seed=0)
>>> int(info["action_mask"].sum()) > 0
True

PettingZoo has no registry: ``tabletop.research.novaluna_v0.env()`` and
``tabletop.research.nmbr9_v0.env()`` make the AEC environments.
See docs/research-pettingzoo.md and docs/research-gymnasium.md.
``tabletop.research.openspiel`` (needs open-spiel, also in the extra) registers
the OpenSpiel games on import: docs/research-openspiel.md.
"""

from __future__ import annotations

import gymnasium

for _name, _entry in (
    ("NovaLunaSolo-v0", "tabletop.research.gym:NovaLunaSoloEnv"),
    ("Nmbr9Solo-v0", "tabletop.research.gym:Nmbr9SoloEnv"),
):
    if f"tabletop/{_name}" not in gymnasium.registry:
        gymnasium.register(id=f"tabletop/{_name}", entry_point=_entry)
