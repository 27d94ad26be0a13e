"""The game: ``Game`` holds the static facts, ``State`` the position and the rules.

Every round one card is turned and **every seat places a tile of that digit at
the same time**: a seat acts once per round, in any order, and the round
resolves (the next card is turned) when the last seat has placed. A seat's
placement of the current round is hidden from everyone else until then.

>>> game = Game(players=2)
>>> state = game.new_state(seed=1)
>>> state.card, state.acting_seats()
(5, (0, 1))
>>> state.apply(state.legal_actions(1)[0], seat=1)
Placed(digit=5, rotation=0, x=0, y=0, level=0)
>>> state.acting_seats(), state.round
((0,), 0)
>>> state.apply(state.legal_actions(0)[0], seat=0).level, state.round, state.card
(0, 1, 2)

A state is fully determined by its seed (or deck and removal) and the actions
applied to it. The deck's order is the only secret; ``view(seat)`` gives what a
seat may know (see ``view.py``), and bots work on views.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tabletop.core.outcome import Outcome

from .actions import IllegalActionError, Place
from .board import Board, Placed, nth_bit
from .tiles import DIGITS, DISTINCT

if TYPE_CHECKING:
    from .view import View

CARDS = 20
#: The deck: two cards of each digit.
FULL_DECK = tuple(sorted(DIGITS * 2))
#: When the removal is drawn at random: this many cards at least and at most.
RANDOM_REMOVAL = (1, 4)


@dataclass(frozen=True, slots=True)
class Game:
    """Static facts: the number of players and how many cards are removed unseen.

    ``remove`` is ``k`` (0-19: ``20 - k`` rounds are played) or ``None`` to draw
    ``k`` at random (1-4) from the game's seed when it is set up.

    >>> Game(players=4, remove=2).players
    4
    >>> Game(players=5)
    Traceback (most recent call last):
    ...
    ValueError: NMBR 9 is for 1 to 4 players here, not 5
    """

    players: int = 1
    remove: int | None = 0

    def __post_init__(self) -> None:
        if self.players not in (1, 2, 3, 4):
            raise ValueError(f"NMBR 9 is for 1 to 4 players here, not {self.players}")
        if self.remove is not None and (
            type(self.remove) is not int or not 0 <= self.remove < CARDS
        ):
            raise ValueError(
                f"the number of cards removed is 0 to {CARDS - 1} (or random), not {self.remove}"
            )

    def new_state(
        self, seed: int | None = None, *, deck: tuple[int, ...] | list[int] | None = None
    ) -> State:
        """Set up: shuffle the 20 cards with ``seed`` (and draw the removal if it is
        random), or use ``deck`` (all 20 digits in draw order; the last ``k`` are the
        removed cards, never turned)."""
        rng = random.Random(seed)
        if deck is None:
            cards = list(FULL_DECK)
            rng.shuffle(cards)
            deck = cards
        deck = tuple(deck)
        if sorted(deck) != list(FULL_DECK):
            raise ValueError("the deck must hold two cards of each digit 0-9")
        removed = rng.randint(*RANDOM_REMOVAL) if self.remove is None else self.remove
        return State._setup(self, deck, removed)


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome: points per seat, seats best first, and ranks (equal totals share).

    >>> Result.from_scores((40, 52, 40))
    Result(scores=(40, 52, 40), ranking=(1, 0, 2), ranks=(2, 1, 2))
    """

    scores: tuple[int, ...]
    ranking: tuple[int, ...]  # seats, best first (seat order among equal totals)
    ranks: tuple[int, ...]  # per seat: 1 + the number of seats with more points

    @classmethod
    def from_scores(cls, scores: tuple[int, ...]) -> Result:
        ranking = tuple(sorted(range(len(scores)), key=lambda s: (-scores[s], s)))
        ranks = tuple(1 + sum(other > mine for other in scores) for mine in scores)
        return cls(scores, ranking, ranks)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s for s, r in enumerate(self.ranks) if r == 1)


class State:
    """A position: the deck, the round, every seat's board and who has placed.

    Use ``acting_seats()``, ``legal_actions(seat)``, ``apply(action, seat)``,
    ``is_over`` and ``result()``. Attributes are for reading; change a state only
    through ``apply`` and ``take_back``.
    """

    __slots__ = ("game", "_deck", "removed", "round", "boards", "placed", "is_over")

    game: Game
    _deck: tuple[int, ...]  # the 20 cards in turning order (the secret)
    removed: int  # k: the last k cards of the deck are never turned
    round: int  # the current round, from 0; equals ``rounds`` once over
    boards: list[Board]
    placed: list[Placed | None]  # per seat: its placement of the current round
    is_over: bool

    @classmethod
    def _setup(cls, game: Game, deck: tuple[int, ...], removed: int) -> State:
        s = cls.__new__(cls)
        s.game = game
        s._deck = deck
        s.removed = removed
        s.round = 0
        s.boards = [Board() for _ in range(game.players)]
        s.placed = [None] * game.players
        s.is_over = False
        return s

    def clone(self) -> State:
        """An independent copy."""
        s = State.__new__(State)
        s.game = self.game
        s._deck = self._deck
        s.removed = self.removed
        s.round = self.round
        s.boards = [b.clone() for b in self.boards]
        s.placed = self.placed.copy()
        s.is_over = self.is_over
        return s

    # -- reading ---------------------------------------------------------------------

    @property
    def rounds(self) -> int:
        """Rounds in this game: one per card that is turned."""
        return CARDS - self.removed

    @property
    def card(self) -> int | None:
        """The digit every seat places this round; ``None`` once over."""
        return None if self.is_over else self._deck[self.round]

    def turned(self) -> tuple[int, ...]:
        """The cards turned so far, the current one last (public)."""
        return self._deck[: self.round + (0 if self.is_over else 1)]

    def unturned(self) -> tuple[int, ...]:
        """The cards not turned yet, removed ones included, sorted: all a seat may know
        of them (not their order, not which are removed)."""
        return tuple(sorted(self._deck[len(self.turned()) :]))

    def deck_order(self) -> tuple[int, ...]:
        """The secret: all 20 cards in draw order. Only for records and tests."""
        return self._deck

    def arrange_deck(self, next_cards: list[int] | tuple[int, ...]) -> None:
        """Put ``next_cards`` (digits among the unturned cards) next in the deck, in
        this order; the other unturned cards keep theirs. Only before a round's first
        placement: for drivers that turn cards one by one (OpenSpiel's chance nodes).

        >>> state = Game(players=1).new_state(deck=sorted(FULL_DECK))
        >>> state.arrange_deck([9])
        >>> state.card, state.unturned().count(0)
        (9, 2)
        """
        if any(p is not None for p in self.placed):
            raise IllegalActionError("the round's card is already in play")
        turned = self.round
        rest = list(self._deck[turned:])
        for card in next_cards:
            rest.remove(card)  # ValueError if no such card is left
        self._deck = self._deck[:turned] + tuple(next_cards) + tuple(rest)

    def arrange_unturned(self, cards: list[int] | tuple[int, ...]) -> None:
        """Put the cards not turned yet (``unturned()``, in any order) in this order; the
        turned ones, the current card among them, stay. For samplers of what no seat can
        know (OpenSpiel's ``resample_from_infostate``); allowed at any time.

        >>> state = Game(players=1).new_state(deck=sorted(FULL_DECK))
        >>> state.arrange_unturned(sorted(state.unturned(), reverse=True))
        >>> state.card, state.deck_order()[1:3]
        (0, (9, 9))
        """
        if sorted(cards) != sorted(self.unturned()):
            raise ValueError("not an order of the cards not turned yet")
        turned = len(self.turned())
        self._deck = self._deck[:turned] + tuple(cards)

    def acting_seats(self) -> tuple[int, ...]:
        """The seats that have not placed this round's tile yet (empty once over)."""
        if self.is_over:
            return ()
        return tuple(s for s, p in enumerate(self.placed) if p is None)

    def legal_actions(self, seat: int = 0) -> list[Place]:
        """Every distinct legal placement for ``seat`` now (empty if it has placed or the
        game is over), ordered by level, rotation, row and column."""
        if not 0 <= seat < self.game.players:
            raise IllegalActionError("there is no seat {seat}", seat=seat)
        if self.is_over or self.placed[seat] is not None:
            return []
        return [place for place, _ in self.boards[seat].legal(self._deck[self.round])]

    def level_of(self, action: Place, seat: int = 0) -> int:
        """The level ``action`` would lie on for ``seat``; ``IllegalActionError`` if illegal."""
        self._check_turn(seat, action)
        return self.boards[seat].check(self._deck[self.round], *action)

    def score(self, seat: int) -> int:
        """Points on ``seat``'s board now (its pending placement included)."""
        return self.boards[seat].score

    def view(self, seat: int | None = None) -> View:  # View imported late: it imports state
        """What ``seat`` may know (``None``: a spectator); see ``view.View``."""
        from .view import View

        return View(self, seat)

    # -- acting ----------------------------------------------------------------------

    def apply(self, action: Place, seat: int = 0) -> Placed:
        """Lay this round's tile for ``seat``; return it with its level. The round
        resolves when every seat has placed. Raises ``IllegalActionError`` (and
        changes nothing) if the action is not legal."""
        self._check_turn(seat, action)
        if not isinstance(action, Place):
            raise IllegalActionError("{action} is not an NMBR 9 placement", action=repr(action))
        placed = self.boards[seat].place(self._deck[self.round], *action)
        self.placed[seat] = placed
        if all(p is not None for p in self.placed):
            self._next_round()
        return placed

    def apply_known(self, action: Place, seat: int, level: int) -> Placed:
        """``apply`` for a placement the caller knows to be legal for ``seat`` now and to
        lie on ``level`` (the research encoding, whose mask tests check against
        ``legal_actions``): the same change, without checking it again (``Board.lay``)."""
        placed = self.boards[seat].lay(self._deck[self.round], *action, level)
        self.placed[seat] = placed
        if all(p is not None for p in self.placed):
            self._next_round()
        return placed

    def _check_turn(self, seat: int, action: object) -> None:
        if not 0 <= seat < self.game.players:
            raise IllegalActionError("there is no seat {seat}", seat=seat)
        if self.is_over:
            raise IllegalActionError("the game is over")
        if self.placed[seat] is not None:
            raise IllegalActionError(
                "{action}: seat {seat} has already placed this round's {card}",
                action=str(action),
                seat=seat,
                card=self.card,
            )

    def take_back(self, seat: int) -> Placed:
        """Undo ``seat``'s placement of the current round (possible until the round
        resolves); ``IllegalActionError`` if there is none."""
        placed = self.placed[seat] if 0 <= seat < self.game.players else None
        if self.is_over or placed is None:
            raise IllegalActionError("there is no placement of this round to take back")
        self.boards[seat] = self.boards[seat].without_last()
        self.placed[seat] = None
        return placed

    def _next_round(self) -> None:
        self.round += 1
        self.placed = [None] * self.game.players
        if self.round >= self.rounds:
            self.is_over = True

    def random_playout(self, rng: random.Random) -> None:
        """Play to the end, each placement drawn uniformly from the legal ones.

        Same distribution as ``apply(rng.choice(legal_actions(seat)), seat)`` for each
        acting seat in turn, without building the action lists.
        """
        rand = rng.random
        while not self.is_over:
            digit = self._deck[self.round]
            for seat in self.acting_seats():
                board = self.boards[seat]
                if not board.tiles:
                    board.lay(digit, rng.choice(DISTINCT[digit]).rotation, 0, 0, 0)
                    continue
                options = board.legal_masks(digit)
                counts = [offsets.bit_count() for _, _, offsets in options]
                pick = int(rand() * sum(counts))
                for (bits, level, offsets), count in zip(options, counts, strict=True):
                    if pick < count:
                        x, y = board.corner(nth_bit(offsets, pick))
                        board.lay(digit, bits.shape.rotation, x, y, level)
                        break
                    pick -= count
            self._next_round()

    # -- outcome ---------------------------------------------------------------------

    def result(self) -> Result:
        """The outcome; ``ValueError`` while the game is still going."""
        if not self.is_over:
            raise ValueError("the game is not over yet")
        return Result.from_scores(tuple(b.score for b in self.boards))

    def outcome(self) -> Outcome:
        """The result in the platform's terms (``core.outcome``); solo games add how many
        tiles lie on each level."""
        result = self.result()
        details: dict[str, float] = {}
        if self.game.players == 1:
            levels = [tile.level for tile in self.boards[0].tiles]
            for level in (1, 2, 3):
                details[f"tiles on level {level}"] = levels.count(level)
            details["tiles on level 4+"] = sum(1 for level in levels if level >= 4)
        return Outcome(result.ranks, result.scores, "score", False, self.rounds, "rounds", details)

    def __repr__(self) -> str:
        return (
            f"<State {self.game.players}p round {self.round + 1}/{self.rounds} "
            f"card={self.card} acting={self.acting_seats()} over={self.is_over}>"
        )
