"""NMBR 9's encoding under its former name: ``tabletop.games.nmbr9.encoding``.

>>> from tabletop.research import nmbr9
>>> nmbr9.SIZE, nmbr9.actions()
(40, 6400)
"""

from ..games.nmbr9.encoding import *  # noqa: F403  (every public name)
