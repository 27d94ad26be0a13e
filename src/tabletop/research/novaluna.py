"""Nova Luna's encoding under its former name: ``tabletop.games.novaluna.encoding``.

>>> from tabletop.research import novaluna
>>> novaluna.ACTIONS, novaluna.observation_size(2)
(23765, 944)
"""

from ..games.novaluna.encoding import *  # noqa: F403  (every public name)
