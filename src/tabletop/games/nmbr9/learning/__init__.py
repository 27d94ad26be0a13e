"""A learned evaluation for the NMBR 9 planner: a value model fitted to the planner's
own rollout games (``train``), shipped as ``data/value_model.json`` and read by
``value`` (numpy reference, mapping onto the kernel's settings).

Train it again with ``python -m tabletop.games.nmbr9.learning --out FILE`` (see
``train`` and docs/learned-evaluation.md)."""
