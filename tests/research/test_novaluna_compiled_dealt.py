"""PettingZoo's and Gymnasium's Nova Luna on the compiled game
(``fastchance.CompiledEncoder``) against the Python ``Encoder`` of the same deal
(``NovaLunaSetup.deal_python``): random seeded games played side by side, every node
compared; refusals, copies, pickles and what the reference answers."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

from tabletop.core.errors import IllegalActionError
from tabletop.games.novaluna import fastchance
from tabletop.games.novaluna.encoding import (
    CELLS,
    ENCODING,
    END_PHASE_ACTION,
    REFILL_ACTION,
    Encoder,
    NovaLunaSetup,
)
from tabletop.games.novaluna.rules.tiles import TILE_IDS
from tabletop.research.encoding import TERMINAL

if not fastchance.COMPILED:
    pytest.skip("the optional C extension is not built here", allow_module_level=True)

#: (players, first_game) of every variant.
VARIANTS = [(1, False), (2, False), (3, False), (4, False), (2, True), (3, True), (4, True)]


def deal_options(players: int, rng: random.Random) -> dict:
    """No options, a fixed pile, or a fixed pile and start stack (several seats)."""
    kind = rng.randrange(3)
    if kind == 0:
        return {}
    pile = list(TILE_IDS)
    rng.shuffle(pile)
    if kind == 1 or players == 1:
        return {"pile": pile}
    stack = list(range(players))
    rng.shuffle(stack)
    return {"pile": pile, "start_stack": stack}


class Pair:
    """The compiled game and the Python one of the same deal, driven together."""

    def __init__(self, setup: NovaLunaSetup, seed: int, options: dict) -> None:
        self.setup = setup
        self.c = setup.deal(seed, options)
        self.py = setup.deal_python(seed, options)
        assert isinstance(self.c, fastchance.CompiledEncoder)

    def check(self) -> None:
        """Every question the encoder protocol asks has the same answer in both."""
        c, py = self.c, self.py
        assert c.acting() == py.acting()
        assert c.is_over == py.is_over
        assert c.truncation is py.truncation is None
        for seat in [*range(self.setup.players), None]:
            if seat is not None:
                assert c.observe(seat).tobytes() == py.observe(seat).tobytes()
            assert c.legal_actions(seat) == py.legal_actions(seat)
            assert np.array_equal(c.mask(seat), py.mask(seat))
        if c.is_over:
            self.check_result()

    def check_result(self) -> None:
        c, py = self.c, self.py
        assert c.acting() == TERMINAL
        assert c.reward_scores() == py.reward_scores()
        if self.setup.players == 1:
            assert c.solo_score() == py.solo_score()
        else:
            assert c.ranks() == py.ranks()

    def check_reference(self) -> None:
        """What the compiled game asks of its reference (text, the rules' state)."""
        c, py = self.c, self.py
        assert c.render() == py.render() and c.render(0) == py.render(0)
        assert c.state.turn == py.state.turn and c.state.time == py.state.time
        if not py.is_over:
            for move in py.state.legal_actions()[:5]:
                assert c.action_index(move) == py.action_index(move)

    def act(self, action: int) -> None:
        seat = self.py.acting()
        self.py.apply(action, seat)
        self.c.apply(action, seat)

    def play(self, rng: random.Random, steps: int = 10**6) -> None:
        """Up to ``steps`` random legal actions, every node checked."""
        self.check()
        for _ in range(steps):
            if self.py.is_over:
                break
            self.act(rng.choice(self.py.legal_actions()))
            self.check()


def test_deal_hands_out_the_compiled_game():
    setup = ENCODING.setup(2)
    assert isinstance(setup.deal(1, {}), fastchance.CompiledEncoder)
    assert type(setup.deal_python(1, {})) is Encoder


@pytest.mark.parametrize("players,first_game", VARIANTS)
def test_random_dealt_games_play_alike_at_every_node(players, first_game):
    setup = ENCODING.setup(players, first_game=first_game)
    rng = random.Random(players * 10 + first_game)
    for _ in range(3):
        pair = Pair(setup, rng.getrandbits(64), deal_options(players, rng))
        pair.play(rng)
        assert pair.py.is_over
        pair.check_reference()


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_reference_follows_the_game_as_it_goes(players):
    setup = ENCODING.setup(players)
    rng = random.Random(players)
    pair = Pair(setup, players, {})
    while not pair.py.is_over:
        pair.play(rng, steps=rng.randrange(1, 15))
        pair.check_reference()


@pytest.mark.parametrize("players", [1, 2, 4])
def test_refusals_have_the_rules_words_and_change_nothing(players):
    setup = ENCODING.setup(players)
    rng = random.Random(players)
    pair = Pair(setup, 11, {})
    pair.play(rng, steps=20)
    seat = pair.py.acting()
    legal = set(pair.py.legal_actions())
    illegal = [-1, 3 * CELLS - 1, 2 * CELLS, REFILL_ACTION, END_PHASE_ACTION, 10**9]
    attempts = [(a, seat) for a in illegal if a not in legal]
    if players > 1:
        attempts.append((min(legal), (seat + 1) % players))  # another seat's turn
    before = pair.c.copy()
    for reference_first in (False, True):
        if reference_first:
            pair.check_reference()  # the reference made: refusals go through it
        for action, by in attempts:
            with pytest.raises(IllegalActionError) as python_error:
                pair.py.apply(action, by)
            with pytest.raises(IllegalActionError) as fast_error:
                pair.c.apply(action, by)
            assert str(fast_error.value) == str(python_error.value)
        pair.check()
        assert pair.c.render() == before.render()
    pair.play(rng)  # both go on alike
    for action, by in [(0, 0), (REFILL_ACTION, 0), (0, None)]:
        with pytest.raises(IllegalActionError) as python_error:
            pair.py.apply(action, by)
        with pytest.raises(IllegalActionError) as fast_error:
            pair.c.apply(action, by)
        assert str(fast_error.value) == str(python_error.value)


def test_bad_deal_options_are_refused_as_the_rules_refuse_them():
    setup = ENCODING.setup(2)
    for options in ({"pile": [1, 2, 3]}, {"start_stack": [0, 0]}):
        with pytest.raises(ValueError) as python_error:
            setup.deal_python(1, options)
        with pytest.raises(ValueError) as fast_error:
            setup.deal(1, options)
        assert str(fast_error.value) == str(python_error.value)


@pytest.mark.parametrize("players", [1, 3])
def test_copies_are_independent(players):
    setup = ENCODING.setup(players)
    rng = random.Random(5)
    pair = Pair(setup, 5, {})
    pair.play(rng, steps=10)
    pair.check_reference()  # the copies copy the reference too
    for make in (lambda e: e.copy(), copy.deepcopy):
        twin = Pair.__new__(Pair)
        twin.setup, twin.c, twin.py = setup, make(pair.c), make(pair.py)
        twin.play(random.Random(6), steps=25)  # the copy goes its own way
        twin.check_reference()
        pair.check()  # the original did not move
        pair.check_reference()
    pair.play(rng)


def test_copies_made_before_the_reference_each_replay_their_own():
    setup = ENCODING.setup(2)
    pair = Pair(setup, 8, {})
    pair.play(random.Random(8), steps=6)
    copied = pair.c.copy()
    pair.play(random.Random(9), steps=6)
    assert copied.render() != pair.c.render()
    assert pair.c.render() == pair.py.render()


def test_pickles_give_the_same_game():
    setup = ENCODING.setup(3)
    rng = random.Random(2)
    pair = Pair(setup, 2, {"start_stack": [2, 0, 1]})
    pair.play(rng, steps=30)
    for with_reference in (False, True):
        if with_reference:
            pair.check_reference()
        again = Pair.__new__(Pair)
        again.setup, again.c, again.py = setup, pickle.loads(pickle.dumps(pair.c)), pair.py.copy()
        again.check()
        again.check_reference()
        again.play(random.Random(3))


def test_the_environments_play_the_compiled_game():
    from tabletop.research.aec import NovaLunaEnv
    from tabletop.research.gym import SoloEnv

    env = NovaLunaEnv(players=2)
    env.reset(seed=4)
    assert isinstance(env.encoder, fastchance.CompiledEncoder)
    solo = SoloEnv("nova-luna")
    solo.reset(seed=4)
    assert isinstance(solo.encoder, fastchance.CompiledEncoder)


def test_without_the_c_extension_the_environments_play_the_python_encoder(monkeypatch):
    from tabletop.research.aec import NovaLunaEnv

    monkeypatch.setattr(fastchance, "COMPILED", False)
    env = NovaLunaEnv(players=2)
    env.reset(seed=4)
    assert type(env.encoder) is Encoder
    while not env.encoder.is_over:
        env.step(env.encoder.legal_actions(env.encoder.acting())[-1])
    assert sorted(env.rewards.values()) == [-1.0, 1.0]
