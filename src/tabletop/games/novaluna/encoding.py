"""Nova Luna as arrays, for the research environments: the fixed flat action space, the
observation and the mask (``ENCODING``, the contract ``tabletop.research.encoding``).

Needs numpy (the extra ``rl``): nothing in the rules, the bots or the server imports
this module; ``GameType.research`` names it and the research adapters load it.

The flat action space (``Discrete(ACTIONS)``) and the observation's parts are
``layout``'s: its docstring lists them; every name of it is importable from here.

>>> from tabletop.games.novaluna.rules import Game, Place
>>> state = Game(players=2).new_state(seed=1)
>>> enc = Encoder(state)
>>> mask = enc.mask()
>>> int(mask.sum()) == len(state.legal_actions())
True
>>> decode(encode_place(2, 0, 0), state) == Place(state.takeable_spaces()[2], 0, 0)
True
>>> parts = split(enc.observe(0), 2)
>>> parts["displays"].shape, int(parts["unseen"].sum())
((2, 45, 9), 57)
"""

from __future__ import annotations

import itertools
import struct
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.errors import IllegalActionError, RecordError
from ...research.encoding import TERMINAL, Encoding, Scaler, follow
from .layout import (
    ACTIONS,
    CELLS,
    END_PHASE_ACTION,
    GRID,
    HEADER,
    HIGH,
    KEY_INDEX,
    LOW,
    MAX_TILES,
    MAX_TIME,
    RADIUS,
    REFILL_ACTION,
    ROW,
    SEAT,
    UNSEEN,
    WHEEL,
    decode,
    encode,
    encode_place,
    observation_bounds,
    observation_size,
    split,
)
from .records import read_seat_record
from .rules import Action, Game, Place, SoloResult, StandardResult, State
from .rules.display import cell_key, cell_xy
from .rules.state import _CLOCKWISE_AFTER
from .rules.tiles import TILE_COLOR, TILE_COST, TILE_IDS, TILE_TASKS

if TYPE_CHECKING:
    from .chance import ChanceEncoder
    from .fastchance import CompiledChanceEncoder, CompiledEncoder

#: Per tile id: (id, colour + 1, cost); an empty space (id 0) is zeros.
TILE_FEATURES: tuple[tuple[int, int, int], ...] = ((0, 0, 0),) + tuple(
    (t, TILE_COLOR[t] + 1, TILE_COST[t]) for t in TILE_IDS
)
#: Per tile id: a display row's entries after its cell (tile id, colour, cost, tasks).
_TILE_ROW = ((0,) * (ROW - 3),) + tuple(
    (t, TILE_COLOR[t], TILE_COST[t], *(int(len(TILE_TASKS[t]) > i) for i in range(3)))
    for t in TILE_IDS
)
_pack_row = struct.Struct(f"={ROW}h").pack_into
_join = bytearray().join  # a bytearray: the observation stays writable
#: Per number of takeable tiles: the action offsets of the choices.
_OFFSETS = tuple(tuple(choice * CELLS for choice in range(n)) for n in range(4))
#: Per meeple space, per other space: where the wheel entry's choice lies in the header.
_CHOICE_AT = tuple(
    {space: HEADER + 4 * k + 3 for k, space in enumerate(after)} for after in _CLOCKWISE_AFTER
)
#: Per tile id, per choice (0 = not takeable, 1-3): the wheel entry.
_WHEEL_ENTRY = tuple(tuple((*f, c) for c in range(4)) for f in TILE_FEATURES)


class Encoder:
    """Follows one game and encodes it; call ``update`` after every action applied.

    The displays, each seat's legal cells (as a grid) and the unseen tiles are
    kept up to date incrementally, so that an observation or a mask costs a few
    array copies, not a walk over every tile.
    """

    __slots__ = (
        "state", "players", "size", "_orders", "_pack", "_rows", "_where", "_free", "_unseen",
        "_drawn",
    )  # fmt: skip

    def __init__(self, state: State) -> None:
        self.state = state
        self.players = n = state.game.players
        self.size = observation_size(n)
        self._orders = [[(seat + k) % n for k in range(n)] for seat in range(n)]
        # header, wheel and seats as int16 bytes (faster than numpy's list conversion)
        self._pack = struct.Struct(f"={HEADER + WHEEL + SEAT * n}h").pack
        self._rows = [np.zeros(MAX_TILES * ROW, dtype=np.int16) for _ in range(n)]
        self._where: list[dict[tuple[int, int], int]] = [{} for _ in range(n)]
        # per seat: its legal cells, once per choice (a mask's layout): a mask is a copy
        self._free = [np.zeros(ACTIONS, dtype=np.int8) for _ in range(n)]
        self._unseen = np.zeros(UNSEEN, dtype=np.int16)
        for tile in state.unseen_tiles():
            self._unseen[tile - 1] = 1
        self._drawn = state.drawn
        for seat in range(n):  # a state may already be under way
            d = state.displays[seat]
            for key in d.frontier:
                self._set_free(seat, key, 1)
            for key, tile in d.tiles.items():
                self._add(seat, cell_xy(key), tile)
                open_mask = d.open.get(key, 0)
                row = self._where[seat][cell_xy(key)]
                for i in range(len(TILE_TASKS[tile])):
                    if not open_mask >> i & 1:
                        self._rows[seat][row * ROW + 6 + i] = 2
        self._see_wheel()

    def __getstate__(self) -> dict[str, object]:
        """Pickle everything but the packer (a ``struct.Struct`` cannot be pickled)."""
        return {name: getattr(self, name) for name in self.__slots__ if name != "_pack"}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self._pack = struct.Struct(f"={HEADER + WHEEL + SEAT * self.players}h").pack

    def copy(self) -> Encoder:
        """An independent copy following a clone of the state (OpenSpiel's ``clone()``
        and MCTS pay it every simulation: ``deepcopy`` took some 300 µs)."""
        new = Encoder.__new__(Encoder)
        new.state = self.state.clone()
        new.players, new.size, new._pack = self.players, self.size, self._pack
        new._orders = self._orders  # never changes
        new._rows = [rows.copy() for rows in self._rows]
        new._where = [where.copy() for where in self._where]
        new._free = [free.copy() for free in self._free]
        new._unseen = self._unseen.copy()
        new._drawn = self._drawn
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> Encoder:
        return self.copy()

    def _set_free(self, seat: int, key: int, value: int) -> None:
        index = KEY_INDEX[key]
        if index >= 0:
            free = self._free[seat]
            free[index] = free[index + CELLS] = free[index + 2 * CELLS] = value

    def _add(self, seat: int, cell: tuple[int, int], tile: int) -> None:
        where = self._where[seat]
        at = len(where) * ROW
        where[cell] = len(where)
        # packed into the array's buffer: a tuple assigned to a slice converts slowly
        # (numpy arrays are buffers; its stubs do not say so)
        _pack_row(self._rows[seat], 2 * at, 1, cell[0], cell[1], *_TILE_ROW[tile])  # type: ignore[arg-type]

    def _see_wheel(self) -> None:
        """Tiles drawn from the pile (refills, chosen or forced) are no longer unseen."""
        if self.state.drawn != self._drawn:
            self._drawn = self.state.drawn
            unseen = self._unseen
            for tile in self.state.wheel:
                if tile:
                    unseen[tile - 1] = 0

    def update(self, seat: int, action: Action, covered: list[tuple[int, int, int]]) -> None:
        """Record ``action`` by ``seat`` (already applied) and the tasks it covered."""
        if isinstance(action, Place):
            self._record_place(seat, action.x, action.y, cell_key(action.x, action.y), covered)
        self._see_wheel()

    def _record_place(
        self, seat: int, x: int, y: int, key: int, covered: list[tuple[int, int, int]]
    ) -> None:
        tiles = self.state.displays[seat].tiles
        self._add(seat, (x, y), tiles[key])
        if covered:
            rows, where = self._rows[seat], self._where[seat]
            for cx, cy, i in covered:
                rows[where[(cx, cy)] * ROW + 6 + i] = 2
        # _set_free inlined: this runs on every move
        free, index = self._free[seat], KEY_INDEX[key]
        if index >= 0:
            free[index] = free[index + CELLS] = free[index + 2 * CELLS] = 0
        for n in (key + 1, key - 1, key + 256, key - 256):
            if n not in tiles:
                index = KEY_INDEX[n]
                if index >= 0:
                    free[index] = free[index + CELLS] = free[index + 2 * CELLS] = 1

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    @property
    def truncation(self) -> str | None:
        """Never: the mask is exactly the rules' legal actions (no window to fill)."""
        return None

    def acting(self) -> int:
        """The seat to move: the rearmost marker (``TERMINAL`` once over)."""
        s = self.state
        return TERMINAL if s.is_over else s.current_seat

    def apply(self, action: int, seat: int | None = None) -> Action:
        """Apply action index ``action`` for the seat to move (``seat``, if given, must be
        it) and record it; return the engine's action. ``IllegalActionError`` (nothing
        changes) if the mask forbids it."""
        s = self.state
        if seat is not None and seat != s.current_seat:
            raise IllegalActionError(f"action {action}: it is seat {s.current_seat}'s turn")
        seat = s.current_seat
        if 0 <= action < REFILL_ACTION and not s.is_over:
            choice, cell = divmod(action, CELLS)
            spaces = s._takeable()
            if choice < len(spaces) and self._free[seat][action]:
                # The grid mirrors the engine's frontier (tests compare the masks with
                # legal_actions() over whole games), so this is a legal placement and the
                # engine's own check in State.apply would only repeat this one.
                row, column = divmod(cell, GRID)
                x, y = column - RADIUS, row - RADIUS
                key = cell_key(x, y)
                space = spaces[choice]
                covered = s._place(space, key)
                self._record_place(seat, x, y, key, covered)
                self._see_wheel()
                return Place(space, x, y)
        move = decode(action, s)
        if move is None:
            raise IllegalActionError(f"action {action} names no tile on the wheel")
        try:
            covered = s.apply(move)  # State.apply refuses what is illegal
        except IllegalActionError as e:
            raise IllegalActionError(f"action {action}: {e}") from None
        self.update(seat, move, covered)
        return move

    def action_index(self, action: Action) -> int:
        """The index of a rules' action in the current position (``encode``)."""
        return encode(action, self.state)

    def observe(self, seat: int) -> np.ndarray:
        """The observation of ``seat`` (see the module docstring)."""
        s = self.state
        n = self.players
        current = s.current_seat
        over = s.is_over
        head = [
            n,
            (current - seat) % n,
            int(not over and current == seat),  # ints: numpy converts bools slowly
            s.phase,
            int(s.can_refill()),
            int(s.can_end_phase()),
            s.pile_count,
            s.on_wheel,
            s.turn,
            int(over),
        ]
        # the wheel: every space as not takeable, then the takeable ones' choices
        wheel, meeple = s.wheel, s.meeple
        for space in _CLOCKWISE_AFTER[meeple]:
            head += _WHEEL_ENTRY[wheel[space]][0]
        if not over:
            at = _CHOICE_AT[meeple]
            for choice, space in enumerate(s._takeable(), 1):
                head[at[space]] = choice
        supply, time, displays, where = s.supply, s.time, s.displays, self._where
        mine = time[seat]
        order = self._orders[seat]
        turn_order = s.turn_order() if n > 1 else order
        for other in order:
            head += (
                supply[other],
                displays[other].covered,
                time[other],
                time[other] - mine,
                turn_order.index(other),
                len(where[other]),
            )
        # joined as bytes (the arrays' buffers): faster than numpy's concatenate
        rows = self._rows
        parts = [self._pack(*head), *[rows[other] for other in order], self._unseen]
        return np.frombuffer(_join(parts), np.int16)  # type: ignore[arg-type]

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """The indices where ``mask(seat)`` is 1, in increasing order, built from the
        display's frontier (a few dozen cells) instead of scanning the whole mask."""
        s = self.state
        if s.is_over or (seat is not None and seat != s.current_seat):
            return []
        cells = sorted([KEY_INDEX[key] for key in s.displays[s.current_seat].frontier])
        if cells and cells[0] < 0:  # never: the grid holds every legal cell
            cells = [c for c in cells if c >= 0]
        actions = [c + offset for offset in _OFFSETS[len(s._takeable())] for c in cells]
        if s.can_refill():
            actions.append(REFILL_ACTION)
        if s.can_end_phase():
            actions.append(END_PHASE_ACTION)
        return actions

    def mask(self, seat: int | None = None) -> np.ndarray:
        """``int8``, 1 for each legal action of the seat to move (all 0 once over, and
        for any other ``seat``)."""
        s = self.state
        if s.is_over or (seat is not None and seat != s.current_seat):
            return np.zeros(ACTIONS, dtype=np.int8)
        mask = self._free[s.current_seat].copy()
        choices = len(s.takeable_spaces())
        if choices < 3:
            mask[choices * CELLS : 3 * CELLS] = 0
        if s.can_refill():
            mask[REFILL_ACTION] = 1
        if s.can_end_phase():
            mask[END_PHASE_ACTION] = 1
        return mask

    def ranks(self) -> list[int]:
        """Per seat its place in the final ranking (Nova Luna breaks every tie)."""
        result = self.state.result()
        assert isinstance(result, StandardResult), "a solo game has no ranking"
        ranking = result.ranking
        return [ranking.index(seat) + 1 for seat in range(self.players)]

    def reward_scores(self) -> list[float]:
        """Discs placed per seat; solo, minus the final score (lower is better)."""
        result = self.state.result()
        if isinstance(result, SoloResult):
            return [-float(result.total)]
        return [float(self.state.discs_placed(seat)) for seat in range(self.players)]

    def solo_score(self) -> float:
        result = self.state.result()
        assert isinstance(result, SoloResult), "only a solo game has a score of its own"
        return result.total

    def render(self, seat: int | None = None) -> str:
        """The whole position (everyone sees everything but the pile's order)."""
        return render(self.state)


def render(state: State) -> str:
    """A plain-text picture of a position: wheel, seats and displays."""
    from .rules import TILES

    def name(tile: int) -> str:
        t = TILES[tile]
        return f"{t.color[0].upper()}{t.cost}"

    lines = [
        f"Nova Luna, {state.game.players} player(s), turn {state.turn}, "
        + ("over" if state.is_over else f"seat {state.current_seat} to move"),
        "wheel (clockwise from the meeple): "
        + " ".join(
            name(state.wheel[s]) if state.wheel[s] else "--" for s in _CLOCKWISE_AFTER[state.meeple]
        )
        + f"; pile {state.pile_count}",
    ]
    for seat, d in enumerate(state.displays):
        lines.append(
            f"seat {seat}: {state.supply[seat]} discs left, time {state.time[seat]}, "
            f"{len(d.tiles)} tiles"
        )
        if d.tiles:
            cells = {cell_xy(k): t for k, t in d.tiles.items()}
            xs = [x for x, _ in cells]
            ys = [y for _, y in cells]
            for y in range(min(ys), max(ys) + 1):
                row = []
                for x in range(min(xs), max(xs) + 1):
                    tile = cells.get((x, y))
                    if tile is None:
                        row.append(" . ")
                    else:
                        mark = "*" if d.open.get(cell_key(x, y), 0) == 0 else " "
                        row.append(name(tile) + mark)
                lines.append("  " + "".join(row))
    return "\n".join(lines)


# Length: at most 68 placements, as many refills, one end of phase and 69 chance nodes.
MAX_GAME_LENGTH = 68 * 2 + 1 + 69
# The worst solo score: phase 1 and phase 2 each count the display (at most all 68
# tiles, 268) and 10 per missing disc (8, then 21).
SOLO_WORST = 2 * 268 + 10 * 8 + 10 * 21


class NovaLunaSetup:
    """Nova Luna for ``players`` (1-4; ``first_game``: the rulebook's smaller supplies)."""

    observation_dtype = "int16"
    low, high = LOW, HIGH
    actions = ACTIONS
    max_chance_outcomes = len(TILE_IDS)  # more than the start stacks (at most 4! = 24)
    max_game_length = MAX_GAME_LENGTH

    def __init__(self, players: int, first_game: bool = False) -> None:
        self.rules = Game(players=players, first_game=first_game)  # checks both
        self.players = players
        self.observation_shape = (observation_size(players),)
        self.information_size = observation_size(players) + MAX_GAME_LENGTH
        self.scaler = Scaler(*observation_bounds(players))
        solo = players == 1
        self.min_utility = -float(SOLO_WORST) if solo else -1.0
        self.max_utility = 0.0 if solo else 1.0
        self.stacks = list(itertools.permutations(range(players)))

    def __reduce__(self) -> tuple[type[NovaLunaSetup], tuple[int, bool]]:
        """Pickled as its arguments (a serialized OpenSpiel state stays small)."""
        return NovaLunaSetup, (self.players, self.rules.first_game)

    def __deepcopy__(self, memo: dict[int, object]) -> NovaLunaSetup:
        return self  # never changes: OpenSpiel's clones share it

    def deal(self, seed: int, options: Mapping[str, Any]) -> Encoder | CompiledEncoder:
        """A game shuffled from ``seed``; ``options`` may fix the deal: ``{"pile": 68 tile
        ids in draw order, "start_stack": seats bottom to top}``. Compiled where the C
        extension is built (``fastchance.CompiledEncoder``), ``deal_python``'s otherwise:
        the same game."""
        from .fastchance import dealt  # it builds on this module's Encoder

        return dealt(self, seed, options)

    def deal_python(self, seed: int, options: Mapping[str, Any]) -> Encoder:
        """``deal``'s game as the pure Python ``Encoder`` (the compiled one's reference).

        >>> setup = NovaLunaSetup(2)
        >>> setup.deal_python(5, {}).render() == setup.deal(5, {}).render()
        True
        """
        state = self.rules.new_state(
            seed, pile=options.get("pile"), start_stack=options.get("start_stack")
        )
        return Encoder(state)

    def undealt(self) -> ChanceEncoder | CompiledChanceEncoder:
        """OpenSpiel's game: compiled where the C extension is built (``fastchance``)."""
        from .fastchance import undealt  # it builds on this module's Encoder

        return undealt(self)


def encoder_from_seat_record(seat_record: Any, seed: int) -> Encoder | CompiledEncoder:
    """The ``Encoder`` of a game at the point ``seat_record`` (``GameType.seat_record``)
    shows: dealt as ``GameType.determinize(seat_record, seed)`` deals it and every action
    applied through it, so that its observations, masks and action indices are the
    real game's. ``RecordError`` for a bad seat record.

    >>> from tabletop.games.novaluna.gametype import GAME
    >>> rec = GAME.new_recorder(2, {}, ["Ann", "Bob"], seed=3)
    >>> _ = rec.apply(rec.state.legal_actions()[-1])
    >>> enc = encoder_from_seat_record(GAME.seat_record(rec, 0), seed=8)
    >>> bool((enc.observe(0) == Encoder(rec.state).observe(0)).all())
    True
    """
    found = read_seat_record(seat_record, seed)
    game = found.recorder.state.game
    encoder = NovaLunaSetup(game.players, game.first_game).deal(seed, found.deal)
    for seat, action in found.moves:
        encoder.apply(encode(action, encoder.state), seat)
    return encoder


def spiel_history(setup: NovaLunaSetup, seat_record: Any, seed: int) -> list[int]:
    """OpenSpiel's history (chance outcomes and actions, ``chance.ChanceEncoder``'s) of
    ``setup``'s game at the point ``seat_record`` shows: the start stack, the tiles
    revealed as they were drawn, the actions between. ``RecordError`` if the record is
    bad or of another variant."""
    found = read_seat_record(seat_record, seed)
    state = found.recorder.state
    if state.game != setup.rules:
        raise RecordError(
            f"the seat record is of {state.game.players} player(s), first game "
            f"{state.game.first_game}; the game was loaded for {setup.players}, "
            f"first game {setup.rules.first_game}"
        )
    outcomes = [] if setup.players == 1 else [setup.stacks.index(state.start_stack)]
    outcomes += [tile - 1 for tile in state.pile_order()[: state.drawn]]
    from .chance import ChanceEncoder  # the Python game: its state gives the indices

    return follow(ChanceEncoder(setup), outcomes, found.moves, _index)


def _index(action: Action, chance: ChanceEncoder) -> int:
    state = chance.state
    assert state is not None  # dealt: it is a seat's turn
    return encode(action, state)


class NovaLunaEncoding:
    """Nova Luna's encoding (``GameType.research`` of ``nova-luna``)."""

    default_players = 2
    illegal_penalty = -1000.0  # every finished solo game scores above -600
    perfect_information = True
    simultaneous = False  # one seat at a time: the rearmost

    @property
    def compiled(self) -> str:
        from .fastchance import COMPILED  # it builds on this module

        if COMPILED:
            return "OpenSpiel's game compiled (C extension _novalunafast)"
        return "OpenSpiel's game in pure Python (no C extension)"

    spiel_parameters = {"players": 2}

    def setup(self, players: int, **options: Any) -> NovaLunaSetup:
        return NovaLunaSetup(players, **options)

    def from_seat_record(
        self, seat_record: Any, seed: int, **options: Any
    ) -> Encoder | CompiledEncoder:
        if options:
            raise ValueError(f"Nova Luna's encoder takes no options, not {', '.join(options)}")
        return encoder_from_seat_record(seat_record, seed)

    def spiel_history(self, setup: Any, seat_record: Any, seed: int) -> list[int]:
        return spiel_history(setup, seat_record, seed)

    def from_record(self, record: Mapping[str, Any]) -> tuple[NovaLunaSetup, dict[str, Any]]:
        """A record's variant and deal: its pile and starting stack (docs/records.md)."""
        setup = NovaLunaSetup(len(record["players"]), bool(record.get("first_game", False)))
        return setup, {"pile": list(record["pile"]), "start_stack": record.get("start_stack")}


ENCODING = NovaLunaEncoding()
if TYPE_CHECKING:  # mypy holds the encoding to the protocol the research adapters use
    _CONFORMS: Encoding = ENCODING

# the encoding's names and its layout's (``research.novaluna`` exports them all)
__all__ = [
    "ACTIONS",
    "CELLS",
    "ENCODING",
    "END_PHASE_ACTION",
    "GRID",
    "HEADER",
    "HIGH",
    "KEY_INDEX",
    "LOW",
    "MAX_GAME_LENGTH",
    "MAX_TILES",
    "MAX_TIME",
    "RADIUS",
    "REFILL_ACTION",
    "ROW",
    "SEAT",
    "SOLO_WORST",
    "TILE_FEATURES",
    "UNSEEN",
    "WHEEL",
    "Encoder",
    "NovaLunaEncoding",
    "NovaLunaSetup",
    "decode",
    "encode",
    "encode_place",
    "encoder_from_seat_record",
    "observation_bounds",
    "observation_size",
    "render",
    "spiel_history",
    "split",
]
