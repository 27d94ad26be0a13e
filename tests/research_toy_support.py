"""A third game for the research tests: a toy with just enough to need every part of the
encoding contract (``tabletop.research.encoding``), so the adapters' tests run on a
game that is neither Nova Luna nor NMBR 9.

**Rules.** Six cards, 1 to 6, shuffled; 1 to 3 seats take turns in seat order. Each
turn the next card is turned (a chance node for OpenSpiel) and the seat to move takes
it (action 0: its value to the seat's score), passes (1), or doubles it (2: twice its
value; only a card of 1 or 2). After the sixth card the highest score wins.

``tests/research/conftest.py`` hosts it as ``research-toy`` for each research test (and
no other: the platform's own tests would ask it for the hooks it does not have).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tabletop.core.errors import IllegalActionError
from tabletop.core.game import GameType
from tabletop.research.encoding import CHANCE, TERMINAL, encoded_games

NAME = "research-toy"
TARGET = "research_toy_support:GAME"  # for register_game
CARDS = (1, 2, 3, 4, 5, 6)
TAKE, PASS, DOUBLE = 0, 1, 2
BEST = sum(CARDS) + 1 + 2  # every card taken, the 1 and the 2 doubled


class ToyEncoder:
    """A toy game in progress; ``deck`` is its order when dealt, None when the chance
    nodes turn the cards."""

    def __init__(self, setup: ToySetup, deck: list[int] | None) -> None:
        self.setup = setup
        self.deck = deck
        self.left = list(CARDS)  # cards not turned yet
        self.top = 0  # the card turned this turn, 0 before
        self.turn = 0
        self.scores = [0] * setup.players
        if deck is not None:
            self._turn_card(deck[0])

    @property
    def state(self) -> ToyEncoder:
        return self  # the toy's rules live here

    @property
    def is_over(self) -> bool:
        return self.turn == len(CARDS)

    def acting(self) -> int:
        if self.is_over:
            return TERMINAL
        return CHANCE if self.top == 0 else self.turn % self.setup.players

    def _turn_card(self, card: int) -> None:
        self.left.remove(card)
        self.top = card

    def observe(self, seat: int) -> np.ndarray:
        n = self.setup.players
        others = [self.scores[(seat + k) % n] for k in range(n)]
        return np.array([self.top, len(self.left), self.turn, *others], dtype=np.int16)

    def mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(3, dtype=np.int8)
        mask[self.legal_actions(seat)] = 1
        return mask

    def legal_actions(self, seat: int) -> list[int]:
        if self.acting() != seat:
            return []
        return [TAKE, PASS, DOUBLE] if self.top <= 2 else [TAKE, PASS]

    def apply(self, action: int, seat: int) -> None:
        if action not in self.legal_actions(seat):
            raise IllegalActionError(f"action {action} is not legal for seat {seat} now")
        self.scores[seat] += {TAKE: self.top, PASS: 0, DOUBLE: 2 * self.top}[action]
        self.turn += 1
        self.top = 0
        if self.deck is not None and not self.is_over:
            self._turn_card(self.deck[self.turn])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(card - 1, 1 / len(self.left)) for card in self.left]

    def apply_chance(self, outcome: int) -> None:
        self._turn_card(outcome + 1)

    def ranks(self) -> list[int]:
        return [1 + sum(other > mine for other in self.scores) for mine in self.scores]

    def reward_scores(self) -> list[float]:
        return [float(score) for score in self.scores]

    def solo_score(self) -> float:
        return self.scores[0]

    def render(self, seat: int | None) -> str:
        return f"turn {self.turn}, card {self.top}, scores {self.scores}"

    def action_string(self, action: int) -> str:
        return ("take", "pass", "double")[action]

    def chance_string(self, outcome: int) -> str:
        return f"card {outcome + 1}"

    def information_tensor(self, seat: int, history: Sequence[int]) -> np.ndarray:
        out = np.full(self.setup.information_size, -1.0, np.float32)
        size = self.setup.observation_shape[0]
        out[:size] = self.observe(seat)
        out[size : size + len(history)] = history
        return out

    def information_string(self, seat: int, history: Sequence[int]) -> str:
        return " ".join(map(str, history))


class ToySetup:
    observation_dtype = "int16"
    low, high = 0, BEST
    actions = 3
    max_chance_outcomes = len(CARDS)
    max_game_length = 2 * len(CARDS)

    def __init__(self, players: int) -> None:
        if not 1 <= players <= 3:
            raise ValueError(f"the toy is for 1 to 3 players, not {players}")
        self.players = players
        self.observation_shape = (3 + players,)
        self.information_size = 3 + players + self.max_game_length
        self.min_utility = 0.0 if players == 1 else -1.0
        self.max_utility = float(BEST) if players == 1 else 1.0

    def deal(self, seed: int, options: Mapping[str, Any]) -> ToyEncoder:
        deck = list(options.get("deck") or random.Random(seed).sample(CARDS, len(CARDS)))
        return ToyEncoder(self, deck)

    def undealt(self) -> ToyEncoder:
        return ToyEncoder(self, None)


class ToyEncoding:
    default_players = 2
    illegal_penalty = -10.0
    perfect_information = True
    spiel_parameters = {"players": 2}

    def setup(self, players: int, **options: Any) -> ToySetup:
        return ToySetup(players, **options)


class ToyGame(GameType):
    """Only the facts the research adapters read."""

    name = NAME
    title = "Research Toy"
    command = "researchtoy"
    min_seats = 1
    max_seats = 3
    research = "research_toy_support:ENCODING"


ENCODING = ToyEncoding()
GAME = ToyGame()


def seats(name: str) -> tuple[int, int]:
    """The fewest and most seats of a game (the toy's before it is hosted too)."""
    from tabletop.core.game import get_game

    game = GAME if name == NAME else get_game(name)
    return game.min_seats, game.max_seats


def research_games() -> list[str]:
    """Every game with an encoding, the toy included (for ``pytest.mark.parametrize``)."""
    return [*(name for name in encoded_games() if name != NAME), NAME]
