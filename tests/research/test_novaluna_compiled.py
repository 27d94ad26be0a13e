"""Nova Luna's OpenSpiel game in C (``_novalunafast``) against the pure Python reference
(``chance.ChanceEncoder``): both play the same random games side by side and every
node is compared (seat to act, chance outcomes, legal actions, every seat's observation
raw, scaled and as a list, the mask, and the result at the end)."""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

fast = pytest.importorskip("tabletop.games.novaluna._novalunafast")

from tabletop.games.novaluna.chance import ChanceEncoder  # noqa: E402
from tabletop.games.novaluna.encoding import (  # noqa: E402
    ACTIONS,
    CELLS,
    ENCODING,
    END_PHASE_ACTION,
    REFILL_ACTION,
    NovaLunaSetup,
    decode,
    encode_place,
    observation_size,
)
from tabletop.games.novaluna.rules import Game, Place  # noqa: E402
from tabletop.games.novaluna.rules.display import cell_key as display_key  # noqa: E402
from tabletop.games.novaluna.rules.tiles import TILE_COLOR, TILE_COST, TILE_TASKS  # noqa: E402
from tabletop.research.encoding import CHANCE, TERMINAL  # noqa: E402

if TYPE_CHECKING:
    from tabletop.games.novaluna._novalunafast import Game as FastGame

fast.setup(TILE_COLOR, TILE_COST, TILE_TASKS)

#: (players, first_game) of every variant.
VARIANTS = [(1, False), (2, False), (3, False), (4, False), (2, True), (3, True), (4, True)]


def few_discs(players: int, discs: int) -> Game:
    """The rules with a supply of ``discs`` (a variant for tests only: the supplies run
    out early, often on a placement that fulfils more tasks than there are discs)."""
    rules = type("FewDiscs", (Game,), {"supply": property(lambda self: discs)})
    return rules(players=players)


class Pair:
    """The Python reference and the C game, driven together."""

    def __init__(self, players: int, first_game: bool, discs: int | None = None) -> None:
        self.setup: NovaLunaSetup = ENCODING.setup(players, first_game=first_game)
        if discs is not None:
            self.setup.rules = few_discs(players, discs)
        self.py = ChanceEncoder(self.setup)  # the Python game (undealt() is the C one)
        self.c = fast.Game(players, self.setup.rules.supply)
        self.size = observation_size(players)

    def c_observe(self, seat: int) -> np.ndarray:
        out = np.empty(self.size, np.int16)
        self.c.observe(seat, out)
        return out

    def c_mask(self) -> np.ndarray:
        out = np.ones(ACTIONS, np.int8)
        self.c.mask(out)
        return out

    def check(self) -> None:
        """Every query the C game answers equals the Python's in this position."""
        py, c, scaler = self.py, self.c, self.setup.scaler
        acting = py.acting()
        assert c.acting() == acting
        assert c.is_over == py.is_over
        if acting == CHANCE:
            assert c.chance_outcomes() == py.chance_outcomes()
        assert c.legal_actions() == (py.legal_actions(acting) if acting >= 0 else [])
        for seat in range(self.setup.players):
            raw = py.observe(seat)
            assert np.array_equal(self.c_observe(seat), raw)
            want = scaler(raw)
            out = np.full(self.size, np.nan, np.float32)
            c.observe_scaled(seat, out, scaler.low, scaler._factor)
            assert out.tobytes() == want.tobytes()  # bitwise
        want_mask = py.mask(acting) if acting >= 0 else np.zeros(ACTIONS, np.int8)
        assert np.array_equal(self.c_mask(), want_mask)
        if acting == TERMINAL:
            self.check_result()

    def check_result(self) -> None:
        py, c = self.py, self.c
        assert c.reward_scores() == py.reward_scores()
        if self.setup.players == 1:
            assert c.solo_score() == py.solo_score()
            with pytest.raises(ValueError):
                c.ranks()
        else:
            assert c.ranks() == py.ranks()
            with pytest.raises(ValueError):
                c.solo_score()

    def chance(self, outcome: int) -> None:
        self.py.apply_chance(outcome)
        self.c.apply_chance(outcome)

    def act(self, action: int) -> None:
        self.py.apply(action)
        self.c.apply(action)


def snapshot(game: FastGame, players: int) -> tuple:
    """Everything the C game tells of its position (to show it did not change)."""
    size = observation_size(players)
    observations = []
    for seat in range(players):
        out = np.empty(size, np.int16)
        game.observe(seat, out)
        observations.append(out.tobytes())
    mask = np.empty(ACTIONS, np.int8)
    game.mask(mask)
    return (
        game.acting(),
        game.is_over,
        game.chance_outcomes(),
        game.legal_actions(),
        tuple(observations),
        mask.tobytes(),
    )


class Chooser:
    """Random choices weighted to reach the rare branches: optional refills and ending
    phase 1 taken often, and in ``greedy`` games the placement covering the most tasks
    (of a sample), so that supplies run out, several tasks at a time."""

    def __init__(self, rng: random.Random, greedy: float, refill: float, end: float) -> None:
        self.rng, self.greedy, self.refill, self.end = rng, greedy, refill, end

    def __call__(self, py: ChanceEncoder, legal: list[int]) -> int:
        rng = self.rng
        if REFILL_ACTION in legal and rng.random() < self.refill:
            return REFILL_ACTION
        if END_PHASE_ACTION in legal and rng.random() < self.end:
            return END_PHASE_ACTION
        places = [a for a in legal if a < REFILL_ACTION]
        if not places:
            return rng.choice(legal)
        if rng.random() < self.greedy:
            state = py.state
            assert state is not None
            sample = rng.sample(places, min(40, len(places)))
            return max(sample, key=lambda a: len(state.preview(decode(a, state))))  # type: ignore[arg-type]
        return rng.choice(places)


def note_branches(pair: Pair, action: int, seen: Counter[str]) -> None:
    """Count the rare branches ``action`` (about to be applied) takes."""
    state = pair.py.state
    assert state is not None
    move = decode(action, state)
    if action == REFILL_ACTION:
        seen["refill"] += 1
    elif action == END_PHASE_ACTION:
        seen["end phase"] += 1
    elif isinstance(move, Place):
        tasks = len(state.preview(move))
        seat = state.current_seat
        if tasks > 1:
            seen["several tasks"] += 1
        if tasks > state.supply[seat]:
            seen["supply short"] += 1
        if state.on_wheel == 1:
            seen["wheel emptied"] += 1


def play(pair: Pair, choose: Callable[[ChanceEncoder, list[int]], int], pick: Callable[[int], int],
         seen: Counter[str]) -> None:  # fmt: skip
    """Play one game to the end, checking every node; ``pick(n)`` chooses a chance
    outcome among ``n``."""
    pair.check()
    while not pair.py.is_over:
        acting = pair.py.acting()
        if acting == CHANCE:
            outcomes = pair.py.chance_outcomes()
            pair.chance(outcomes[pick(len(outcomes))][0])
            if pair.py.pending is None and len(outcomes) < 11 and pair.py.state is not None:
                seen["short draw"] += 1
        else:
            action = choose(pair.py, pair.py.legal_actions(acting))
            note_branches(pair, action, seen)
            pair.act(action)
        pair.check()
    state = pair.py.state
    assert state is not None
    if state.pile_count == 0:
        seen["pile empty"] += 1
    if state.phase == 2:
        seen["phase 2"] += 1
    if not state._last_disc:
        seen["ended without a last disc"] += 1
    seen["games"] += 1


@pytest.mark.parametrize(("players", "first_game"), VARIANTS)
def test_random_games_match_the_python(players: int, first_game: bool) -> None:
    rng = random.Random(players * 10 + first_game)
    seen: Counter[str] = Counter()
    for game in range(8):
        greedy = (0.0, 0.9, 1.0)[game % 3]
        choose = Chooser(rng, greedy=greedy, refill=0.5, end=0.3 if game % 2 else 0.05)
        play(Pair(players, first_game), choose, rng.randrange, seen)
    assert seen["several tasks"] > 0
    if players == 1:
        assert seen["end phase"] > 0 and seen["phase 2"] > 0 and seen["wheel emptied"] > 0
    else:
        assert seen["refill"] > 0 and seen["wheel emptied"] > 0
        assert seen["pile empty"] > 0 and seen["short draw"] > 0
        assert seen["ended without a last disc"] > 0
    if first_game:
        assert seen["supply short"] > 0


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_small_supplies_match_the_python(players: int) -> None:
    """Supplies of 1 to 5 discs: a seat runs out early, often on a placement that
    fulfils more tasks than it has discs (only the first ones in cell order count)."""
    rng = random.Random(50 + players)
    seen: Counter[str] = Counter()
    for game in range(10):
        choose = Chooser(rng, greedy=(0.5, 1.0)[game % 2], refill=0.3, end=0.3)
        play(Pair(players, False, discs=1 + game % 5), choose, rng.randrange, seen)
    assert seen["supply short"] > 0 and seen["several tasks"] > 0


def test_cell_order_decides_which_tasks_a_short_supply_covers() -> None:
    """A solo game with one disc: the last placement fulfils a task on the tile to its
    left, (0, 1), and one on the tile above it, (1, 0). The rules sort the tasks by
    ``cell_key``, x first, so the disc goes to (0, 1) (by rows it would go to (1, 0))."""
    first, left, above, last = 52, 12, 46, 18  # yellow, red, cyan, blue
    assert [TILE_COLOR[t] for t in (first, left, above, last)] == [3, 0, 2, 1]
    assert TILE_TASKS[first] == TILE_TASKS[last] == ()
    assert TILE_TASKS[left][1] == TILE_TASKS[above][1] == ((1, 1),)  # one blue tile
    pair = Pair(1, False, discs=1)
    rest = [t for t in range(1, 69) if t not in (first, left, above, last)]
    for tile in [first, left, above, last, *rest[:7]]:
        pair.chance(tile - 1)
        pair.check()
    for x, y in ((0, 0), (0, 1), (1, 0), (1, 1)):
        pair.act(encode_place(0, x, y))  # always the first tile clockwise
        pair.check()
    state = pair.py.state
    assert state is not None and state.is_over
    display = state.displays[0]
    assert display.covered == 1 and display.is_covered(display_key(0, 1), 1)
    assert not display.is_covered(display_key(1, 0), 1) and display.is_fulfilled(
        display_key(1, 0), 1
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), data=st.data())
def test_games_hypothesis_chooses_match(variant: tuple[int, bool], data: st.DataObject) -> None:
    pair = Pair(*variant)

    def pick(n: int) -> int:
        return data.draw(st.integers(0, n - 1))

    def choose(py: ChanceEncoder, legal: list[int]) -> int:
        return legal[pick(len(legal))]

    play(pair, choose, pick, Counter())


def advance(pair: Pair, rng: random.Random, steps: int) -> None:
    """``steps`` random nodes of the pair, each checked."""
    for _ in range(steps):
        if pair.py.is_over:
            return
        acting = pair.py.acting()
        if acting == CHANCE:
            pair.chance(rng.choice(pair.py.chance_outcomes())[0])
        else:
            pair.act(rng.choice(pair.py.legal_actions(acting)))
        pair.check()


@pytest.mark.parametrize(("players", "first_game"), VARIANTS)
def test_copies_diverge(players: int, first_game: bool) -> None:
    rng = random.Random(7 + players)
    pair = Pair(players, first_game)
    for stop in (0, 1, 5, 20, 40, 60):
        advance(pair, rng, stop)
        for make in (lambda g: g.copy(), copy.deepcopy, copy.copy):
            before = snapshot(pair.c, players)
            other = Pair(players, first_game)
            other.py, other.c = copy.deepcopy(pair.py), make(pair.c)
            assert type(other.c) is fast.Game and other.c is not pair.c
            advance(other, rng, 30)  # the copy goes its own way, checked against its twin
            assert snapshot(pair.c, players) == before
            pair.check()


def illegal_actions(pair: Pair) -> list[int]:
    """Actions the acting seat may not take now: out of range, a choice past the
    takeable tiles, cells off the frontier, refill and end where not legal."""
    legal = set(pair.py.legal_actions(pair.py.acting()))
    candidates = [-1, -CELLS, ACTIONS, ACTIONS + 5, 2**40, REFILL_ACTION, END_PHASE_ACTION]
    candidates += [
        choice * CELLS + cell for choice in range(3) for cell in (0, CELLS // 2, CELLS - 1)
    ]
    candidates += [a + 1 for a in legal] + [a + CELLS for a in legal]
    return [a for a in candidates if a not in legal]


def check_refusals(pair: Pair) -> None:
    """Every refusal raises ValueError and changes nothing."""
    c, players = pair.c, pair.setup.players
    before = snapshot(c, players)
    acting = c.acting()
    if acting == CHANCE:
        possible = {o for o, _ in c.chance_outcomes()}
        for outcome in [-1, 68, 69, 24, 10**6, 2**70, *range(68)]:
            if outcome not in possible:
                with pytest.raises(ValueError):
                    c.apply_chance(outcome)
        for action in (0, REFILL_ACTION, END_PHASE_ACTION, -1):
            with pytest.raises(ValueError):
                c.apply(action)
    else:
        for outcome in (0, 5, 67):
            with pytest.raises(ValueError):
                c.apply_chance(outcome)
        for action in illegal_actions(pair) if acting >= 0 else [0, REFILL_ACTION, 3960]:
            with pytest.raises(ValueError):
                c.apply(action)
    if acting != TERMINAL:
        for query in (c.ranks, c.reward_scores, c.solo_score):
            with pytest.raises(ValueError):
                query()
    assert snapshot(c, players) == before


@pytest.mark.parametrize(("players", "first_game"), VARIANTS)
def test_refusals_change_nothing(players: int, first_game: bool) -> None:
    rng = random.Random(100 + players)
    for _ in range(3):
        pair = Pair(players, first_game)
        check_refusals(pair)
        while not pair.py.is_over:
            advance(pair, rng, rng.randrange(1, 4))
            check_refusals(pair)
            pair.check()  # and the game goes on as the Python's


def test_buffers_and_seats_are_checked() -> None:
    pair = Pair(2, False)
    c, size, scaler = pair.c, observation_size(2), pair.setup.scaler
    low, factor = scaler.low, scaler._factor
    bad_outs = [
        np.empty(size - 1, np.int16),
        np.empty(size, np.int32),
        np.empty(size, np.float32),
        np.empty(2 * size, np.int16)[::2],  # not contiguous
        bytes(2 * size),  # read-only
    ]
    for out in bad_outs:
        with pytest.raises(ValueError):
            c.observe(0, out)
    for seat in (-1, 2):
        with pytest.raises(ValueError):
            c.observe(seat, np.empty(size, np.int16))
    with pytest.raises(ValueError):
        c.observe_scaled(0, np.empty(size, np.float64), low, factor)
    with pytest.raises(ValueError):
        c.observe_scaled(0, np.empty(size, np.float32), low[:-1], factor)
    with pytest.raises(ValueError):
        c.observe_scaled(0, np.empty(size, np.float32), low, factor.astype(np.float64))
    with pytest.raises(ValueError):
        c.mask(np.empty(ACTIONS, np.uint16))
    with pytest.raises(ValueError):
        c.mask(np.empty(ACTIONS - 1, np.int8))
    with pytest.raises(ValueError):
        fast.Game(5, 20)
    with pytest.raises(ValueError):
        fast.Game(2, 0)


def test_the_listed_observation_shares_zero_and_one() -> None:
    """In OpenSpiel's list of the scaled observation the 0.0s are a few shared objects
    (eight, taken in turn) and every 1.0 is one: building a float per entry is what
    would cost."""
    tensorfast = pytest.importorskip("tabletop.research._tensorfast")
    pair = Pair(2, False)
    advance(pair, random.Random(3), 30)
    scaler = pair.setup.scaler
    scaled = np.empty(pair.size, np.float32)
    pair.c.observe_scaled(0, scaled, scaler.low, scaler._factor)
    values = tensorfast.as_list(scaled)
    zeros = {id(v) for v in values if v == 0.0}
    ones = {id(v) for v in values if v == 1.0}
    assert len(zeros) <= 8 and len(ones) == 1
    assert values.count(0.0) > 100 and values.count(1.0) > 10


def test_start_stacks_are_the_permutations_in_order() -> None:
    """Outcome ``i`` of the start-stack node is ``setup.stacks[i]``: the seat on top of
    the stack moves first."""
    for players in (2, 3, 4):
        setup = ENCODING.setup(players)
        for i, stack in enumerate(setup.stacks):
            game = fast.Game(players, setup.rules.supply)
            game.apply_chance(i)
            for tile in range(11):
                game.apply_chance(tile)
            assert game.acting() == stack[-1]
