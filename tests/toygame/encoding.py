"""Toy Draft as arrays for the research environments (PettingZoo, Gymnasium, OpenSpiel):
the encoding contract of ``tabletop.research.encoding``, named by ``GameType.research``.

Actions: ``0..2``, take the tile in that market slot. An observation (``int16``) is the
market (0 for a gap the pile has still to fill), the turn, the tiles left unseen, then
each seat's sum and number of tiles, the observing seat first; ``scaler`` holds each
entry's bounds (the adapters hand networks the observation scaled onto ``[0, 1]``).
Everything a seat sees is public: only the pile's order is unknown, and for OpenSpiel
the pile is chance — a chance node turns each tile as it comes face up (outcome
``tile - 1``) — so the game is one of perfect information there.

>>> encoder = ENCODING.setup(2).deal(seed=1, options={})
>>> encoder.acting(), encoder.legal_actions(0), encoder.observe(0).tolist()[3:]
(0, [0, 1, 2], [0, 12, 0, 0, 0, 0])
>>> undealt = ENCODING.setup(2).undealt()
>>> undealt.acting() == CHANCE, len(undealt.chance_outcomes())
(True, 15)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop.core.errors import IllegalActionError, RecordError
from tabletop.core.outcome import Outcome
from tabletop.research.encoding import CHANCE, TERMINAL, Encoding, Scaler, follow

from .records import read_seat_record
from .rules import MARKET, TILES, TURNS, Game, State, Take

#: The highest sum: the four highest tiles.
BEST = sum(range(TILES - TURNS + 1, TILES + 1))


class ToyEncoder:
    """One game in progress: dealt from a pile (``state`` is then the rules' state), or
    undealt, the chance nodes turning each tile (``state`` is None)."""

    def __init__(self, setup: ToySetup, pile: list[int] | None) -> None:
        self.setup = setup
        self.players = setup.players
        self.market = [0] * MARKET  # 0: a gap a chance node fills
        self.hands: list[list[int]] = [[] for _ in range(self.players)]
        self.turn = 0
        self.unseen = list(range(1, TILES + 1))
        self._state: State | None = None
        if pile is not None:
            self._state = Game(self.players).new_state(pile=pile)
            for tile in self._state.market:
                self._reveal(tile)

    @property
    def state(self) -> State | None:
        return self._state

    @property
    def is_over(self) -> bool:
        return self.turn >= self.players * TURNS

    @property
    def truncation(self) -> str | None:
        return None  # the mask is always the rules' legal takes

    def acting(self) -> int:
        if self.is_over:
            return TERMINAL
        return CHANCE if 0 in self.market else self.turn % self.players

    def _reveal(self, tile: int) -> None:
        self.market[self.market.index(0)] = tile
        self.unseen.remove(tile)

    def observe(self, seat: int) -> np.ndarray:
        seats = [(seat + k) % self.players for k in range(self.players)]
        mine = [v for s in seats for v in (sum(self.hands[s]), len(self.hands[s]))]
        return np.array([*self.market, self.turn, len(self.unseen), *mine], dtype=np.int16)

    def mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(MARKET, dtype=np.int8)
        mask[self.legal_actions(seat)] = 1
        return mask

    def legal_actions(self, seat: int) -> list[int]:
        return list(range(MARKET)) if self.acting() == seat else []

    def action_index(self, action: Take) -> int:
        return action.slot

    def apply(self, action: int, seat: int) -> None:
        if action not in self.legal_actions(seat):
            raise IllegalActionError(
                "action {action} is not legal for seat {seat} now", action=action, seat=seat
            )
        self.hands[seat].append(self.market[action])
        self.market[action] = 0
        self.turn += 1
        if self._state is not None:
            self._state.apply(Take(action), seat)
            if not self.is_over:  # the pile's next tile fills the gap
                self._reveal(self._state.market[action])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(tile - 1, 1 / len(self.unseen)) for tile in self.unseen]

    def apply_chance(self, outcome: int) -> None:
        if self.acting() != CHANCE or outcome + 1 not in self.unseen:
            raise IllegalActionError(
                "chance outcome {outcome} is not possible now", outcome=outcome
            )
        self._reveal(outcome + 1)

    def _outcome(self) -> Outcome:
        sums = tuple(sum(hand) for hand in self.hands)
        return Outcome.from_scores(sums, "sum", lower_is_better=False, length=self.turn)

    def ranks(self) -> list[int]:
        return list(self._outcome().ranks)

    def reward_scores(self) -> list[float]:
        return [float(sum(hand)) for hand in self.hands]

    def solo_score(self) -> float:
        return float(sum(self.hands[0]))

    def render(self, seat: int | None) -> str:
        hands = "; ".join(
            f"seat {s + 1}: {' '.join(map(str, hand)) or '-'} (sum {sum(hand)})"
            for s, hand in enumerate(self.hands)
        )
        market = " ".join(str(t) if t else "?" for t in self.market)
        return f"Toy Draft, turn {self.turn}: market {market}; {hands}; {len(self.unseen)} unseen"

    def action_string(self, action: int) -> str:
        return str(Take(action))

    def chance_string(self, outcome: int) -> str:
        return f"tile {outcome + 1}"

    def information_tensor(self, seat: int, history: Sequence[int]) -> np.ndarray:
        """The observation scaled, then the whole history (every move is public), an
        index ``i`` (a slot or a tile) as ``(i + 1) / TILES``, 0 padded: all on [0, 1]."""
        out = np.zeros(self.setup.information_size, np.float32)
        size = self.setup.observation_shape[0]
        out[:size] = self.setup.scaler(self.observe(seat))
        out[size : size + len(history)] = np.add(history, 1, dtype=np.float32) / TILES
        return out

    def information_string(self, seat: int, history: Sequence[int]) -> str:
        return " ".join(map(str, history))

    def hidden_moves(self, seat: int, history: Sequence[int]) -> list[int]:
        return []  # every move is public

    def shuffle_unseen(self, uniform: Callable[[], float]) -> None:
        """Nothing to reorder: an undealt game holds no pile, only the unseen tiles."""


class ToySetup:
    """Toy Draft for ``players`` seats (1 or 2)."""

    actions = MARKET
    observation_dtype = "int16"
    low, high = 0, BEST
    max_chance_outcomes = TILES

    def __init__(self, players: int) -> None:
        Game(players)  # ValueError for a seat count the game does not have
        self.players = players
        self.observation_shape = (MARKET + 2 + 2 * players,)
        turns = players * TURNS
        self.max_game_length = turns + MARKET + turns - 1  # the actions and chance nodes
        self.information_size = self.observation_shape[0] + self.max_game_length
        self.min_utility = 0.0 if players == 1 else -1.0
        self.max_utility = float(BEST) if players == 1 else 1.0
        high = [TILES] * MARKET + [players * TURNS, TILES] + [BEST, TURNS] * players
        self.scaler = Scaler(np.zeros(len(high)), np.array(high))

    def deal(self, seed: int, options: Mapping[str, Any]) -> ToyEncoder:
        """A game dealt from ``seed``, or from ``options["pile"]`` (the draw order)."""
        pile = options.get("pile")
        if pile is None:
            state = Game(self.players).new_state(seed)
            pile = [*state.market, *state.pile]
        return ToyEncoder(self, list(pile))

    def undealt(self) -> ToyEncoder:
        return ToyEncoder(self, None)


def encoder_from_seat_record(seat_record: Any, seed: int) -> ToyEncoder:
    """The encoder of a game at the point ``seat_record`` shows: dealt as
    ``GameType.determinize(seat_record, seed)`` deals it, every take applied through it."""
    found = read_seat_record(seat_record, seed)
    encoder = ToySetup(found.recorder.state.game.players).deal(seed, found.deal)
    for seat, take in found.moves:
        encoder.apply(take.slot, seat)
    return encoder


def spiel_history(setup: ToySetup, seat_record: Any, seed: int) -> list[int]:
    """OpenSpiel's history at the point ``seat_record`` shows: each tile revealed as its
    chance node (but the one turned by the last take: the encoding turns none then)."""
    found = read_seat_record(seat_record, seed)
    state = found.recorder.state
    if state.game.players != setup.players:
        raise RecordError(
            f"the seat record is of {state.game.players} player(s), not {setup.players}"
        )
    shown = found.recorder.pile[: MARKET + state.turn - int(state.is_over)]
    return follow(setup.undealt(), [tile - 1 for tile in shown], found.moves, _slot)


def _slot(take: Take, chance: Any) -> int:
    return take.slot


class ToyEncoding:
    """The encoding ``GameType.research`` names: ``toygame.encoding:ENCODING``."""

    default_players = 2
    illegal_penalty = -10.0  # every finished solo game sums to 10 or more
    perfect_information = True  # every tile is seen by all once a chance node turns it
    simultaneous = False  # the seats take turns
    compiled = "nothing: pure Python"
    spiel_parameters = {"players": 2}

    def setup(self, players: int, **options: Any) -> ToySetup:
        if options:
            raise ValueError(f"Toy Draft has no options, not {', '.join(sorted(options))}")
        return ToySetup(players)

    def from_seat_record(self, seat_record: Any, seed: int, **options: Any) -> ToyEncoder:
        if options:
            raise ValueError(f"Toy Draft has no options, not {', '.join(sorted(options))}")
        return encoder_from_seat_record(seat_record, seed)

    def spiel_history(self, setup: Any, seat_record: Any, seed: int) -> list[int]:
        return spiel_history(setup, seat_record, seed)

    def from_record(self, record: Mapping[str, Any]) -> tuple[ToySetup, dict[str, Any]]:
        """A record's seats and its pile, in draw order (``toygame.records``)."""
        return ToySetup(len(record["players"])), {"pile": list(record["pile"])}


ENCODING = ToyEncoding()
if TYPE_CHECKING:  # mypy holds the encoding to the protocol the research adapters use
    _CONFORMS: Encoding = ENCODING
