"""Toy Draft: a tiny third game that lives under ``tests/`` and is hosted by the platform
only when the tests register it (``tests/conftest.py``): the proof that a game is one
folder. See ``docs/adding-a-game.md``.

Its files: ``rules.py`` (the engine), ``records.py`` (the record format, replay),
``bots.py`` (``random``, ``greedy``), ``page.py`` (the browser hooks), ``gametype.py``
(the ``GameType``), ``web/`` (the page module), and its tests beside them.
"""

#: ``register_game(NAME, TARGET)`` hosts it (the package: its ``gametype:GAME``);
#: ``TABLETOP_GAMES=toy=toygame`` does for another process (with ``tests/`` on its
#: ``PYTHONPATH``).
NAME = "toy"
TARGET = "toygame"
