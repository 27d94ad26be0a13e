"""NMBR 9's encoders keep observations and masks up to date placement by placement,
and compute masks in C where the optional extension is built; these properties check
them against the reference (``observe`` from the engine's ``View``, and the engine's
legal placements inside the window) in random games."""

from __future__ import annotations

import copy
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.games.nmbr9 import encoding as enc
from tabletop.games.nmbr9.rules import Game, State, View

SEEDS = st.integers(0, 2**32 - 1)
PLAYERS = st.integers(1, 4)
SIZES = st.sampled_from([enc.MIN_SIZE, 9, 12, 20, enc.SIZE])
POLICIES = st.sampled_from(["random", "climb"])


def reference_mask(state: State, seat: int, size: int) -> np.ndarray:
    """The engine's legal placements of ``seat`` that lie in the window, as a mask."""
    mask = np.zeros(enc.actions(size), np.int8)
    if not state.is_over and state.placed[seat] is None:
        for place in state.legal_actions(seat):
            if enc.in_window(state.card, place, size):
                mask[enc.encode(place, size)] = 1
    return mask


def pick(encoder: enc.Encoder, seat: int, policy: str, rng: random.Random) -> int:
    """A legal action: uniformly, or mostly the highest level (tall boards)."""
    legal = encoder.legal_actions(seat)
    if policy == "climb" and rng.random() < 0.85:
        state, size = encoder.state, encoder.size
        levels = {enc.encode(p, size): level for p, level in state.boards[seat].legal(state.card)}
        top = max(levels[a] for a in legal)
        legal = [a for a in legal if levels[a] == top]
    return rng.choice(legal)


def check(encoder: enc.Encoder) -> None:
    state, size = encoder.state, encoder.size
    for seat in range(state.game.players):
        expected = enc.observe(state, seat, size)
        if isinstance(encoder, enc.ChanceEncoder) and not encoder._card_turned():
            expected = enc.observe(state, seat, size, acting=False)
            enc._untell_card(expected, state)
        assert np.array_equal(encoder.observe(seat), expected), seat
        reference = reference_mask(state, seat, size)
        for compiled in (False, True):
            mask = enc.legal_mask(state, seat, size, compiled=compiled)
            assert np.array_equal(mask, reference), (seat, compiled)
        if not encoder.is_over:
            assert np.array_equal(encoder.mask(seat), reference), seat


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, players=PLAYERS, size=SIZES, policy=POLICIES)
def test_observations_and_masks_are_the_references_all_game(seed, players, size, policy):
    setup = enc.ENCODING.setup(players, size=size)
    encoder = enc.Encoder(setup, setup.rules.new_state(seed))  # the Python one
    replay = setup.rules.new_state(seed)  # the same game through the checked ``apply``
    rng = random.Random(seed)
    check(encoder)
    while not encoder.is_over and encoder.truncation is None:
        seat = encoder.acting()
        action = pick(encoder, seat, policy, rng)
        encoder.apply(action, seat)
        replay.apply(enc.decode(action, size), seat)
        assert encoder.state.boards[seat].tiles == replay.boards[seat].tiles
        check(encoder)
    assert [b.score for b in encoder.state.boards] == [b.score for b in replay.boards]


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, players=PLAYERS, size=SIZES, policy=POLICIES)
def test_the_chance_encoder_and_its_public_observation_too(seed, players, size, policy):
    encoder = enc.ChanceEncoder(enc.ENCODING.setup(players, size=size))  # the Python one
    rng = random.Random(seed)
    while not encoder.is_over:
        seat = encoder.acting()
        if seat == enc.CHANCE:
            outcomes, probs = zip(*encoder.chance_outcomes(), strict=True)
            encoder.apply_chance(rng.choices(outcomes, probs)[0])
        else:
            encoder.apply(pick(encoder, seat, policy, rng), seat)
        check(encoder)
        public = enc.observe_view(View(encoder.state, None), size, acting=False)
        if not encoder._card_turned():
            enc._untell_card(public, encoder.state)
        assert np.array_equal(encoder.public_observe(), public)


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, players=st.integers(2, 4), steps=st.integers(0, 60))
def test_a_copy_is_independent_of_its_original(seed, players, steps):
    encoder = enc.ChanceEncoder(enc.ENCODING.setup(players))  # the Python one
    rng = random.Random(seed)

    def step(game: enc.ChanceEncoder) -> None:
        seat = game.acting()
        if seat == enc.CHANCE:
            game.apply_chance(rng.choice([d for d, _ in game.chance_outcomes()]))
        else:
            game.apply(rng.choice(game.legal_actions(seat)), seat)

    for _ in range(steps):
        if not encoder.is_over:
            step(encoder)
    before = [encoder.observe(s) for s in range(players)], encoder.state.deck_order()
    twin = copy.deepcopy(encoder)
    assert twin.state is not encoder.state and twin.setup is encoder.setup
    for _ in range(2 * players + 2):  # into the next round: pending tiles and a new card
        if not twin.is_over:
            step(twin)
            check(twin)
    after = [encoder.observe(s) for s in range(players)]
    assert all(np.array_equal(a, b) for a, b in zip(after, before[0], strict=True))
    assert encoder.state.deck_order() == before[1]
    check(encoder)


@pytest.mark.skipif(not enc.COMPILED, reason="the optional C extension is not built here")
@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, players=PLAYERS, size=SIZES, policy=POLICIES, rounds=st.integers(1, 20))
def test_the_compiled_mask_is_the_engines_on_boards_beyond_the_window(
    seed, players, size, policy, rounds
):
    """Games played by the rules alone, anywhere on the table: tiles outside the window
    (and just outside it, to be touched from inside) must count as the engine counts them."""
    state = Game(players=players).new_state(seed)
    rng = random.Random(seed)
    for _ in range(rounds):
        for seat in state.acting_seats():
            options = state.boards[seat].legal(state.card)
            if policy == "climb" and rng.random() < 0.85:
                top = max(level for _, level in options)
                options = [o for o in options if o[1] == top]
            state.apply(rng.choice(options)[0], seat)
        if state.is_over:
            return
        for seat in range(players):
            reference = reference_mask(state, seat, size)
            assert np.array_equal(enc.legal_mask(state, seat, size, compiled=True), reference)
            assert np.array_equal(enc.legal_mask(state, seat, size, compiled=False), reference)


def test_the_compiled_mask_refuses_bad_input_with_a_message():
    if not enc.COMPILED:
        pytest.skip("the optional C extension is not built here")
    from tabletop.games.nmbr9 import _nmbr9fast

    out = np.zeros(enc.actions(10), np.int8)
    with pytest.raises(ValueError, match="4 \\* size \\* size"):
        _nmbr9fast.window_mask(out, [(1, 0, 0, 0, 0)], 3, 12)
    with pytest.raises(ValueError, match="size of 1 to 62"):
        _nmbr9fast.window_mask(np.zeros(enc.actions(70), np.int8), [(1, 0, 0, 0, 0)], 3, 70)
    with pytest.raises(ValueError, match="bad tile"):
        _nmbr9fast.window_mask(out, [(12, 0, 0, 0, 0)], 3, 10)
    with pytest.raises(TypeError):
        _nmbr9fast.window_mask(bytes(400), [(1, 0, 0, 0, 0)], 3, 10)  # read-only


WITHOUT_C = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.endswith("_nmbr9fast"):
            raise ImportError(f"{name} is blocked")
sys.meta_path.insert(0, Block())
import random
from tabletop.games.nmbr9 import encoding as enc
game = enc.ENCODING.setup(2).deal(3, {})
rng = random.Random(3)
while not game.is_over:
    seat = game.acting()
    game.apply(rng.choice(game.legal_actions(seat)), seat)
print("compiled:", enc.COMPILED, "scores:", game.scores())
"""


def test_without_the_compiled_mask_the_python_one_plays_the_same_game():
    out = subprocess.run(
        [sys.executable, "-c", WITHOUT_C], capture_output=True, text=True, check=True
    ).stdout
    assert out.startswith("compiled: False")
    with_c = subprocess.run(
        [sys.executable, "-c", WITHOUT_C.replace("sys.meta_path.insert(0, Block())", "")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert with_c.startswith(f"compiled: {enc.COMPILED}")
    assert with_c.split("scores:")[1] == out.split("scores:")[1]
