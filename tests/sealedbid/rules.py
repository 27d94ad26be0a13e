"""Sealed Bids' rules: a hidden order of prizes, one secret bid a round from every seat.

The prizes are the cards 1 to ``CARDS``, shuffled from a seed: nobody knows their order.
Every seat holds the cards 1 to ``CARDS`` too. Each round the next prize is turned face
up and every seat bids one of its cards at once, in secret (``SIMULTANEOUS``: a bid is
*pending*, seen only by its seat, and may be taken back, until the last seat has bid).
Then all bids are shown: the highest bid takes the prize; **a tie for the highest bid
takes nothing** (the prize is discarded). Bids are spent. After ``CARDS`` rounds the
highest total of prizes wins; equal totals share a rank.

>>> state = Game(players=2).new_state(seed=1)
>>> state.prize, state.acting_seats(), [str(a) for a in state.legal_actions(0)][:2]
(3, (0, 1), ['bid 1', 'bid 2'])
>>> state.apply(Bid(5), 0), state.acting_seats(), state.view(1).acted
(5, (1,), (True, False))
>>> state.view(1).pending is None, state.view(0).pending  # seat 1 sees only that 0 bid
(True, 5)
>>> _ = state.apply(Bid(2), 1)
>>> state.won, state.prize, state.round
([[3], []], 4, 1)
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from tabletop.core.errors import IllegalActionError, InvalidActionError
from tabletop.core.outcome import Outcome

#: Prizes, and each seat's cards, are numbered 1 to ``CARDS``: ``CARDS`` rounds.
CARDS = 6

_BID = re.compile(r"\s*bid\s+(\d{1,2})\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Bid:
    """Bid the card ``card`` (written ``bid 4``)."""

    card: int

    def __str__(self) -> str:
        return f"bid {self.card}"


def parse_action(text: str) -> Bid:
    """The action written ``text``: ``bid 1`` to ``bid 6``.

    >>> parse_action(" Bid 4 ")
    Bid(card=4)
    >>> parse_action("bid 7")
    Traceback (most recent call last):
    ...
    tabletop.core.errors.InvalidActionError: 'bid 7' is not an action: write bid 1 to bid 6
    """
    found = _BID.fullmatch(text) if isinstance(text, str) else None
    if found is None or not 1 <= int(found[1]) <= CARDS:
        raise InvalidActionError(
            "{text} is not an action: write bid 1 to bid {most}", text=repr(text), most=CARDS
        )
    return Bid(int(found[1]))


def winner(bids: list[int]) -> int | None:
    """The seat whose bid is highest, or ``None`` when the highest bid is tied.

    >>> winner([3, 5, 1]), winner([4, 4, 1])
    (1, None)
    """
    best = max(bids)
    return bids.index(best) if bids.count(best) == 1 else None


@dataclass(frozen=True)
class Game:
    """A table's fixed facts: the number of seats (2 or 3)."""

    players: int

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 3:
            raise ValueError(f"Sealed Bids is for 2 or 3 players, not {self.players}")

    def new_state(self, seed: int | None = None, prizes: list[int] | None = None) -> State:
        """A new game: the prizes shuffled from ``seed``, or in the order ``prizes``."""
        if prizes is None:
            prizes = list(range(1, CARDS + 1))
            random.Random(seed).shuffle(prizes)
        elif sorted(prizes) != list(range(1, CARDS + 1)):
            raise ValueError(f"the prizes must be the cards 1 to {CARDS} once each")
        return State(self, list(prizes))


@dataclass
class State:
    """The true state: the prizes' whole order and every pending bid (``view`` hides
    them)."""

    game: Game
    prizes: list[int]  # the secret: the order of the prizes
    round: int = 0
    hands: list[list[int]] = field(default_factory=list)  # cards not bid yet
    bids: list[int | None] = field(default_factory=list)  # this round's, pending
    won: list[list[int]] = field(default_factory=list)  # the prizes each seat took
    history: list[tuple[int, ...]] = field(default_factory=list)  # resolved rounds' bids

    def __post_init__(self) -> None:
        n = self.game.players
        self.hands = self.hands or [list(range(1, CARDS + 1)) for _ in range(n)]
        self.bids = self.bids or [None] * n
        self.won = self.won or [[] for _ in range(n)]

    @property
    def is_over(self) -> bool:
        return self.round >= CARDS

    @property
    def prize(self) -> int | None:
        """This round's prize (face up); ``None`` once over."""
        return None if self.is_over else self.prizes[self.round]

    def revealed(self) -> list[int]:
        """The prizes turned face up so far, this round's last."""
        return self.prizes[: min(self.round + 1, CARDS)]

    def acting_seats(self) -> tuple[int, ...]:
        """Every seat that has not bid this round, in seat order."""
        if self.is_over:
            return ()
        return tuple(seat for seat, bid in enumerate(self.bids) if bid is None)

    def legal_actions(self, seat: int) -> list[Bid]:
        if seat not in self.acting_seats():
            return []
        return [Bid(card) for card in self.hands[seat]]

    def apply(self, action: Bid, seat: int) -> int:
        """``seat`` bids ``action.card``; the last bid of a round resolves it. The card."""
        if self.is_over:
            raise IllegalActionError("the game is over")
        if not 0 <= seat < self.game.players or self.bids[seat] is not None:
            raise IllegalActionError("seat {seat} has already bid this round", seat=seat + 1)
        if not isinstance(action, Bid) or action.card not in self.hands[seat]:
            raise IllegalActionError("you have no card {card} left", card=str(action))
        self.hands[seat].remove(action.card)
        self.bids[seat] = action.card
        if None not in self.bids:
            self._resolve()
        return action.card

    def take_back(self, seat: int) -> int:
        """Withdraw ``seat``'s pending bid (until the round resolves); the card."""
        card = self.bids[seat] if 0 <= seat < self.game.players and not self.is_over else None
        if card is None:
            raise IllegalActionError("there is no bid of yours to take back")
        self.bids[seat] = None
        self.hands[seat] = sorted([*self.hands[seat], card])
        return card

    def _resolve(self) -> None:
        bids = [bid for bid in self.bids if bid is not None]
        taker = winner(bids)
        if taker is not None:
            self.won[taker].append(self.prizes[self.round])
        self.history.append(tuple(bids))
        self.bids = [None] * self.game.players
        self.round += 1

    def scores(self) -> tuple[int, ...]:
        return tuple(sum(prizes) for prizes in self.won)

    def view(self, seat: int | None) -> View:
        """What ``seat`` (``None``: a spectator) may know: the prizes turned, every
        resolved round, who has bid this round (never what), and its own pending bid."""
        return View(
            game=self.game,
            seat=seat,
            round=self.round,
            revealed=tuple(self.revealed()),
            history=tuple(self.history),
            won=tuple(tuple(w) for w in self.won),
            acted=tuple(bid is not None for bid in self.bids),
            pending=None if seat is None else self.bids[seat],
        )

    def outcome(self) -> Outcome:
        if not self.is_over:
            raise ValueError("the game is not over")
        return Outcome.from_scores(
            self.scores(), "prizes", lower_is_better=False, length=CARDS, length_name="rounds"
        )

    def clone(self) -> State:
        return State(
            self.game,
            list(self.prizes),
            self.round,
            [list(h) for h in self.hands],
            list(self.bids),
            [list(w) for w in self.won],
            list(self.history),
        )


@dataclass(frozen=True)
class View:
    """One seat's knowledge: never the prizes' order nor another seat's pending bid."""

    game: Game
    seat: int | None
    round: int
    revealed: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]
    won: tuple[tuple[int, ...], ...]
    acted: tuple[bool, ...]  # who has bid this round (public: not what)
    pending: int | None  # the viewing seat's own bid of this round

    @property
    def is_over(self) -> bool:
        return self.round >= CARDS

    @property
    def prize(self) -> int | None:
        return None if self.is_over else self.revealed[-1]

    def cards(self, seat: int) -> list[int]:
        """``seat``'s cards not spent in a resolved round (public: every bid is shown)."""
        spent = {bids[seat] for bids in self.history}
        return [card for card in range(1, CARDS + 1) if card not in spent]

    def legal_actions(self) -> list[Bid]:
        """The viewing seat's bids, if it has still to bid this round."""
        if self.seat is None or self.is_over or self.acted[self.seat]:
            return []
        return [Bid(card) for card in self.cards(self.seat)]
