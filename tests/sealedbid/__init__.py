"""Sealed Bids: a small simultaneous game that lives under ``tests/`` and is hosted by
the platform only when the tests register it (``tests/conftest.py``), beside Toy Draft
(``tests/toygame``): the example of docs/adding-a-game.md, "A simultaneous game".

Its files: ``rules.py`` (the engine), ``records.py`` (the record format, replay, seat
records), ``bots.py`` (``random``, ``greedy``), ``page.py`` (the browser hooks),
``gametype.py`` (the ``GameType``), ``encoding.py`` (the research encoding), ``web/``
(the page module), and its tests beside them. What every simultaneous game shares —
the round log, take-back, undo, hidden seat-record entries, the hidden history of the
research encoding — comes from the platform (``tabletop.core.rounds``,
``tabletop.research.rounds``).
"""

#: ``register_game(NAME, TARGET)`` hosts it (the package: its ``gametype:GAME``);
#: ``TABLETOP_GAMES=sealed-bids=sealedbid`` does for another process (with ``tests/``
#: on its ``PYTHONPATH``).
NAME = "sealed-bids"
TARGET = "sealedbid"
