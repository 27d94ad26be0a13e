"""Arena pairing: whoever is free plays again at once, near its place in the standings.

docs/tournaments.md ("Arena pairing") is the rule as a player reads it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .model import Apart, Format, Standing, apart_predicate
from .seating import SEARCH_BUDGET, Allowed, Prefer, greedy, most_seated, seat, table_sizes


def arena_tables(
    fmt: Format,
    waiting: Sequence[int],
    standings: Sequence[Standing],
    last_table: Mapping[int, frozenset[int]],
    active_count: int,
    apart: Apart | None = None,
) -> list[tuple[int, ...]]:
    """Tables for the entrants free to play now (``waiting``, in the order they became
    free): as many seated as tables of ``fmt.min_players..fmt.players`` allow, each
    table of entrants near each other in ``standings``, nobody with an entrant of its
    previous table (``last_table``: the others at each one's previous table) unless
    every one of the event's ``active_count`` entrants is waiting, and never two that
    ``apart`` keeps apart. Whoever is left over waits for the next call. Each table's
    seats go in the order its entrants became free (the longest waiting moves first)."""
    free = list(dict.fromkeys(waiting))
    place = {s.entrant: index for index, s in enumerate(standings)}
    order = sorted(free, key=lambda e: (place.get(e, len(place)), e))
    kept_apart = apart_predicate(apart)

    def rematch(a: int, b: int) -> bool:
        return b in last_table.get(a, ()) or a in last_table.get(b, ())

    def fresh(a: int, b: int) -> bool:
        return not kept_apart(a, b) and not rematch(a, b)

    def not_apart(a: int, b: int) -> bool:
        return not kept_apart(a, b)

    def fewest_rematches(head: int, candidates: list[int]) -> list[int]:
        return sorted(candidates, key=lambda e: rematch(head, e))  # stable: by place

    tables = _pair(order, free, fmt, fresh, wait_latest=True)
    if active_count <= len(free):  # nobody else will become free: rematches beat waiting
        seated = {e for table in tables for e in table}
        rest = [e for e in order if e not in seated]
        tables += _pair(rest, free, fmt, not_apart, wait_latest=False, prefer=fewest_rematches)
    since = {e: index for index, e in enumerate(free)}
    return [tuple(sorted(table, key=since.__getitem__)) for table in tables]


def _pair(
    order: list[int],
    free: list[int],
    fmt: Format,
    allowed: Allowed,
    *,
    wait_latest: bool,
    prefer: Prefer | None = None,
) -> list[tuple[int, ...]]:
    """Seat as many of ``order`` as possible; if some must wait anyway, first try
    letting the latest to become free wait, so that nobody waits twice in a row."""
    budget = [SEARCH_BUDGET]
    count = most_seated(len(order), fmt)
    if wait_latest and 0 < count < len(order):
        latest = _latest(free, order, len(order) - count)
        first_choice = [e for e in order if e not in latest]
        tables = seat(first_choice, table_sizes(count, fmt), allowed, prefer=prefer, budget=budget)
        if tables is not None:
            return tables
    for seated in range(count, fmt.min_players - 1, -1):
        sizes = table_sizes(seated, fmt)
        if not sizes:
            continue
        tables = seat(
            order, sizes, allowed, skips=len(order) - seated, prefer=prefer, budget=budget
        )
        if tables is not None:
            return tables
        if budget[0] <= 0:
            return greedy(order, fmt, allowed)
    return []


def _latest(free: list[int], order: list[int], count: int) -> set[int]:
    among = set(order)
    return set([e for e in free if e in among][-count:])
