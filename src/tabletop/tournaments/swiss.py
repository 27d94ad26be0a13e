"""Swiss pairing: tables by score group, no repeat meetings where avoidable, byes.

docs/tournaments.md ("Swiss pairing", "Byes") is the rule as a player reads it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations, groupby

from .model import Apart, Bye, Entrant, Format, Game, SwissRound, apart_predicate
from .scoring import standings
from .seating import SEARCH_BUDGET, most_seated, seat, table_sizes

#: Other choices of who sits out tried when the first leaves no seating without a
#: repeat meeting (the lowest-ranked keep priority; each try is a bounded search).
BYE_ALTERNATIVES = 3
#: Rounds of swaps between tables when no seating without repeats was found.
REPAIR_PASSES = 20
_APART, _REPEAT = 1_000_000, 1_000


def swiss_round(
    fmt: Format,
    entrants: Sequence[Entrant],
    games: Iterable[Game],
    byes: Iterable[Bye],
    round_no: int,
    apart: Apart | None = None,
) -> SwissRound:
    """The tables and byes of round ``round_no`` from the rounds before it (games and
    byes of this round or later are ignored, so asking again gives the same answer).
    Active entrants only; see docs/tournaments.md for the rule."""
    earlier = [g for g in games if g.round < round_no]
    sat_out = [b for b in byes if b.round < round_no]
    score = {s.entrant: s.points for s in standings(fmt, entrants, earlier, sat_out)}
    rating = {e.entrant: e.rating for e in entrants}
    order = sorted(
        (e.entrant for e in entrants if e.active), key=lambda e: (-score[e], -rating[e], e)
    )
    pairing = _Pairing(
        fmt, order, score, earlier, Counter(b.entrant for b in sat_out), apart_predicate(apart)
    )
    tables, bye_list = pairing.run()
    lateness = _lateness(earlier)
    position = {e: index for index, e in enumerate(order)}
    seated = tuple(
        tuple(sorted(t, key=lambda e: (-lateness.get(e, 0.0), position[e]))) for t in tables
    )
    return SwissRound(seated, tuple(sorted(bye_list)))


class _Pairing:
    def __init__(
        self,
        fmt: Format,
        order: list[int],
        score: dict[int, int],
        earlier: list[Game],
        bye_count: Counter[int],
        kept_apart: Callable[[int, int], bool],
    ) -> None:
        self.fmt = fmt
        self.order = order
        self.position = {e: index for index, e in enumerate(order)}
        self.score = score
        self.met = _meetings(earlier)
        self.bye_count = bye_count
        self.kept_apart = kept_apart
        self.budget = [SEARCH_BUDGET]

    def allowed(self, a: int, b: int) -> bool:
        return not self.kept_apart(a, b) and (min(a, b), max(a, b)) not in self.met

    def run(self) -> tuple[list[tuple[int, ...]], list[int]]:
        """Pair; should a block leave two entrants at one table whatever the swaps,
        the lower-ranked of them sits out too, and the round is paired again."""
        forced: list[int] = []
        while True:
            players = [e for e in self.order if e not in forced]
            tables, byes = self._pair(players)
            clash = self._first_apart(tables)
            if clash is None:
                return [tuple(t) for t in tables], byes + forced
            forced.append(max(clash, key=self.position.__getitem__))

    def _pair(self, players: list[int]) -> tuple[list[list[int]], list[int]]:
        count = most_seated(len(players), self.fmt)
        sizes = table_sizes(count, self.fmt)
        choices = self._bye_choices(players, len(players) - count)
        fallback: list[list[int]] | None = None
        for byes in choices:
            seated = [e for e in players if e not in byes]
            ideal = _ideal(seated, self.score, sizes)
            repaired = [list(t) for t in ideal]
            if self._repair(repaired):
                return repaired, byes
            fallback = fallback or repaired
            prefer = self._prefer(seated, ideal)
            found = seat(seated, sizes, self.allowed, prefer=prefer, budget=self.budget)
            if found is not None:
                return [list(t) for t in found], byes
        assert fallback is not None
        return fallback, choices[0]

    def _bye_choices(self, players: list[int], count: int) -> list[list[int]]:
        """Who sits out: fewest byes so far, then lowest-ranked, first."""
        if count == 0:
            return [[]]
        queue = sorted(players, key=lambda e: (self.bye_count[e], -self.position[e]))
        first = queue[:count]
        others = [first[:-1] + [e] for e in queue[count : count + BYE_ALTERNATIVES]]
        return [first, *others]

    def _prefer(
        self, seated: list[int], ideal: list[list[int]]
    ) -> Callable[[int, list[int]], list[int]]:
        """Candidates for a table nearest (in the pairing order) to the head's ideal
        table-mates first: the ideal table itself when it is allowed."""
        position = {e: index for index, e in enumerate(seated)}
        targets = {e: [position[m] for m in table if m != e] for table in ideal for e in table}

        def prefer(head: int, candidates: list[int]) -> list[int]:
            spots = targets[head] or [position[head]]
            return sorted(
                candidates, key=lambda c: (min(abs(position[c] - s) for s in spots), position[c])
            )

        return prefer

    def _clash(self, a: int, b: int) -> int:
        if self.kept_apart(a, b):
            return _APART
        return _REPEAT * self.met.get((a, b) if a < b else (b, a), 0)

    def _cost(self, table: list[int]) -> int:
        clashes = sum(self._clash(a, b) for a, b in combinations(table, 2))
        points = [self.score[e] for e in table]
        return clashes + max(points) - min(points)

    def _repair(self, tables: list[list[int]]) -> bool:
        """Swap entrants between tables while that lowers the repeats (and blocks), the
        nearest tables first; ties in repeats go to the smaller spread of points. True
        when no table is left with a repeat or a block."""
        costs = [self._cost(table) for table in tables]
        for _ in range(REPAIR_PASSES):
            bad = [index for index, cost in enumerate(costs) if cost >= _REPEAT]
            swaps = [
                costs[index] >= _REPEAT and self._swap_one(tables, costs, index) for index in bad
            ]
            if not any(swaps):
                break
        return all(cost < _REPEAT for cost in costs)

    def _swap_one(self, tables: list[list[int]], costs: list[int], index: int) -> bool:
        """One swap of an entrant of a clash at table ``index`` that lowers the cost."""
        table = tables[index]
        movers = {e for a, b in combinations(table, 2) if self._clash(a, b) for e in (a, b)}
        others = sorted(range(len(tables)), key=lambda j: (abs(j - index), j))[1:]
        for seat_a, a in enumerate(table):
            if a not in movers:
                continue
            for j in others:
                other = tables[j]
                both = costs[index] + costs[j]
                for seat_b, b in enumerate(other):
                    mine = table[:seat_a] + [b] + table[seat_a + 1 :]
                    theirs = other[:seat_b] + [a] + other[seat_b + 1 :]
                    after = (self._cost(mine), self._cost(theirs))
                    if sum(after) < both:
                        tables[index], tables[j] = mine, theirs
                        costs[index], costs[j] = after
                        return True
        return False

    def _first_apart(self, tables: list[list[int]]) -> tuple[int, int] | None:
        return next(
            (
                (a, b)
                for table in tables
                for a, b in combinations(table, 2)
                if self.kept_apart(a, b)
            ),
            None,
        )


def _ideal(seated: list[int], score: dict[int, int], sizes: tuple[int, ...]) -> list[list[int]]:
    """The tables if nobody had met before: score groups from the top, each group's
    lowest floating down to the next when its tables are full, and within the tables of
    a group its entrants dealt round like cards (1st, 2nd, 3rd ... to tables 1, 2, 3 ...,
    then again), so that the group's top half meets its bottom half."""
    tables: list[list[int]] = []
    pool: list[int] = []
    left = list(sizes)
    for _, group in groupby(seated, key=score.__getitem__):
        pool += group
        take: list[int] = []
        while left and sum(take) + left[0] <= len(pool):
            take.append(left.pop(0))
        tables += _deal(pool[: sum(take)], take)
        pool = pool[sum(take) :]
    return tables


def _deal(players: list[int], sizes: list[int]) -> list[list[int]]:
    tables: list[list[int]] = [[] for _ in sizes]
    dealt = iter(players)
    while any(len(t) < size for t, size in zip(tables, sizes, strict=True)):
        for table, size in zip(tables, sizes, strict=True):
            if len(table) < size:
                table.append(next(dealt))
    return tables


def _meetings(games: Iterable[Game]) -> dict[tuple[int, int], int]:
    met: Counter[tuple[int, int]] = Counter()
    for game in games:
        met.update((min(a, b), max(a, b)) for a, b in combinations(game.entrants, 2))
    return dict(met)


def _lateness(games: Iterable[Game]) -> dict[int, float]:
    """How much later than the middle of its tables each entrant has sat so far (in
    table lengths), so that the late ones sit early next time."""
    late: dict[int, float] = {}
    for game in games:
        last = len(game.entrants) - 1
        for seat_no, who in enumerate(game.entrants):
            late[who] = late.get(who, 0.0) + seat_no / last - 0.5
    return late
