"""Points of a finished table, the bye's worth, and the standings with their tie-breaks.

Decisions and their reasons are in docs/tournaments.md ("Points", "Tie-breaks", "Byes").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .model import Bye, Entrant, Format, Game, Standing


def points(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """Points per seat of one finished table: 2 per other seat ranked below, 1 per other
    seat tied. Two players: win 2, draw 1, loss 0; three: 4/2/0; four: 6/4/2/0."""
    return tuple(
        sum(2 if other > rank else 1 if other == rank else 0 for other in ranks) - 1
        for rank in ranks
    )


def against(mine: int, theirs: int) -> int:
    """What one seat scored against one table-mate: 2 ranked above, 1 tied, 0 below."""
    return 2 if mine < theirs else 1 if mine == theirs else 0


def bye_points(fmt: Format) -> int:
    """A bye is worth beating half of a full table, rounded up: a win (2) at two-player
    tables, the middle place (2) at three, second place (4) at four."""
    return 2 * (fmt.players // 2)


@dataclass
class _Tally:
    points: int = 0
    games: int = 0
    wins: int = 0
    results: list[tuple[tuple[int, int], int]] = field(default_factory=list)
    meetings: list[tuple[int, int]] = field(default_factory=list)  # (table-mate, against)


def finished(games: Iterable[Game]) -> list[Game]:
    """The finished games in the order they were created."""
    return sorted((g for g in games if g.ranks is not None), key=lambda g: g.order)


def _tally(
    fmt: Format, entrants: Sequence[Entrant], games: Iterable[Game], byes: Iterable[Bye]
) -> dict[int, _Tally]:
    tallies = {e.entrant: _Tally() for e in entrants}
    for game in finished(games):
        ranks = game.ranks
        assert ranks is not None
        for seat, (who, score) in enumerate(zip(game.entrants, points(ranks), strict=True)):
            tally = tallies.setdefault(who, _Tally())
            tally.points += score
            tally.games += 1
            tally.wins += ranks[seat] == 1 and ranks.count(1) == 1
            tally.results.append(((game.round, game.order), score))
            tally.meetings.extend(
                (mate, against(ranks[seat], ranks[other]))
                for other, mate in enumerate(game.entrants)
                if other != seat
            )
    worth = bye_points(fmt)
    for bye in byes:
        tally = tallies.setdefault(bye.entrant, _Tally())
        tally.points += worth
        # After every game of its round (a Swiss round's games have orders of their own)
        tally.results.append(((bye.round, 1 << 62), worth))
    return tallies


def _tiebreaks(fmt: Format, tally: _Tally, tallies: dict[int, _Tally]) -> tuple[float, ...]:
    if fmt.kind == "arena":
        return (tally.points / tally.games if tally.games else 0.0,)
    buchholz = sum(tallies[mate].points for mate, _ in tally.meetings)
    sonneborn_berger = sum(tallies[mate].points * score for mate, score in tally.meetings)
    return (float(buchholz), float(sonneborn_berger))


def standings(
    fmt: Format, entrants: Sequence[Entrant], games: Iterable[Game], byes: Iterable[Bye]
) -> list[Standing]:
    """Every entrant (withdrawn ones too) by place: points, then the kind's tie-breaks,
    then wins; entrants equal in all of these share a place and are listed by number."""
    tallies = _tally(fmt, entrants, games, byes)
    rows = []
    for who, tally in tallies.items():
        results = tuple(score for _, score in sorted(tally.results, key=lambda r: r[0]))
        rows.append((who, tally, _tiebreaks(fmt, tally, tallies), results))
    rows.sort(key=lambda r: (-r[1].points, tuple(-t for t in r[2]), -r[1].wins, r[0]))
    table: list[Standing] = []
    for index, (who, tally, tiebreaks, results) in enumerate(rows):
        place = index + 1
        if table and _same(table[-1], tally, tiebreaks):
            place = table[-1].place
        table.append(
            Standing(who, place, tally.points, tally.games, tally.wins, tiebreaks, results)
        )
    return table


def _same(previous: Standing, tally: _Tally, tiebreaks: tuple[float, ...]) -> bool:
    return (previous.points, previous.tiebreaks, previous.wins) == (
        tally.points,
        tiebreaks,
        tally.wins,
    )
