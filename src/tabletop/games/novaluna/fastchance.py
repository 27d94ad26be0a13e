"""Nova Luna's OpenSpiel game with its hot methods in C: ``CompiledChanceEncoder``.

The pure Python rules cost some 30 µs a step, more than a training loop's whole budget
(40,000 steps a second), so ``NovaLunaSetup.undealt()`` hands OpenSpiel this encoder
where the optional C extension ``_novalunafast`` is built (``COMPILED``): what every step
asks (the seat to act, chance outcomes, legal actions, applying them, observations,
the result) is answered by ``_novalunafast.Game``, a twin of ``chance.ChanceEncoder``.

The Python stays the reference (``research.compiled``: everything else, the rules'
state, text, action indices of the rules' actions, reordering the unseen pile for
ISMCTS, is asked of a ``ChanceEncoder`` replayed from this game's log; an action the C
game refuses is handed to it, so that the error is the rules' own). Tests
(tests/research/test_novaluna_compiled.py) play both side by side over random games.

>>> from tabletop.games.novaluna.encoding import ENCODING
>>> game = CompiledChanceEncoder(ENCODING.setup(2))
>>> game.acting(), game.chance_outcomes()
(-1, [(0, 0.5), (1, 0.5)])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ...research.compiled import CompiledChanceEncoder as CompiledGame
from .chance import ChanceEncoder, ChanceInformation
from .encoding import ACTIONS
from .rules import State
from .rules.tiles import TILE_COLOR, TILE_COST, TILE_TASKS

if TYPE_CHECKING:
    from .encoding import NovaLunaSetup

try:
    from . import _novalunafast
except ImportError:  # built without a C compiler: OpenSpiel plays the Python game
    _novalunafast = None  # type: ignore[assignment]
else:
    _novalunafast.setup(TILE_COLOR, TILE_COST, TILE_TASKS)

#: Whether OpenSpiel's Nova Luna runs in C (the optional extension ``_novalunafast``,
#: built by ``pip install`` where a C compiler is found); the Python ``ChanceEncoder``
#: otherwise, the same game (tests check it). ``python -m tabletop.research.bench``
#: says which.
COMPILED = _novalunafast is not None


class CompiledChanceEncoder(CompiledGame, ChanceInformation):
    """``ChanceEncoder``'s game (same answers, same errors), its hot methods in C."""

    __slots__ = ()
    setup: NovaLunaSetup

    def __init__(self, setup: NovaLunaSetup) -> None:
        assert _novalunafast is not None, "the C extension is not built (see COMPILED)"
        super().__init__(setup)

    def _new_game(self, setup: NovaLunaSetup) -> Any:
        return _novalunafast.Game(setup.players, setup.rules.supply)

    def _new_reference(self, setup: NovaLunaSetup) -> ChanceEncoder:
        return ChanceEncoder(setup)

    @property
    def state(self) -> State | None:
        return self.reference.state

    @property
    def truncation(self) -> str | None:
        return None

    def legal_actions(self, seat: int) -> list[int]:
        if seat == self._game.acting():
            return self._game.legal_actions()
        return self.reference.legal_actions(seat)

    def mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(ACTIONS, np.int8)
        if seat == self._game.acting():
            self._game.mask(mask)
        return mask


def undealt(setup: NovaLunaSetup) -> CompiledChanceEncoder | ChanceEncoder:
    """OpenSpiel's undealt game: the compiled one where it is built."""
    return CompiledChanceEncoder(setup) if COMPILED else ChanceEncoder(setup)


__all__ = ["COMPILED", "CompiledChanceEncoder", "undealt"]
