"""NMBR 9's OpenSpiel game with its hot methods in C: ``CompiledChanceEncoder``.

The pure Python rules and encoder cost some 50 µs a step, more than a training loop's
budget (20,000 steps a second), so ``Nmbr9Setup.undealt()`` hands OpenSpiel this
encoder where the optional C extension ``_nmbr9fast`` is built (``COMPILED``) and the
number of cards removed is fixed: what every step asks (the seat to act, chance
outcomes, legal actions, applying them, observations, the result) is answered by
``_nmbr9fast.Game``, a twin of ``encoding.ChanceEncoder``.

The Python stays the reference (``research.compiled``: everything else, the rules'
state, text, the index of a rules' placement, reordering the deck for ISMCTS, is asked
of a ``ChanceEncoder`` replayed from this game's log; an action the C game refuses is
handed to it, so that the error is the rules' own). Tests
(tests/research/test_nmbr9_compiled.py) play both side by side over random games.

>>> from tabletop.games.nmbr9.encoding import ENCODING
>>> game = CompiledChanceEncoder(ENCODING.setup(2))
>>> game.acting(), game.chance_outcomes()[:2]
(-1, [(0, 0.1), (1, 0.1)])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ...research.compiled import CompiledChanceEncoder as CompiledGame
from .encoding import WINDOW_FULL, ChanceEncoder
from .information import ChanceInformation
from .rules import CARDS, State
from .window import COMPILED as MASK_COMPILED

if TYPE_CHECKING:
    from .encoding import Nmbr9Setup

if MASK_COMPILED:
    from . import _nmbr9fast

#: Whether OpenSpiel's NMBR 9 runs in C (the optional extension ``_nmbr9fast``, built by
#: ``pip install`` where a C compiler is found); the Python ``ChanceEncoder`` otherwise,
#: the same game (tests check it). ``python -m tabletop.research.bench`` says which.
COMPILED = MASK_COMPILED


class CompiledChanceEncoder(CompiledGame, ChanceInformation):
    """``ChanceEncoder``'s game (same answers, same errors), its hot methods in C."""

    __slots__ = ()
    setup: Nmbr9Setup

    def __init__(self, setup: Nmbr9Setup) -> None:
        assert COMPILED, "the C extension is not built (see COMPILED)"
        assert setup.rules.remove is not None, "a random removal is the Python game's"
        super().__init__(setup)

    def _new_game(self, setup: Nmbr9Setup) -> Any:
        return _nmbr9fast.Game(setup.players, CARDS - (setup.rules.remove or 0), setup.size)

    def _new_reference(self, setup: Nmbr9Setup) -> ChanceEncoder:
        return ChanceEncoder(setup)

    @property
    def state(self) -> State:
        return self.reference.state

    @property
    def stuck(self) -> bool:
        """A seat that had to place found no placement in the window: the game ended."""
        return self._game.stuck

    @property
    def truncation(self) -> str | None:
        """``WINDOW_FULL`` once a seat had no placement in the window (the game ended)."""
        return WINDOW_FULL if self._game.stuck else None

    def legal_actions(self, seat: int) -> list[int]:
        """The seat's placements if it has still to place this round (the round is
        simultaneous: whether or not it acts first)."""
        if self._game.in_round:
            return self._game.legal_actions(seat)
        return self.reference.legal_actions(seat)

    def mask(self, seat: int) -> np.ndarray:
        if not self._game.in_round:
            return self.reference.mask(seat)
        mask = np.zeros(self.setup.actions, np.int8)
        self._game.mask(seat, mask)
        return mask

    def public_observe(self) -> np.ndarray:
        out = np.empty(self.setup.observation_shape, np.int16)
        self._game.public_observe(out)
        return out

    def scores(self) -> list[int]:
        return self._game.scores()

    def public_render(self) -> str:
        return self.reference.public_render()

    # the history's text needs no position: no replay of the reference for it
    action_string = ChanceInformation.action_string
    chance_string = ChanceInformation.chance_string


def undealt(setup: Nmbr9Setup) -> CompiledChanceEncoder | ChanceEncoder:
    """OpenSpiel's undealt game: the compiled one where it is built (and the number of
    cards removed is fixed: a random removal stays the Python game's)."""
    if COMPILED and setup.rules.remove is not None:
        return CompiledChanceEncoder(setup)
    return ChanceEncoder(setup)


__all__ = ["COMPILED", "CompiledChanceEncoder", "undealt"]
