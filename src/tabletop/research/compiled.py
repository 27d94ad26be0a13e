"""An OpenSpiel game whose hot methods run in a compiled twin of the Python one:
``CompiledChanceEncoder``, the part every game's compiled encoder shares.

The pure Python rules cost tens of µs a step, more than a training loop's budget, so a
game may hand OpenSpiel (``Setup.undealt()``) an encoder whose every-step questions (the
seat to act, chance outcomes, applying actions and outcomes, observations, the result)
are answered by a compiled ``Game`` (a C extension of the game's own folder) that plays
exactly as the game's Python ``ChanceEncoder``.

The Python stays the reference. Everything else (the rules' state, text, the index of a
rules' action, reordering what nobody has seen for ISMCTS) is asked of a Python
``ChanceEncoder`` replayed from this encoder's own log of actions and outcomes: made on
first use, brought up to date on each later one. An action the compiled game refuses is
handed to the reference, so that the error is the rules' own. Each game's tests play the
two side by side over random games.

A game subclasses ``CompiledChanceEncoder`` (or, for a dealt game that never shows a
chance node, ``CompiledEncoder``) with ``_new_game`` and ``_new_reference`` (and what its
encoder adds), naming its compiled ``Game`` and Python reference as the type arguments;
the module knows no game.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Generic, Protocol, Self, TypeVar

import numpy as np

from ..core.errors import IllegalActionError
from .encoding import Scaler

#: A log of what was applied, newest first, as linked cells ``(older, chance, value)``:
#: a copy shares it (a clone per MCTS simulation copies nothing).
Log = tuple["Log", bool, int] | None


class CompiledGame(Protocol):
    """What every compiled ``Game`` offers (a game's stub, ``_<game>fast.pyi``, types its
    own): ``apply_chance`` and ``apply`` raise ``ValueError`` for what they refuse."""

    @property
    def is_over(self) -> bool: ...
    def acting(self) -> int: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def apply_chance(self, outcome: int, /) -> None: ...
    def apply(self, action: int, /) -> None: ...
    def observe(self, seat: int, out: object, /) -> None: ...
    def observe_scaled(self, seat: int, out: object, low: object, factor: object, /) -> None: ...
    def ranks(self) -> list[int]: ...
    def reward_scores(self) -> list[float]: ...
    def solo_score(self) -> float: ...
    def copy(self) -> Self: ...


class CompiledSetup(Protocol):
    """What this module asks of a game's ``Setup`` (``research.encoding``)."""

    @property
    def observation_shape(self) -> tuple[int, ...]: ...
    @property
    def scaler(self) -> Scaler: ...


class Reference(Protocol):
    """What this module asks of the Python ``Encoder`` it replays (``research.encoding``)."""

    @property
    def state(self) -> object: ...
    def acting(self) -> int: ...
    def apply(self, action: int, seat: int, /) -> object: ...
    def action_index(self, action: Any, /) -> int: ...  # the rules' action, of any game
    def render(self, seat: int | None, /) -> str: ...


class ChanceReference(Reference, Protocol):
    """The same of an undealt game's ``ChanceEncoder``."""

    def apply_chance(self, outcome: int, /) -> None: ...
    def action_string(self, action: int, /) -> str: ...
    def chance_string(self, outcome: int, /) -> str: ...
    def shuffle_unseen(self, uniform: Callable[[], float], /) -> None: ...


S = TypeVar("S", bound=CompiledSetup)  # the game's setup
G = TypeVar("G", bound=CompiledGame)  # the game's compiled ``Game``
R = TypeVar("R", bound=Reference)  # its Python encoder, the reference
RC = TypeVar("RC", bound=ChanceReference)  # the same, of an undealt game


class CompiledEncoder(Generic[S, G, R]):
    """An ``Encoder`` (``research.encoding``) playing a compiled ``Game``, with the
    Python encoder of the same game as its reference (same answers, same errors): a
    dealt game, whose log holds the seats' actions only."""

    __slots__ = ("setup", "_game", "_log", "_length", "_reference", "_synced")

    def __init__(self, setup: S) -> None:
        self.setup = setup
        self._game: G = self._new_game(setup)
        self._log: Log = None
        self._length = 0  # entries in the log
        self._reference: R | None = None  # the Python encoder, made on first use
        self._synced = 0  # log entries the reference has applied

    # -- what a game gives -------------------------------------------------------------

    def _new_game(self, setup: S) -> G:
        """The compiled game of ``setup``, before its first chance node."""
        raise NotImplementedError

    def _new_reference(self, setup: S) -> R:
        """The game's Python ``ChanceEncoder`` of ``setup``, before its first chance node."""
        raise NotImplementedError

    # -- copies and pickles -------------------------------------------------------------

    #: The slots subclasses add: values a copy shares (a deal, what the last round
    #: decided), never changed in place.
    _shared: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._shared = cls._shared + tuple(cls.__dict__.get("__slots__", ()))

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        """A copy for OpenSpiel's ``clone()``: the compiled game copied, the log and the
        subclasses' slots shared, the reference (if one was made) deep-copied: it may hold
        a reordered deck."""
        new = type(self).__new__(type(self))
        new.setup = self.setup
        new._game = self._game.copy()
        new._log, new._length, new._synced = self._log, self._length, self._synced
        new._reference = None if self._reference is None else copy.deepcopy(self._reference)
        for name in self._shared:
            setattr(new, name, getattr(self, name))
        return new

    def copy(self) -> Self:
        """An independent copy (``Encoder.copy``)."""
        return self.__deepcopy__({})

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class, arguments, log and reference (if made): OpenSpiel
        pickles a state to serialize it; the compiled game is replayed from the log."""
        entries = self._entries(self._length)
        return _restore, (type(self), self._arguments(), entries, self._reference, self._synced)

    def _arguments(self) -> tuple[Any, ...]:
        """What the class is made from (a subclass that takes more says so)."""
        return (self.setup,)

    # -- the reference ------------------------------------------------------------------

    @property
    def reference(self) -> R:
        """The pure Python game at this point (replayed from the log as needed)."""
        reference = self._reference
        if reference is None:
            reference = self._reference = self._new_reference(self.setup)
            self._synced = 0
        if self._synced < self._length:
            for chance, value in self._entries(self._length - self._synced):
                self._replay(reference, chance, value)
            self._synced = self._length
        return reference

    def _replay(self, reference: R, chance: bool, value: int) -> None:
        """Apply a log entry to the reference (a dealt game logs no chance outcome)."""
        assert not chance, "a dealt game's log holds no chance outcome"
        reference.apply(value, reference.acting())

    def _restored(self, chance: bool, value: int) -> None:
        """Apply a pickled log entry to this game."""
        assert not chance, "a dealt game's log holds no chance outcome"
        self.apply(value)

    def _entries(self, newest: int) -> list[tuple[bool, int]]:
        """The ``newest`` entries of the log, oldest first."""
        out: list[tuple[bool, int]] = []
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

    # -- playing (compiled) ---------------------------------------------------------------

    @property
    def state(self) -> object:
        return self.reference.state

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    def acting(self) -> int:
        return self._game.acting()

    def apply(self, action: int, seat: int | None = None) -> None:
        """Apply action index ``action`` for the seat to act (``seat``, if given, must
        be it); what the compiled game refuses, the reference refuses in the rules' words."""
        game = self._game
        try:
            if seat is not None and seat != game.acting():
                raise ValueError("not this seat's turn")
            game.apply(action)
        except (ValueError, TypeError):
            self._refused(action, seat)
            return
        self._logged(False, action)

    def _refused(self, action: int, seat: int | None) -> None:
        reference = self.reference
        reference.apply(action, reference.acting() if seat is None else seat)  # raises
        self._reference = None  # it took what C refused: never trust either copy again
        raise RuntimeError(
            f"the compiled {type(self).__name__} refused action {action} that the rules "
            "accept: please report this"
        )

    def observe(self, seat: int) -> np.ndarray:
        out = np.empty(self.setup.observation_shape, np.int16)
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

    # -- everything else (the reference) --------------------------------------------------

    def action_index(self, action: Any) -> int:
        return self.reference.action_index(action)

    def render(self, seat: int | None = None) -> str:
        return self.reference.render(seat)


class CompiledChanceEncoder(CompiledEncoder[S, G, RC]):
    """A ``ChanceEncoder`` (``research.encoding``) playing a compiled ``Game``: an
    undealt game, whose log holds the chance outcomes too."""

    __slots__ = ()

    def _replay(self, reference: RC, chance: bool, value: int) -> None:
        if chance:
            reference.apply_chance(value)
        else:
            reference.apply(value, reference.acting())

    def _restored(self, chance: bool, value: int) -> None:
        if chance:
            self.apply_chance(value)
        else:
            self.apply(value)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._game.chance_outcomes()

    def apply_chance(self, outcome: int) -> None:
        """Apply a chance outcome; ``IllegalActionError`` for one not due now."""
        try:
            self._game.apply_chance(outcome)
        except (ValueError, TypeError) as e:
            raise IllegalActionError(f"chance outcome {outcome}: {e}") from None
        self._logged(True, outcome)

    def action_string(self, action: int) -> str:
        return self.reference.action_string(action)

    def chance_string(self, outcome: int) -> str:
        return self.reference.chance_string(outcome)

    def shuffle_unseen(self, uniform: Callable[[], float]) -> None:
        self.reference.shuffle_unseen(uniform)


E = TypeVar("E", bound=CompiledEncoder[Any, Any, Any])


def _restore(
    cls: type[E],
    arguments: tuple[Any, ...],
    entries: list[tuple[bool, int]],
    reference: Reference | None,
    synced: int,
) -> E:
    """The game ``CompiledEncoder.__reduce__`` pickled."""
    game = cls(*arguments)
    for chance, value in entries:
        game._restored(chance, value)
    game._reference, game._synced = reference, synced
    return game


__all__ = ["CompiledChanceEncoder", "CompiledEncoder", "CompiledGame", "Log"]
