"""Nova Luna's OpenSpiel game with its hot methods in C: ``CompiledChanceEncoder``.

The pure Python rules cost some 30 µs a step, more than a training loop's whole budget
(40,000 steps a second), so ``NovaLunaSetup.undealt()`` hands OpenSpiel this encoder
where the optional C extension ``_novalunafast`` is built (``COMPILED``): what every step
asks (the seat to act, chance outcomes, legal actions, applying them, observations,
the result) is answered by ``_novalunafast.Game``, a twin of ``chance.ChanceEncoder``.

The Python stays the reference. Everything else (the rules' state, text, action
indices of the rules' actions, reordering the unseen pile for ISMCTS) is asked of a
``ChanceEncoder`` replayed from this game's own log of actions and outcomes, made on
first use and brought up to date on each later one. An action the C game refuses is
handed to the reference, so that the error is the rules' own. Tests
(tests/research/test_novaluna_compiled.py) play both side by side over random games.

>>> from tabletop.games.novaluna.encoding import ENCODING
>>> game = CompiledChanceEncoder(ENCODING.setup(2))
>>> game.acting(), game.chance_outcomes()
(-1, [(0, 0.5), (1, 0.5)])
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.errors import IllegalActionError
from .chance import ChanceEncoder, ChanceInformation
from .encoding import ACTIONS, observation_size
from .rules import Action, State
from .rules.tiles import TILE_COLOR, TILE_COST, TILE_TASKS

if TYPE_CHECKING:
    from .encoding import NovaLunaSetup

try:
    from . import _novalunafast
except ImportError:  # built without a C compiler: OpenSpiel plays the Python game
    _novalunafast = None  # type: ignore[assignment]
else:
    _novalunafast.setup(TILE_COLOR, TILE_COST, TILE_TASKS)

#: Whether OpenSpiel's Nova Luna runs in C (the optional extension ``_novalunafast``,
#: built by ``pip install`` where a C compiler is found); the Python ``ChanceEncoder``
#: otherwise, the same game (tests check it). ``python -m tabletop.research.bench``
#: says which.
COMPILED = _novalunafast is not None

#: A log of what was applied, newest first, as linked cells ``(older, chance, value)``:
#: a copy shares it (a clone per MCTS simulation copies nothing).
Log = tuple[Any, bool, int] | None


class CompiledChanceEncoder(ChanceInformation):
    """``ChanceEncoder``'s game (same answers, same errors), its hot methods in C."""

    __slots__ = ("setup", "_game", "_log", "_length", "_reference", "_synced")

    def __init__(self, setup: NovaLunaSetup) -> None:
        assert _novalunafast is not None, "the C extension is not built (see COMPILED)"
        self.setup = setup
        self._game = _novalunafast.Game(setup.players, setup.rules.supply)
        self._log: Log = None
        self._length = 0  # entries in the log
        self._reference: ChanceEncoder | None = None  # made on first use
        self._synced = 0  # log entries the reference has applied

    def __deepcopy__(self, memo: dict) -> CompiledChanceEncoder:
        """A copy for OpenSpiel's ``clone()``: the C game copied, the log shared, the
        reference (if one was made) deep-copied: it may hold a reordered pile."""
        new = CompiledChanceEncoder.__new__(CompiledChanceEncoder)
        new.setup = self.setup
        new._game = self._game.copy()
        new._log, new._length, new._synced = self._log, self._length, self._synced
        new._reference = None if self._reference is None else copy.deepcopy(self._reference)
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its setup, its log and its reference (if made): OpenSpiel pickles a
        state to serialize it; the C game is replayed from the log."""
        return _restore, (self.setup, self._entries(self._length), self._reference, self._synced)

    # -- the reference -------------------------------------------------------------

    @property
    def reference(self) -> ChanceEncoder:
        """The pure Python game at this point (replayed from the log as needed)."""
        reference = self._reference
        if reference is None:
            reference = self._reference = ChanceEncoder(self.setup)
            self._synced = 0
        if self._synced < self._length:
            for chance, value in self._entries(self._length - self._synced):
                if chance:
                    reference.apply_chance(value)
                else:
                    reference.apply(value)
            self._synced = self._length
        return reference

    def _entries(self, newest: int) -> list[tuple[bool, int]]:
        """The ``newest`` entries of the log, oldest first."""
        out = []
        log = self._log
        for _ in range(newest):
            assert log is not None
            log, chance, value = log
            out.append((chance, value))
        out.reverse()
        return out

    def _logged(self, chance: bool, value: int) -> None:
        self._log = (self._log, chance, value)
        self._length += 1

    # -- playing (in C) --------------------------------------------------------------

    @property
    def state(self) -> State | None:
        return self.reference.state

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    @property
    def truncation(self) -> str | None:
        return None

    def acting(self) -> int:
        return self._game.acting()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._game.chance_outcomes()

    def apply_chance(self, outcome: int) -> None:
        """Apply a chance outcome; ``IllegalActionError`` for one not due now."""
        try:
            self._game.apply_chance(outcome)
        except ValueError as e:
            raise IllegalActionError(f"chance outcome {outcome}: {e}") from None
        self._logged(True, outcome)

    def apply(self, action: int, seat: int | None = None) -> None:
        """Apply action index ``action`` for the seat to act (``seat``, if given, must
        be it); what the C game refuses, the reference refuses in the rules' words."""
        game = self._game
        try:
            if seat is not None and seat != game.acting():
                raise ValueError("not this seat's turn")
            game.apply(action)
        except ValueError:
            self._refused(action, seat)
            return
        self._logged(False, action)

    def _refused(self, action: int, seat: int | None) -> None:
        self.reference.apply(action, seat)  # raises the rules' own error
        self._reference = None  # it took what C refused: never trust either copy again
        raise RuntimeError(
            f"the compiled Nova Luna refused action {action} that the rules accept: "
            "please report this"
        )

    def legal_actions(self, seat: int) -> list[int]:
        if seat == self._game.acting():
            return self._game.legal_actions()
        return self.reference.legal_actions(seat)

    def mask(self, seat: int) -> np.ndarray:
        mask = np.zeros(ACTIONS, np.int8)
        if seat == self._game.acting():
            self._game.mask(mask)
        return mask

    def observe(self, seat: int) -> np.ndarray:
        out = np.empty(observation_size(self.setup.players), np.int16)
        self._game.observe(seat, out)
        return out

    def observe_scaled(self, seat: int, out: np.ndarray) -> None:
        """``setup.scaler(observe(seat), out)`` in one pass."""
        scaler = self.setup.scaler
        self._game.observe_scaled(seat, out, scaler.low, scaler._factor)

    def ranks(self) -> list[int]:
        return self._game.ranks()

    def reward_scores(self) -> list[float]:
        return self._game.reward_scores()

    def solo_score(self) -> float:
        return self._game.solo_score()

    # -- everything else (the reference) ------------------------------------------

    def action_index(self, action: Action) -> int:
        return self.reference.action_index(action)

    def render(self, seat: int | None = None) -> str:
        return self.reference.render(seat)

    def action_string(self, action: int) -> str:
        return self.reference.action_string(action)

    def chance_string(self, outcome: int) -> str:
        return self.reference.chance_string(outcome)

    def shuffle_unseen(self, uniform: Callable[[], float]) -> None:
        self.reference.shuffle_unseen(uniform)


def _restore(
    setup: NovaLunaSetup,
    entries: list[tuple[bool, int]],
    reference: ChanceEncoder | None,
    synced: int,
) -> CompiledChanceEncoder:
    """The game ``CompiledChanceEncoder.__reduce__`` pickled."""
    game = CompiledChanceEncoder(setup)
    for chance, value in entries:
        if chance:
            game.apply_chance(value)
        else:
            game.apply(value)
    game._reference, game._synced = reference, synced
    return game


def undealt(setup: NovaLunaSetup) -> CompiledChanceEncoder | ChanceEncoder:
    """OpenSpiel's undealt game: the compiled one where it is built."""
    return CompiledChanceEncoder(setup) if COMPILED else ChanceEncoder(setup)


__all__ = ["COMPILED", "CompiledChanceEncoder", "undealt"]
