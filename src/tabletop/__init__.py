"""tabletop: a platform for tile-laying games, and the games it hosts.

* ``core`` — the interfaces a game offers the platform, errors, the bot registry;
* ``games/`` — Nova Luna (``games.novaluna``) and NMBR 9 (``games.nmbr9``), side by side;
* ``harness`` — selfplay, tournaments and the solo benchmark, for any game;
* ``server`` and ``web`` — the web server and the page shell;
* ``cli`` — the ``novaluna`` and ``nmbr9`` commands; ``records`` and ``console`` —
  record files and terminal input, shared by the games.
"""

__version__ = "0.2.0"
