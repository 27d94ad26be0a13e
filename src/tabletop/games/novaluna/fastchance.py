"""Nova Luna's games with their hot methods in C: OpenSpiel's ``CompiledChanceEncoder``
and PettingZoo's and Gymnasium's dealt ``CompiledEncoder``.

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

``NovaLunaSetup.deal(seed, options)`` hands PettingZoo and Gymnasium a
``CompiledEncoder`` where C is built: the same compiled game, which applies the seeded
deal's chance outcomes itself (the start stack, then the pile's tiles in draw order)
whenever it reaches a chance node, so that it plays as the Python ``Encoder`` of the
same deal, its reference (tests/research/test_novaluna_compiled_dealt.py).

>>> from tabletop.games.novaluna.encoding import ENCODING
>>> game = CompiledChanceEncoder(ENCODING.setup(2))
>>> game.acting(), game.chance_outcomes()
(-1, [(0, 0.5), (1, 0.5)])
>>> dealt = CompiledEncoder(ENCODING.setup(2), 7, {})
>>> dealt.acting() == ENCODING.setup(2).deal_python(7, {}).acting()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ...research.compiled import CompiledChanceEncoder as CompiledGame
from ...research.compiled import CompiledEncoder as CompiledDealtGame
from ...research.encoding import CHANCE
from .chance import ChanceEncoder, ChanceInformation
from .encoding import ACTIONS, Encoder
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


class CompiledChanceEncoder(
    CompiledGame["NovaLunaSetup", "_novalunafast.Game", ChanceEncoder], ChanceInformation
):
    """``ChanceEncoder``'s game (same answers, same errors), its hot methods in C."""

    __slots__ = ()

    def __init__(self, setup: NovaLunaSetup) -> None:
        assert _novalunafast is not None, "the C extension is not built (see COMPILED)"
        super().__init__(setup)

    def _new_game(self, setup: NovaLunaSetup) -> _novalunafast.Game:
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


class CompiledEncoder(CompiledDealtGame["NovaLunaSetup", "_novalunafast.Game", Encoder]):
    """The Python ``Encoder`` of ``setup.deal_python(seed, options)`` (same answers,
    same errors), its hot methods in C: the compiled game of ``CompiledChanceEncoder``
    draws what the seeded deal draws, so that no caller ever sees a chance node.

    The log holds the seats' actions only; the reference is ``deal_python``'s encoder of
    the same deal, replayed from it (``research.compiled``).

    >>> from tabletop.games.novaluna.encoding import ENCODING
    >>> game = CompiledEncoder(ENCODING.setup(1), 3, {})
    >>> game.apply(game.legal_actions(0)[0], 0)
    >>> game.state.turn, game.copy().state.turn
    (1, 1)
    """

    __slots__ = ("_first", "_deal", "_drawn")

    def __init__(self, setup: NovaLunaSetup, seed: int, options: Mapping[str, Any]) -> None:
        assert _novalunafast is not None, "the C extension is not built (see COMPILED)"
        # the rules deal it (and check the options): its pile order and start stack are
        # the chance outcomes, as spiel_history reads a dealt game
        first = setup.rules.new_state(
            seed, pile=options.get("pile"), start_stack=options.get("start_stack")
        )
        self._first = first  # never changed: each reference starts from a clone
        stack = (setup.stacks.index(first.start_stack),) if setup.players > 1 else ()
        self._deal = stack + tuple(tile - 1 for tile in first.pile_order())
        self._drawn = 0  # outcomes of the deal applied
        super().__init__(setup)
        self._draw()

    def _new_game(self, setup: NovaLunaSetup) -> _novalunafast.Game:
        return _novalunafast.Game(setup.players, setup.rules.supply)

    def _new_reference(self, setup: NovaLunaSetup) -> Encoder:
        return Encoder(self._first.clone())

    def _draw(self) -> None:
        """Apply the deal's next outcomes while the compiled game is at a chance node."""
        game, deal, drawn = self._game, self._deal, self._drawn
        while game.acting() == CHANCE:
            game.apply_chance(deal[drawn])
            drawn += 1
        self._drawn = drawn

    # -- copies and pickles -------------------------------------------------------------

    def _arguments(self) -> tuple[Any, ...]:
        """Pickled as the deal (``research.compiled``), not the seed."""
        first = self._first
        return self.setup, 0, {"pile": first.pile_order(), "start_stack": first.start_stack}

    # -- playing ------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The rules' state (the reference's: replayed, a Python ``Encoder``'s cost per
        action since the last call)."""
        return self.reference.state

    @property
    def players(self) -> int:
        return self.setup.players

    @property
    def size(self) -> int:
        return self.setup.observation_shape[0]

    @property
    def truncation(self) -> str | None:
        return None

    def apply(self, action: int, seat: int | None = None) -> None:
        """``Encoder.apply`` (it returns nothing): the draws it makes are the deal's."""
        super().apply(action, seat)
        if self._game.acting() == CHANCE:
            self._draw()

    def _refused(self, action: int, seat: int | None) -> None:
        self.reference.apply(action, seat)  # raises, as the Python Encoder would
        self._reference = None  # it took what C refused: never trust either copy again
        raise RuntimeError(
            f"the compiled {type(self).__name__} refused action {action} that the rules "
            "accept: please report this"
        )

    def legal_actions(self, seat: int | None = None) -> list[int]:
        game = self._game
        if seat is None or seat == game.acting():
            return game.legal_actions()  # none once over
        return []

    def mask(self, seat: int | None = None) -> np.ndarray:
        game = self._game
        if seat is None or seat == game.acting():
            mask = np.empty(ACTIONS, np.int8)
            game.mask(mask)  # zeros it first; all 0 once over
            return mask
        return np.zeros(ACTIONS, np.int8)


def undealt(setup: NovaLunaSetup) -> CompiledChanceEncoder | ChanceEncoder:
    """OpenSpiel's undealt game: the compiled one where it is built."""
    return CompiledChanceEncoder(setup) if COMPILED else ChanceEncoder(setup)


def dealt(setup: NovaLunaSetup, seed: int, options: Mapping[str, Any]) -> CompiledEncoder | Encoder:
    """PettingZoo's and Gymnasium's game dealt from ``seed`` (``NovaLunaSetup.deal``):
    the compiled one where it is built."""
    if COMPILED:
        return CompiledEncoder(setup, seed, options)
    return setup.deal_python(seed, options)


__all__ = ["COMPILED", "CompiledChanceEncoder", "CompiledEncoder", "dealt", "undealt"]
