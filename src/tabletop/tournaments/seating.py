"""Table sizes and a bounded search for a seating that keeps the forbidden pairs apart.

Both pairings (arena and Swiss) come down to the same question: split entrants, given
in order of preference, into tables of given sizes so that no table holds a forbidden
pair (a block, a rematch, a repeat meeting). The search is a depth-first one that seats
the first unseated entrant with the most preferred table-mates first and backs up when
it gets stuck; a budget bounds it, so a hopeless case costs milliseconds, not minutes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, islice

from .model import Format

#: Table-mates tried in all, per search: large enough to be exhaustive for the small
#: events where a forbidden pair is hard to avoid, small enough to stay within ~50 ms.
SEARCH_BUDGET = 4000

#: Table-mates the one-pass fallback tries per entrant and table size.
GREEDY_TRIES = 200

Allowed = Callable[[int, int], bool]
#: Orders the candidates for the table of ``head`` (the first unseated entrant).
Prefer = Callable[[int, list[int]], list[int]]


def table_sizes(count: int, fmt: Format) -> tuple[int, ...]:
    """The fewest tables of ``fmt.min_players..fmt.players`` that seat exactly ``count``
    entrants, as even as possible, largest first; () when no such tables exist."""
    if count <= 0:
        return ()
    tables = -(-count // fmt.players)
    if tables * fmt.min_players > count:
        return ()
    small, extra = divmod(count, tables)
    return (small + 1,) * extra + (small,) * (tables - extra)


def most_seated(count: int, fmt: Format) -> int:
    """How many of ``count`` entrants tables of the format can seat at most."""
    return next((n for n in range(count, 0, -1) if table_sizes(n, fmt)), 0)


class _OutOfBudget(Exception):
    pass


class _Search:
    def __init__(self, allowed: Allowed, prefer: Prefer, budget: list[int]) -> None:
        self.allowed = allowed
        self.prefer = prefer
        self.budget = budget  # shared between searches: [table-mates left to try]

    def seat(
        self, remaining: list[int], sizes: tuple[int, ...], skips: int
    ) -> list[tuple[int, ...]] | None:
        if len(remaining) - skips > sum(sizes) or len(remaining) < sum(sizes):
            return None
        if not sizes:
            return []
        head, rest = remaining[0], remaining[1:]
        for size in dict.fromkeys(sizes):  # each distinct size once, in the given order
            others = _without(sizes, size)
            for mates in self._mates(head, rest, size - 1):
                chosen = set(mates)
                seating = self.seat([e for e in rest if e not in chosen], others, skips)
                if seating is not None:
                    return [(head, *mates), *seating]
        if skips:
            return self.seat(rest, sizes, skips - 1)
        return None

    def _mates(self, head: int, rest: list[int], count: int) -> Iterator[tuple[int, ...]]:
        candidates = self.prefer(head, [e for e in rest if self.allowed(head, e)])
        for mates in combinations(candidates, count):
            self.budget[0] -= 1
            if self.budget[0] < 0:
                raise _OutOfBudget
            if all(self.allowed(a, b) for a, b in combinations(mates, 2)):
                yield mates


def seat(
    order: Sequence[int],
    sizes: tuple[int, ...],
    allowed: Allowed,
    *,
    skips: int = 0,
    prefer: Prefer | None = None,
    budget: list[int] | None = None,
) -> list[tuple[int, ...]] | None:
    """Tables of exactly ``sizes`` (in any order) for all of ``order`` but at most
    ``skips`` of them, no table holding a pair ``allowed`` refuses; the first entrant
    with its most preferred table-mates first (``prefer``, by default the order itself).
    None when there is none, or none found within the budget."""
    search = _Search(
        allowed, prefer or _in_order, budget if budget is not None else [SEARCH_BUDGET]
    )
    try:
        return search.seat(list(order), sizes, skips)
    except (_OutOfBudget, RecursionError):  # a depth of one frame per table: huge events
        return None


def greedy(order: Sequence[int], fmt: Format, allowed: Allowed) -> list[tuple[int, ...]]:
    """One pass without backing up, for when :func:`seat` found nothing in its budget:
    each entrant in turn heads the largest table its nearest allowed table-mates fill;
    an entrant no table can take is left over."""
    remaining = list(order)
    tables: list[tuple[int, ...]] = []
    while len(remaining) >= fmt.min_players:
        head, rest = remaining[0], remaining[1:]
        candidates = [e for e in rest if allowed(head, e)]
        table = next(
            (
                (head, *mates)
                for size in range(min(fmt.players, len(remaining)), fmt.min_players - 1, -1)
                for mates in islice(combinations(candidates, size - 1), GREEDY_TRIES)
                if all(allowed(a, b) for a, b in combinations(mates, 2))
            ),
            None,
        )
        if table is not None:
            tables.append(table)
        remaining = [e for e in rest if table is None or e not in table]
    return tables


def _in_order(head: int, candidates: list[int]) -> list[int]:
    return candidates


def _without(sizes: tuple[int, ...], size: int) -> tuple[int, ...]:
    index = sizes.index(size)
    return sizes[:index] + sizes[index + 1 :]
