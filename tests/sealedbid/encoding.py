"""Sealed Bids as arrays for the research environments (PettingZoo AEC and parallel,
OpenSpiel): the encoding contract of ``tabletop.research.encoding``, named by
``GameType.research``. A simultaneous game (``simultaneous = True``): every round each
seat bids once, the encoder taking them in seat order, each pending bid hidden from the
other seats until the round resolves.

Actions: ``0..CARDS-1``, bid the card ``action + 1``. An observation (``int16``) is:
players, round, this round's prize (0 before its chance node and once over), whether the
observer has still to bid, the observer's own pending bid (0: none); per prize whether it
is still unseen; then per seat, the observer first, its total of prizes and per card
whether the seat still holds it **as of the last resolved round**. So it never shows a
pending bid of another seat, nor even *whether* another seat has bid this round: the
rule of every simultaneous game (``tabletop.research.rounds``), as the rules have all
seats bid at once. ``scaler`` holds each entry's bounds.

For OpenSpiel each round begins with a chance node turning the prize (outcome ``prize -
1``, uniform over the prizes unseen); imperfect information: the information state shows
another seat's bid of the open round as hidden (``RoundHistory``).

>>> encoder = ENCODING.setup(2).deal(seed=1, options={})
>>> encoder.acting(), encoder.legal_actions(1), encoder.observe(0).tolist()[:5]
(0, [0, 1, 2, 3, 4, 5], [2, 0, 3, 1, 0])
>>> encoder.apply(5, 0)
>>> encoder.observe(1).tolist() == ENCODING.setup(2).deal(seed=1, options={}).observe(1).tolist()
True
>>> ENCODING.setup(3).undealt().acting() == CHANCE
True
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from tabletop.core.errors import IllegalActionError, RecordError
from tabletop.core.outcome import Outcome
from tabletop.research.encoding import CHANCE, TERMINAL, Scaler
from tabletop.research.rounds import RoundHistory, follow_rounds

from .records import read_seat_record
from .rules import CARDS, Bid, Game, State, winner

#: The highest total: every prize.
BEST = CARDS * (CARDS + 1) // 2
HEADER = 5


class SealedEncoder:
    """One game in progress: dealt from a prize order (``state`` is then the rules'
    state, the prizes turned as rounds begin), or undealt, a chance node turning each
    round's prize (``state`` is None)."""

    def __init__(self, setup: SealedSetup, prizes: list[int] | None) -> None:
        n = setup.players
        self.setup = setup
        self.round = 0
        self.prize = 0  # this round's, once turned
        self.unseen = list(range(1, CARDS + 1))
        self.hands = [list(range(1, CARDS + 1)) for _ in range(n)]  # as of resolved rounds
        self.bids: list[int | None] = [None] * n
        self.won = [0] * n
        self._state: State | None = None
        self._history = RoundHistory(n)
        if prizes is not None:
            self._state = Game(n).new_state(prizes=prizes)
            self._turn(prizes[0])

    @property
    def state(self) -> State | None:
        return self._state

    @property
    def is_over(self) -> bool:
        return self.round >= CARDS

    @property
    def truncation(self) -> str | None:
        return None  # the mask is always the rules' legal bids

    def _turn(self, prize: int) -> None:
        self.prize = prize
        self.unseen.remove(prize)

    def acting(self) -> int:
        if self.is_over:
            return TERMINAL
        if not self.prize:
            return CHANCE
        return self.bids.index(None)

    def legal_actions(self, seat: int) -> list[int]:
        """The seat's bids if it has still to bid this round (whether or not it acts
        first: the round is simultaneous)."""
        if self.acting() in (CHANCE, TERMINAL) or self.bids[seat] is not None:
            return []
        return [card - 1 for card in self.hands[seat]]

    def mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(CARDS, dtype=np.int8)
        mask[self.legal_actions(seat)] = 1
        return mask

    def action_index(self, action: Bid) -> int:
        return action.card - 1

    def apply(self, action: int, seat: int) -> None:
        if action not in self.legal_actions(seat):
            raise IllegalActionError(
                "action {action} is not legal for seat {seat} now", action=action, seat=seat
            )
        self.bids[seat] = action + 1
        if self._state is not None:
            self._state.apply(Bid(action + 1), seat)
        if None not in self.bids:
            self._resolve()

    def _resolve(self) -> None:
        bids = [bid for bid in self.bids if bid is not None]
        taker = winner(bids)
        if taker is not None:
            self.won[taker] += self.prize
        for seat, bid in enumerate(bids):
            self.hands[seat].remove(bid)
        self.bids = [None] * self.setup.players
        self.round += 1
        self.prize = 0
        if self._state is not None and not self.is_over:
            self._turn(self._state.prizes[self.round])

    def observe(self, seat: int) -> np.ndarray:
        return self._observe(seat)

    def public_observe(self) -> np.ndarray:
        """What every seat sees: the layout of seat 0's observation, nothing of its own."""
        return self._observe(None)

    def _observe(self, viewer: int | None) -> np.ndarray:
        n, seat = self.setup.players, viewer or 0
        own = viewer is not None and not self.is_over
        to_bid = own and self.prize > 0 and self.bids[seat] is None
        pending = (self.bids[seat] or 0) if own else 0
        out = [n, self.round, self.prize, int(to_bid), pending]
        out += [int(card in self.unseen) for card in range(1, CARDS + 1)]
        for s in ((seat + k) % n for k in range(n)):
            out += [self.won[s], *(int(card in self.hands[s]) for card in range(1, CARDS + 1))]
        return np.array(out, dtype=np.int16)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(prize - 1, 1 / len(self.unseen)) for prize in self.unseen]

    def apply_chance(self, outcome: int) -> None:
        if self.acting() != CHANCE or outcome + 1 not in self.unseen:
            raise IllegalActionError(
                "chance outcome {outcome} is not possible now", outcome=outcome
            )
        self._turn(outcome + 1)

    def _outcome(self) -> Outcome:
        return Outcome.from_scores(tuple(self.won), "prizes", lower_is_better=False, length=CARDS)

    def ranks(self) -> list[int]:
        return list(self._outcome().ranks)

    def reward_scores(self) -> list[float]:
        return [float(total) for total in self.won]

    def solo_score(self) -> float:
        return float(self.won[0])

    def render(self, seat: int | None) -> str:
        """The position as ``seat`` sees it (``None``: a referee, pending bids too)."""
        seats = "; ".join(
            f"seat {s + 1}: {self.won[s]} won, cards {' '.join(map(str, self.hands[s]))}"
            + (f", bid {self.bids[s]}" if self.bids[s] and seat in (None, s) else "")
            for s in range(self.setup.players)
        )
        prize = self.prize or "not turned"
        return f"Sealed Bids, round {min(self.round + 1, CARDS)}: prize {prize}; {seats}"

    def public_render(self) -> str:
        return self.render(-1)  # no seat's pending bid

    def action_string(self, action: int) -> str:
        return str(Bid(action + 1))

    def chance_string(self, outcome: int) -> str:
        return f"prize {outcome + 1}"

    def information_tensor(self, seat: int | None, history: Sequence[int]) -> np.ndarray:
        """The observation scaled, then the history as ``seat`` knows it
        (``RoundHistory.write``): ``Setup.information_size`` numbers on [0, 1]."""
        setup = self.setup
        out = np.zeros(setup.information_size, np.float32)
        size = setup.observation_shape[0]
        out[:size] = setup.scaler(self._observe(seat))
        self._history.write(out, size, seat, history, CARDS, CARDS)
        return out

    def information_string(self, seat: int | None, history: Sequence[int]) -> str:
        return self._history.text(seat, history, self.chance_string, self.action_string)

    def public_information_tensor(self, history: Sequence[int]) -> np.ndarray:
        return self.information_tensor(None, history)

    def public_information_string(self, history: Sequence[int]) -> str:
        return self.information_string(None, history)

    def hidden_moves(self, seat: int, history: Sequence[int]) -> list[int]:
        return self._history.hidden_moves(seat, history)

    def shuffle_unseen(self, uniform: Callable[[], float]) -> None:
        """Nothing to reorder: an undealt game holds no prize order, only the unseen."""

    def __deepcopy__(self, memo: dict[int, Any]) -> SealedEncoder:
        new = copy.copy(self)
        new.unseen, new.bids, new.won = list(self.unseen), list(self.bids), list(self.won)
        new.hands = [list(hand) for hand in self.hands]
        new._state = None if self._state is None else self._state.clone()
        return new


class SealedSetup:
    """Sealed Bids for ``players`` seats (2 or 3)."""

    actions = CARDS
    observation_dtype = "int16"
    low, high = 0, BEST
    max_chance_outcomes = CARDS

    def __init__(self, players: int) -> None:
        Game(players)  # ValueError for a seat count the game does not have
        self.players = players
        self.observation_shape: tuple[int, ...] = (HEADER + CARDS + players * (1 + CARDS),)
        self.max_game_length = CARDS * (players + 1)  # per round a chance node, the bids
        self.information_size = self.observation_shape[0] + self.max_game_length
        self.min_utility, self.max_utility = -1.0, 1.0
        high = [3, CARDS, CARDS, 1, CARDS] + [1] * CARDS + ([BEST] + [1] * CARDS) * players
        self.scaler = Scaler(np.zeros(len(high)), np.array(high))

    def deal(self, seed: int, options: Mapping[str, Any]) -> SealedEncoder:
        """A game dealt from ``seed``, or from ``options["prizes"]`` (their order)."""
        prizes = options.get("prizes")
        if prizes is None:
            prizes = Game(self.players).new_state(seed).prizes
        return SealedEncoder(self, list(prizes))

    def undealt(self) -> SealedEncoder:
        return SealedEncoder(self, None)


def encoder_from_seat_record(seat_record: Any, seed: int) -> SealedEncoder:
    """The encoder of a game at the point ``seat_record`` shows: dealt as
    ``GameType.determinize(seat_record, seed)`` deals it, every bid applied through it
    (another seat's hidden one drawn from ``seed``)."""
    found = read_seat_record(seat_record, seed)
    encoder = SealedSetup(found.recorder.state.game.players).deal(seed, found.deal)
    for seat, bid in found.moves:
        encoder.apply(bid.card - 1, seat)
    return encoder


def spiel_history(setup: SealedSetup, seat_record: Any, seed: int) -> list[int]:
    """OpenSpiel's history at the point ``seat_record`` shows: per round the prize's
    chance node, then the bids in seat order (``follow_rounds``: hidden ones and those
    of earlier seats that have not bid drawn from ``seed``)."""
    found = read_seat_record(seat_record, seed)
    rec, state = found.recorder, found.recorder.state
    if state.game.players != setup.players:
        raise RecordError(
            f"the seat record is of {state.game.players} player(s), not {setup.players}"
        )
    none: list[int | None] = [None] * setup.players
    made = [entry["bids"] for entry in rec.rounds]
    rounds = [(p - 1, made[n] if n < len(made) else none) for n, p in enumerate(state.revealed())]
    rng = random.Random(seed)
    return follow_rounds(setup.undealt(), rounds, seat_record["seat"], rng, _index)


def _index(number: int, seat: int, bid: int) -> int:
    return bid - 1


class SealedEncoding:
    """The encoding ``GameType.research`` names: ``.encoding:ENCODING`` (its package's)."""

    default_players = 2
    illegal_penalty = -10.0  # no solo game: Gymnasium never plays it
    perfect_information = False  # a pending bid is hidden from the other seats
    simultaneous = True  # every seat bids every round (PettingZoo's parallel API)
    compiled = "nothing: pure Python"
    spiel_parameters = {"players": 2}

    def setup(self, players: int, **options: Any) -> SealedSetup:
        if options:
            raise ValueError(f"Sealed Bids has no options, not {', '.join(sorted(options))}")
        return SealedSetup(players)

    def from_seat_record(self, seat_record: Any, seed: int, **options: Any) -> SealedEncoder:
        if options:
            raise ValueError(f"Sealed Bids has no options, not {', '.join(sorted(options))}")
        return encoder_from_seat_record(seat_record, seed)

    def spiel_history(self, setup: Any, seat_record: Any, seed: int) -> list[int]:
        return spiel_history(setup, seat_record, seed)

    def from_record(self, record: Mapping[str, Any]) -> tuple[SealedSetup, dict[str, Any]]:
        """A record's seats and its prizes in their order (``sealedbid.records``)."""
        return SealedSetup(len(record["players"])), {"prizes": list(record["prizes"])}


ENCODING = SealedEncoding()
