"""Nova Luna's draws as OpenSpiel's chance nodes: the ``ChanceEncoder`` of its research
encoding (``encoding.NovaLunaSetup.undealt``), which never holds the pile's order."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ...core.errors import IllegalActionError
from ...research.encoding import CHANCE, TERMINAL, shuffle
from .encoding import (
    ACTIONS,
    ENCODING,
    REFILL_ACTION,
    Encoder,
    decode,
    observation_size,
    render,
)
from .rules import Action, State
from .rules.tiles import TILE_IDS

if TYPE_CHECKING:
    from .encoding import NovaLunaSetup

__all__ = ["ENCODING", "ChanceEncoder"]


class ChanceInformation(ABC):
    """The information state of a game of perfect information with explicit chance
    (everything that happened is public), from ``setup`` and ``observe``: shared by the
    Python ``ChanceEncoder`` and the compiled one (``fastchance``)."""

    __slots__ = ()
    setup: NovaLunaSetup

    @abstractmethod
    def observe(self, seat: int) -> np.ndarray:
        """The observation of ``seat`` (``encoding.Encoder.observe``)."""

    def information_tensor(self, seat: int, history: Sequence[int]) -> np.ndarray:
        """The observation scaled (``Setup.scaler``), then the whole history (every
        action and chance outcome is public), each index ``i`` as ``(i + 1) / ACTIONS``
        (``research.encoding.scaled_index``) and 0 after the last: all on ``[0, 1]``."""
        out = np.zeros(self.setup.information_size, np.float32)
        size = observation_size(self.setup.players)
        out[:size] = self.setup.scaler(self.observe(seat))
        out[size : size + len(history)] = np.add(history, 1, dtype=np.float32) / ACTIONS
        return out

    def information_string(self, seat: int, history: Sequence[int]) -> str:
        return " ".join(map(str, history))  # everything that happened is public

    def hidden_moves(self, seat: int, history: Sequence[int]) -> list[int]:
        return []  # every move is public


class ChanceEncoder(ChanceInformation):
    """A game whose draws the chance nodes decide (OpenSpiel): **perfect information with
    explicit chance**. The draw pile's order, the only secret of the rules, is never held:
    each tile drawn (the 11 at set-up, every refill, the automatic refill when the wheel
    empties, the solo phase 2) is a chance node over the tiles still in the pile, uniform
    over them; the start stack is one chance node over the ``players!`` orders. When an
    action will draw tiles, it waits (``pending``) for their chance nodes.

    >>> game = ENCODING.setup(2).undealt()
    >>> game.acting() == CHANCE, game.chance_outcomes()
    (True, [(0, 0.5), (1, 0.5)])
    """

    def __init__(self, setup: NovaLunaSetup) -> None:
        self.setup = setup
        self.stack: tuple[int, ...] | None = None if setup.players > 1 else (0,)
        self.draws: list[int] = []  # tiles drawn by the chance nodes not yet applied
        self.to_draw = 11  # chance nodes to come before the pending action (or set-up)
        self.pending: int | None = None  # the action waiting for its draws
        self.encoder: Encoder | None = None  # once set up: it holds the rules' state

    def __deepcopy__(self, memo: dict[int, object]) -> ChanceEncoder:
        """A copy for OpenSpiel's ``clone()`` (it deep-copies each attribute of the state):
        the encoder's own copy, the setup shared (it never changes)."""
        new = ChanceEncoder.__new__(ChanceEncoder)
        new.setup, new.stack, new.to_draw, new.pending = (
            self.setup,
            self.stack,
            self.to_draw,
            self.pending,
        )
        new.draws = self.draws.copy()
        new.encoder = None if self.encoder is None else self.encoder.copy()
        return new

    @property
    def state(self) -> State | None:
        return None if self.encoder is None else self.encoder.state

    @property
    def is_over(self) -> bool:
        return self.encoder is not None and self.encoder.state.is_over and self.pending is None

    @property
    def truncation(self) -> str | None:
        """Never (see ``Encoder.truncation``)."""
        return None

    def acting(self) -> int:
        encoder = self.encoder
        if encoder is not None and encoder.state.is_over and self.pending is None:
            return TERMINAL
        if encoder is None or len(self.draws) < self.to_draw:
            return CHANCE
        return encoder.state.current_seat

    def _unseen(self) -> list[int]:
        state = self.state
        pool = list(state.unseen_tiles()) if state is not None else list(TILE_IDS)
        for tile in self.draws:
            pool.remove(tile)
        return pool

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Set-up: the start stacks (an index into their permutations); then the tiles
        left in the pile (``tile id - 1``), uniformly."""
        if self.stack is None:
            n = len(self.setup.stacks)
            return [(i, 1.0 / n) for i in range(n)]
        pool = self._unseen()
        p = 1.0 / len(pool)
        return [(tile - 1, p) for tile in pool]

    def apply_chance(self, outcome: int) -> None:
        if self.stack is None:
            self.stack = self.setup.stacks[outcome]
            return
        self.draws.append(outcome + 1)
        if len(self.draws) < self.to_draw:
            return
        if self.encoder is None:  # set-up: the 11 tiles on the wheel, then the rest
            rest = [t for t in TILE_IDS if t not in self.draws]
            state = self.setup.rules.new_state(pile=self.draws + rest, start_stack=self.stack)
            self.encoder = Encoder(state)
        else:
            assert self.pending is not None
            self.encoder.state.arrange_pile(self.draws)
            self.encoder.apply(self.pending)
        self.draws, self.to_draw, self.pending = [], 0, None

    def apply(self, action: int, seat: int | None = None) -> None:
        assert self.encoder is not None
        draws = self._draws(action)
        if draws:
            self.pending, self.to_draw = action, draws
        else:
            self.encoder.apply(action, seat)

    def _draws(self, action: int) -> int:
        """How many tiles ``action`` will draw from the pile."""
        assert self.encoder is not None
        s = self.encoder.state
        if action < REFILL_ACTION and s.on_wheel > 1:
            return 0  # a placement draws only when it empties the wheel
        trial = s.clone()
        move = decode(action, trial)
        if move is None:
            raise IllegalActionError(f"action {action} names no tile on the wheel")
        trial.apply(move)
        return trial.drawn - s.drawn

    def action_index(self, action: Action) -> int:
        """The index of a rules' action in the current position (``encode``)."""
        assert self.encoder is not None  # dealt: a seat is to act
        return self.encoder.action_index(action)

    def observe(self, seat: int) -> np.ndarray:
        """The observation (zeros before set-up; while a pending action waits for its
        draws, the position before it)."""
        if self.encoder is None:
            return np.zeros(observation_size(self.setup.players), np.int16)
        return self.encoder.observe(seat)

    def mask(self, seat: int) -> np.ndarray:
        if self.encoder is None or self.acting() != seat:
            return np.zeros(ACTIONS, dtype=np.int8)
        return self.encoder.mask(seat)

    def legal_actions(self, seat: int) -> list[int]:
        return [] if self.encoder is None else self.encoder.legal_actions(seat)

    def ranks(self) -> list[int]:
        assert self.encoder is not None
        return self.encoder.ranks()

    def reward_scores(self) -> list[float]:
        assert self.encoder is not None
        return self.encoder.reward_scores()

    def solo_score(self) -> float:
        assert self.encoder is not None
        return self.encoder.solo_score()

    def render(self, seat: int | None = None) -> str:
        """The whole state, as everyone sees it (perfect information)."""
        if self.encoder is None:
            return f"setting up: stack {self.stack}, drawn {self.draws}"
        text = render(self.encoder.state)
        if self.pending is not None:
            text += f"\npending action {self.pending}, drawn {self.draws} of {self.to_draw}"
        return text

    def action_string(self, action: int) -> str:
        move = None if self.encoder is None else decode(action, self.encoder.state)
        return str(move) if move is not None else str(action)

    def chance_string(self, outcome: int) -> str:
        if self.stack is None:
            return f"start stack {self.setup.stacks[outcome]}"
        return f"draw tile {outcome + 1}"

    def shuffle_unseen(self, uniform: Callable[[], float]) -> None:
        """Reorder the rules' draw pile (the tiles not drawn): the chance nodes put each
        tile they draw on top (``arrange_pile``), so its order never counts."""
        state = self.state
        if state is None:
            return  # the pile is laid out when set-up ends
        pile = list(state.pile_order()[state.drawn :])
        shuffle(pile, uniform)
        state.arrange_pile(pile)
