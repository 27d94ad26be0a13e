"""Property tests over many random games (2, 3, 4 players and solo).

Hypothesis draws the game (players, first-game option, shuffle seed) and a seed for
the random action choices. Every invariant is recomputed from the public view with
code written here and in conftest, independent of the engine's incremental data.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.games.novaluna.rules import (
    END_PHASE,
    REFILL,
    TILES,
    Game,
    Place,
    SoloResult,
    StandardResult,
    State,
    parse_action,
)

from novaluna_support import NEIGHBOURS, reference_fulfilled

SETTINGS = settings(max_examples=100, deadline=None)


PLAYERS = st.sampled_from([1, 2, 3, 4])


@st.composite
def games(draw, players=PLAYERS):
    """A fresh game: (state, start stack, rng for the action choices)."""
    n = draw(players)
    first_game = n > 1 and draw(st.booleans())
    seed = draw(st.integers(0, 2**32 - 1))
    stack = draw(st.permutations(list(range(n))))
    state = Game(players=n, first_game=first_game).new_state(seed=seed, start_stack=stack)
    return state, list(stack), random.Random(draw(st.integers(0, 2**32 - 1)))


class Track:
    """Independent moon-track bookkeeping: times from tile costs, stack heights from
    arrival order (the start stack, then every move lands on top)."""

    def __init__(self, state: State, stack: list[int]) -> None:
        self.time = [0] * state.game.players
        self.height = {seat: h for h, seat in enumerate(stack)}
        self.clock = len(stack)

    def apply(self, state: State, action) -> list:
        seat = state.current_seat
        cost = TILES[state.wheel[action.space]].cost if isinstance(action, Place) else 0
        got = state.apply(action)
        if isinstance(action, Place) and not state.game.solo:
            self.time[seat] += cost
            self.height[seat] = self.clock
            self.clock += 1
        return got

    def next_seat(self) -> int:
        return min(range(len(self.time)), key=lambda s: (self.time[s], -self.height[s]))


def public_layout(state: State, seat: int) -> tuple[dict, set]:
    """A seat's tiles and its covered tasks, read from the public view."""
    display = state.view().display(seat)
    layout = {cell: tile for cell, (tile, _) in display.items()}
    covered = {(*cell, i) for cell, (_, flags) in display.items() for i, f in enumerate(flags) if f}
    return layout, covered


def expected_cells(layout: dict) -> list[tuple[int, int]]:
    if not layout:
        return [(0, 0)]
    cells = {
        (x + dx, y + dy)
        for x, y in layout
        for dx, dy in NEIGHBOURS
        if (x + dx, y + dy) not in layout
    }
    return sorted(cells)


def expected_spaces(wheel: list[int], meeple: int) -> list[int]:
    spaces = [(meeple + k) % 12 for k in range(1, 12) if wheel[(meeple + k) % 12]]
    return spaces[:3]


def check_invariants(state: State, track: Track | None = None) -> None:
    """Every rule-level invariant of a position, recomputed from scratch."""
    game = state.game
    n = game.players
    wheel = list(state.view().wheel)
    assert len(wheel) == 12
    on_wheel = [t for t in wheel if t]
    assert state.on_wheel == len(on_wheel)
    # Tiles are conserved: 68 = wheel + pile + displays, each tile exactly once.
    unseen = list(state.unseen_tiles())
    assert len(unseen) == state.pile_count
    layouts = [public_layout(state, s) for s in range(n)]
    in_displays = [t for layout, _ in layouts for t in layout.values()]
    everything = on_wheel + unseen + in_displays
    assert sorted(everything) == list(range(1, 69))
    assert wheel[state.meeple] == 0, "the meeple's space is always empty"
    for seat, (layout, covered) in enumerate(layouts):
        # Discs are conserved.
        assert state.supply[seat] >= 0
        assert state.supply[seat] + state.discs_placed(seat) == game.supply
        assert len(covered) == state.discs_placed(seat)
        # Covered tasks are exactly the fulfilled ones (unless the supply ran out).
        fulfilled = reference_fulfilled(layout)
        assert covered <= fulfilled
        if state.supply[seat]:
            assert covered == fulfilled
        # Displays are connected and start on (0, 0).
        if layout:
            assert (0, 0) in layout
            seen, todo = set(), [(0, 0)]
            while todo:
                x, y = todo.pop()
                if (x, y) in seen or (x, y) not in layout:
                    continue
                seen.add((x, y))
                todo += [(x + dx, y + dy) for dx, dy in NEIGHBOURS]
            assert seen == set(layout)
    if not game.solo:
        assert max(state.time) - min(state.time) <= 7
        if track is not None:
            assert list(state.time) == track.time
    # Whether the game is over.
    if game.solo:
        over = state.discs_placed(0) == 21 or (state.phase == 2 and not on_wheel)
        assert state.phase in (1, 2)
        assert state.phase == 2 or on_wheel or state.is_over
    else:
        over = 0 in state.supply or (not on_wheel and not state.pile_count)
    assert state.is_over == over
    if state.is_over:
        assert state.legal_actions() == []
        return
    # Whose turn and what is legal.
    if track is not None and not game.solo:
        assert state.current_seat == track.next_seat()
    seat = state.current_seat
    spaces = expected_spaces(wheel, state.meeple)
    assert spaces, "a turn always has a tile to take"
    cells = expected_cells(layouts[seat][0])
    expected = {Place(s, x, y) for s in spaces for x, y in cells}
    if game.solo:
        if state.phase == 1 and state.discs_placed(0) >= 8:
            expected.add(END_PHASE)
    elif not state.refilled and len(on_wheel) <= 2 and state.pile_count:
        expected.add(REFILL)
    if not game.solo and not on_wheel:
        raise AssertionError("an empty wheel must have been refilled")
    actions = state.legal_actions()
    assert len(actions) == len(set(actions))
    assert set(actions) == expected


def play_checked(state: State, track: Track, rng: random.Random, every: int = 1) -> int:
    """Play to the end with random legal actions, checking invariants; return turns."""
    steps = 0
    check_invariants(state, track)
    while not state.is_over:
        action = rng.choice(state.legal_actions())
        before = state.supply[state.current_seat]
        seat = state.current_seat
        got = track.apply(state, action)
        assert state.supply[seat] == before - len(got)
        steps += 1
        if steps % every == 0 or state.is_over:
            check_invariants(state, track)
    return steps


# -- properties ------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(games())
def test_invariants_hold_through_whole_games(game):
    """Tiles conserved (68 = wheel + pile + displays), discs conserved (supply + placed
    = initial supply), covered tasks are exactly the fulfilled ones (brute-force BFS;
    fulfilled-but-uncovered only once the supply ran out), turn order and legal actions
    as the rules say, and the game ends exactly when it should."""
    state, stack, rng = game
    steps = play_checked(state, Track(state, stack), rng)
    assert state.is_over
    assert 11 <= state.turn <= min(steps, 22 if state.game.solo else 68)


@settings(max_examples=60, deadline=None)
@given(games(), st.integers(0, 80))
def test_every_legal_action_applies_cleanly(game, stop):
    """Each legal action applies without error on a clone, moves the tile from the wheel
    to the display, covers exactly what ``preview`` said (as far as discs allow) and
    leaves the original untouched (clone independence)."""
    state, stack, rng = game
    track = Track(state, stack)
    for _ in range(stop):
        if state.is_over:
            break
        track.apply(state, rng.choice(state.legal_actions()))
    if state.is_over:
        return
    before = state.view().to_json()
    order = state.pile_order()
    seat = state.current_seat
    for action in state.legal_actions():
        clone = state.clone()
        if isinstance(action, Place):
            tile = state.wheel[action.space]
            preview = state.preview(action)
            got = clone.apply(action)
            assert clone.meeple == action.space and clone.wheel[action.space] == 0
            assert clone.view().display(seat)[action.cell][0] == tile
            assert len(got) == state.supply[seat] - clone.supply[seat]
            assert set(got) <= set(preview)
            if state.supply[seat] >= len(preview):
                assert sorted(got) == sorted(preview)
        else:
            assert clone.apply(action) == []
        assert parse_action(str(action)) == action
        check_invariants(clone)
        assert state.view().to_json() == before, f"{action} changed the original"
        assert state.pile_order() == order


@settings(max_examples=80, deadline=None)
@given(games(), st.integers(0, 80), st.lists(st.integers(1, 68), min_size=1, max_size=6))
def test_fulfilled_by_matches_laying_on_a_copy(game, stop, tiles):
    """The copy-free preview gives exactly what laying the tile on a copy fulfils,
    for any tile on any open cell of any display."""
    state, _, rng = game
    _advance(state, rng, stop)
    for display in state.displays:
        for cell in display.frontier:
            for tile in tiles:
                assert display.fulfilled_by(tile, cell) == sorted(display.clone().lay(tile, cell))


def _advance(state, rng, moves):
    """Play up to ``moves`` random legal actions (fewer if the game ends)."""
    for _ in range(moves):
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_actions()))


@SETTINGS
@given(games(), st.integers(0, 60))
def test_clones_are_independent(game, stop):
    """Applying to a clone never changes the original, and vice versa."""
    state, _, rng = game
    _advance(state, rng, stop)
    if state.is_over:
        return
    original = state.view().to_json()
    clone = state.clone()
    assert clone.view().to_json() == original
    clone.random_playout(random.Random(stop))
    assert clone.is_over
    assert state.view().to_json() == original
    if not state.is_over:
        copy = state.clone()
        frozen = copy.view().to_json()
        state.random_playout(random.Random(stop + 1))
        assert copy.view().to_json() == frozen


@SETTINGS
@given(games(), st.integers(0, 60), st.integers(0, 2**32 - 1))
def test_view_never_exposes_pile_order(game, stop, shuffle):
    """RULES.md: "Everything is public except the order of the draw pile": two games differing
    only in the order of the undrawn tiles give identical views, identical
    determinizations, and ``determinize`` with different rngs keeps the public state."""
    state, stack, rng = game
    moves = []
    for _ in range(stop):
        if state.is_over:
            break
        action = rng.choice(state.legal_actions())
        moves.append(action)
        state.apply(action)
    order = list(state.pile_order())
    drawn = 68 - state.pile_count
    hidden = order[drawn:]
    random.Random(shuffle).shuffle(hidden)
    twin = state.game.new_state(pile=order[:drawn] + hidden, start_stack=stack)
    for action in moves:
        twin.apply(action)
    view, twin_view = state.view(), twin.view()
    assert view.to_json() == twin_view.to_json()
    assert view.unseen_tiles == tuple(sorted(order[drawn:]))
    a = view.determinize(random.Random(1))
    b = twin_view.determinize(random.Random(1))
    assert a.pile_order() == b.pile_order(), "the view must not depend on the pile order"
    c = view.determinize(random.Random(2))
    for sample in (a, c):
        assert sample.view().to_json() == view.to_json()
        assert sample.pile_order()[:drawn] == tuple(order[:drawn])
        assert sorted(sample.pile_order()[drawn:]) == sorted(order[drawn:])
        assert sample.legal_actions() == state.legal_actions()
    # Views are snapshots: playing on the state does not change an earlier view.
    frozen = view.to_json()
    if not state.is_over:
        state.apply(state.legal_actions()[-1])
        assert view.to_json() == frozen


@SETTINGS
@given(games(), st.integers(0, 60))
def test_random_playout_reaches_a_valid_result(game, stop):
    """``random_playout`` plays to an over state whose result is valid."""
    state, _, rng = game
    _advance(state, rng, stop)
    state.random_playout(rng)
    assert state.is_over
    check_invariants(state)
    result = state.result()
    n = state.game.players
    tiles = tuple(len(state.view().display(s)) for s in range(n))
    if state.game.solo:
        assert isinstance(result, SoloResult)
        assert result.tiles_taken == tiles[0] <= 22
        assert result.discs_placed == state.discs_placed(0)
        cost = sum(TILES[t].cost for t, _ in state.view().display(0).values())
        assert result.phase2 == cost + 10 * (21 - result.discs_placed)
        assert result.phase1 <= cost + 80
        assert result.total == result.phase1 + result.phase2
    else:
        assert isinstance(result, StandardResult)
        assert sorted(result.ranking) == list(range(n))
        assert result.discs_left == tuple(state.supply)
        assert result.tiles_taken == tiles
        if result.winner_by_last_disc:
            assert result.discs_left[result.winner] == 0
        else:
            assert sum(tiles) == 68 and 0 not in result.discs_left
        ranked = [result.discs_left[s] for s in result.ranking]
        assert ranked == sorted(ranked), "fewest discs left first"
