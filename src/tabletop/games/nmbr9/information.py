"""NMBR 9's information states for OpenSpiel: what a seat knows of the game's history,
and the history's text (``ChanceInformation``), shared by the Python
``encoding.ChanceEncoder`` and the compiled one (``fastchance``).

Every round begins with the card turned (public), then the seats place in seat order;
a seat sees its own placement of the current round, never another seat's until the
round resolves.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .window import decode

if TYPE_CHECKING:
    from .encoding import Nmbr9Setup

#: In an information state: another seat's placement of the current round.
HIDDEN = -2


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

    def _known_history(self, seat: int | None, history: Sequence[int]) -> list[list[int]]:
        """The history as ``seat`` knows it, one row per round: the card turned, then
        the placements in seat order, another seat's of the current round as ``HIDDEN``."""
        n = self.setup.players
        rounds: list[list[int]] = []
        for action in history:
            if not rounds or len(rounds[-1]) == n + 1:  # a chance node: the round's card
                rounds.append([action])
            else:
                rounds[-1].append(action)
        last = rounds[-1] if rounds else []
        if len(last) < n + 1:  # the current round: only the seat's own placement shows
            last[1:] = [a if s == seat else HIDDEN for s, a in enumerate(last[1:])]
        return rounds

    def _current_round(self, history: Sequence[int]) -> int:
        """How many of the last moves in ``history`` are placements of a round not
        resolved yet (0 at a chance node and once over: the round resolved)."""
        into = len(history) % (self.setup.players + 1)  # the card, then the placements
        return into - 1 if into else 0

    def hidden_moves(self, seat: int, history: Sequence[int]) -> list[int]:
        """The other seats' placements of the round not resolved yet (seat ``k`` places
        ``k``-th in a round)."""
        placed = self._current_round(history)
        start = len(history) - placed
        return [start + k for k in range(placed) if k != seat]

    def information_tensor(self, seat: int | None, history: Sequence[int]) -> np.ndarray:
        """The observation scaled (``Setup.scaler``), then ``_known_history`` as a table
        of ``rounds × (players + 1)``, all on ``[0, 1]``: 0 where nothing happened yet, a
        card ``d`` as ``(d + 1) / 10``, another seat's hidden placement as ``1 / (A +
        1)`` and a placement ``a`` as ``(a + 2) / (A + 1)`` (``A`` actions); ``seat``
        None: the public ones."""
        setup = self.setup
        width = setup.players + 1
        out = np.zeros(setup.information_size, np.float32)
        size = setup.observation_shape[0]
        out[:size] = setup.scaler(self.public_observe() if seat is None else self.observe(seat))
        places = setup.actions + 1
        for k, (card, *placed) in enumerate(self._known_history(seat, history)):
            at = size + k * width
            out[at] = (card + 1) / 10
            out[at + 1 : at + 1 + len(placed)] = [
                1 / places if a == HIDDEN else (a + 2) / places for a in placed
            ]
        return out

    def information_string(self, seat: int | None, history: Sequence[int]) -> str:
        """The cards turned, every placement of the rounds resolved, and of the current
        round only the seat's own (``seat`` None: none)."""
        words: list[str] = []
        for card, *placed in self._known_history(seat, history):
            words.append(f"card{card}")
            words += ["?" if a == HIDDEN else str(a) for a in placed]
        return " ".join(words)

    def action_string(self, action: int) -> str:
        return str(decode(action, self.setup.size))

    def chance_string(self, outcome: int) -> str:
        return f"turn card {outcome}"

    def public_information_tensor(self, history: Sequence[int]) -> np.ndarray:
        return self.information_tensor(None, history)

    def public_information_string(self, history: Sequence[int]) -> str:
        return self.information_string(None, history)
