"""NMBR 9's OpenSpiel game in C (``_nmbr9fast.Game``) against the pure Python reference
(``encoding.ChanceEncoder``): both play the same random games side by side and every
node is compared (seat to act, whether it is over or stuck, chance outcomes, every
seat's legal actions, mask and observation raw and scaled, the public observation, the
scores, and the result at the end). Small windows make games that get stuck."""

from __future__ import annotations

import copy
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

fast = pytest.importorskip("tabletop.games.nmbr9._nmbr9fast")

from tabletop.games.nmbr9.encoding import (  # noqa: E402
    WINDOW_FULL,
    ChanceEncoder,
    Nmbr9Setup,
    observation_size,
)
from tabletop.research.encoding import CHANCE, TERMINAL  # noqa: E402

PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Pair:
    """The Python reference and the C game, driven together."""

    def __init__(self, players: int, remove: int, size: int) -> None:
        self.setup = Nmbr9Setup(players, remove, size)
        self.py = ChanceEncoder(self.setup)
        self.c = fast.Game(players, 20 - remove, size)
        self.players, self.size = players, size
        self.length = observation_size(players, size)

    def copy(self, how: int) -> Pair:
        """Both games copied (``how``: copy(), copy.copy or copy.deepcopy of the C one)."""
        new = copy.copy(self)
        new.py = self.py.copy()
        new.c = (self.c.copy, lambda: copy.copy(self.c), lambda: copy.deepcopy(self.c))[how]()
        return new

    def c_observe(self, seat: int | None) -> np.ndarray:
        out = np.full(self.length, -7, np.int16)
        if seat is None:
            self.c.public_observe(out)
        else:
            self.c.observe(seat, out)
        return out

    def c_mask(self, seat: int) -> np.ndarray:
        out = np.ones(4 * self.size * self.size, np.int8)
        self.c.mask(seat, out)
        return out

    def check(self) -> None:
        """Every query the C game answers equals the Python's in this position."""
        py, c, scaler = self.py, self.c, self.setup.scaler
        acting = py.acting()
        assert c.acting() == acting
        assert c.is_over == py.is_over
        assert c.stuck == py.stuck
        assert (py.truncation == WINDOW_FULL) == c.stuck
        in_round = py._card_turned() and not py.state.is_over
        assert c.in_round == in_round
        assert c.card == (py.state.card if in_round else -1)
        assert c.chance_outcomes() == (py.chance_outcomes() if acting == CHANCE else [])
        for seat in range(self.players):
            if in_round:
                assert c.legal_actions(seat) == py.legal_actions(seat)
                assert np.array_equal(self.c_mask(seat), py.mask(seat))
            else:
                assert c.legal_actions(seat) == []
                assert not self.c_mask(seat).any()
            raw = py.observe(seat)
            assert np.array_equal(self.c_observe(seat), raw)
            want = scaler(raw).tobytes()
            for low in (scaler.low, scaler.low.astype(np.int16)):
                out = np.full(self.length, np.nan, np.float32)
                c.observe_scaled(seat, out, low, scaler._factor)
                assert out.tobytes() == want  # bitwise
        assert np.array_equal(self.c_observe(None), py.public_observe())
        assert c.scores() == py.scores()
        if acting == TERMINAL:
            assert c.ranks() == py.ranks()
            assert c.reward_scores() == py.reward_scores()
            assert c.solo_score() == py.solo_score()
            assert isinstance(c.solo_score(), float)

    def chance(self, digit: int) -> None:
        self.py.apply_chance(digit)
        self.c.apply_chance(digit)

    def act(self, action: int) -> None:
        self.py.apply(action, self.py.acting())
        self.c.apply(action)

    def step(self, rng: random.Random) -> None:
        """One random move: a card (a digit among those left) or a legal placement."""
        acting = self.py.acting()
        if acting == CHANCE:
            outcomes = self.py.chance_outcomes()
            self.chance(rng.choice(outcomes)[0])
        else:
            self.act(rng.choice(self.py.legal_actions(acting)))


def play(pair: Pair, rng: random.Random, seen: Counter[str], copies: float = 0.0) -> None:
    """Play one game to the end, checking every node; at a ``copies`` share of the
    nodes a copy plays on a few moves first (the original must not change)."""
    pair.check()
    while not pair.py.is_over:
        if rng.random() < copies:
            other = pair.copy(rng.randrange(3))
            for _ in range(rng.randint(1, 3)):
                if other.py.is_over:
                    break
                other.step(rng)
                other.check()
            pair.check()
            seen["copies"] += 1
        before = pair.py.acting()
        pair.step(rng)
        pair.check()
        if pair.py.stuck:
            seen["stuck after a card" if before == CHANCE else "stuck within a round"] += 1
    seen["games"] += 1


@PROPERTY
@given(
    players=st.integers(1, 4),
    remove=st.sampled_from([0, 0, 1, 4, 12, 19]),
    size=st.sampled_from([40, 40, 7, 8, 9, 10, 12]),
    rng=st.randoms(use_true_random=False),
)
def test_random_games_match_the_python(
    players: int, remove: int, size: int, rng: random.Random
) -> None:
    play(Pair(players, remove, size), rng, Counter(), copies=0.1)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_small_windows_get_stuck_as_the_python_does(players: int) -> None:
    """Small windows run out of room: after a card (the first seat has no placement)
    and within a round (a later seat has none)."""
    rng = random.Random(players)
    seen: Counter[str] = Counter()
    for game in range(12):
        play(Pair(players, game % 3, 7 + game % 4), rng, seen)
    assert seen["stuck after a card"] > 0
    if players > 1:
        assert seen["stuck within a round"] > 0


def test_a_full_game_on_the_default_window_matches() -> None:
    rng = random.Random(5)
    seen: Counter[str] = Counter()
    for players in (1, 2, 3, 4):
        play(Pair(players, 0, 40), rng, seen, copies=0.2)
    assert seen["games"] == 4 and seen["copies"] > 0 and not seen["stuck after a card"]


def snapshot(pair: Pair) -> tuple:
    """Everything the C game tells of its position (to show a refusal changed nothing)."""
    c = pair.c
    seats = range(pair.players)
    return (
        c.acting(),
        c.is_over,
        c.stuck,
        c.in_round,
        c.card,
        c.chance_outcomes(),
        [c.legal_actions(s) for s in seats],
        [pair.c_mask(s).tobytes() for s in seats],
        [pair.c_observe(s).tobytes() for s in seats],
        pair.c_observe(None).tobytes(),
        c.scores(),
    )


def refused(pair: Pair, call: Callable[[], object], error: type[Exception] = ValueError) -> None:
    before = snapshot(pair)
    with pytest.raises(error):
        call()
    assert snapshot(pair) == before
    pair.check()


def test_refusals_change_nothing() -> None:
    pair = Pair(2, 0, 9)
    c, actions = pair.c, 4 * 9 * 9
    # a chance node: no placement, no digit outside 0-9 or not an int
    for action in (0, 5):
        refused(pair, lambda a=action: c.apply(a))
    for digit in (-1, 10, 2**70, "3", 2.0, None):
        refused(pair, lambda d=digit: c.apply_chance(d))
    pair.chance(4)
    pair.check()
    # a player node: no card, no placement outside the window, illegal or not an int
    refused(pair, lambda: c.apply_chance(4))
    legal = set(c.legal_actions(0))
    illegal = next(a for a in range(actions) if a not in legal)
    for action in (illegal, -1, actions, 2**70, "3", 1.5, None):
        refused(pair, lambda a=action: c.apply(a))
    # bad seats and bad buffers
    length = pair.length
    plane = np.zeros(actions, np.int8)
    raw = np.zeros(length, np.int16)
    out = np.zeros(length, np.float32)
    low, factor = pair.setup.scaler.low, pair.setup.scaler._factor
    for seat in (-1, 2, "0", None):
        refused(pair, lambda s=seat: c.legal_actions(s))
        refused(pair, lambda s=seat: c.mask(s, plane))
        refused(pair, lambda s=seat: c.observe(s, raw))
        refused(pair, lambda s=seat: c.observe_scaled(s, out, low, factor))
    read_only = np.zeros(actions, np.int8)
    read_only.flags.writeable = False
    strided = np.zeros(2 * actions, np.int8)[::2]
    wrong = (np.zeros(actions, np.int16), np.zeros(actions - 1, np.int8), read_only, strided)
    for bad in (*wrong, b"\0" * actions, None):
        refused(pair, lambda b=bad: c.mask(0, b))
    strided = np.zeros(2 * length, np.int16)[::2]
    wrong = (np.zeros(length, np.int32), np.zeros(length + 1, np.int16), np.float32(0), strided)
    for bad in (*wrong, np.zeros(length, np.float32), None):
        refused(pair, lambda b=bad: c.observe(0, b))
        refused(pair, lambda b=bad: c.public_observe(b))
    for bad_out, bad_low, bad_factor in (
        (np.zeros(length, np.float64), low, factor),
        (np.zeros(length - 1, np.float32), low, factor),
        (out, low.astype(np.float64), factor),
        (out, low.astype(np.int32), factor),
        (out, low[:-1], factor),
        (out, low, factor.astype(np.float64)),
        (out, low, factor[1:]),
        (out, None, factor),
    ):
        refused(pair, lambda o=bad_out, lo=bad_low, f=bad_factor: c.observe_scaled(0, o, lo, f))
    refused(pair, lambda: c.observe_scaled(0, out, low), TypeError)
    # the game goes on as before
    pair.act(c.legal_actions(0)[0])
    pair.check()


def test_a_turned_out_digit_is_refused() -> None:
    pair = Pair(1, 0, 40)
    for _ in range(2):
        pair.chance(7)
        pair.act(pair.c.legal_actions(0)[-1])
    assert 7 not in dict(pair.c.chance_outcomes())
    refused(pair, lambda: pair.c.apply_chance(7))


@pytest.mark.parametrize(
    ("players", "rounds", "size"),
    [(0, 20, 40), (5, 20, 40), (2, 0, 40), (2, 21, 40), (2, 20, 6), (2, 20, 63)],
)
def test_a_bad_game_is_refused(players: int, rounds: int, size: int) -> None:
    with pytest.raises(ValueError):
        fast.Game(players, rounds, size)


def test_a_game_needs_the_tiles_first() -> None:
    code = (
        "from tabletop.games.nmbr9 import _nmbr9fast\n"  # the package imports no window
        "try:\n    _nmbr9fast.Game(2, 20, 40)\nexcept RuntimeError:\n    print('refused')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "refused"


def test_copies_are_independent() -> None:
    """A copy and its original go separate ways, each still its reference's twin (the
    masks they share are never changed)."""
    rng = random.Random(3)
    pair = Pair(3, 0, 12)
    for _ in range(9):
        pair.step(rng)
    pair.c.legal_actions(1)  # masks computed before the copy: shared
    for how in range(3):
        other = pair.copy(how)
        before = snapshot(pair)
        while not other.py.is_over:
            other.step(rng)
            other.check()
        assert snapshot(pair) == before
        pair.check()
    while not pair.py.is_over:
        pair.step(rng)
        pair.check()
