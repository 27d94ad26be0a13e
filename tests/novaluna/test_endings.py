"""End of the game, ranking and the solo game (RULES.md "End of the game", "Solo game")."""

from __future__ import annotations

import random

import pytest

from tabletop.games.novaluna.rules import (
    END_PHASE,
    REFILL,
    TILES,
    Game,
    IllegalActionError,
    Place,
    SoloResult,
    StandardResult,
    State,
)

from novaluna_support import (
    greedy_action,
    layout_of,
    make_pile,
    play,
    reference_fulfilled,
    snapshot,
    take_next,
)


class Markers:
    """Independent bookkeeping of the moon track: each marker's total time (from the
    costs of the tiles taken) and its height in a stack (later arrival = higher)."""

    def __init__(self, state: State, start_stack: list[int]) -> None:
        self.time = [0] * state.game.players
        self.arrival = {seat: height for height, seat in enumerate(start_stack)}
        self.clock = len(start_stack)

    def apply(self, state: State, action) -> list:
        seat = state.current_seat
        assert seat == self.next_to_move()[0], "the rearmost marker (top of stack) moves"
        cost = TILES[state.wheel[action.space]].cost if isinstance(action, Place) else None
        got = state.apply(action)
        if cost is not None:
            self.time[seat] += cost
            self.arrival[seat] = self.clock
            self.clock += 1
        return got

    def next_to_move(self) -> list[int]:
        """Seats in the order they would move: further back first, then higher in stack."""
        return sorted(range(len(self.time)), key=lambda s: (self.time[s], -self.arrival[s]))

    def expected_ranking(self, discs_left) -> list[int]:
        order = self.next_to_move()
        return sorted(order, key=lambda s: (discs_left[s], order.index(s)))


def fewest_covers(state: State) -> Place:
    places = [a for a in state.legal_actions() if isinstance(a, Place)]
    return min(places, key=lambda a: (len(state.preview(a)), a.space, a.x, a.y))


def check_standard_result(state: State, markers: Markers) -> StandardResult:
    result = state.result()
    n = state.game.players
    assert isinstance(result, StandardResult)
    assert sorted(result.ranking) == list(range(n))
    assert result.discs_left == tuple(state.supply)
    assert result.tiles_taken == tuple(len(state.view().display(s)) for s in range(n))
    assert list(result.ranking) == markers.expected_ranking(result.discs_left)
    assert result.winner == result.ranking[0]
    return result


# -- 2–4 players ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_last_disc_wins_at_once(players):
    """RULES.md: "The moment a player covers a task with their **last disc**, the game ends and
    that player wins." Played with a greedy policy that covers as much as it can."""
    wins = 0
    for seed in range(10):
        stack = list(range(players))
        random.Random(seed).shuffle(stack)
        state = Game(players=players).new_state(seed=seed, start_stack=stack)
        markers = Markers(state, stack)
        rng = random.Random(seed)
        while not state.is_over:
            mover = state.current_seat
            markers.apply(state, greedy_action(state, rng))
            if state.supply[mover] == 0:
                break
        result = check_standard_result(state, markers)
        if not result.winner_by_last_disc:
            assert min(state.supply) > 0
            continue
        wins += 1
        assert state.supply[mover] == 0
        assert state.is_over, "the game ends the moment the last disc is placed"
        assert state.legal_actions() == []
        assert result.winner == mover and result.discs_left[mover] == 0
        assert all(result.discs_left[s] > 0 for s in range(players) if s != mover)
        if wins == 3:
            return
    pytest.fail(f"only {wins} games ended by a last disc")


def test_last_disc_ends_game_even_when_more_tasks_are_fulfilled():
    """RULES.md: "If the supply runs out, the game ends at once": with one disc left, a placement
    fulfilling two tasks covers one, and the game is over (white-box: the supply is set
    to 1 to reach this position quickly)."""
    cyan, blue = 46, 30  # "1 blue" on the cyan, "1 cyan" on the blue; both cost 5
    state = Game(players=2).new_state(pile=make_pile([cyan, 17, blue]), start_stack=[1, 0])
    play(state, "1@0,0")  # seat 0: cyan (time 5)
    play(state, "2@0,0")  # seat 1: red 7-cost (time 7)
    assert state.current_seat == 0
    assert state.preview(Place(3, 1, 0)) == [(0, 0, 1), (1, 0, 1)]
    state.supply[0] = 1
    assert state.apply(Place(3, 1, 0)) == [(0, 0, 1)]
    assert state.supply == [0, 20]
    assert state.is_over and state.legal_actions() == []
    result = state.result()
    assert result.winner_by_last_disc
    assert result.ranking == (0, 1)
    assert result.discs_left == (0, 20)
    assert result.tiles_taken == (2, 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_exhaustion_end_when_wheel_and_pile_empty(players):
    """RULES.md: "If, at the start of a player's turn, the selection track is empty and the draw
    pile is empty (all 68 tiles have been taken), the game ends." The players avoid
    covering tasks, so nobody runs out of discs first."""
    stack = list(reversed(range(players)))
    state = Game(players=players).new_state(seed=players, start_stack=stack)
    markers = Markers(state, stack)
    while state.pile_count or state.on_wheel > 1:
        assert not state.is_over
        markers.apply(state, fewest_covers(state))
    assert not state.is_over and state.on_wheel == 1 and state.pile_count == 0
    markers.apply(state, fewest_covers(state))
    assert state.is_over and state.legal_actions() == []
    result = check_standard_result(state, markers)
    assert not result.winner_by_last_disc
    assert sum(result.tiles_taken) == 68
    assert min(result.discs_left) > 0
    if len(set(result.discs_left)) == 1:
        assert list(result.ranking) == markers.next_to_move()


def test_ranking_by_discs_left_with_tie_break_by_next_to_move():
    """Exhaustion: "Players rank by discs left in their supply, fewest first. **Ties**:
    the tied player who would have taken a turn sooner ... ranks higher (marker further
    back; on the same space, higher in the stack)." Random games until both kinds of
    tie have been checked."""
    ties_apart = ties_same_space = distinct = 0
    for seed in range(200):
        players = 3 + seed % 2
        stack = list(range(players))
        random.Random(-seed).shuffle(stack)
        state = Game(players=players).new_state(seed=seed, start_stack=stack)
        markers = Markers(state, stack)
        rng = random.Random(seed)
        while not state.is_over:
            markers.apply(state, rng.choice(state.legal_actions()))
        result = check_standard_result(state, markers)
        if result.winner_by_last_disc:
            continue
        left = result.discs_left
        pairs = [(a, b) for a in range(players) for b in range(a + 1, players)]
        distinct += any(left[a] != left[b] for a, b in pairs)
        for a, b in pairs:
            if left[a] == left[b]:
                same = markers.time[a] == markers.time[b]
                ties_same_space += same
                ties_apart += not same
        if ties_apart and ties_same_space and distinct >= 3:
            return
    pytest.fail(f"not enough ties seen: {ties_apart=} {ties_same_space=} {distinct=}")


def test_result_only_when_over():
    """The result exists once the game is over."""
    state = Game(players=2).new_state(seed=1)
    with pytest.raises(ValueError):
        state.result()
    state.random_playout(random.Random(1))
    assert isinstance(state.result(), StandardResult)


# -- solo ---------------------------------------------------------------------------------

# Phase 1 of a hand-built solo game: six tiles, eight discs (each verified by hand):
#   (0, 0)   cyan 35 (no task)
#   (-1, 0)  blue 29  "3 cyan" "1 cyan"            -> both (cyan group 35-46-48)
#   (-1, -1) cyan 46  "2 red" "1 blue"             -> both (reds 7-9, blue 29)
#   (0, -1)  cyan 48  "2 cyan" "2 red" "2 yellow"  -> cyan, red
#   (-1, -2) red 7    "1 of each colour" "3 cyan"  -> 3 cyan
#   (0, -2)  red 9    "1 cyan + 1 red" "1 blue + 1 yellow" -> the first
PHASE1 = [(35, (0, 0)), (29, (-1, 0)), (46, (-1, -1)), (48, (0, -1)), (7, (-1, -2)), (9, (0, -2))]
PHASE1_COVERS = [
    [],
    [(-1, 0, 1)],
    [(-1, -1, 1)],
    [(-1, 0, 0), (0, -1, 0)],
    [(-1, -2, 1)],
    [(-1, -1, 0), (0, -2, 0), (0, -1, 1)],
]
PHASE1_COST = 1 + 5 + 5 + 5 + 3 + 4
# A line down from (0, 0), colours never repeating next to each other: no task in it
# can be fulfilled (each needs 4 of a colour, the tiles without tasks need nothing).
LINE = [2, 19, 53, 3, 20, 54, 36, 1, 37, 18, 52]
LINE_COST = 2 * 8 + 1 * 3


def test_hand_built_data_is_what_the_comments_say():
    """The tiles of the hand-built solo games have the colours, costs and tasks used."""
    assert sum(TILES[t].cost for t, _ in PHASE1) == PHASE1_COST == 23
    assert sum(TILES[t].cost for t in LINE) == LINE_COST == 19
    colours = [TILES[t].color for t in LINE]
    assert all(a != b for a, b in zip(colours, colours[1:], strict=False))
    assert colours[0] != "cyan"  # (0, 1) touches cyan 35
    assert all(sum(task.values()) == 4 for t in LINE for task in TILES[t].tasks)
    layout = dict((cell, t) for t, cell in PHASE1)
    assert len(reference_fulfilled(layout)) == 8
    layout.update({(0, y): t for y, t in enumerate(LINE, start=1)})
    assert len(reference_fulfilled(layout)) == 8


def solo_game_a() -> State:
    """Phase 1 tiles on spaces 1–6, line tiles on 7–11, then the draw pile."""
    pile = make_pile(dict(enumerate([t for t, _ in PHASE1] + LINE[:5], start=1)), LINE[5:])
    return Game(players=1).new_state(pile=pile)


def test_solo_end_phase_only_once_8_discs_placed():
    """RULES.md: "Once 8 discs are placed the player may end phase 1 at the start of any turn"."""
    state = solo_game_a()
    for (_tile, (x, y)), covers in zip(PHASE1, PHASE1_COVERS, strict=True):
        assert END_PHASE not in state.legal_actions()
        before = snapshot(state)
        with pytest.raises(IllegalActionError, match="once 8 discs are placed"):
            state.apply(END_PHASE)
        assert snapshot(state) == before
        assert take_next(state, x, y) == covers
    assert state.discs_placed(0) == 8 and state.supply == [13]
    assert state.legal_actions()[0] == END_PHASE
    assert state.phase == 1


def test_solo_seven_discs_do_not_allow_ending_phase_1():
    """RULES.md: "Once 8 discs are placed": with exactly 7 discs END_PHASE is refused. Red 14
    ("2 cyan" "2 red" "2 blue") next to cyan 46 takes the 6th and 7th discs."""
    tiles = [t for t, _ in PHASE1[:5]] + [14, 9]
    state = Game(players=1).new_state(pile=make_pile(tiles))
    for _tile, (x, y) in PHASE1[:5]:
        take_next(state, x, y)
    assert state.discs_placed(0) == 5
    assert sorted(take_next(state, -2, -1)) == [(-2, -1, 0), (-1, -1, 0)]
    assert state.discs_placed(0) == 7
    assert END_PHASE not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="7 are"):
        state.apply(END_PHASE)
    assert sorted(take_next(state, 0, -2)) == [(0, -2, 0), (0, -1, 1)]
    assert state.discs_placed(0) == 9
    assert END_PHASE in state.legal_actions()


def test_solo_hand_built_game_ending_phase_1_early():
    """Phase 1 ended by choice after 8 discs: phase 1 = 23 (display cost, no missing
    disc). Between the phases the empty spaces are refilled from the space after the
    meeple; the meeple's space stays empty and the remaining tiles stay. Phase 2 ends
    with the wheel empty: phase 2 = 23 + 19 (all tiles) + 10 * 13 (discs not placed)."""
    state = solo_game_a()
    for (_tile, (x, y)), covers in zip(PHASE1, PHASE1_COVERS, strict=True):
        assert take_next(state, x, y) == covers
    assert state.meeple == 6
    wheel_before = list(state.wheel)
    assert wheel_before[7:] == LINE[:5]
    assert state.apply(END_PHASE) == []
    assert state.phase == 2
    # Spaces 7–11 keep their tiles; 0–5 get the next pile tiles in order; 6 stays empty.
    assert list(state.wheel) == LINE[5:] + [0] + LINE[:5]
    assert state.legal_actions() and all(isinstance(a, Place) for a in state.legal_actions())
    for y in range(1, 12):
        assert take_next(state, 0, y) == []
    assert state.is_over
    result = state.result()
    assert isinstance(result, SoloResult)
    assert result.phase1 == 23
    assert result.phase2 == 23 + 19 + 10 * (21 - 8) == 172
    assert result.total == 195
    assert result.discs_placed == 8
    assert result.tiles_taken == 17


def test_solo_discs_after_the_8th_come_from_the_13_stack():
    """**Decision:** "tasks fulfilled after the 8th disc take discs from the 13-stack at
    once; both stacks are one supply of 21 whose first 8 discs make phase 1's goal."
    The 9th disc in phase 1 does not lower the phase 1 score below the display cost."""
    blue = 30  # "2 yellow" "1 cyan", cost 5
    tiles = [t for t, _ in PHASE1] + [blue]
    state = Game(players=1).new_state(pile=make_pile(tiles))
    for _tile, (x, y) in PHASE1:
        take_next(state, x, y)
    assert state.supply == [13]
    assert take_next(state, 1, -1) == [(1, -1, 1)]  # next to cyan 48
    assert state.supply == [12] and state.discs_placed(0) == 9
    state.apply(END_PHASE)
    state.random_playout(random.Random(0))
    result = state.result()
    assert result.phase1 == 23 + 5
    placed = result.discs_placed
    assert result.phase2 == state.scores_so_far() + 10 * (21 - placed)


def solo_game_b() -> tuple[State, list[int], list[int]]:
    """A line of 11 tiles in phase 1 (2 discs), 11 more in phase 2 (no disc)."""
    phase1 = [46, 29, 2, 53, 19, 3, 54, 20, 36, 1, 52]
    phase2 = [24, 7, 41, 58, 18, 37, 10, 61, 35, 25, 43]
    return Game(players=1).new_state(pile=make_pile(phase1, phase2)), phase1, phase2


def test_solo_hand_built_game_phase_1_ends_when_wheel_empties():
    """RULES.md: "Phase 1 also ends when the wheel is empty." Phase 1 = 26 + 10 * (8 - 2) = 86;
    then "refill every empty space" (11 tiles, the meeple's space 11 stays empty);
    phase 2 (no refill) ends with the wheel empty: 26 + 32 + 10 * (21 - 2) = 248."""
    state, phase1, phase2 = solo_game_b()
    assert sum(TILES[t].cost for t in phase1) == 26
    assert sum(TILES[t].cost for t in phase2) == 32
    for x in range(11):
        assert state.phase == 1
        if state.on_wheel <= 2:
            assert REFILL not in state.legal_actions()
            with pytest.raises(IllegalActionError, match="no refill during a solo phase"):
                state.apply(REFILL)
        covers = take_next(state, x, 0)
        assert covers == ([(0, 0, 1), (1, 0, 1)] if x == 1 else [])
    # The wheel emptied: phase 2 began at once, with a full refill.
    assert state.phase == 2 and not state.is_over
    assert state.meeple == 11
    assert list(state.wheel) == phase2 + [0]
    assert state.pile_count == 68 - 22
    for x in range(11, 22):
        assert END_PHASE not in state.legal_actions()
        assert REFILL not in state.legal_actions()
        if state.on_wheel <= 2:
            with pytest.raises(IllegalActionError, match="no refill during a solo phase"):
                state.apply(REFILL)
        with pytest.raises(IllegalActionError, match="phase 1 has already ended"):
            state.apply(END_PHASE)
        assert take_next(state, x, 0) == []
    assert state.is_over and state.on_wheel == 0
    assert len(reference_fulfilled(layout_of(state.displays[0]))) == 2
    result = state.result()
    assert (result.phase1, result.phase2, result.total) == (86, 248, 334)
    assert (result.discs_placed, result.tiles_taken) == (2, 22)


def test_solo_game_ends_when_all_21_discs_are_placed():
    """RULES.md: "Phase 2 ends when all 21 discs are placed or the wheel is empty": a greedy game
    placing its 21st disc ends with tiles still on the wheel; phase 2 = display cost."""
    state = Game(players=1).new_state(seed=0)
    rng = random.Random(0)
    while not state.is_over:
        assert state.discs_placed(0) < 21
        state.apply(greedy_action(state, rng))
    assert state.discs_placed(0) == 21 and state.supply == [0]
    assert state.on_wheel > 0 and state.phase == 2
    result = state.result()
    assert result.discs_placed == 21
    assert result.phase2 == state.scores_so_far()
    assert result.total == result.phase1 + result.phase2


def test_solo_result_formula_on_random_games():
    """Phase 1 = display cost at the end of phase 1 + 10 per missing of the first 8
    discs; phase 2 = cost of all tiles + 10 per disc of 21 not placed."""
    for seed in range(30):
        state = Game(players=1).new_state(seed=seed)
        rng = random.Random(seed)
        phase1 = None
        while not state.is_over:
            action = rng.choice(state.legal_actions())
            state.apply(action)
            if phase1 is None and (state.phase == 2 or state.is_over):
                tiles = state.view().display(0)
                # Phase 1 ends before any phase 2 tile is taken.
                cost = sum(TILES[t].cost for t, _ in tiles.values())
                phase1 = cost + 10 * max(0, 8 - state.discs_placed(0))
        result = state.result()
        tiles = state.view().display(0)
        assert result.tiles_taken == len(tiles) <= 22
        assert result.discs_placed == state.discs_placed(0)
        assert result.phase1 == phase1
        assert result.phase2 == sum(TILES[t].cost for t, _ in tiles.values()) + 10 * (
            21 - result.discs_placed
        )
        assert result.total == result.phase1 + result.phase2
