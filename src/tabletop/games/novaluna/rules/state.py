"""The game: ``Game`` holds the static facts, ``State`` the position and the rules.

>>> game = Game(players=2)
>>> state = game.new_state(seed=1)
>>> state.current_seat in (0, 1), len(state.legal_actions())
(True, 3)
>>> state.apply(state.legal_actions()[0])
[]
>>> state.clone().turn
1

A state is fully determined by its seed (or pile and start stack) and the
actions applied to it. The draw pile's order is the only secret; ``view()``
gives everything else, and bots work on views (see ``view.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial

from tabletop.core.outcome import Outcome

from .actions import (
    END_PHASE,
    REFILL,
    Action,
    EndPhase,
    IllegalActionError,
    Place,
    Refill,
)
from .display import Display, cell_key, cell_xy, in_bounds
from .tiles import TILE_COST, TILE_IDS
from .view import View

WHEEL_SPACES = 12
TRACK_SPACES = 24
SOLO_PHASE1_DISCS = 8
DISCS = 21

#: For each meeple space, the other 11 spaces in clockwise order.
# Place(space, x, y) without the named tuple's Python-level __new__: one per bot move.
_new_place = partial(tuple.__new__, Place)

_CLOCKWISE_AFTER = tuple(
    tuple((m + k) % WHEEL_SPACES for k in range(1, WHEEL_SPACES)) for m in range(WHEEL_SPACES)
)


@dataclass(frozen=True, slots=True)
class Game:
    """Static facts of a game: number of players and the first-game option.

    ``players=1`` is the solo game.

    >>> Game(players=4, first_game=True).supply
    15
    >>> Game(players=1).mode
    'solo'
    """

    players: int = 2
    first_game: bool = False

    def __post_init__(self) -> None:
        if self.players not in (1, 2, 3, 4):
            raise ValueError(f"Nova Luna is for 1 to 4 players, not {self.players}")
        if self.players == 1 and self.first_game:
            raise ValueError("the first-game option is for 2 to 4 players, not the solo game")

    @property
    def mode(self) -> str:
        return "solo" if self.players == 1 else "standard"

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def supply(self) -> int:
        """Discs each player can place (the marker disc is not part of it)."""
        if self.solo:
            return DISCS
        if self.first_game:
            return {2: 20, 3: 17, 4: 15}[self.players]
        return DISCS - 1

    def new_state(
        self,
        seed: int | None = None,
        *,
        pile: list[int] | tuple[int, ...] | None = None,
        start_stack: list[int] | tuple[int, ...] | None = None,
    ) -> State:
        """Set up a game: shuffle with ``seed`` or use the given pile and start stack.

        ``pile`` lists all 68 tile ids in draw order; ``start_stack`` lists the
        seats bottom to top (the top one moves first).
        """
        rng = random.Random(seed)
        if pile is None:
            pile = list(TILE_IDS)
            rng.shuffle(pile)
        pile = tuple(pile)
        if sorted(pile) != list(TILE_IDS):
            raise ValueError("the pile must hold each tile id 1..68 exactly once")
        if self.solo:
            if start_stack not in (None, [], (), [0], (0,)):
                raise ValueError("the solo game has no start stack")
            start_stack = (0,)
        elif start_stack is None:
            start_stack = list(range(self.players))
            rng.shuffle(start_stack)
        start_stack = tuple(start_stack)
        if sorted(start_stack) != list(range(self.players)):
            raise ValueError(f"the start stack must list seats 0..{self.players - 1} once each")
        return State._setup(self, pile, start_stack)


@dataclass(frozen=True, slots=True)
class StandardResult:
    """Outcome of a 2–4 player game. ``ranking`` lists seats, best first."""

    ranking: tuple[int, ...]
    discs_left: tuple[int, ...]
    tiles_taken: tuple[int, ...]
    winner_by_last_disc: bool

    @property
    def winner(self) -> int:
        return self.ranking[0]


@dataclass(frozen=True, slots=True)
class SoloResult:
    """Outcome of a solo game (lower is better)."""

    phase1: int
    phase2: int
    discs_placed: int
    tiles_taken: int

    @property
    def total(self) -> int:
        return self.phase1 + self.phase2


Result = StandardResult | SoloResult


class State:
    """A position: wheel, pile, displays, moon track, whose turn, and the rules.

    Use ``legal_actions()``, ``apply(action)``, ``is_over`` and ``result()``.
    Attributes are for reading; change a state only through ``apply``.
    """

    __slots__ = (
        "game",
        "wheel",
        "meeple",
        "on_wheel",
        "_pile",
        "drawn",
        "displays",
        "supply",
        "time",
        "stamp",
        "_next_stamp",
        "current_seat",
        "refilled",
        "phase",
        "phase1_score",
        "phase1_discs",
        "turn",
        "is_over",
        "_last_disc",
        "start_stack",
        "_solo",
        "_public",
        "_spaces",
    )

    game: Game
    wheel: list[int]  # tile id per space, 0 = empty
    meeple: int
    on_wheel: int
    drawn: int  # how many tiles have left the pile
    displays: list[Display]
    supply: list[int]  # discs left per seat
    time: list[int]  # total time per seat (moon track position = time % 24)
    stamp: list[int]  # higher = higher in a stack of markers
    current_seat: int
    refilled: bool  # a refill happened at the start of the current turn
    phase: int  # solo phase (1 or 2); always 1 in standard games
    turn: int  # number of completed turns
    is_over: bool
    start_stack: tuple[int, ...]

    @classmethod
    def _setup(cls, game: Game, pile: tuple[int, ...], start_stack: tuple[int, ...]) -> State:
        s = cls.__new__(cls)
        s.game = game
        s._solo = game.solo
        s._pile = pile
        s._public = None
        s._spaces = None
        s.wheel = [0] + list(pile[:11])
        s.meeple = 0
        s.on_wheel = 11
        s.drawn = 11
        n = game.players
        s.displays = [Display() for _ in range(n)]
        s.supply = [game.supply] * n
        s.time = [0] * n
        s.stamp = [0] * n
        for height, seat in enumerate(start_stack):
            s.stamp[seat] = height
        s._next_stamp = n
        s.start_stack = start_stack
        s.refilled = False
        s.phase = 1
        s.phase1_score = 0
        s.phase1_discs = 0
        s.turn = 0
        s.is_over = False
        s._last_disc = False
        s.current_seat = 0
        s._start_turn()
        return s

    def clone(self, share: bool = False) -> State:
        """An independent copy (cheap: the pile is shared, it never changes).

        ``share=True`` shares the wheel, the counters and the seats' ``Display``
        objects with this state: only for a holder that calls ``unshare()``
        before this state changes (see ``View``)."""
        s = State.__new__(State)
        s.game = self.game
        s._solo = self._solo
        s.wheel = self.wheel if share else self.wheel.copy()
        s.meeple = self.meeple
        s._spaces = self._spaces
        s.on_wheel = self.on_wheel
        s._pile = self._pile
        s._public = self._public
        s.drawn = self.drawn
        if share:
            s.displays, s.supply = self.displays, self.supply
            s.time, s.stamp = self.time, self.stamp
        else:
            s.displays = [d.clone() for d in self.displays]
            s.supply = self.supply.copy()
            s.time = self.time.copy()
            s.stamp = self.stamp.copy()
        s._next_stamp = self._next_stamp
        s.current_seat = self.current_seat
        s.refilled = self.refilled
        s.phase = self.phase
        s.phase1_score = self.phase1_score
        s.phase1_discs = self.phase1_discs
        s.turn = self.turn
        s.is_over = self.is_over
        s._last_disc = self._last_disc
        s.start_stack = self.start_stack
        return s

    # -- reading ---------------------------------------------------------------

    @property
    def pile_count(self) -> int:
        """Tiles left in the draw pile."""
        return len(self._pile) - self.drawn

    def unseen_tiles(self) -> tuple[int, ...]:
        """Tile ids still in the pile, sorted: what everyone may know of it."""
        return self.public_pile()[self.drawn :]

    def public_pile(self) -> tuple[int, ...]:
        """The pile as everyone may know it: the tiles drawn, then the rest sorted.

        Kept until the next draw (a view is made every move; the pile changes
        only at refills).
        """
        public = self._public
        if public is None or public[0] != self.drawn or public[1] is not self._pile:
            drawn, pile = self.drawn, self._pile
            public = (drawn, pile, pile[:drawn] + tuple(sorted(pile[drawn:])))
            self._public = public
        return public[2]

    def pile_order(self) -> tuple[int, ...]:
        """The secret: all 68 tile ids in draw order. Only for records and tests."""
        return self._pile

    def arrange_pile(self, next_tiles: list[int] | tuple[int, ...]) -> None:
        """Put ``next_tiles`` (still in the pile) on top of it, in this order.

        For drivers that decide draws one by one (OpenSpiel's chance nodes):
        the rest of the pile keeps its order; nothing else changes.

        >>> state = Game(players=2).new_state(seed=1)
        >>> last = state.pile_order()[-1]
        >>> state.arrange_pile([last])
        >>> state.pile_order()[11] == last, state.unseen_tiles() == state.view().unseen_tiles
        (True, True)
        """
        rest = list(self._pile[self.drawn :])
        for tile in next_tiles:
            rest.remove(tile)  # ValueError if it is not in the pile
        self._pile = self._pile[: self.drawn] + tuple(next_tiles) + tuple(rest)

    def takeable_spaces(self) -> list[int]:
        """The first three occupied spaces clockwise from the meeple."""
        return list(self._takeable())

    def _takeable(self) -> tuple[int, ...]:
        # Kept until the wheel changes: a bot's move asks twice (to choose, to check).
        spaces = self._spaces
        if spaces is None:
            wheel = self.wheel
            found = []
            for space in _CLOCKWISE_AFTER[self.meeple]:
                if wheel[space]:
                    found.append(space)
                    if len(found) == 3:
                        break
            spaces = self._spaces = tuple(found)
        return spaces

    def legal_cells(self, seat: int | None = None) -> list[tuple[int, int]]:
        """Cells where ``seat`` (default: the current seat) may lay a tile, sorted."""
        d = self.displays[self.current_seat if seat is None else seat]
        return sorted(cell_xy(c) for c in d.frontier)

    def can_refill(self) -> bool:
        """Whether ``REFILL`` is legal now (an optional refill at 1–2 tiles)."""
        return (
            not self.is_over
            and not self.game.solo
            and not self.refilled
            and 1 <= self.on_wheel <= 2
            and self.drawn < len(self._pile)
        )

    def can_end_phase(self) -> bool:
        """Whether ``END_PHASE`` is legal now (solo, phase 1, 8 discs placed)."""
        return (
            not self.is_over
            and self.game.solo
            and self.phase == 1
            and self.discs_placed(0) >= SOLO_PHASE1_DISCS
        )

    def acting_seats(self) -> tuple[int, ...]:
        """The seat to move, alone; none once the game is over (the engine contract)."""
        return () if self.is_over else (self.current_seat,)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """All legal actions in a canonical order (refill/end first, then places);
        none for a ``seat`` that is not the one to move."""
        if self.is_over or (seat is not None and seat != self.current_seat):
            return []
        actions: list[Action] = []
        if self.can_refill():
            actions.append(REFILL)
        if self.can_end_phase():
            actions.append(END_PHASE)
        cells = self.legal_cells()
        for space in self._takeable():
            actions.extend(Place(space, x, y) for x, y in cells)
        return actions

    def random_action(self, rng: random.Random) -> Action:
        """``rng.choice(self.legal_actions())`` without building the list.

        Draws the same number from ``rng`` as ``choice`` does and returns the same
        action, so a bot using it plays the very same games; raises ``ValueError``
        once the game is over.
        """
        if self.is_over:
            raise ValueError("the game is over: there is nothing to choose")
        # can_refill() / can_end_phase() inlined: this runs once per move of every
        # bot game, and the calls were a fifth of it.
        if self._solo:
            extra = self.phase == 1 and self.displays[0].covered >= SOLO_PHASE1_DISCS
        else:
            extra = not self.refilled and 1 <= self.on_wheel <= 2 and self.drawn < len(self._pile)
        spaces = self._takeable()
        frontier = self.displays[self.current_seat].frontier
        width = len(frontier)
        # What Random.choice draws with (randrange(n) draws the same, slower).
        pick = rng._randbelow(extra + len(spaces) * width) - extra
        if pick < 0:
            return END_PHASE if self._solo else REFILL
        # Keys sort as their (x, y) do, so this is legal_cells()'s order.
        x, y = cell_xy(sorted(frontier)[pick % width])
        return _new_place((spaces[pick // width], x, y))

    def discs_placed(self, seat: int) -> int:
        return self.displays[seat].covered

    def turn_order(self) -> list[int]:
        """Seats in the order they would move if nobody moved again (rearmost first)."""
        return sorted(range(self.game.players), key=lambda s: (self.time[s], -self.stamp[s]))

    def view(self, seat: int | None = None) -> View:
        """What ``seat`` may know (``None``: a spectator): everything but the pile order.

        In Nova Luna every player sees the same, so the seat is only recorded.
        """
        return View(self, seat)

    def preview(self, action: Place) -> list[tuple[int, int, int]]:
        """Tasks ``(x, y, task index)`` that ``action`` would fulfil, without applying it."""
        cell = self._check_place(action)
        tile = self.wheel[action.space]
        found = self.displays[self.current_seat].fulfilled_by(tile, cell)
        return [(*cell_xy(c), i) for c, i in found]

    # -- applying -------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> list[tuple[int, int, int]]:
        """Apply a legal action (of ``seat``, if given: it must be the seat to move);
        return the tasks ``(x, y, task index)`` it covered.

        Raises ``IllegalActionError`` (and changes nothing) if it is not legal.
        """
        if seat is not None and seat != self.current_seat:
            raise IllegalActionError(
                "it is seat {seat}'s turn, not seat {other}'s",
                seat=self.current_seat + 1,
                other=seat + 1,
            )
        if isinstance(action, Place):
            return self._place(action.space, self._check_place(action))
        if isinstance(action, Refill):
            if not self.can_refill():
                raise self._no_refill()
            self._refill()
            self.refilled = True
            return []
        if isinstance(action, EndPhase):
            if not self.can_end_phase():
                raise self._no_end()
            self._end_phase1()
            return []
        raise IllegalActionError("{action} is not a Nova Luna action", action=repr(action))

    def _check_place(self, action: Place) -> int:
        """The key of the cell a legal take-and-place lays on; raises
        ``IllegalActionError`` with the reason for any other action."""
        if not self.is_over and isinstance(action, Place) and action.space in self._takeable():
            x, y = action.x, action.y
            if in_bounds(x, y):
                cell = cell_key(x, y)
                if cell in self.displays[self.current_seat]._fpos:
                    return cell
        self._refuse_place(action)
        raise AssertionError("unreachable: _refuse_place raises")

    def _refuse_place(self, action: Place) -> None:
        """Raise ``IllegalActionError`` saying why ``action`` is not a legal place."""
        if self.is_over:
            raise IllegalActionError("the game is over")
        if not isinstance(action, Place):
            raise IllegalActionError("{action} is not a take-and-place action", action=str(action))
        spaces = self._takeable()
        if action.space not in spaces:
            if not 0 <= action.space < WHEEL_SPACES:
                raise IllegalActionError(
                    "{action}: there is no wheel space {space}",
                    action=str(action),
                    space=action.space,
                )
            allowed = ", ".join(map(str, spaces))
            if not self.wheel[action.space]:
                raise IllegalActionError(
                    "{action}: space {space} is empty; you may take from space {allowed}",
                    action=str(action),
                    space=action.space,
                    allowed=allowed,
                )
            raise IllegalActionError(
                "{action}: space {space} is not one of the next three tiles; "
                "you may take from space {allowed}",
                action=str(action),
                space=action.space,
                allowed=allowed,
            )
        display = self.displays[self.current_seat]
        if not in_bounds(action.x, action.y) or cell_key(action.x, action.y) not in display._fpos:
            cell = f"{action.x},{action.y}"
            if not display.tiles:
                raise IllegalActionError(
                    "{action}: the first tile goes on cell 0,0", action=str(action)
                )
            if in_bounds(action.x, action.y) and cell_key(action.x, action.y) in display.tiles:
                raise IllegalActionError(
                    "{action}: cell {cell} is taken", action=str(action), cell=cell
                )
            raise IllegalActionError(
                "{action}: cell {cell} does not touch your tiles edge to edge",
                action=str(action),
                cell=cell,
            )

    def _no_refill(self) -> IllegalActionError:
        """Why a refill is refused now."""
        if self.is_over:
            return IllegalActionError("the game is over")
        if self.game.solo:
            return IllegalActionError("there is no refill during a solo phase")
        if self.refilled:
            return IllegalActionError("the wheel was already refilled this turn")
        if self.drawn >= len(self._pile):
            return IllegalActionError("the draw pile is empty")
        return IllegalActionError(
            "a refill is only allowed with 1 or 2 tiles on the wheel, not {tiles}",
            tiles=self.on_wheel,
        )

    def _no_end(self) -> IllegalActionError:
        """Why ending solo phase 1 is refused now."""
        if self.is_over:
            return IllegalActionError("the game is over")
        if not self.game.solo:
            return IllegalActionError("only the solo game has phases")
        if self.phase != 1:
            return IllegalActionError("phase 1 has already ended")
        return IllegalActionError(
            "phase 1 can end once 8 discs are placed; {discs} are", discs=self.discs_placed(0)
        )

    def _place(self, space: int, cell: int) -> list[tuple[int, int, int]]:
        """Take from ``space``, lay on ``cell``, cover, move on. No checks."""
        seat = self.current_seat
        tile = self.wheel[space]
        self.wheel[space] = 0
        self._spaces = None
        self.on_wheel -= 1
        self.meeple = space
        display = self.displays[seat]
        found = display.lay(tile, cell)
        if not self._solo:
            self.time[seat] += TILE_COST[tile]
            self.stamp[seat] = self._next_stamp
            self._next_stamp += 1
        covered = []
        if found:
            if len(found) > 1:
                found.sort()
            left = self.supply[seat]
            for c, i in found[:left]:
                display.cover(c, i)
                covered.append((*cell_xy(c), i))
            self.supply[seat] = left - len(covered)
        self.turn += 1
        if self.supply[seat] == 0:
            self._last_disc = True
            self._finish()
        else:
            self._start_turn()
        return covered

    def _refill(self) -> None:
        """Fill every empty space but the meeple's, clockwise from the meeple."""
        wheel, pile = self.wheel, self._pile
        self._spaces = None
        for space in _CLOCKWISE_AFTER[self.meeple]:
            if not wheel[space]:
                if self.drawn >= len(pile):
                    break
                wheel[space] = pile[self.drawn]
                self.drawn += 1
                self.on_wheel += 1

    def _start_turn(self) -> None:
        self.refilled = False
        if self._solo:
            if self.on_wheel == 0:
                if self.phase == 1:
                    self._end_phase1()
                else:
                    self._finish()
            return
        time, stamp = self.time, self.stamp
        seat = 0
        for s in range(1, len(time)):
            if time[s] < time[seat] or (time[s] == time[seat] and stamp[s] > stamp[seat]):
                seat = s
        self.current_seat = seat
        if self.on_wheel == 0:
            if self.drawn >= len(self._pile):
                self._finish()
            else:
                self._refill()
                self.refilled = True

    def _end_phase1(self) -> None:
        display = self.displays[0]
        self.phase1_discs = display.covered
        missing = max(0, SOLO_PHASE1_DISCS - display.covered)
        self.phase1_score = self._display_cost(0) + 10 * missing
        self.phase = 2
        self._refill()
        self.refilled = True

    def _display_cost(self, seat: int) -> int:
        return sum(TILE_COST[t] for t in self.displays[seat].tiles.values())

    def _finish(self) -> None:
        self.is_over = True
        if self.game.solo and self.phase == 1:  # all 21 discs placed in phase 1
            self.phase1_discs = self.displays[0].covered
            self.phase1_score = self._display_cost(0)

    def random_playout(self, rng: random.Random) -> None:
        """Play to the end, each action drawn uniformly from the legal ones.

        Same distribution as ``apply(rng.choice(legal_actions()))`` in a loop,
        without building the action list (this is what bots' rollouts and the
        benchmark run).
        """
        rand = rng.random
        displays = self.displays
        pile_size = len(self._pile)
        while not self.is_over:
            spaces = self._takeable()
            frontier = displays[self.current_seat].frontier
            width = len(frontier)
            if self._solo:
                extra = self.phase == 1 and displays[0].covered >= SOLO_PHASE1_DISCS
            else:
                extra = not self.refilled and self.on_wheel <= 2 and self.drawn < pile_size
            pick = int(rand() * (extra + len(spaces) * width)) - extra
            if pick < 0:
                if self._solo:
                    self._end_phase1()
                else:
                    self._refill()
                    self.refilled = True
                continue
            self._place(spaces[pick // width], frontier[pick % width])

    # -- outcome ---------------------------------------------------------------

    def result(self) -> Result:
        """The outcome; raises ``ValueError`` while the game is still going."""
        if not self.is_over:
            raise ValueError("the game is not over yet")
        n = self.game.players
        tiles_taken = tuple(len(d.tiles) for d in self.displays)
        if self.game.solo:
            placed = self.displays[0].covered
            phase2 = self._display_cost(0) + 10 * (DISCS - placed)
            return SoloResult(self.phase1_score, phase2, placed, tiles_taken[0])
        order = self.turn_order()
        ranking = sorted(range(n), key=lambda s: (self.supply[s], order.index(s)))
        return StandardResult(tuple(ranking), tuple(self.supply), tiles_taken, self._last_disc)

    def outcome(self) -> Outcome:
        """The result in the platform's terms (``core.outcome``); solo: one seat whose
        score (lower is better) is the total, with the phases as details."""
        result = self.result()
        if isinstance(result, SoloResult):
            details: dict[str, float] = {"phase 1": result.phase1, "phase 2": result.phase2}
            return Outcome((1,), (result.total,), "solo score", True, self.turn, "turns", details)
        ranks = [0] * len(result.ranking)
        for place, seat in enumerate(result.ranking, 1):
            ranks[seat] = place  # Nova Luna always breaks ties: ranks are distinct
        return Outcome(tuple(ranks), tuple(result.discs_left), "discs left", True, self.turn)

    def scores_so_far(self) -> int:
        """Solo: the cost of the display so far (for showing a running score)."""
        return self._display_cost(0)

    def unshare(self) -> None:
        """Copy what a ``clone(share=True)`` still shares with its original."""
        self.wheel = self.wheel.copy()
        self.displays = [d.clone() for d in self.displays]
        self.supply = self.supply.copy()
        self.time = self.time.copy()
        self.stamp = self.stamp.copy()

    def __repr__(self) -> str:
        mode = "solo" if self.game.solo else f"{self.game.players}p"
        return (
            f"<State {mode} turn={self.turn} seat={self.current_seat} "
            f"wheel={self.on_wheel} pile={self.pile_count} over={self.is_over}>"
        )
