"""The tournament engine (src/tabletop/tournaments): points, standings, arena and Swiss
pairings, with examples and hypothesis properties (docs/tournaments.md)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.tournaments import (
    Apart,
    Bye,
    Entrant,
    Format,
    Game,
    Kind,
    Standing,
    SwissRound,
    arena_tables,
    bye_points,
    most_seated,
    points,
    standings,
    swiss_round,
    table_sizes,
)

SWISS2 = Format("swiss", players=2, min_players=2, rounds=5)
SWISS4 = Format("swiss", players=4, min_players=3, rounds=5)
ARENA2 = Format("arena", players=2, min_players=2, minutes=60)
ARENA4 = Format("arena", players=4, min_players=3, minutes=60)


def crowd(n: int) -> list[Entrant]:
    """n entrants, the first the strongest."""
    return [Entrant(i, 2000.0 - 10 * i) for i in range(1, n + 1)]


def game(
    order: int, entrants: tuple[int, ...], ranks: tuple[int, ...] | None, rnd: int = 0
) -> Game:
    return Game(f"g{order}", rnd, entrants, ranks, order)


# -- points -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ((1, 2), (2, 0)),
        ((2, 1), (0, 2)),
        ((1, 1), (1, 1)),
        ((1, 2, 3), (4, 2, 0)),
        ((1, 2, 3, 4), (6, 4, 2, 0)),
        ((3, 1, 4, 2), (2, 6, 0, 4)),
        ((1, 1, 3, 4), (5, 5, 2, 0)),
        ((1, 2, 2, 4), (6, 3, 3, 0)),
        ((1, 1, 1), (2, 2, 2)),
    ],
)
def test_points_by_rank(ranks: tuple[int, ...], expected: tuple[int, ...]) -> None:
    assert points(ranks) == expected


@given(st.lists(st.integers(1, 4), min_size=2, max_size=4))
def test_a_table_hands_out_two_points_per_pair_of_seats(ranks: list[int]) -> None:
    n = len(ranks)
    assert sum(points(tuple(ranks))) == n * (n - 1)


def test_a_bye_is_worth_beating_half_a_full_table() -> None:
    assert [bye_points(Format("swiss", p, 2, rounds=3)) for p in (2, 3, 4)] == [2, 2, 4]


def test_formats_refuse_what_the_engine_cannot_pair() -> None:
    with pytest.raises(ValueError):
        Format("swiss", players=4, min_players=5, rounds=3)
    with pytest.raises(ValueError):
        Format("swiss", players=1, min_players=1, rounds=3)
    with pytest.raises(ValueError):
        Format("swiss", players=2, min_players=2, rounds=16)
    with pytest.raises(ValueError):
        Format("arena", players=2, min_players=2, minutes=5)
    with pytest.raises(ValueError):
        Format("knockout", players=2, min_players=2)  # type: ignore[arg-type]


# -- standings --------------------------------------------------------------------------


def test_swiss_standings_break_ties_by_buchholz_then_sonneborn_berger() -> None:
    # Round 1: 1 beats 2, 3 beats 4. Round 2: 1 beats 3, 4 beats 2. Round 3: 2 and 3
    # draw, 4 beats 1.
    games = [
        game(0, (1, 2), (1, 2), 1),
        game(1, (3, 4), (1, 2), 1),
        game(2, (1, 3), (1, 2), 2),
        game(3, (4, 2), (1, 2), 2),
        game(4, (2, 3), (1, 1), 3),
        game(5, (1, 4), (2, 1), 3),
    ]
    table = standings(SWISS2, crowd(4), games, [])
    by = {s.entrant: s for s in table}
    assert [by[e].points for e in (1, 2, 3, 4)] == [4, 1, 3, 4]
    # Buchholz: 1 met 2 (1), 3 (3), 4 (4) = 8; 4 met 3, 2, 1 = 3 + 1 + 4 = 8: equal.
    assert by[1].tiebreaks[0] == by[4].tiebreaks[0] == 8.0
    # Sonneborn-Berger: 1 beat 2 (2*1) and 3 (2*3) = 8; 4 beat 2 (2*1) and 1 (2*4) = 10
    assert by[1].tiebreaks[1] == 8.0
    assert by[4].tiebreaks[1] == 10.0
    assert [s.entrant for s in table] == [4, 1, 3, 2]
    assert [s.place for s in table] == [1, 2, 3, 4]
    assert by[3].results == (2, 0, 1)
    assert by[1].wins == 2 and by[3].wins == 1 and by[2].wins == 0


def test_equal_standings_share_a_place_and_are_listed_by_number() -> None:
    table = standings(
        SWISS2, crowd(4), [game(0, (3, 1), (1, 1), 1), game(1, (2, 4), (1, 1), 1)], []
    )
    assert [(s.entrant, s.place) for s in table] == [(1, 1), (2, 1), (3, 1), (4, 1)]


def test_unfinished_games_count_nothing_and_withdrawn_entrants_stay() -> None:
    people = [Entrant(1, 1500.0), Entrant(2, 1500.0, active=False), Entrant(3, 1500.0)]
    games = [game(0, (1, 2), (2, 1)), game(1, (1, 3), None)]
    table = standings(ARENA2, people, games, [])
    assert [(s.entrant, s.points, s.games) for s in table] == [(2, 2, 1), (1, 0, 1), (3, 0, 0)]
    assert table[2].tiebreaks == (0.0,)


def test_arena_ties_go_to_fewer_games_then_wins() -> None:
    # 1: a win and a loss; 2: two draws; 3 and 7: one win each (each against a fresh
    # opponent, so that the opponents' points stay out of the way)
    games = [
        game(0, (1, 4), (1, 2)),
        game(1, (2, 5), (1, 1)),
        game(2, (3, 6), (1, 2)),
        game(3, (1, 7), (2, 1)),
        game(4, (2, 8), (1, 1)),
    ]
    table = standings(ARENA2, crowd(8), games, [])
    assert [(s.entrant, s.place, s.points) for s in table] == [
        (3, 1, 2),
        (7, 1, 2),
        (1, 3, 2),
        (2, 4, 2),
        (5, 5, 1),
        (8, 5, 1),
        (4, 7, 0),
        (6, 7, 0),
    ]
    assert table[0].tiebreaks == (2.0,) and table[2].tiebreaks == (1.0,)


def test_four_player_tables_score_by_rank_and_byes_add_their_worth() -> None:
    games = [game(0, (1, 2, 3, 4), (2, 1, 4, 3), 1)]
    table = standings(SWISS4, crowd(5), games, [Bye(5, 1)])
    assert {s.entrant: s.points for s in table} == {1: 4, 2: 6, 3: 0, 4: 2, 5: 4}
    by = {s.entrant: s for s in table}
    assert by[5].results == (4,) and by[5].games == 0
    assert by[2].wins == 1
    # Buchholz of 2: its three table-mates' points 4 + 0 + 2
    assert by[2].tiebreaks[0] == 6.0


# -- Swiss pairing ----------------------------------------------------------------------


def play(pairing: SwissRound, round_no: int, start: int) -> list[Game]:
    """The round's games, the first seat winning, then the second, ..."""
    return [
        game(start + i, table, tuple(range(1, len(table) + 1)), round_no)
        for i, table in enumerate(pairing.tables)
    ]


def test_swiss_round_one_meets_the_top_half_with_the_bottom_half() -> None:
    pairing = swiss_round(SWISS2, crowd(8), [], [], 1)
    assert pairing == SwissRound(((1, 5), (2, 6), (3, 7), (4, 8)), ())


def test_swiss_round_two_pairs_within_score_groups() -> None:
    people = crowd(8)
    first = play(swiss_round(SWISS2, people, [], [], 1), 1, 0)  # 1, 2, 3, 4 win
    pairing = swiss_round(SWISS2, people, first, [], 2)
    assert {frozenset(t) for t in pairing.tables} == {
        frozenset(t) for t in ((1, 3), (2, 4), (5, 7), (6, 8))
    }


def test_swiss_seats_go_first_to_who_sat_late_before() -> None:
    # Round 1: two draws, 2 seated before 1 and 3 before 4
    games = [game(0, (2, 1), (1, 1), 1), game(1, (3, 4), (1, 1), 1)]
    pairing = swiss_round(SWISS2, crowd(4), games, [], 2)
    assert pairing.tables == ((1, 3), (4, 2))


def test_swiss_avoids_a_repeat_meeting() -> None:
    # Round 1: 1-3 and 2-4 drew, so round 2's ideal tables (1-3, 2-4) are repeats
    games = [game(0, (1, 3), (1, 1), 1), game(1, (2, 4), (1, 1), 1)]
    pairing = swiss_round(SWISS2, crowd(4), games, [], 2)
    pairs = {frozenset(t) for t in pairing.tables}
    assert pairs.isdisjoint({frozenset((1, 3)), frozenset((2, 4))})
    assert len(pairs) == 2


def test_swiss_byes_go_to_the_lowest_ranked_who_had_none() -> None:
    people = crowd(5)
    assert swiss_round(SWISS2, people, [], [], 1).byes == (5,)
    later = swiss_round(SWISS2, people, [], [Bye(5, 1)], 2)
    # Everybody else has 0 points, 5 has the bye's 2: 4 is the lowest-ranked without one
    assert later.byes == (4,)


def test_swiss_four_player_tables_use_as_few_byes_as_possible() -> None:
    assert [len(t) for t in swiss_round(SWISS4, crowd(10), [], [], 1).tables] == [4, 3, 3]
    five = swiss_round(SWISS4, crowd(5), [], [], 1)
    assert [len(t) for t in five.tables] == [4] and five.byes == (5,)
    two = swiss_round(SWISS4, crowd(2), [], [], 1)
    assert two == SwissRound((), (1, 2))


def test_swiss_pairs_only_active_entrants() -> None:
    people = [*crowd(3), Entrant(4, 1000.0, active=False)]
    pairing = swiss_round(SWISS2, people, [], [], 1)
    assert 4 not in {e for t in pairing.tables for e in t} | set(pairing.byes)
    assert pairing.byes == (3,)


@pytest.mark.parametrize("apart", [frozenset({frozenset((1, 5))}), lambda a, b: (a, b) == (5, 1)])
def test_swiss_keeps_blocked_pairs_apart(apart: Apart) -> None:
    pairing = swiss_round(SWISS2, crowd(8), [], [], 1, apart=apart)
    assert all({1, 5} - set(t) for t in pairing.tables)
    assert not pairing.byes


def test_swiss_sits_out_a_blocked_pair_that_cannot_be_parted() -> None:
    pairing = swiss_round(SWISS2, crowd(2), [], [], 1, apart={frozenset((1, 2))})
    assert pairing == SwissRound((), (1, 2))


def test_swiss_ignores_its_own_round_when_asked_again() -> None:
    people = crowd(6)
    first = swiss_round(SWISS2, people, [], [], 1)
    games = play(first, 1, 0)
    assert swiss_round(SWISS2, people, games, [], 1) == first


# -- arena pairing ----------------------------------------------------------------------


def ranked(n: int) -> list[Standing]:
    """Arena standings where entrant i is placed i-th."""
    return [Standing(e, e, 100 - e, 0, 0, (0.0,), ()) for e in range(1, n + 1)]


def test_arena_pairs_neighbours_in_the_standings() -> None:
    tables = arena_tables(ARENA2, [6, 5, 4, 3, 2, 1], ranked(6), {}, 6)
    assert {frozenset(t) for t in tables} == {frozenset(t) for t in ((1, 2), (3, 4), (5, 6))}


def test_arena_seats_the_longest_waiting_first() -> None:
    tables = arena_tables(ARENA2, [2, 1], ranked(2), {}, 10)
    assert tables == [(2, 1)]


def test_arena_never_pairs_the_previous_table_again_while_others_play() -> None:
    last = {1: frozenset({2}), 2: frozenset({1})}
    tables = arena_tables(ARENA2, [1, 2, 3, 4], ranked(4), last, 10)
    assert {frozenset(t) for t in tables} == {frozenset((1, 3)), frozenset((2, 4))}
    assert arena_tables(ARENA2, [1, 2], ranked(4), last, 4) == []


def test_arena_allows_a_rematch_when_nobody_else_is_active() -> None:
    last = {1: frozenset({2}), 2: frozenset({1})}
    assert arena_tables(ARENA2, [1, 2], ranked(2), last, 2) == [(1, 2)]


def test_arena_lets_the_latest_to_become_free_wait() -> None:
    tables = arena_tables(ARENA2, [2, 3, 1], ranked(3), {}, 10)
    assert tables == [(2, 3)]


def test_arena_fills_tables_of_three_and_four() -> None:
    tables = arena_tables(ARENA4, list(range(1, 8)), ranked(7), {}, 20)
    assert sorted(len(t) for t in tables) == [3, 4]
    assert arena_tables(ARENA4, [1, 2], ranked(2), {}, 20) == []
    five = arena_tables(ARENA4, [1, 2, 3, 4, 5], ranked(5), {}, 20)
    assert [sorted(t) for t in five] == [[1, 2, 3, 4]]


def test_arena_keeps_blocked_pairs_apart_even_when_everybody_waits() -> None:
    assert arena_tables(ARENA2, [1, 2], ranked(2), {}, 2, apart={frozenset((1, 2))}) == []
    tables = arena_tables(ARENA2, [1, 2, 3], ranked(3), {}, 3, apart=lambda a, b: {a, b} == {1, 2})
    assert tables == [(1, 3)]


def test_arena_rematches_as_few_as_it_can_when_everybody_waits() -> None:
    last = {e: frozenset({1, 2, 3, 4}) - {e} for e in (1, 2, 3, 4)}
    assert arena_tables(ARENA4, [1, 2, 3, 4, 5], ranked(5), last, 7) == []
    tables = arena_tables(ARENA4, [1, 2, 3, 4, 5], ranked(5), last, 5)
    assert len(tables) == 1 and 5 in tables[0] and len(tables[0]) == 4


# -- properties -------------------------------------------------------------------------


@st.composite
def formats(draw: st.DrawFn, kind: Kind) -> Format:
    players = draw(st.integers(2, 4))
    smallest = draw(st.integers(2, players))
    if kind == "swiss":
        return Format("swiss", players, smallest, rounds=5)
    return Format("arena", players, smallest, minutes=60)


@st.composite
def histories(draw: st.DrawFn, fmt: Format, count: int, rounds: int) -> list[Game]:
    """Up to eight earlier tables among entrants 1..count, finished or not."""
    games: list[Game] = []
    if count < 2:
        return games
    for order in range(draw(st.integers(0, 8))):
        size = draw(st.integers(2, min(fmt.players, count)))
        table = tuple(draw(st.permutations(range(1, count + 1)))[:size])
        ranks = draw(st.none() | st.lists(st.integers(1, size), min_size=size, max_size=size))
        rnd = draw(st.integers(1, rounds)) if fmt.kind == "swiss" else 0
        games.append(Game(f"g{order}", rnd, table, tuple(ranks) if ranks else None, order))
    return games


@st.composite
def people(draw: st.DrawFn, count: int) -> list[Entrant]:
    return [
        Entrant(e, float(draw(st.integers(1000, 1010))), active=draw(st.integers(0, 5)) > 0)
        for e in range(1, count + 1)
    ]


@st.composite
def blocks(draw: st.DrawFn, count: int) -> frozenset[frozenset[int]]:
    if count < 2:
        return frozenset()
    pairs = st.tuples(st.integers(1, count), st.integers(1, count)).filter(lambda p: p[0] != p[1])
    return frozenset(frozenset(p) for p in draw(st.lists(pairs, max_size=3)))


def met_pairs(games: list[Game]) -> set[frozenset[int]]:
    return {frozenset((a, b)) for g in games for a in g.entrants for b in g.entrants if a != b}


def pairs_of(table: tuple[int, ...]) -> set[frozenset[int]]:
    return {frozenset((a, b)) for a in table for b in table if a != b}


def partition_exists(
    remaining: tuple[int, ...], sizes: tuple[int, ...], bad: set[frozenset[int]]
) -> bool:
    """Brute force: can ``remaining`` be split into tables of ``sizes`` free of ``bad``?"""
    if not remaining:
        return not sizes
    head, rest = remaining[0], remaining[1:]
    for size in set(sizes):
        others = list(sizes)
        others.remove(size)
        for mates in itertools.combinations(rest, size - 1):
            if pairs_of((head, *mates)) & bad:
                continue
            left = tuple(e for e in rest if e not in mates)
            if partition_exists(left, tuple(others), bad):
                return True
    return False


def most_seatable(remaining: tuple[int, ...], fmt: Format, bad: set[frozenset[int]]) -> int:
    """Brute force: the most of ``remaining`` tables free of ``bad`` can seat."""
    if len(remaining) < fmt.min_players:
        return 0
    head, rest = remaining[0], remaining[1:]
    best = most_seatable(rest, fmt, bad)
    for size in range(fmt.min_players, min(fmt.players, len(remaining)) + 1):
        for mates in itertools.combinations(rest, size - 1):
            if not pairs_of((head, *mates)) & bad:
                left = tuple(e for e in rest if e not in mates)
                best = max(best, size + most_seatable(left, fmt, bad))
    return best


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_swiss_seats_every_active_entrant_once_within_the_table_sizes(data: st.DataObject) -> None:
    fmt = data.draw(formats("swiss"))
    count = data.draw(st.integers(1, 9))
    entrants = data.draw(people(count))
    games = data.draw(histories(fmt, count, 3))
    apart = data.draw(blocks(count))
    pairing = swiss_round(fmt, entrants, games, [], 4, apart=apart)
    seated = [e for t in pairing.tables for e in t]
    active = sorted(e.entrant for e in entrants if e.active)
    assert sorted(seated + list(pairing.byes)) == active
    assert all(fmt.min_players <= len(t) <= fmt.players for t in pairing.tables)
    assert not any(pairs_of(t) & apart for t in pairing.tables)
    if not apart:
        assert len(pairing.byes) == len(active) - most_seated(len(active), fmt)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_swiss_avoids_repeat_meetings_whenever_it_can(data: st.DataObject) -> None:
    fmt = data.draw(formats("swiss"))
    count = data.draw(st.integers(2, 9))
    entrants = [Entrant(e, 1000.0 + e) for e in range(1, count + 1)]
    games = data.draw(histories(fmt, count, 3))
    sizes = table_sizes(count, fmt)
    met = met_pairs(games)
    pairing = swiss_round(fmt, entrants, games, [], 4)
    if sizes and partition_exists(tuple(range(1, count + 1)), sizes, met):
        assert not any(pairs_of(t) & met for t in pairing.tables)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_swiss_pairing_depends_on_the_history_not_its_order(data: st.DataObject) -> None:
    fmt = data.draw(formats("swiss"))
    count = data.draw(st.integers(1, 9))
    entrants = data.draw(people(count))
    games = data.draw(histories(fmt, count, 3))
    byes = [Bye(e, 1) for e in data.draw(st.sets(st.integers(1, count), max_size=2))]
    shuffled = data.draw(st.permutations(games))
    once = swiss_round(fmt, entrants, games, byes, 4)
    assert swiss_round(fmt, list(reversed(entrants)), shuffled, byes[::-1], 4) == once


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_standings_add_up_the_finished_games_and_byes(data: st.DataObject) -> None:
    fmt = data.draw(formats(data.draw(st.sampled_from(["swiss", "arena"]))))
    count = data.draw(st.integers(1, 9))
    entrants = data.draw(people(count))
    games = data.draw(histories(fmt, count, 3))
    byes = [
        Bye(e, r)
        for e, r in data.draw(st.sets(st.tuples(st.integers(1, count), st.integers(1, 3))))
    ]
    byes = [] if fmt.kind == "arena" else byes
    table = standings(fmt, entrants, games, byes)
    expected = {e.entrant: 0 for e in entrants}
    for g in games:
        if g.ranks is not None:
            for who, score in zip(g.entrants, points(g.ranks), strict=True):
                expected[who] += score
    for bye in byes:
        expected[bye.entrant] += bye_points(fmt)
    assert {s.entrant: s.points for s in table} == expected
    assert all(sum(s.results) == s.points for s in table)
    assert [s.points for s in table] == sorted((s.points for s in table), reverse=True)
    for index, line in enumerate(table):
        assert line.place == index + 1 or line.place == table[index - 1].place
    assert standings(fmt, entrants[::-1], games[::-1], byes[::-1]) == table


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_arena_seats_as_many_as_the_rules_allow(data: st.DataObject) -> None:
    fmt = data.draw(formats("arena"))
    count = data.draw(st.integers(1, 8))
    waiting = data.draw(st.permutations(range(1, count + 1)))
    previous = data.draw(histories(fmt, count, 1))
    last = {
        who: frozenset(g.entrants) - {who} for g in previous for who in g.entrants
    }  # each one's latest table
    apart = data.draw(blocks(count))
    everybody_waits = data.draw(st.booleans())
    active = count if everybody_waits else count + 3
    tables = arena_tables(fmt, waiting, ranked(count), last, active, apart=apart)
    seated = [e for t in tables for e in t]
    assert len(seated) == len(set(seated)) and set(seated) <= set(waiting)
    assert all(fmt.min_players <= len(t) <= fmt.players for t in tables)
    assert not any(pairs_of(t) & apart for t in tables)
    rematches = {frozenset((a, b)) for a, mates in last.items() for b in mates}
    if not everybody_waits:
        assert not any(pairs_of(t) & rematches for t in tables)
    bad = set(apart) if everybody_waits else set(apart) | rematches
    assert len(seated) == most_seatable(tuple(range(1, count + 1)), fmt, bad)
    assert arena_tables(fmt, waiting, ranked(count), last, active, apart=apart) == tables


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_whole_swiss_gives_nobody_a_second_bye_while_another_had_none(
    data: st.DataObject,
) -> None:
    fmt = data.draw(formats("swiss"))
    count = data.draw(st.integers(1, 11))
    entrants = [Entrant(e, float(data.draw(st.integers(1000, 1003)))) for e in range(1, count + 1)]
    games: list[Game] = []
    byes: list[Bye] = []
    for round_no in range(1, 6):
        pairing = swiss_round(fmt, entrants, games, byes, round_no)
        had = {b.entrant for b in byes}
        if any(e in had for e in pairing.byes):
            assert {e.entrant for e in entrants} <= had | set(pairing.byes)
        byes += [Bye(e, round_no) for e in pairing.byes]
        for table in pairing.tables:
            ranks = data.draw(st.permutations(range(1, len(table) + 1)))
            games.append(game(len(games), table, tuple(ranks), round_no))
    assert standings(fmt, entrants, games, byes) == standings(fmt, entrants, games[::-1], byes)
