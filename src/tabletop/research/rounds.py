"""The history of a simultaneous game as OpenSpiel plays it, and what each seat knows of
it: written once for every game whose encoding has ``simultaneous = True``.

OpenSpiel plays a simultaneous round sequentially: each round begins with one chance
node (the round's public draw: NMBR 9's card, Sealed Bids' prize), then every seat acts
once, in seat order. A seat knows its own action of the round not resolved yet, never
another's: not even **whether** another seat has acted, for in the rules all act at
once. So an observation is the same before and after another seat's action of the
round (the seat's turn in OpenSpiel's order tells it nothing the rules do not), and
the information state shows another seat's action of the open round as ``HIDDEN``.
``hidden_moves`` names those moves for ``resample_from_infostate`` (ISMCTS).

>>> rounds = RoundHistory(players=2)
>>> history = [3, 10, 11, 5, 12]  # round 1: chance 3, actions 10 and 11; round 2 ...
>>> rounds.known(1, history), rounds.hidden_moves(1, history)
([[3, 10, 11], [5, -2]], [4])
>>> rounds.text(0, history, "card{}".format, str)
'card3 10 11 card5 12'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import IllegalActionError, RecordError

if TYPE_CHECKING:
    from .encoding import Array, ChanceEncoder

#: In a seat's known history: another seat's action of the round not resolved yet.
HIDDEN = -2


class RoundHistory:
    """OpenSpiel's history of a game of ``players`` seats played in simultaneous rounds:
    per round a chance outcome, then each seat's action in seat order."""

    __slots__ = ("players",)

    def __init__(self, players: int) -> None:
        self.players = players

    def known(self, seat: int | None, history: Sequence[int]) -> list[list[int]]:
        """The history as ``seat`` knows it (``None``: what everybody knows), one row
        per round: the chance outcome, then the actions in seat order, another seat's of
        the round not resolved yet as ``HIDDEN``."""
        width = self.players + 1
        rounds = [list(history[at : at + width]) for at in range(0, len(history), width)]
        last = rounds[-1] if rounds else []
        if len(last) < width:  # the open round: only the seat's own action shows
            last[1:] = [a if s == seat else HIDDEN for s, a in enumerate(last[1:])]
        return rounds

    def pending(self, history: Sequence[int]) -> int:
        """How many of the last moves of ``history`` are actions of a round not resolved
        yet (0 at a chance node and once over: the round resolved)."""
        into = len(history) % (self.players + 1)
        return into - 1 if into else 0

    def hidden_moves(self, seat: int, history: Sequence[int]) -> list[int]:
        """The positions in ``history`` of the other seats' actions of the open round
        (seat ``k`` acts ``k``-th in a round): what ``seat`` has not seen."""
        acted = self.pending(history)
        start = len(history) - acted
        return [start + k for k in range(acted) if k != seat]

    def text(
        self,
        seat: int | None,
        history: Sequence[int],
        chance: Callable[[int], str],
        action: Callable[[int], str],
    ) -> str:
        """The known history as words: ``chance(outcome)``, then ``action(index)`` per
        action, ``?`` for a hidden one."""
        words: list[str] = []
        for outcome, *acted in self.known(seat, history):
            words.append(chance(outcome))
            words += ["?" if a == HIDDEN else action(a) for a in acted]
        return " ".join(words)

    def write(
        self,
        out: Array,
        at: int,
        seat: int | None,
        history: Sequence[int],
        chances: int,
        actions: int,
    ) -> None:
        """Lay the known history into ``out`` from ``at`` as a table of ``rounds ×
        (players + 1)``, all on ``[0, 1]``: 0 where nothing happened yet, a chance outcome
        ``c`` (of ``chances``) as ``(c + 1) / chances``, a hidden action as ``1 / (actions
        + 1)`` and an action ``a`` as ``(a + 2) / (actions + 1)``."""
        width, places = self.players + 1, actions + 1
        for k, (outcome, *acted) in enumerate(self.known(seat, history)):
            row = at + k * width
            out[row] = (outcome + 1) / chances
            out[row + 1 : row + 1 + len(acted)] = [
                1 / places if a == HIDDEN else (a + 2) / places for a in acted
            ]


def follow_rounds(
    chance: ChanceEncoder,
    rounds: Sequence[tuple[int, Sequence[Any]]],
    seat: int,
    rng: random.Random,
    index: Callable[[int, int, Any], int],
) -> list[int]:
    """OpenSpiel's history of an undealt game (``Setup.undealt()``) along a seat
    record's rounds (per round its chance outcome and each seat's action, ``None`` where
    not made; a hidden one drawn already, ``core.rounds.draw_hidden``), up to where
    ``seat`` is to act, or, if it has acted, to the first seat that has not (its own
    action then waits: OpenSpiel's round goes in seat order, and would resolve). The
    seats before ``seat`` that have not acted get an action drawn with ``rng`` among
    their legal ones, so that ``seat`` is to act. ``index(round, seat, action)`` is a
    made action's index (``RecordError`` where the encoding cannot express it)."""
    history: list[int] = []
    try:
        for number, (outcome, made) in enumerate(rounds):
            chance.apply_chance(outcome)
            history.append(outcome)
            for other in range(len(made)):
                if made[other] is not None:
                    action = index(number, other, made[other])
                elif other < seat and made[seat] is None:
                    legal = chance.legal_actions(other)
                    if not legal:
                        raise RecordError(f"round {number + 1}: seat {other} has no legal action")
                    action = rng.choice(legal)
                else:
                    break
                chance.apply(action, other)
                history.append(action)
    except IllegalActionError as err:
        raise RecordError(f"the game cannot follow the seat record: {err}") from None
    return history
