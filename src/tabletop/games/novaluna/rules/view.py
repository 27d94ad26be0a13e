"""What a player may see: everything but the order of the draw pile.

A ``View`` wraps a copy of the state whose pile is sorted, so the order is not
merely hidden but gone. Bots plan on views; to simulate, they draw a
``determinize(rng)`` — a full ``State`` whose unseen tiles are shuffled.

>>> from tabletop.games.novaluna.rules import Game
>>> state = Game(players=2).new_state(seed=3)
>>> view = state.view()
>>> view.unseen_tiles == state.unseen_tiles() and view.pile_count == 57
True
>>> sample = view.determinize(random.Random(0))
>>> sample.legal_actions() == state.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from .display import Display, cell_xy
from .tiles import TILE_TASKS

if TYPE_CHECKING:
    from .actions import Action, Place
    from .results import Result
    from .state import Game, State


class View:
    """A read-only public picture of a state (no pile order)."""

    __slots__ = ("_hidden", "_live", "viewer", "__weakref__")

    def __init__(self, state: State, viewer: int | None = None, *, share: bool = False) -> None:
        """``share``: read ``state`` itself until ``unshare()`` is called, which the
        caller must do before the state changes (a table does it for views still
        alive when it applies the next action). The public copy is then made only
        if the view is read: a ``random`` bot's move needs none."""
        if viewer is not None and not 0 <= viewer < state.game.players:
            raise ValueError(f"there is no seat {viewer}")
        self._live: State | None = state if share else None
        self._hidden: State | None = None if share else _public_copy(state, share=False)
        self.viewer = viewer  # the seat this view is for; None = a spectator

    @property
    def _state(self) -> State:
        """The hidden copy: the state with its pile's unseen part sorted."""
        hidden = self._hidden
        if hidden is None:
            assert self._live is not None
            hidden = self._hidden = _public_copy(self._live, share=True)
        return hidden

    def unshare(self) -> None:
        """Stop sharing anything with the state a ``share=True`` view was made of."""
        live, self._live = self._live, None
        if self._hidden is None:
            if live is not None:
                self._hidden = _public_copy(live, share=False)
        elif live is not None:
            self._hidden.unshare()

    # Everything public is read straight from the hidden copy.
    @property
    def game(self) -> Game:
        return self._state.game

    @property
    def current_seat(self) -> int:
        return self._state.current_seat

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    @property
    def phase(self) -> int:
        return self._state.phase

    @property
    def turn(self) -> int:
        return self._state.turn

    @property
    def refilled(self) -> bool:
        return self._state.refilled

    @property
    def meeple(self) -> int:
        return self._state.meeple

    @property
    def pile_count(self) -> int:
        return self._state.pile_count

    @property
    def phase1_score(self) -> int:
        """Solo: the phase-1 score, once phase 1 has ended (0 before)."""
        return self._state.phase1_score

    @property
    def wheel(self) -> tuple[int, ...]:
        return tuple(self._state.wheel)

    @property
    def supply(self) -> tuple[int, ...]:
        return tuple(self._state.supply)

    @property
    def time(self) -> tuple[int, ...]:
        return tuple(self._state.time)

    @property
    def stamp(self) -> tuple[int, ...]:
        """Per seat, how high its marker stands in a stack on the moon track (higher
        moves first among seats with the same time)."""
        return tuple(self._state.stamp)

    @property
    def unseen_tiles(self) -> tuple[int, ...]:
        """The tiles still in the pile, sorted."""
        return self._state.unseen_tiles()

    def legal_actions(self) -> list[Action]:
        return self._state.legal_actions()

    def random_action(self, rng: random.Random) -> Action:
        """What ``rng.choice(self.legal_actions())`` would return, without the list."""
        # The live state draws the same (its pile order plays no part) without a copy.
        live = self._live
        return (live if live is not None else self._state).random_action(rng)

    def takeable_spaces(self) -> list[int]:
        return self._state.takeable_spaces()

    def legal_cells(self, seat: int | None = None) -> list[tuple[int, int]]:
        return self._state.legal_cells(seat)

    def turn_order(self) -> list[int]:
        return self._state.turn_order()

    def preview(self, action: Place) -> list[tuple[int, int, int]]:
        return self._state.preview(action)

    def discs_placed(self, seat: int) -> int:
        return self._state.discs_placed(seat)

    def result(self) -> Result:
        return self._state.result()

    def display(self, seat: int) -> dict[tuple[int, int], tuple[int, tuple[bool, ...]]]:
        """``{(x, y): (tile id, covered flag per task)}`` for one seat."""
        d = self._state.displays[seat]
        out = {}
        for key, tile in d.tiles.items():
            open_mask = d.open.get(key, 0)
            flags = tuple(not open_mask >> i & 1 for i in range(len(TILE_TASKS[tile])))
            out[cell_xy(key)] = (tile, flags)
        return out

    def display_copy(self, seat: int) -> Display:
        """A private copy of one seat's display, for bots to try placements on."""
        return self._state.displays[seat].clone()

    def determinize(self, rng: random.Random) -> State:
        """A full state with the unseen tiles in a random order drawn from ``rng``."""
        state = self._state.clone()
        drawn = state.drawn
        rest = list(state._pile[drawn:])
        rng.shuffle(rest)
        state._pile = state._pile[:drawn] + tuple(rest)
        return state

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the public state (for clients and logs)."""
        s = self._state
        seats = []
        for seat in range(s.game.players):
            tiles = [
                {"cell": [x, y], "tile": tile, "covered": list(flags)}
                for (x, y), (tile, flags) in sorted(self.display(seat).items())
            ]
            seats.append(
                {
                    "discs_left": s.supply[seat],
                    "discs_placed": s.discs_placed(seat),
                    "time": s.time[seat],
                    "stack_height": s.stamp[seat],
                    "tiles": tiles,
                }
            )
        return {
            "viewer": self.viewer,
            "players": s.game.players,
            "first_game": s.game.first_game,
            "turn": s.turn,
            "current_seat": s.current_seat,
            "phase": s.phase,
            "over": s.is_over,
            "wheel": list(s.wheel),
            "meeple": s.meeple,
            "takeable": s.takeable_spaces(),
            "pile_count": s.pile_count,
            "unseen_tiles": list(s.unseen_tiles()),
            "refilled": s.refilled,
            "turn_order": s.turn_order(),
            "seats": seats,
            "legal_actions": [str(a) for a in s.legal_actions()],
        }


def _public_copy(state: State, share: bool) -> State:
    """A copy of ``state`` whose pile holds the unseen tiles sorted: their order is gone."""
    hidden = state.clone(share=share)
    public = state.public_pile()
    hidden._pile = public
    hidden._public = (hidden.drawn, public, public)  # the clone's copy held the order
    return hidden
