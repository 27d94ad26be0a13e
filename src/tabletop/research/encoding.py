"""What the research adapters need from a game: the encoding contract, and where to find it.

A game offers the research environments (PettingZoo AEC, Gymnasium solo, OpenSpiel)
one object, its **encoding**, named by ``GameType.research`` (``"module:attribute"``,
loaded only when asked for: the encodings need numpy, the game's rules do not). The
adapters are written once over three layers:

* ``Encoding``: the game (default seat count, OpenSpiel's parameters and kind of
  information, the Gymnasium penalty for an illegal action); ``setup(players, ...)``
  fixes the variant;
* ``Setup``: one variant (seats and options fixed): the flat action space, the
  observation's shape, dtype and bounds, OpenSpiel's sizes and bounds; ``deal(seed)``
  starts a game dealt from a seed (PettingZoo, Gymnasium), ``undealt()`` one whose
  deal the chance nodes decide (OpenSpiel);
* ``Encoder``: one game in progress, followed incrementally (an observation or a mask
  costs little): the seat to act, observations and masks, actions, the result;
  ``ChanceEncoder`` adds the chance nodes and the information state.

Turn order is the encoder's: ``acting()`` names one seat; a game with simultaneous
rounds names the first seat that has still to act and keeps its action pending
(hidden from the others) until the round resolves.

This module needs no numpy to read: arrays are typed as ``Array``.

>>> encoding("nova-luna").setup(2).actions
23765
>>> {"nmbr9", "nova-luna"} <= set(encoded_games())  # and any game registered with one
True
>>> spiel_name("nova-luna"), gym_id("nova-luna"), pettingzoo_name("nmbr9")
('tabletop_nova_luna', 'tabletop/NovaLunaSolo-v0', 'nmbr9_v0')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from ..core.errors import IllegalActionError, RecordError
from ..core.game import State, game_types, get_game

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Array = npt.NDArray[Any]
else:
    Array = Any

try:
    from . import _tensorfast as _tensorfast  # openspiel.py lists with it too
except ImportError:  # built without a C compiler: numpy scales and lists the tensors
    _tensorfast = None  # type: ignore[assignment]

#: Whether observations are scaled and listed in C (the optional extension
#: ``_tensorfast``); numpy otherwise, to the same bits (tests check it).
TENSORS_COMPILED = _tensorfast is not None

#: An engine's action type and a chance encoder's (``follow``).
A = TypeVar("A")
C = TypeVar("C", bound="ChanceEncoder")

#: ``Encoder.acting()`` while a chance node is due, and once the game is over (the
#: values are OpenSpiel's ``PlayerId.CHANCE`` and ``PlayerId.TERMINAL``).
CHANCE = -1
TERMINAL = -4


class Encoder(Protocol):
    """One game in progress, as arrays (PettingZoo and Gymnasium)."""

    @property
    def state(self) -> State | None:
        """The rules' state (``None`` while the chance nodes have not dealt it yet)."""

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @property
    def truncation(self) -> str | None:
        """Why the game, not over, cannot go on in the encoding (NMBR 9:
        ``"window_full"``, a seat has no placement inside a small window); ``None``
        while it can. The environments end the episode truncated."""

    def acting(self) -> int:
        """The seat to act now (``TERMINAL`` once over, ``CHANCE`` before a chance node)."""

    def observe(self, seat: int) -> Array:
        """What ``seat`` sees, a flat vector of ``Setup.observation_shape``."""

    def mask(self, seat: int) -> Array:
        """``int8``, 1 for each action ``seat`` may take now (all 0 when it may take
        none); a new array the caller may keep."""

    def legal_actions(self, seat: int) -> list[int]:
        """The indices where ``mask(seat)`` is 1, increasing."""

    def apply(self, action: int, seat: int) -> object:
        """Apply action index ``action`` for ``seat`` (the acting seat);
        ``tabletop.core.errors.IllegalActionError`` if the mask forbids it (nothing
        changes). What it returns, if anything, is the game's own (callers ignore it)."""

    def action_index(self, action: Any) -> int:
        """The index of a rules' action (one of the acting seat's ``legal_actions`` in
        the rules, what a bot chooses) in the current position; ``ValueError`` if the
        encoding cannot express it (NMBR 9: a placement outside the window)."""

    def ranks(self) -> list[int]:
        """Per seat its rank once over (1 = best, equal totals share a rank)."""

    def reward_scores(self) -> list[float]:
        """Per seat the reward ``reward="score"`` gives once over (higher is better)."""

    def solo_score(self) -> float:
        """The game's own final score of a one-seat game (Gymnasium's ``info["score"]``)."""

    def render(self, seat: int | None) -> str:
        """Plain text: the position as ``seat`` may see it (``None``: all of it)."""


class ChanceEncoder(Encoder, Protocol):
    """A game whose deal the chance nodes decide, with what OpenSpiel asks of it.

    ``history`` is OpenSpiel's: every action and chance outcome so far, in order."""

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the chance node due now, with their probabilities."""

    def apply_chance(self, outcome: int) -> None:
        """Apply one of ``chance_outcomes()``."""

    def action_string(self, action: int) -> str:
        """An action index as text, in the current position."""

    def chance_string(self, outcome: int) -> str:
        """A chance outcome as text."""

    def information_tensor(self, seat: int, history: Sequence[int]) -> Array:
        """The observation followed by the history as ``seat`` knows it:
        ``Setup.information_size`` numbers."""

    def information_string(self, seat: int, history: Sequence[int]) -> str:
        """The history as ``seat`` knows it, as text."""

    def hidden_moves(self, seat: int, history: Sequence[int]) -> list[int]:
        """The positions in ``history`` of the moves ``seat`` has not seen (another
        seat's pending placement of a simultaneous round); increasing, empty in a game of
        perfect information. OpenSpiel's ``resample_from_infostate`` re-draws them."""

    def shuffle_unseen(self, uniform: Callable[[], float]) -> None:
        """Reorder what nobody has seen (a pile's or deck's order, where the rules'
        state holds one) at random, ``uniform()`` giving numbers in [0, 1); nothing else
        changes, nor can the game's course (the chance nodes draw from what is unseen)."""


@runtime_checkable
class PublicView(Protocol):
    """What a ``ChanceEncoder`` of a game of imperfect information offers for OpenSpiel's
    public observer (``PrivateInfoType.NONE``): the position and the history as every
    seat knows them, the same for all (in a game of perfect information the adapter uses
    seat 0's observation and history: everything is public)."""

    def public_observe(self) -> Array:
        """The public observation, of ``Setup.observation_shape``."""

    def public_render(self) -> str:
        """The public position as text."""

    def public_information_tensor(self, history: Sequence[int]) -> Array:
        """The public observation, then the public history: ``Setup.information_size``."""

    def public_information_string(self, history: Sequence[int]) -> str:
        """The public history as text."""


class Setup(Protocol):
    """One variant of the game: its seats and options fixed."""

    players: int
    actions: int  # the flat action space: Discrete(actions)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """Of the raw observation (read-only: a game may fix its length, ``tuple[int]``)."""

    observation_dtype: str  # the raw observation's (``Encoder.observe``), e.g. "int16"
    low: int  # bounds of every raw observation entry
    high: int
    scaler: Scaler  # per entry bounds of the raw observation: what the networks see
    # OpenSpiel's GameInfo
    max_chance_outcomes: int
    max_game_length: int
    min_utility: float
    max_utility: float
    information_size: int

    def deal(self, seed: int, options: Mapping[str, Any]) -> Encoder:
        """A new game dealt from ``seed``; ``options`` may fix the deal (per game)."""

    def undealt(self) -> ChanceEncoder:
        """A new game whose deal the chance nodes decide (OpenSpiel)."""


class Encoding(Protocol):
    """A game as the research adapters see it (``GameType.research`` names it)."""

    default_players: int
    illegal_penalty: float  # Gymnasium solo: the reward of an action the mask forbids
    perfect_information: bool  # OpenSpiel: whether the state holds no secret
    # every round each seat acts once, hidden from the others until the round resolves
    # (``acting()`` takes them in seat order): PettingZoo's parallel API plays it
    simultaneous: bool
    spiel_parameters: dict[str, int]  # OpenSpiel's parameters and defaults, "players" first

    @property
    def compiled(self) -> str:
        """What of the encoding runs in C here, in words (the benchmark prints it): an
        optional extension may be missing where no C compiler was found at install."""

    def setup(self, players: int, **options: Any) -> Setup:
        """The variant for ``players`` seats; ``ValueError`` for options it cannot take."""

    def from_seat_record(self, seat_record: Any, seed: int, **options: Any) -> Encoder:
        """The encoder of the game at the point a seat record shows
        (``GameType.seat_record``: what a program playing that seat is sent), dealt as
        ``GameType.determinize(seat_record, seed)`` deals it, every move applied through
        it; ``options`` as ``setup``'s where they shape the encoding (NMBR 9's window
        ``size``). ``RecordError`` for a bad seat record."""

    def spiel_history(self, setup: Any, seat_record: Any, seed: int) -> list[int]:
        """OpenSpiel's history (``setup.undealt()``'s chance outcomes and actions) that
        leads to the point a seat record shows, any move hidden from its seat drawn from
        ``seed`` (``SpielGame.state_from_seat_record``). ``RecordError`` for a bad seat
        record or one of another variant than ``setup``."""

    def from_record(self, record: Mapping[str, Any]) -> tuple[Setup, dict[str, Any]]:
        """The variant a game record (the game's record format) was played in, and the
        deal options that deal its game again (``Setup.deal``, the environments'
        ``reset(options=...)``): a record read into the encoding (``research.dataset``)."""


_LOADED: dict[tuple[str, str], Encoding] = {}  # by (the game's package, ``research``)


def encoding(name: str) -> Encoding:
    """The encoding of the registered game ``name``; ``ValueError`` if it has none."""
    game = get_game(name)
    target = getattr(game, "research", None)
    if not target:
        raise ValueError(f"the game {name!r} has no research encoding")
    key = (game.package, target)  # ".encoding:ENCODING" is each game's own
    if key not in _LOADED:
        _LOADED[key] = game.load(target)
    return _LOADED[key]


def encoded_games() -> list[str]:
    """The names of the registered games that have an encoding."""
    return [name for name, game in game_types().items() if getattr(game, "research", None)]


def solo_games() -> list[str]:
    """The names of the encoded games that can be played alone (Gymnasium's)."""
    return [name for name in encoded_games() if get_game(name).min_seats == 1]


def spiel_name(name: str) -> str:
    """OpenSpiel's short name of a game: ``tabletop_`` and its name, ``-`` as ``_``."""
    return "tabletop_" + name.replace("-", "_")


def gym_id(name: str) -> str:
    """The Gymnasium id of a game's solo environment."""
    return "tabletop/" + "".join(part.capitalize() for part in name.split("-")) + "Solo-v0"


def pettingzoo_name(name: str) -> str:
    """PettingZoo's name of a game's environment (``metadata["name"]``)."""
    return get_game(name).command + "_v0"


def rank_reward(rank: int, players: int) -> float:
    """``+1`` for rank 1, ``-1`` for the last rank, evenly between.

    >>> [rank_reward(r, 3) for r in (1, 2, 3)]
    [1.0, 0.0, -1.0]
    """
    return 1.0 - 2.0 * (rank - 1) / (players - 1)


class Scaler:
    """Maps a raw observation (``Encoder.observe``) onto ``[0, 1]``, entry by entry:
    ``(raw - low) / (high - low)`` as ``float32``, ``low`` and ``high`` being each
    entry's bounds (arrays of the observation's length, ``high > low``). Every tensor
    the research adapters hand to a network is scaled so (a raw action index or score
    makes gradients blow up); ``unscale`` gives the raw values back.

    >>> import numpy as np
    >>> s = Scaler(np.array([0, -4]), np.array([1, 4]))
    >>> s(np.array([1, 2], np.int16)).tolist(), s.unscale(s(np.array([1, 2]))).tolist()
    ([1.0, 0.75], [1, 2])
    """

    def __init__(self, low: Array, high: Array) -> None:
        import numpy as np

        low = np.asarray(low, np.float64)
        high = np.asarray(high, np.float64)
        if low.shape != high.shape or not (high > low).all():
            raise ValueError("every entry needs bounds with high > low")
        self.low = low.astype(np.float32)
        self.high = high.astype(np.float32)
        self.span = (high - low).astype(np.float32)
        self._factor = (1.0 / (high - low)).astype(np.float32)

    def __call__(self, raw: Array, out: Array | None = None) -> Array:
        """``raw`` scaled onto ``[0, 1]`` (``float32``): a new array, or written into
        ``out`` (a ``float32`` array of the same length) and returned."""
        import numpy as np

        if _tensorfast is not None:
            # one pass in C for int16 arrays (ValueError for anything else: numpy's turn)
            into = np.empty(self.low.shape, np.float32) if out is None else out
            try:
                _tensorfast.scale(into, raw, self.low, self._factor)
                return into
            except (ValueError, TypeError, BufferError):
                pass
        out = np.subtract(raw, self.low, dtype=np.float32, out=out)
        out *= self._factor
        return out

    def unscale(self, scaled: Array) -> Array:
        """The raw integer values of a scaled observation (``int64``)."""
        import numpy as np

        return np.rint(np.asarray(scaled, np.float64) * self.span + self.low).astype(np.int64)


class Dealer:
    """The seeds an environment deals its games from. ``reset(seed=s)`` deals the game
    of seed ``s`` itself, the one ``selfplay --seed s`` plays and a data set row's
    ``seed`` names (``Setup.deal(s)``), so a row rebuilds its position; the resets after
    it without a seed go on from a generator seeded by ``s``, so runs repeat exactly.

    >>> a, b = Dealer(), Dealer()
    >>> a.next(7), b.next(7)
    (7, 7)
    >>> a.next(None) == b.next(None)
    True
    """

    def __init__(self) -> None:
        self._rng = random.Random()

    def next(self, seed: int | None) -> int:
        """The seed of the next game: ``seed`` when given, else the generator's."""
        if seed is None:
            return self._rng.getrandbits(63)
        self._rng = random.Random(seed)
        return int(seed)


def zero_sum_rewards(ranks: Sequence[int]) -> list[float]:
    """The rank rewards less their mean, so that they sum to 0: two players get +1 for
    a win, -1 for a loss and 0 each for a draw (the rank reward pays a draw +1 to both).
    Without shared ranks they are the rank rewards.

    >>> zero_sum_rewards([1, 2]), zero_sum_rewards([1, 1])
    ([1.0, -1.0], [0.0, 0.0])
    >>> [round(r, 3) for r in zero_sum_rewards([1, 1, 3])]
    [0.667, 0.667, -1.333]
    """
    rewards = [rank_reward(r, len(ranks)) for r in ranks]
    mean = sum(rewards) / len(rewards)
    return [r - mean for r in rewards]


def final_rewards(encoder: Encoder, players: int, reward: str = "zero_sum") -> list[float]:
    """Per seat the reward at the end: the rank reward (``"rank"``, several seats), the
    rank reward less its mean (``"zero_sum"``, several seats: a draw pays 0) or
    ``reward_scores()`` (``"score"``, or one seat)."""
    if players > 1:
        if reward == "rank":
            return [rank_reward(r, players) for r in encoder.ranks()]
        if reward == "zero_sum":
            return zero_sum_rewards(encoder.ranks())
    return encoder.reward_scores()


def follow(
    chance: C,
    outcomes: Sequence[int],
    moves: Iterable[tuple[int, A]],
    index: Callable[[A, C], int],
) -> list[int]:
    """Play an undealt game (``Setup.undealt``) along a known course: each chance node
    takes the next of ``outcomes``, each seat to act the next of ``moves`` (``(seat,
    engine action)``, as its index in the position: ``index(action, chance)``). Returns
    OpenSpiel's history of it; ``RecordError`` if the course does not fit the game
    (an outcome or move left over, or refused)."""
    history: list[int] = []
    outcomes, moves = list(outcomes), list(moves)
    try:
        while True:
            acting = chance.acting()
            if acting == CHANCE and outcomes:
                outcome = outcomes.pop(0)
                chance.apply_chance(outcome)
            elif acting not in (CHANCE, TERMINAL) and moves:
                seat, action = moves.pop(0)
                if seat != acting:
                    raise RecordError(f"seat {seat} moves where seat {acting} is to act")
                outcome = index(action, chance)
                chance.apply(outcome, seat)
            else:
                break
            history.append(outcome)
    except (IllegalActionError, ValueError) as err:
        raise RecordError(f"the game cannot follow the seat record: {err}") from None
    if outcomes or moves:
        raise RecordError("the seat record's draws and moves do not fit one game")
    return history


def shuffle(items: list[A], uniform: Callable[[], float]) -> None:
    """Shuffle ``items`` in place (Fisher-Yates), ``uniform()`` giving numbers in [0, 1).

    >>> import random
    >>> items = list(range(6))
    >>> shuffle(items, random.Random(1).random)
    >>> sorted(items) == list(range(6)) and items != list(range(6))
    True
    """
    for i in range(len(items) - 1, 0, -1):
        j = pick(i + 1, uniform)
        items[i], items[j] = items[j], items[i]


def pick(n: int, uniform: Callable[[], float]) -> int:
    """A number in ``range(n)``, uniformly, from ``uniform()`` in [0, 1)."""
    return min(int(uniform() * n), n - 1)


def split_parts(
    obs: np.ndarray, parts: Sequence[tuple[str, tuple[int, ...]]]
) -> dict[str, np.ndarray]:
    """Cut a flat observation into named, shaped views, ``parts`` in order.

    >>> import numpy as np
    >>> views = split_parts(np.arange(7), [("a", (1,)), ("b", (2, 3))])
    >>> views["b"].tolist()
    [[1, 2, 3], [4, 5, 6]]
    """
    out: dict[str, np.ndarray] = {}
    at = 0
    for name, shape in parts:
        size = 1
        for n in shape:
            size *= n
        out[name] = obs[at : at + size].reshape(shape)
        at += size
    return out
