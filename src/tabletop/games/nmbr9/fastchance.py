"""NMBR 9's games with their hot methods in C: OpenSpiel's ``CompiledChanceEncoder`` and
the environments' dealt ``CompiledEncoder`` (``Nmbr9Setup.deal()``: PettingZoo,
Gymnasium), which plays the same C game and turns each round's card from the dealt deck.

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
from ...research.compiled import CompiledEncoder as CompiledDealtGame
from ...research.encoding import CHANCE
from .encoding import WINDOW_FULL, ChanceEncoder, Encoder
from .information import ChanceInformation
from .rules import CARDS, Place, State
from .window import COMPILED as MASK_COMPILED
from .window import encode, in_window

if TYPE_CHECKING:
    from .encoding import Nmbr9Setup

if MASK_COMPILED:
    from . import _nmbr9fast

#: Whether OpenSpiel's NMBR 9 runs in C (the optional extension ``_nmbr9fast``, built by
#: ``pip install`` where a C compiler is found); the Python ``ChanceEncoder`` otherwise,
#: the same game (tests check it). ``python -m tabletop.research.bench`` says which.
COMPILED = MASK_COMPILED


class CompiledChanceEncoder(
    CompiledGame["Nmbr9Setup", "_nmbr9fast.Game", ChanceEncoder], ChanceInformation
):
    """``ChanceEncoder``'s game (same answers, same errors), its hot methods in C."""

    __slots__ = ()

    def __init__(self, setup: Nmbr9Setup) -> None:
        assert COMPILED, "the C extension is not built (see COMPILED)"
        assert setup.rules.remove is not None, "a random removal is the Python game's"
        super().__init__(setup)

    def _new_game(self, setup: Nmbr9Setup) -> _nmbr9fast.Game:
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


class CompiledEncoder(CompiledDealtGame["Nmbr9Setup", "_nmbr9fast.Game", Encoder]):
    """The dealt ``Encoder``'s game (PettingZoo, Gymnasium: same answers, same errors) on
    ``_nmbr9fast.Game``: the deck is known, so each round's card is turned as the round
    begins and no caller sees a chance node. Made from a new rules' state (round 0)."""

    __slots__ = ("_initial", "_deck", "_truncation")

    def __init__(self, setup: Nmbr9Setup, state: State) -> None:
        assert COMPILED, "the C extension is not built (see COMPILED)"
        assert state.round == 0 and not any(state.placed), "a new game"
        self._initial = state  # never changed: the reference plays a clone
        self._deck = state.deck_order()
        super().__init__(setup)
        self._game.apply_chance(self._deck[0])
        self._truncation = self._window_full()

    def _new_game(self, setup: Nmbr9Setup) -> _nmbr9fast.Game:
        return _nmbr9fast.Game(setup.players, self._initial.rounds, setup.size)

    def _new_reference(self, setup: Nmbr9Setup) -> Encoder:
        return Encoder(setup, self._initial.clone())

    def _arguments(self) -> tuple[Any, ...]:
        return self.setup, self._initial

    def _window_full(self) -> str | None:
        """As a round begins: ``WINDOW_FULL`` if a seat has no placement in the window."""
        game = self._game
        if game.in_round and any(not game.legal_actions(s) for s in range(self.setup.players)):
            return WINDOW_FULL
        return None

    @property
    def state(self) -> State:
        return self.reference.state

    @property
    def is_over(self) -> bool:
        game = self._game
        return game.is_over and not game.stuck  # a full window truncates, not ends

    @property
    def truncation(self) -> str | None:
        """``WINDOW_FULL`` from the start of a round in which a seat has no placement
        inside the window (``encoding.Encoder.truncation``)."""
        return self._truncation

    def acting(self) -> int:
        game = self._game
        if game.stuck:  # C stops there; the rules go on with the seat that cannot place
            return self._length % self.setup.players  # seats place in order each round
        return game.acting()

    def apply(self, action: int, seat: int | None = None) -> None:
        """``encoding.Encoder.apply``; the next round's card is turned as it begins."""
        super().apply(action, seat)
        game = self._game
        if game.acting() == CHANCE:
            game.apply_chance(self._deck[self._length // self.setup.players])
            self._truncation = self._window_full()

    def legal_actions(self, seat: int) -> list[int]:
        return self._game.legal_actions(seat)

    def mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(self.setup.actions, np.int8)
        self._game.mask(seat, mask)
        return mask

    def scores(self) -> list[int]:
        return self._game.scores()

    def action_index(self, action: Place) -> int:
        """``encoding.Encoder.action_index`` without the rules' state (no replay: data
        sets ask it at every move)."""
        card, size = self._game.card, self.setup.size
        if card < 0 or not in_window(card, action, size):
            raise ValueError(f"{action} lies outside the {size} x {size} window")
        return encode(action, size)


def deal(setup: Nmbr9Setup, state: State) -> CompiledEncoder | Encoder:
    """The dealt game of a new rules' ``state``: the compiled one where it is built."""
    return CompiledEncoder(setup, state) if COMPILED else Encoder(setup, state)


def undealt(setup: Nmbr9Setup) -> CompiledChanceEncoder | ChanceEncoder:
    """OpenSpiel's undealt game: the compiled one where it is built (and the number of
    cards removed is fixed: a random removal stays the Python game's)."""
    if COMPILED and setup.rules.remove is not None:
        return CompiledChanceEncoder(setup)
    return ChanceEncoder(setup)


__all__ = ["COMPILED", "CompiledChanceEncoder", "CompiledEncoder", "deal", "undealt"]
