"""NMBR 9 as arrays, for the research environments: the fixed flat action space, the
observation and the mask (``ENCODING``, the contract ``tabletop.research.encoding``).
Needs numpy (the extra ``rl``): nothing in the rules, the bots or the server imports it.

The table has no edge, but a fixed action space needs one: the environments
play on a **window** of ``size × size`` squares (default ``SIZE = 40``),
squares ``x, y`` from ``-size // 2`` to ``size - size // 2 - 1``. The first
tile lies with its top-left corner on ``(0, 0)`` (the engine offers only that:
where the first tile lies changes nothing), near the middle of the window.

**Actions** (``Discrete(4 * size * size)``): ``rotation * size * size +
(y + size // 2) * size + (x + size // 2)`` lays this round's tile turned
``rotation`` quarter turns clockwise with the top-left corner of its bounding
box on square ``(x, y)``. The mask offers exactly the engine's legal
placements (one per distinct rotation, as ``State.legal_actions``) whose
squares all lie in the window. There is no pass: the rules always offer a
placement. A tile lies at most 4 squares from the tiles it touches, and a board
of at most 20 tiles (≤ 200 squares on the table) leaves room in a 40 × 40
window in every game we have played; ``window_is_full`` is what would tell.

**Small windows.** ``size`` is at least ``MIN_SIZE`` (7), the smallest window
that holds every first tile (``ValueError`` below it). A smaller window than 40
makes fast experiments but can run out of room: when a seat that has still to
place this round finds no placement inside it, the game cannot go on in this
action space, and ``Encoder.truncation`` says ``WINDOW_FULL`` (the environments
end the episode truncated). Since a seat's placements change only when a round
begins, this is decided at the start of a round, never halfway through one.

**Observation** (``Box(-1, 1000, (n,), int16)``): see ``observation``, which builds it
from the engine's ``View``: another seat's pending placement never reaches it.

>>> from tabletop.games.nmbr9.rules import Game
>>> state = Game(players=2).new_state(seed=1)
>>> mask = legal_mask(state, 0)
>>> int(mask.sum()) == len(state.legal_actions(0))
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.errors import IllegalActionError, RecordError
from ...research.encoding import CHANCE, TERMINAL, Encoding, Scaler, shuffle
from ...research.rounds import follow_rounds
from .information import HIDDEN as HIDDEN  # part of this module's public names
from .information import ChanceInformation
from .observation import (
    HEADER,
    HIGH,
    LOW,
    SOLO_BEST,
    observation_bounds,
    observation_size,
    render,
)
from .observation import observe as observe  # part of this module's public names
from .observation import observe_view as observe_view
from .observation import split as split
from .records import read_seat_record
from .rules import CARDS, FULL_DECK, SHAPES, Game, Place, Placed, State
from .window import (
    COMPILED,
    MIN_SIZE,
    SIZE,
    actions,
    decode,
    encode,
    in_window,
    legal_mask,
    mask_indices,
)
from .window import COMPILED_SIZE as COMPILED_SIZE  # part of this module's public names
from .window import window_is_full as window_is_full

if TYPE_CHECKING:
    from .fastchance import CompiledChanceEncoder, CompiledEncoder

#: ``Encoder.truncation`` once a seat that must place has no placement in the window.
WINDOW_FULL = "window_full"


class Encoder:
    """Follows one game dealt from a seed (PettingZoo, Gymnasium): every round the seats
    that have not placed act one after another in seat order, each placement pending
    (hidden from the other seats) until the round resolves.

    Observations and masks are kept up to date placement by placement rather than
    rebuilt from the rules' state (the module's ``observe`` and ``legal_mask`` are the
    reference; tests check the two agree). ``copy()`` (and ``copy.deepcopy``, which
    OpenSpiel's ``clone()`` calls) is an independent copy.

    >>> game = ENCODING.setup(2).deal(1, {})
    >>> game.acting(), int(game.mask(1).sum()) == len(game.legal_actions(1))
    (0, True)
    >>> bool((game.observe(1) == observe(game.state, 1)).all())
    True
    """

    def __init__(self, setup: Nmbr9Setup, state: State) -> None:
        self.setup = setup
        self.state = state
        self.size = setup.size
        # seat -> (generation, mask): a seat's mask changes only when a round begins (a
        # new card; ChanceEncoder: when the card is turned) or once it has placed, so it
        # is computed once per round and seat (to check the window, to observe, to step)
        self._masks: dict[int, tuple[int, np.ndarray]] = {}
        # seat -> (mask, its legal actions): listed once per mask, kept with it (the
        # window check and the legal actions both ask)
        self._lists: dict[int, tuple[np.ndarray, list[int]]] = {}
        self._generation = 0
        self._truncation: str | None = None
        # Per seat its board on the window's squares as ``observe`` lays it out (heights,
        # then digits + 1), drawn tile by tile as they are laid; and per seat with a
        # placement pending, its squares in those planes and what they held before:
        # what the other seats see instead.
        plane = self.size * self.size
        self._planes = np.zeros((setup.players, 2 * plane), dtype=np.int16)
        self._hidden: list[tuple[np.ndarray, np.ndarray] | None] = [None] * setup.players
        self._unturned: tuple[tuple[tuple[int, ...], int, bool], np.ndarray] | None = None
        for seat, board in enumerate(state.boards):
            pending = state.placed[seat]
            for tile in board.tiles:
                self._draw(seat, tile, hide=tile is pending)
        self._start_round()

    def copy(self) -> Encoder:
        """An independent copy (the rules' state cloned; the setup shared)."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.state = self.state.clone()
        new._planes = self._planes.copy()
        new._hidden = self._hidden.copy()  # entries are never changed, only replaced
        new._masks = self._masks.copy()  # the cached masks are read-only
        new._lists = self._lists.copy()  # and so are the lists (callers get copies)
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> Encoder:
        return self.copy()

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def acting(self) -> int:
        state = self.state
        return TERMINAL if state.is_over else state.acting_seats()[0]

    @property
    def truncation(self) -> str | None:
        """``WINDOW_FULL`` when the game cannot go on in the window: a seat that has
        still to place this round has no placement inside it (decided as the round
        begins); ``None`` while it can (and once the game is over)."""
        return self._truncation

    def _start_round(self) -> None:
        """A round begins: every seat's mask is new; is there room for all of them?"""
        self._generation += 1
        state = self.state
        stuck = any(not self._legal(s) for s in state.acting_seats())
        self._truncation = WINDOW_FULL if stuck else None

    def _mask(self, seat: int) -> np.ndarray:
        if self.state.placed[seat] is not None:
            return self.setup.no_actions
        cached = self._masks.get(seat)
        if cached is None or cached[0] != self._generation:
            mask = legal_mask(self.state, seat, self.size)
            mask.flags.writeable = False  # shared with copies
            cached = self._generation, mask
            self._masks[seat] = cached
        return cached[1]

    def mask(self, seat: int) -> np.ndarray:
        """The seat's legal placements if it has still to place this round (whether or
        not it acts first: the round is simultaneous)."""
        return self._mask(seat).copy()

    def legal_actions(self, seat: int) -> list[int]:
        return self._legal(seat).copy()

    def _legal(self, seat: int) -> list[int]:
        """The seat's legal actions, listed once per mask (read-only: copy to hand out)."""
        mask = self._mask(seat)
        cached = self._lists.get(seat)
        if cached is None or cached[0] is not mask:
            cached = self._lists[seat] = mask, mask_indices(mask)
        return cached[1]

    def observe(self, seat: int) -> np.ndarray:
        return self._observe(seat)

    def _observe(self, viewer: int | None, acting: bool | None = None) -> np.ndarray:
        """``observe(self.state, viewer, acting=acting)`` (``viewer`` None: the public
        observation, ``observe_view`` of a spectator), from the planes."""
        state = self.state
        n = self.setup.players
        size = self.size
        seat = 0 if viewer is None else viewer
        over = state.is_over
        if acting is None:
            acting = viewer is not None and not over and state.placed[seat] is None
        obs = np.empty(observation_size(n, size), dtype=np.int16)
        card = state.card
        obs[:HEADER] = (n, state.round, state.rounds, -1 if card is None else card, acting, over)
        obs[HEADER : HEADER + 10] = self._unturned_counts()
        at = HEADER + 10
        order = [(seat + k) % n for k in range(n)]
        boards, placed = state.boards, state.placed
        for k, s in enumerate(order):
            score = boards[s].score
            pending = placed[s]
            if pending is not None and s != viewer:
                score -= pending.digit * pending.level
            obs[at + k] = score
        at += n
        planes = obs[at:].reshape(n, -1)
        for k, s in enumerate(order):
            planes[k] = self._planes[s]  # row by row: cheaper than np.take here
            hidden = self._hidden[s]
            if hidden is not None and s != viewer:
                planes[k, hidden[0]] = hidden[1]
        return obs

    def _unturned_counts(self) -> np.ndarray:
        """Per digit the cards not turned yet (``View.unturned``), cached while the deck,
        the round and whether the game is over stay the same."""
        state = self.state
        key = (state.deck_order(), state.round, state.is_over)
        cached = self._unturned
        if cached is None or cached[0] != key:
            turned = state.round + (0 if state.is_over else 1)
            counts = np.bincount(key[0][turned:], minlength=10).astype(np.int16)
            cached = self._unturned = key, counts
        return cached[1]

    def _draw(self, seat: int, tile: Placed, hide: bool) -> None:
        """Lay ``tile`` on ``seat``'s planes (its squares outside the window left out);
        ``hide``: a pending placement, remembered so that other seats do not see it."""
        size = self.size
        half = size // 2
        shape = tile.shape
        x, y = tile.x + half, tile.y + half
        if x >= 0 and y >= 0 and x + shape.width <= size and y + shape.height <= size:
            offsets, count = self.setup.squares(tile.digit, tile.rotation)
            squares = offsets + (y * size + x)
        else:  # only a state the encoder did not play (a game's rules alone) has these
            cells = [
                (y + dy) * size + x + dx
                for dx, dy in shape.cells
                if 0 <= x + dx < size and 0 <= y + dy < size
            ]
            count = len(cells)
            squares = np.array(cells + [c + size * size for c in cells], dtype=np.intp)
        self._paint(seat, squares, count, tile.level, tile.digit, hide)

    def _paint(
        self, seat: int, squares: np.ndarray, count: int, level: int, digit: int, hide: bool
    ) -> None:
        """Set a tile's ``squares`` (``count`` heights, then as many digits) on a seat's
        planes; ``hide``: remember what they held (a pending placement)."""
        planes = self._planes[seat]
        if hide:
            self._hidden[seat] = squares, planes[squares]
        planes[squares[:count]] = level + 1
        planes[squares[count:]] = digit + 1

    def apply(self, action: int, seat: int) -> None:
        actions = self.setup.actions
        if not 0 <= action < actions:
            raise IllegalActionError(f"action {action} is outside 0..{actions - 1}")
        if not self._mask(seat)[action]:
            place = decode(action, self.size)
            raise IllegalActionError(
                f"action {action} ({place} for the {self.state.card}) is not a legal "
                "placement in the window"
            )
        state = self.state
        round_ = state.round
        digit = state.card
        assert digit is not None  # the mask offers nothing once over
        # Legal (the mask is the engine's legal placements in the window) and inside the
        # window: the level is the height under its first square, read off the planes.
        place = decode(action, self.size)
        size = self.size
        offsets, count = self.setup.squares(digit, place.rotation)
        squares = offsets + (action % (size * size))
        level = int(self._planes[seat, squares[0]])
        state.apply_known(place, seat, level)
        resolved = state.round != round_
        self._paint(seat, squares, count, level, digit, hide=not resolved)
        if resolved:
            self._hidden = [None] * self.setup.players
            self._start_round()

    def action_index(self, action: Place) -> int:
        """The index of a placement of this round's tile; ``ValueError`` outside the
        window."""
        card = self.state.card
        if card is None or not in_window(card, action, self.size):
            raise ValueError(f"{action} lies outside the {self.size} x {self.size} window")
        return encode(action, self.size)

    def scores(self) -> list[int]:
        return [self.state.score(seat) for seat in range(self.setup.players)]

    def ranks(self) -> list[int]:
        """Shared between equal totals: 1 + the seats with more points."""
        scores = self.scores()
        return [1 + sum(other > mine for other in scores) for mine in scores]

    def reward_scores(self) -> list[float]:
        return [float(score) for score in self.scores()]

    def solo_score(self) -> float:
        return self.state.score(0)

    def render(self, seat: int | None = None) -> str:
        return render(self.state, seat)


def _untell_card(obs: np.ndarray, state: State) -> None:
    """Before the chance node turns the round's card: no card (-1), and the engine's
    placeholder for it counted among the cards not turned, where it is."""
    obs[3] = -1
    obs[HEADER + state.deck_order()[state.round]] += 1


class ChanceEncoder(ChanceInformation, Encoder):
    """A game whose cards the chance nodes turn (OpenSpiel): each round begins with a
    chance node turning the next card, a digit with probability proportional to the
    cards of it not turned yet; then the seats place in seat order, **imperfect
    information**: a seat never sees another seat's placement of the current round.
    Should a seat find no placement inside the window (never seen), the game ends.

    >>> game = ENCODING.setup(1).undealt()
    >>> game.acting() == CHANCE, int(game.observe(0)[3])
    (True, -1)
    """

    def __init__(self, setup: Nmbr9Setup) -> None:
        # The engine's deck is arranged card by card by the chance nodes.
        super().__init__(setup, setup.rules.new_state(deck=sorted(FULL_DECK)))
        self.turned = 0  # rounds whose card the chance node has turned
        self.stuck = False  # a seat found no placement in the window
        self._acting = self._whose_turn()  # after every change (``_check_window``)

    @property
    def is_over(self) -> bool:
        return self.state.is_over or self.stuck

    @property
    def truncation(self) -> str | None:
        """``WINDOW_FULL`` once ``stuck`` (the game has then ended)."""
        return WINDOW_FULL if self.stuck else None

    def _start_round(self) -> None:
        # The round's card is not turned yet: the chance node begins the round.
        self._generation += 1

    def acting(self) -> int:
        return self._acting  # OpenSpiel asks several times a move

    def _whose_turn(self) -> int:
        state = self.state
        if state.is_over or self.stuck:
            return TERMINAL
        if self.turned == state.round:
            return CHANCE
        return state.placed.index(None)  # acting_seats()[0], without the tuple

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = list(self.state.deck_order()[self.state.round :])
        return [(d, cards.count(d) / len(cards)) for d in sorted(set(cards))]

    def apply_chance(self, outcome: int) -> None:
        self.state.arrange_deck([outcome])
        self.turned += 1
        self._generation += 1  # the card changes every mask
        self._check_window()

    def apply(self, action: int, seat: int) -> None:
        super().apply(action, seat)
        self._check_window()

    def _check_window(self) -> None:
        state = self.state
        if not state.is_over and self.turned > state.round:
            # the next seat to place (a new round waits for its card first): its mask is
            # exactly its legal placements inside the window (``window_is_full``), and
            # computed now it serves its legal actions next
            self.stuck = not self._legal(state.placed.index(None))  # the first to place
        self._acting = self._whose_turn()

    def observe(self, seat: int) -> np.ndarray:
        """The observation; before a round's card is turned, its card is -1."""
        if self._card_turned():
            return self._observe(seat)
        obs = self._observe(seat, acting=False)
        _untell_card(obs, self.state)
        return obs

    def render(self, seat: int | None = None) -> str:
        """The position as ``seat`` sees it; before a round's card is turned, no card."""
        return render(self.state, seat, turned=self._card_turned())

    def _card_turned(self) -> bool:
        return self.turned > self.state.round or self.state.is_over

    def shuffle_unseen(self, uniform: Callable[[], float]) -> None:
        """Reorder the cards not turned yet (the removed ones among them): the engine's
        deck holds an order the chance nodes never read."""
        state = self.state
        if state.is_over:
            return
        if self._card_turned():
            cards = list(state.unturned())
            shuffle(cards, uniform)
            state.arrange_unturned(cards)
        else:  # the round's card too: no placement yet
            cards = list(state.deck_order()[state.round :])
            shuffle(cards, uniform)
            state.arrange_deck(cards)

    # -- public information (``tabletop.research.encoding.PublicView``) ------------------

    def public_observe(self) -> np.ndarray:
        """What every seat sees: the observation's layout, seat 0 first, the boards as of
        the last resolved round, the card once turned, "to place" 0."""
        obs = self._observe(None, acting=False)
        if not self._card_turned():
            _untell_card(obs, self.state)
        return obs

    def public_render(self) -> str:
        return render(self.state, turned=self._card_turned(), public=True)


class Nmbr9Setup:
    """NMBR 9 for ``players`` (1-4) on a ``size`` × ``size`` window (``remove``: cards
    taken out unseen, ``None`` for the rulebook's random 1-4)."""

    observation_dtype = "int16"
    low, high = LOW, HIGH
    max_chance_outcomes = 10

    def __init__(self, players: int, remove: int | None = 0, size: int = SIZE) -> None:
        self.rules = Game(players=players, remove=remove)  # checks both
        if isinstance(size, bool) or not isinstance(size, int) or size < MIN_SIZE:
            raise ValueError(
                f"size is a whole number of squares, at least {MIN_SIZE} (the smallest "
                f"window that holds every first tile), not {size!r}"
            )
        self.players = players
        self.size = size
        self.actions = actions(size)
        self.no_actions = np.zeros(self.actions, dtype=np.int8)  # the mask of a seat that placed
        self.no_actions.flags.writeable = False
        self.observation_shape = (observation_size(players, size),)
        rounds = CARDS - (remove or 0)
        self.max_game_length = rounds * (players + 1)
        self.information_size = self.observation_shape[0] + self.max_game_length
        self.scaler = Scaler(*observation_bounds(players, size))
        solo = players == 1
        self.min_utility = 0.0 if solo else -1.0
        self.max_utility = SOLO_BEST if solo else 1.0

    def __deepcopy__(self, memo: dict[int, object]) -> Nmbr9Setup:
        return self  # never changes: OpenSpiel's clones share it

    def __reduce__(self) -> tuple[type[Nmbr9Setup], tuple[int, int | None, int]]:
        """Pickled as its arguments, its tables made again on loading: a serialized
        OpenSpiel state stays small (147 kB before, most of it this setup's arrays)."""
        return Nmbr9Setup, (self.players, self.rules.remove, self.size)

    @functools.cache  # noqa: B019  (a setup lives as long as its games: a few per process)
    def squares(self, digit: int, rotation: int) -> tuple[np.ndarray, int]:
        """A tile's squares as offsets into an observation's planes of one seat, from its
        top-left corner: first in the heights plane, then the same in the digits plane;
        and how many squares it has."""
        size = self.size
        cells = [dy * size + dx for dx, dy in SHAPES[digit][rotation].cells]
        both = np.array(cells + [c + size * size for c in cells], dtype=np.intp)
        both.flags.writeable = False
        return both, len(cells)

    def deal(self, seed: int, options: Mapping[str, Any]) -> Encoder | CompiledEncoder:
        """A game shuffled from ``seed``; ``options`` may fix it: ``{"deck": 20 digits}``."""
        from .fastchance import deal  # compiled where the C extension is built

        return deal(self, self.rules.new_state(seed, deck=options.get("deck")))

    def undealt(self) -> ChanceEncoder | CompiledChanceEncoder:
        """OpenSpiel's game: compiled where the C extension is built (``fastchance``)."""
        from .fastchance import undealt  # it builds on this module's ChanceEncoder

        return undealt(self)


def _window(size: int) -> Callable[[int, Place], bool]:
    return lambda digit, place: in_window(digit, place, size)


def encoder_from_seat_record(seat_record: Any, seed: int, size: int = SIZE) -> Encoder:
    """The ``Encoder`` (window ``size``) of a game at the point ``seat_record``
    (``GameType.seat_record``) shows: dealt as ``GameType.determinize(seat_record,
    seed)`` deals it and every placement applied through it, another seat's hidden one
    of the current round drawn from ``seed`` among those inside the window. Its
    observation and mask of the record's seat are the real game's. ``RecordError`` for
    a bad seat record, or a placement outside the window.

    >>> from tabletop.games.nmbr9.gametype import GAME
    >>> rec = GAME.new_recorder(2, {}, ["Ann", "Bob"], seed=3)
    >>> _ = rec.apply(rec.state.legal_actions(1)[-1], 1)
    >>> enc = encoder_from_seat_record(GAME.seat_record(rec, 0), seed=8)
    >>> enc.acting(), bool((enc.observe(0) == observe(rec.state, 0)).all())
    (0, True)
    """
    found = read_seat_record(seat_record, seed, _window(size))
    state = found.recorder.state
    setup = Nmbr9Setup(state.game.players, state.removed, size)  # a random removal is known
    # the Python encoder: each move reads the rules' state, which it holds
    encoder = Encoder(setup, setup.rules.new_state(seed, deck=found.deal.get("deck")))
    for seat, place in found.moves:
        state = encoder.state
        if state.card is None or not in_window(state.card, place, size):
            raise RecordError(_outside(seat, place, state.round, size))
        encoder.apply(encode(place, size), seat)
    return encoder


def spiel_history(setup: Nmbr9Setup, seat_record: Any, seed: int) -> list[int]:
    """OpenSpiel's history of ``setup``'s game at the point ``seat_record`` shows
    (``research.rounds.follow_rounds``), the placements drawn from ``seed`` among those
    in the window. ``RecordError`` if the record is bad or of another variant."""
    found = read_seat_record(seat_record, seed, _window(setup.size))
    rec, state = found.recorder, found.recorder.state
    if (state.game.players, state.removed) != (setup.players, setup.rules.remove):
        raise RecordError(
            f"the seat record is of {state.game.players} player(s) with {state.removed} "
            f"card(s) removed; the game was loaded for {setup.players}, remove="
            f"{setup.rules.remove}"
        )
    made = [entry["placements"] for entry in rec.rounds]
    none: list[Any] = [None] * setup.players
    rounds = [(card, made[n] if n < len(made) else none) for n, card in enumerate(state.turned())]

    def index(number: int, seat: int, placement: dict[str, int]) -> int:
        place = Place(placement["rotation"], placement["x"], placement["y"])
        if not in_window(state.turned()[number], place, setup.size):
            raise RecordError(_outside(seat, place, number, setup.size))
        return encode(place, setup.size)

    rng, seat = random.Random(seed), seat_record["seat"]
    return follow_rounds(setup.undealt(), rounds, seat, rng, index)


def _outside(seat: int, place: Place, number: int, size: int) -> str:
    """Why a game (on a table without edges) cannot be encoded in a ``size`` window."""
    where = f"the encoding's {size} x {size} window"
    return f"round {number + 1}: seat {seat}'s placement {place} lies outside {where}"


class Nmbr9Encoding:
    """NMBR 9's encoding (``GameType.research`` of ``nmbr9``)."""

    default_players = 2
    illegal_penalty = -100.0  # every finished game scores 0 or more
    perfect_information = False
    simultaneous = True  # every seat places every round (``TabletopParallelEnv``)
    compiled = (
        "OpenSpiel's game and the masks compiled (C extension _nmbr9fast)"
        if COMPILED
        else "OpenSpiel's game and the masks in pure Python (no C extension)"
    )
    spiel_parameters = {"players": 2, "remove": 0}

    def setup(self, players: int, **options: Any) -> Nmbr9Setup:
        return Nmbr9Setup(players, **options)

    def from_seat_record(self, seat_record: Any, seed: int, **options: Any) -> Encoder:
        unknown = set(options) - {"size"}
        if unknown:
            raise ValueError(f"NMBR 9's encoder takes only 'size', not {', '.join(unknown)}")
        return encoder_from_seat_record(seat_record, seed, **options)

    def spiel_history(self, setup: Any, seat_record: Any, seed: int) -> list[int]:
        return spiel_history(setup, seat_record, seed)

    def from_record(self, record: Mapping[str, Any]) -> tuple[Nmbr9Setup, dict[str, Any]]:
        """A record's variant and deal: its deck, the last ``removed`` cards never turned
        (docs/records-nmbr9.md); the default window."""
        setup = Nmbr9Setup(len(record["players"]), remove=int(record["removed"]))
        return setup, {"deck": list(record["deck"])}


ENCODING = Nmbr9Encoding()
if TYPE_CHECKING:  # mypy holds the encoding to the protocol the research adapters use
    _CONFORMS: Encoding = ENCODING
