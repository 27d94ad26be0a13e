"""NMBR 9's information states for OpenSpiel: what a seat knows of the game's history,
and the history's text (``ChanceInformation``), shared by the Python
``encoding.ChanceEncoder`` and the compiled one (``fastchance``).

Every round begins with the card turned (public), then the seats place in seat order;
a seat sees its own placement of the current round, never another seat's until the
round resolves (``tabletop.research.rounds``, every simultaneous game's rule).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ...research.rounds import HIDDEN as HIDDEN  # part of this module's public names
from ...research.rounds import RoundHistory
from .window import decode

if TYPE_CHECKING:
    from .encoding import Nmbr9Setup


class ChanceInformation(ABC):
    """A seat's information state from ``setup``, ``observe`` and ``public_observe``
    and OpenSpiel's history (per round the card, then the placements in seat order).

    >>> from tabletop.games.nmbr9.encoding import ENCODING
    >>> game = ENCODING.setup(2).undealt()
    >>> game.information_string(1, [3, 55]), game.hidden_moves(1, [3, 55])
    ('card3 ?', [1])
    """

    __slots__ = ()
    setup: Nmbr9Setup

    @abstractmethod
    def observe(self, seat: int) -> np.ndarray:
        """The observation of ``seat`` (``encoding.Encoder.observe``)."""

    @abstractmethod
    def public_observe(self) -> np.ndarray:
        """What every seat sees (``encoding.ChanceEncoder.public_observe``)."""

    def _rounds(self) -> RoundHistory:
        return RoundHistory(self.setup.players)

    def hidden_moves(self, seat: int, history: Sequence[int]) -> list[int]:
        """The other seats' placements of the round not resolved yet (seat ``k`` places
        ``k``-th in a round)."""
        return self._rounds().hidden_moves(seat, history)

    def information_tensor(self, seat: int | None, history: Sequence[int]) -> np.ndarray:
        """The observation scaled (``Setup.scaler``), then the history as ``seat`` knows
        it as a table of ``rounds × (players + 1)`` (``RoundHistory.write``: a card of
        10 digits, a placement of ``A`` actions); ``seat`` None: the public ones."""
        setup = self.setup
        out = np.zeros(setup.information_size, np.float32)
        size = setup.observation_shape[0]
        out[:size] = setup.scaler(self.public_observe() if seat is None else self.observe(seat))
        self._rounds().write(out, size, seat, history, 10, setup.actions)
        return out

    def information_string(self, seat: int | None, history: Sequence[int]) -> str:
        """The cards turned, every placement of the rounds resolved, and of the current
        round only the seat's own (``seat`` None: none)."""
        return self._rounds().text(seat, history, "card{}".format, str)

    def action_string(self, action: int) -> str:
        return str(decode(action, self.setup.size))

    def chance_string(self, outcome: int) -> str:
        return f"turn card {outcome}"

    def public_information_tensor(self, history: Sequence[int]) -> np.ndarray:
        return self.information_tensor(None, history)

    def public_information_string(self, history: Sequence[int]) -> str:
        return self.information_string(None, history)
