"""What a seat may know: everything but the deck's order and others' pending placements.

A ``View`` holds copies, never the state itself: the boards as of the last
completed round (plus the viewer's own placement of this round), the cards
turned so far and the *multiset* of cards not turned yet (the removed ones are
among them: nobody knows which). The order is not hidden but gone.

>>> from tabletop.games.nmbr9.rules import Game
>>> state = Game(players=2).new_state(seed=3)
>>> _ = state.apply(state.legal_actions(0)[0], seat=0)
>>> mine, theirs = state.view(0), state.view(1)
>>> len(mine.boards[0].tiles), len(theirs.boards[0].tiles)  # seat 0's tile is pending
(1, 0)
>>> theirs.has_placed, len(theirs.unturned), theirs.rounds_left
((True, False), 19, 19)
>>> sample = theirs.determinize(random.Random(0))
>>> sample.card == state.card and sorted(sample.deck_order()) == sorted(state.deck_order())
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from .actions import Place
from .board import Board, Placed

if TYPE_CHECKING:
    from .state import Game, State


class View:
    """A read-only picture of a state for one seat (``None``: a spectator)."""

    __slots__ = (
        "viewer",
        "game",
        "removed",
        "round",
        "rounds",
        "card",
        "turned",
        "unturned",
        "is_over",
        "_boards",
        "has_placed",
        "pending",
    )

    def __init__(self, state: State, viewer: int | None = None) -> None:
        if viewer is not None and not 0 <= viewer < state.game.players:
            raise ValueError(f"there is no seat {viewer}")
        self.viewer = viewer
        self.game: Game = state.game
        self.removed = state.removed
        self.round = state.round
        self.rounds = state.rounds
        self.card = state.card  # None exactly when the game is over
        self.turned = state.turned()
        self.unturned = state.unturned()
        self.is_over = state.is_over
        self.has_placed = tuple(p is not None for p in state.placed)
        self.pending: Placed | None = None if viewer is None else state.placed[viewer]
        # Another seat's board with a pending tile is kept as its earlier tiles and
        # rebuilt on first reading: most bots never look at other boards.
        self._boards: list[Board | list[Placed]] = [
            board.clone() if seat == viewer or state.placed[seat] is None else board.tiles[:-1]
            for seat, board in enumerate(state.boards)
        ]

    @property
    def boards(self) -> list[Board]:
        """Every seat's board as this seat may see it (others' pending tiles left out)."""
        boards = self._boards
        for seat, board in enumerate(boards):
            if not isinstance(board, Board):
                boards[seat] = Board.from_tiles(board)
        return boards  # type: ignore[return-value]  # every entry is a Board now

    @property
    def rounds_left(self) -> int:
        """Rounds after the current one."""
        return max(0, self.rounds - self.round - 1)

    @property
    def board(self) -> Board:
        """The viewer's own board (its pending placement included)."""
        if self.viewer is None:
            raise ValueError("a spectator has no board of its own")
        return self._boards[self.viewer]  # type: ignore[return-value]  # always a Board

    def legal_actions(self) -> list[Place]:
        """The viewer's legal placements now (empty if it has placed, or for a spectator)."""
        if self.viewer is None or self.card is None or self.pending is not None:
            return []
        return [place for place, _ in self.board.legal(self.card)]

    def random_action(self, rng: random.Random) -> Place:
        """What ``rng.choice(self.legal_actions())`` would return, without the list;
        ``ValueError`` when there is nothing to place."""
        if self.viewer is None or self.card is None or self.pending is not None:
            raise ValueError("there is nothing to place: the game is over or this seat has placed")
        return self.board.random_place(self.card, rng)

    def legal_with_levels(self) -> list[tuple[Place, int]]:
        """``legal_actions()`` with the level each placement would lie on."""
        if self.viewer is None or self.card is None or self.pending is not None:
            return []
        return self.board.legal(self.card)

    def score(self, seat: int) -> int:
        """Points on ``seat``'s board as this view shows it."""
        return self.boards[seat].score

    def determinize(self, rng: random.Random) -> State:
        """A full state with the unturned cards in a random order drawn from ``rng``.

        The viewer's pending placement stays; other seats have not placed yet (what
        they did this round is unknown)."""
        from .state import State

        rest = list(self.unturned)
        rng.shuffle(rest)
        state = State._setup(self.game, self.turned + tuple(rest), self.removed)
        state.round = self.round
        state.is_over = self.is_over
        state.boards = [b.clone() for b in self.boards]
        if self.viewer is not None:
            state.placed[self.viewer] = self.pending
        return state

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of what this view shows (for clients and logs)."""
        return {
            "viewer": self.viewer,
            "players": self.game.players,
            "round": self.round,
            "rounds": self.rounds,
            "removed": self.removed,
            "card": self.card,
            "turned": list(self.turned),
            "unturned": list(self.unturned),
            "over": self.is_over,
            "has_placed": list(self.has_placed),
            "boards": [
                {
                    "score": board.score,
                    "tiles": [
                        {
                            "digit": t.digit,
                            "rotation": t.rotation,
                            "x": t.x,
                            "y": t.y,
                            "level": t.level,
                        }
                        for t in board.tiles
                    ],
                }
                for board in self.boards
            ],
        }
