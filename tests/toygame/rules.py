"""Toy Draft's rules: a shuffled pile of numbered tiles, three face up, take one a turn.

The pile holds the tiles 1 to ``TILES``, shuffled from a seed; three lie face up
(the *market*). On your turn you take one of them and it is replaced from the
pile, whose order nobody knows. After ``TURNS`` turns each, the highest sum
wins; equal sums share a rank. One seat plays the solo game (beat ``40``).

>>> state = Game(players=2).new_state(seed=1)
>>> state.acting_seats(), [str(a) for a in state.legal_actions(0)]
((0,), ['take 1', 'take 2', 'take 3'])
>>> taken = state.apply(parse_action("take 2"), 0)
>>> state.hands[0] == [taken], state.acting_seats(), len(state.pile)
(True, (1,), 11)
>>> "pile" in vars(state.view(1))
False
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from tabletop.core.errors import IllegalActionError, InvalidActionError
from tabletop.core.outcome import Outcome

#: The tiles are numbered 1 to ``TILES``.
TILES = 15
#: Tiles face up at once.
MARKET = 3
#: Turns per seat.
TURNS = 4

_TAKE = re.compile(r"\s*take\s+([1-9])\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Take:
    """Take the tile in market slot ``slot`` (0-based; written 1-based: ``take 1``)."""

    slot: int

    def __str__(self) -> str:
        return f"take {self.slot + 1}"


def parse_action(text: str) -> Take:
    """The action written ``text``: ``take 1`` to ``take 3``.

    >>> parse_action(" Take 3 ")
    Take(slot=2)
    >>> parse_action("grab 1")
    Traceback (most recent call last):
    ...
    tabletop.core.errors.InvalidActionError: 'grab 1' is not an action: write take 1, take 2 or take 3
    """  # noqa: E501
    found = _TAKE.fullmatch(text) if isinstance(text, str) else None
    if found is None or not 1 <= int(found[1]) <= MARKET:
        raise InvalidActionError(
            "{text} is not an action: write take 1, take 2 or take 3", text=repr(text)
        )
    return Take(int(found[1]) - 1)


@dataclass(frozen=True)
class Game:
    """A table's fixed facts: the number of seats."""

    players: int

    def __post_init__(self) -> None:
        if not 1 <= self.players <= 2:
            raise ValueError(f"Toy Draft is for 1 or 2 players, not {self.players}")

    @property
    def turns(self) -> int:
        """Turns in the whole game (every seat's together)."""
        return self.players * TURNS

    def new_state(self, seed: int | None = None, pile: list[int] | None = None) -> State:
        """A new game: the pile shuffled from ``seed``, or laid as ``pile`` (draw order)."""
        if pile is None:
            pile = list(range(1, TILES + 1))
            random.Random(seed).shuffle(pile)
        elif sorted(pile) != list(range(1, TILES + 1)):
            raise ValueError(f"the pile must hold the tiles 1 to {TILES} once each")
        return State(self, list(pile[MARKET:]), list(pile[:MARKET]))


@dataclass
class State:
    """The true state, the pile's order included (``view`` leaves it out)."""

    game: Game
    pile: list[int]  # the tiles still to draw, next first: the secret
    market: list[int]
    hands: list[list[int]] = field(default_factory=list)
    turn: int = 0

    def __post_init__(self) -> None:
        if not self.hands:
            self.hands = [[] for _ in range(self.game.players)]

    @property
    def current_seat(self) -> int:
        return self.turn % self.game.players

    @property
    def is_over(self) -> bool:
        return self.turn >= self.game.turns

    def acting_seats(self) -> tuple[int, ...]:
        return () if self.is_over else (self.current_seat,)

    def legal_actions(self, seat: int) -> list[Take]:
        if self.is_over or seat != self.current_seat:
            return []
        return [Take(slot) for slot in range(len(self.market))]

    def apply(self, action: Take, seat: int) -> int:
        """Take the tile for ``seat``; it is replaced from the pile. The tile's number."""
        if self.is_over:
            raise IllegalActionError("the game is over")
        if seat != self.current_seat:
            raise IllegalActionError(
                "it is seat {seat}'s turn, not seat {other}'s",
                seat=self.current_seat + 1,
                other=seat + 1,
            )
        if not isinstance(action, Take) or not 0 <= action.slot < len(self.market):
            raise IllegalActionError("{action} is not a market slot", action=str(action))
        tile = self.market[action.slot]
        self.hands[seat].append(tile)
        self.market[action.slot] = self.pile.pop(0)
        self.turn += 1
        return tile

    def scores(self) -> tuple[int, ...]:
        return tuple(sum(hand) for hand in self.hands)

    def view(self, seat: int | None) -> View:
        """What ``seat`` (``None``: a spectator) may know: all but the pile's order."""
        return View(
            game=self.game,
            seat=seat,
            market=tuple(self.market),
            hands=tuple(tuple(hand) for hand in self.hands),
            turn=self.turn,
            pile_count=len(self.pile),
        )

    def outcome(self) -> Outcome:
        if not self.is_over:
            raise ValueError("the game is not over")
        return Outcome.from_scores(self.scores(), "sum", lower_is_better=False, length=self.turn)

    def clone(self) -> State:
        return State(
            self.game, list(self.pile), list(self.market), [list(h) for h in self.hands], self.turn
        )


@dataclass(frozen=True)
class View:
    """One seat's knowledge: the market, every hand, how many tiles are left."""

    game: Game
    seat: int | None
    market: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    turn: int
    pile_count: int

    @property
    def current_seat(self) -> int:
        return self.turn % self.game.players

    @property
    def is_over(self) -> bool:
        return self.turn >= self.game.turns

    def legal_actions(self) -> list[Take]:
        """The viewing seat's legal actions (none unless it is its turn)."""
        if self.is_over or self.seat != self.current_seat:
            return []
        return [Take(slot) for slot in range(len(self.market))]
