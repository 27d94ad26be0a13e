"""Property tests over many random NMBR 9 games (1-4 players, some with removed cards).

Hypothesis draws a game and a way of playing it (uniformly random placements, or a
policy that mostly climbs to the highest level it can, to build tall boards), plays
some rounds and part of the next, and checks the position against the independent
reference in ``nmbr9_support`` (brute force, written from RULES.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.games.nmbr9.rules import (
    FULL_DECK,
    Board,
    Game,
    IllegalActionError,
    Place,
    State,
    parse_action,
)

from nmbr9_support import (
    DIGITS,
    ROTATIONS,
    ReferenceBoard,
    as_tiles,
    board_snapshot,
    bounding_box,
    canonical,
    footprint,
    reference_legal,
    reference_score,
    replay,
    snapshot,
)

SEEDS = st.integers(0, 2**32 - 1)
PLAYERS = st.integers(1, 4)
SEVERAL_PLAYERS = st.integers(2, 4)
POLICIES = ("random", "climb")


@dataclass
class Position:
    """A state reached by a logged sequence of ``apply`` and ``take_back`` calls."""

    state: State
    seed: int
    rng: random.Random
    log: list[tuple[str, int, Place | None]] = field(default_factory=list)

    def pick(self, seat: int, policy: str) -> Place:
        options = self.state.boards[seat].legal(self.state.card)
        if policy == "climb" and self.rng.random() < 0.85:
            top = max(level for _, level in options)
            options = [(p, level) for p, level in options if level == top]
        return self.rng.choice(options)[0]

    def place(self, seat: int, policy: str) -> None:
        action = self.pick(seat, policy)
        self.state.apply(action, seat)
        self.log.append(("apply", seat, action))
        # now and then change one's mind before the round resolves
        if self.state.placed[seat] is not None and self.rng.random() < 0.1:
            self.state.take_back(seat)
            self.log.append(("take_back", seat, None))
            action = self.pick(seat, policy)
            self.state.apply(action, seat)
            self.log.append(("apply", seat, action))


@st.composite
def positions(draw, players=PLAYERS) -> Position:
    """A game some rounds in, with some seats having placed in the current round."""
    n = draw(players)
    remove = draw(st.sampled_from([0, 0, 0, None, 1, 3, 8, 15]))
    seed = draw(SEEDS)
    state = Game(players=n, remove=remove).new_state(seed=seed)
    position = Position(state, seed, random.Random(draw(SEEDS)))
    policy = draw(st.sampled_from(POLICIES))
    # how far to play, leaning to later rounds (hypothesis's own integers favour
    # small numbers)
    rounds = max(position.rng.randint(0, state.rounds) for _ in range(2))
    for _ in range(rounds):
        for seat in position.rng.sample(range(n), n):
            position.place(seat, policy)
    if not state.is_over:
        for seat in position.rng.sample(range(n), draw(st.integers(0, n - 1))):
            position.place(seat, policy)
    return position


def replay_log(state: State, log) -> State:
    for what, seat, action in log:
        if what == "apply":
            state.apply(action, seat)
        else:
            state.take_back(seat)
    return state


def seats_to_check(state: State, rng: random.Random, most: int = 2) -> list[int]:
    seats = list(state.acting_seats()) or list(range(state.game.players))
    return rng.sample(seats, min(most, len(seats)))


# -- placements against the reference ------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(positions())
def test_every_listed_placement_is_legal_and_every_legal_placement_is_listed(position):
    state = position.state
    for seat in seats_to_check(state, position.rng):
        board = state.boards[seat]
        digits = [state.card] if state.card is not None else []
        digits.append(position.rng.choice(DIGITS))  # and another digit, on the same board
        for digit in digits:
            listed = board.legal(digit)
            as_set = {(p.rotation, p.x, p.y, level) for p, level in listed}
            assert len(as_set) == len(listed), "a placement is listed twice"
            covers = {(footprint(digit, p.rotation, p.x, p.y), level) for p, level in listed}
            assert len(covers) == len(listed), "the same squares are listed twice"
            assert as_set == reference_legal(as_tiles(board), digit)
            assert any(level == 0 for _, level in listed), "no legal placement on level 0"
        if seat in state.acting_seats():
            actions = state.legal_actions(seat)
            assert actions == [p for p, _ in board.legal(state.card)]
            assert state.view(seat).legal_with_levels() == board.legal(state.card)
            for action in position.rng.sample(actions, min(10, len(actions))):
                level = state.level_of(action, seat)
                expected = ReferenceBoard(as_tiles(board)).level(state.card, *action)
                assert level == expected


@settings(max_examples=5, deadline=None)
@given(st.integers(1, 2), SEEDS, st.sampled_from(POLICIES))
def test_listed_placements_equal_the_reference_at_every_position_of_a_game(players, seed, policy):
    state = Game(players=players).new_state(seed=seed)
    position = Position(state, seed, random.Random(seed))
    while not state.is_over:
        for seat in state.acting_seats():
            board = state.boards[seat]
            listed = {(p.rotation, p.x, p.y, level) for p, level in board.legal(state.card)}
            assert listed == reference_legal(as_tiles(board), state.card)
            position.place(seat, policy)


def candidates(board: Board, rng: random.Random, count: int, digits=DIGITS):
    """Random ``(digit, rotation, x, y)`` around the tiles, legal or not, half of them
    one square or one turn away from a listed placement (where the rules bite)."""
    if board.tiles:
        x0, y0, x1, y1 = bounding_box(as_tiles(board))
    else:
        x0 = y0 = x1 = y1 = 0
    out = []
    for _ in range(count):
        digit = rng.choice(digits)
        listed = board.legal(digit)
        if rng.random() < 0.5:
            place, _ = rng.choice(listed)
            dx, dy, dr = rng.choice([(0, 0, 0), (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0)])
            dr = rng.choice([0, 0, 1, 2, 3])
            out.append((digit, (place.rotation + dr) % 4, place.x + dx, place.y + dy))
        else:
            x, y = rng.randint(x0 - 5, x1 + 2), rng.randint(y0 - 5, y1 + 2)
            out.append((digit, rng.choice(ROTATIONS), x, y))
    return out


@settings(max_examples=60, deadline=None)
@given(positions())
def test_check_agrees_with_the_reference_on_any_candidate(position):
    state, rng = position.state, position.rng
    for seat in seats_to_check(state, rng):
        board = state.boards[seat]
        reference = ReferenceBoard(as_tiles(board))
        before = board_snapshot(board)
        for digit, rotation, x, y in candidates(board, rng, 150):
            expected = reference.level(digit, rotation, x, y)
            try:
                level = board.check(digit, rotation, x, y)
            except IllegalActionError as error:
                assert expected is None, f"refused {digit} r{rotation}@{x},{y}: {error}"
                assert str(Place(rotation, x, y)) in str(error)
            else:
                assert level == expected, (digit, rotation, x, y)
        assert board_snapshot(board) == before


@settings(max_examples=40, deadline=None)
@given(positions())
def test_apply_lays_what_the_reference_allows_and_refuses_the_rest(position):
    state, rng = position.state, position.rng
    if state.is_over:
        return
    seat = rng.choice(state.acting_seats())
    board = state.boards[seat]
    reference = ReferenceBoard(as_tiles(board))
    for digit, rotation, x, y in candidates(board, rng, 30, digits=[state.card]):
        trial = state.clone()
        before = snapshot(trial)
        expected = reference.level(digit, rotation, x, y)
        try:
            placed = trial.apply(Place(rotation, x, y), seat)
        except IllegalActionError:
            assert expected is None
            assert snapshot(trial) == before
        else:
            assert expected is not None
            assert placed.level == expected
            assert (placed.digit, placed.x, placed.y) == (digit, x, y)
            assert placed.rotation == canonical(digit, rotation)
            assert set(trial.boards[seat].squares) == set(board.squares) | footprint(
                digit, rotation, x, y
            )


# -- scores, clones, playouts --------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(positions())
def test_scores_equal_the_sum_over_tiles_of_digit_times_level(position):
    state = position.state
    for seat, board in enumerate(state.boards):
        tiles = as_tiles(board)
        assert replay(tiles) == [t[4] for t in tiles]  # every tile was legal where it lies
        assert board.score == state.score(seat) == reference_score(tiles)
        assert board.score == sum(t.digit * t.level for t in board.tiles)
    for viewer in [None, *range(state.game.players)]:
        view = state.view(viewer)
        for seat, board in enumerate(view.boards):
            assert view.score(seat) == board.score == reference_score(as_tiles(board))
    if state.is_over:
        assert state.result().scores == tuple(b.score for b in state.boards)


@settings(max_examples=40, deadline=None)
@given(positions(), SEEDS)
def test_a_clone_is_independent(position, seed):
    state = position.state
    original = snapshot(state)
    copy = state.clone()
    assert snapshot(copy) == original
    copy.random_playout(random.Random(seed))
    assert copy.is_over
    assert snapshot(state) == original
    played = snapshot(copy)
    if not state.is_over:
        seat = state.acting_seats()[0]
        state.apply(state.legal_actions(seat)[0], seat)
        if state.placed[seat] is not None:
            state.take_back(seat)
    assert snapshot(copy) == played
    # boards too
    board = copy.boards[0]
    twin = board.clone()
    before = board_snapshot(board)
    twin.place(7, *twin.legal(7)[-1][0])
    assert len(twin.tiles) == len(board.tiles) + 1
    assert board_snapshot(board) == before


@settings(max_examples=40, deadline=None)
@given(positions(), SEEDS)
def test_random_playout_finishes_legal_games(position, seed):
    state = position.state
    state.random_playout(random.Random(seed))
    assert state.is_over and state.round == state.rounds and state.acting_seats() == ()
    deck = state.deck_order()
    assert state.turned() == deck[: state.rounds]
    for board in state.boards:
        tiles = as_tiles(board)
        assert [t[0] for t in tiles] == list(deck[: state.rounds])
        assert replay(tiles) == [t[4] for t in tiles]
        assert board.score == reference_score(tiles)
    result = state.result()
    assert result.scores == tuple(reference_score(as_tiles(b)) for b in state.boards)
    assert [result.scores[s] for s in result.ranking] == sorted(result.scores, reverse=True)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 4), st.sampled_from([0, None, 6]), SEEDS, SEEDS)
def test_random_playout_from_the_start_finishes_legal_games(players, remove, seed, play):
    state = Game(players=players, remove=remove).new_state(seed=seed)
    state.random_playout(random.Random(play))
    assert state.is_over
    for board in state.boards:
        tiles = as_tiles(board)
        assert len(tiles) == state.rounds
        assert replay(tiles) == [t[4] for t in tiles]


# -- views: what a seat may know ------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(positions(players=SEVERAL_PLAYERS))
def test_a_view_never_shows_another_seats_pending_placement(position):
    state = position.state
    players = state.game.players
    for seat in range(players):
        pending = state.placed[seat]
        for viewer in [None, *range(players)]:
            view = state.view(viewer)
            tiles = view.boards[seat].tiles
            shown = view.to_json()["boards"][seat]["tiles"]
            if pending is None or viewer == seat:
                assert tiles == state.boards[seat].tiles
                assert len(shown) == len(tiles)
            else:
                assert tiles == state.boards[seat].tiles[:-1]
                assert pending not in tiles
                assert pending._asdict() not in shown
                assert view.score(seat) == state.score(seat) - pending.digit * pending.level
            if viewer == seat:
                assert view.pending == pending
            else:
                assert view.pending == (None if viewer is None else state.placed[viewer])


@settings(max_examples=40, deadline=None)
@given(positions(players=SEVERAL_PLAYERS))
def test_another_seats_pending_placement_does_not_change_a_view(position):
    state, rng = position.state, position.rng
    placed = [s for s in range(state.game.players) if state.placed[s] is not None]
    if state.is_over or not placed:
        return
    seat = rng.choice(placed)
    others = [v for v in [None, *range(state.game.players)] if v != seat]
    before = {v: state.view(v).to_json() for v in others}
    first = state.take_back(seat)
    actions = [a for a in state.legal_actions(seat) if a != first.action]
    if not actions:
        return
    state.apply(rng.choice(actions), seat)
    assert {v: state.view(v).to_json() for v in others} == before


@settings(max_examples=50, deadline=None)
@given(positions(), SEEDS)
def test_a_view_holds_no_deck_order(position, seed):
    state = position.state
    deck = state.deck_order()
    turned = state.turned()
    rest = list(deck[len(turned) :])
    other_rest = rest.copy()
    random.Random(seed).shuffle(other_rest)
    if other_rest == rest:
        other_rest.reverse()
    # the same cards turned, the same actions, a different order of the rest
    game = Game(players=state.game.players, remove=state.removed)
    twin = replay_log(game.new_state(deck=[*turned, *other_rest]), position.log)
    assert twin.turned() == turned
    remaining_is_sorted = rest == sorted(rest)
    for viewer in [None, *range(state.game.players)]:
        view = state.view(viewer)
        assert view.to_json() == twin.view(viewer).to_json()
        assert view.unturned == tuple(sorted(rest))
        values = [getattr(view, name) for name in type(view).__slots__]
        values += list(view.to_json().values())
        for value in values:
            if isinstance(value, list | tuple) and not remaining_is_sorted and rest:
                assert list(value) != rest, "the view holds the remaining order"
                assert list(value) != list(deck), "the view holds the deck order"


@settings(max_examples=40, deadline=None)
@given(positions(), SEEDS)
def test_determinize_keeps_the_turned_cards_and_the_multiset(position, seed):
    state = position.state
    before = snapshot(state)
    for viewer in [None, *range(state.game.players)]:
        view = state.view(viewer)
        sample = view.determinize(random.Random(seed))
        assert sample.turned() == state.turned() == view.turned
        assert sample.unturned() == state.unturned() == view.unturned
        assert sorted(sample.deck_order()) == list(FULL_DECK)
        assert (sample.round, sample.rounds, sample.card, sample.is_over) == (
            state.round,
            state.rounds,
            state.card,
            state.is_over,
        )
        assert [b.tiles for b in sample.boards] == [b.tiles for b in view.boards]
        for seat in range(state.game.players):
            expected = view.pending if seat == viewer else None
            assert sample.placed[seat] == expected
        if viewer is not None and not state.is_over:
            assert sample.legal_actions(viewer) == view.legal_actions()
        sample.random_playout(random.Random(seed))
        assert sample.is_over
    assert snapshot(state) == before  # views and their samples are copies


@settings(max_examples=10, deadline=None)
@given(positions(players=st.integers(1, 3)), SEEDS)
def test_determinize_draws_different_orders(position, seed):
    state = position.state
    rest = state.unturned()
    if len(set(rest)) < 3:
        return
    view = state.view(None)
    orders = {view.determinize(random.Random(seed + i)).deck_order() for i in range(10)}
    assert len(orders) > 1
    assert all(order[: len(state.turned())] == state.turned() for order in orders)


# -- notation --------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 3), st.integers(-(10**9) + 1, 10**9 - 1), st.integers(-(10**9) + 1, 10**9 - 1)
)
def test_parse_action_reads_what_str_writes(rotation, x, y):
    place = Place(rotation, x, y)
    assert parse_action(str(place)) == place
    assert parse_action(f" R{rotation} @ ({x}, {y}) ") == place
