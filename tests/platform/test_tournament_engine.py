"""The tournament engine (src/tabletop/tournaments): points, standings, arena and Swiss
pairings, with examples and hypothesis properties (docs/tournaments.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.tournaments import (
    Bye,
    Entrant,
    Format,
    Game,
    bye_points,
    points,
    standings,
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
