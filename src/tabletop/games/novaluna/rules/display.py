"""One player's display: placed tiles, colour groups and open tasks.

Cells are packed into one int (``cell_key``) so that neighbours are simple
additions and dictionaries stay small and fast to copy.

Task checking is incremental. A task of colour ``c`` on tile ``U`` counts the
tiles of the same-colour groups (connected edge to edge) touching ``U``, without
``U`` itself, so if ``U`` is colour ``c`` the count is its own group's size − 1.
Groups are labelled cells with member tuples, and each colour keeps a list of the
tiles with open tasks that need it (``watch``): placing a tile of colour ``c``
can only fulfil the new tile's tasks and the watched ``c`` tasks next to the
group the new tile joins.
"""

from __future__ import annotations

from collections.abc import Sequence

from .tiles import TILE_COLOR, TILE_TASKS, TILE_WATCH

_SHIFT = 8
_OFFSET = 128
STRIDE = 1 << _SHIFT
ORIGIN = (_OFFSET << _SHIFT) + _OFFSET
# A cell's neighbours are key ± 1 (y) and key ± STRIDE (x); hot loops spell out 256.


def cell_key(x: int, y: int) -> int:
    """Pack a cell into one int. ``cell_xy(cell_key(x, y)) == (x, y)``."""
    return ((x + _OFFSET) << _SHIFT) + y + _OFFSET


def cell_xy(key: int) -> tuple[int, int]:
    """Unpack a key made by ``cell_key``."""
    return (key >> _SHIFT) - _OFFSET, (key & (STRIDE - 1)) - _OFFSET


def in_bounds(x: int, y: int) -> bool:
    """Whether a cell can be packed (68 tiles never reach the edge)."""
    return -_OFFSET < x < _OFFSET - 1 and -_OFFSET < y < _OFFSET - 1


class Display:
    """The tiles of one seat and everything derived from them.

    ``tiles`` maps cell keys to tile ids; ``open`` maps cells to a bit mask of
    their uncovered tasks; ``frontier`` lists the empty cells next to a tile.
    Same-colour groups: ``group`` maps a cell to its group id, ``members`` a
    group id to the tuple of its cells (tuples, so a shallow copy clones).
    """

    __slots__ = ("tiles", "group", "members", "open", "watch", "frontier", "_fpos", "covered")

    def __init__(self) -> None:
        self.tiles: dict[int, int] = {}
        self.group: dict[int, int] = {}
        self.members: dict[int, tuple[int, ...]] = {}
        self.open: dict[int, int] = {}  # cell -> mask of uncovered tasks
        self.watch: tuple[dict[int, int], ...] = ({}, {}, {}, {})  # colour -> cell -> mask
        self.frontier: list[int] = [ORIGIN]
        self._fpos: dict[int, int] = {ORIGIN: 0}
        self.covered = 0  # discs on this display

    def clone(self) -> Display:
        new = Display.__new__(Display)
        new.tiles = self.tiles.copy()
        new.group = self.group.copy()
        new.members = self.members.copy()
        new.open = self.open.copy()
        w = self.watch
        new.watch = (w[0].copy(), w[1].copy(), w[2].copy(), w[3].copy())
        new.frontier = self.frontier.copy()
        new._fpos = self._fpos.copy()
        new.covered = self.covered
        return new

    # -- counting -------------------------------------------------------------

    def count(self, cell: int, color: int) -> int:
        """How many ``color`` tiles count for a task on the tile at ``cell``."""
        tiles, group, members = self.tiles, self.group, self.members
        seen: list[int] = []
        total = 0
        for n in (cell + 1, cell - 1, cell + 256, cell - 256):
            t = tiles.get(n)
            if t and TILE_COLOR[t] == color:
                g = group[n]
                if g not in seen:
                    seen.append(g)
                    total += len(members[g])
        if total and TILE_COLOR[tiles[cell]] == color:
            total -= 1  # the task's own tile never counts
        return total

    def _fulfilled(self, cell: int, task: tuple[tuple[int, int], ...]) -> bool:
        return all(self.count(cell, color) >= need for color, need in task)

    # -- placing --------------------------------------------------------------

    def lay(self, tile: int, cell: int) -> list[tuple[int, int]]:
        """Lay ``tile`` on the empty frontier cell ``cell``.

        Returns the tasks ``(cell, task index)`` this placement fulfils, in no
        particular order; they stay open until ``cover`` is called.
        """
        tiles, group, members = self.tiles, self.group, self.members
        colour_of = TILE_COLOR
        color = colour_of[tile]
        tiles[cell] = tile
        fpos, frontier = self._fpos, self.frontier
        joined: list[int] = []  # the same-colour groups the new tile connects
        for n in (cell + 1, cell - 1, cell + 256, cell - 256):
            t = tiles.get(n)
            if t is None:
                if n not in fpos:
                    fpos[n] = len(frontier)
                    frontier.append(n)
            elif colour_of[t] == color and group[n] not in joined:
                joined.append(group[n])
        if joined:
            keep = self._merge(cell, joined)
        else:
            keep = group[cell] = cell
            members[cell] = (cell,)
        # The cell leaves the frontier: the last frontier cell takes its slot.
        pos = fpos.pop(cell)
        last = frontier.pop()
        if last != cell:
            frontier[pos] = last
            fpos[last] = pos

        found: list[tuple[int, int]] = []
        tasks = TILE_TASKS[tile]
        if tasks:
            self.open[cell] = (1 << len(tasks)) - 1
            for c, mask in TILE_WATCH[tile]:
                self.watch[c][cell] = mask
            self._collect_fulfilled(cell, self.open[cell], found)
        watch = self.watch[color]
        if len(watch) > (cell in watch):
            self._check_watchers(cell, members[keep], watch, color, found)
        return found

    def _merge(self, cell: int, joined: list[int]) -> int:
        """Put ``cell`` into one group with the ``joined`` groups; return its id."""
        group, members = self.group, self.members
        keep = joined[0]  # keep the largest group's id; relabel the others
        for g in joined:
            if len(members[g]) > len(members[keep]):
                keep = g
        cells = members[keep] + (cell,)
        group[cell] = keep
        for g in joined:
            if g != keep:
                moved = members.pop(g)
                for m in moved:
                    group[m] = keep
                cells += moved
        members[keep] = cells
        return keep

    def counts_at(self, cell: int) -> list[int]:
        """Per colour, the tiles that would count for a task of a tile laid on the
        empty ``cell`` (the sizes of the same-colour groups touching it)."""
        tiles, group, members = self.tiles, self.group, self.members
        counts = [0, 0, 0, 0]
        seen: list[int] = []
        for n in (cell + 1, cell - 1, cell + 256, cell - 256):
            t = tiles.get(n)
            if t:
                g = group[n]
                if g not in seen:
                    seen.append(g)
                    counts[TILE_COLOR[t]] += len(members[g])
        return counts

    def _check_watchers(
        self,
        cell: int,
        grown: tuple[int, ...],
        watch: dict[int, int],
        color: int,
        found: list[tuple[int, int]],
    ) -> None:
        """Add the open ``color`` tasks fulfilled now that group ``grown`` has grown.

        Only tiles touching the grown group (which holds the new tile) can gain.
        """
        touched: list[int] = []
        for m in grown:
            for n in (m + 1, m - 1, m + 256, m - 256):
                if n in watch and n != cell and n not in touched:
                    touched.append(n)
        for u in touched:
            self._collect_fulfilled(u, watch[u], found)

    def _collect_fulfilled(self, cell: int, mask: int, found: list[tuple[int, int]]) -> None:
        """Add the tasks in ``mask`` of the tile at ``cell`` that are fulfilled."""
        tiles = self.tiles
        counts = self.counts_at(cell)
        own = TILE_COLOR[tiles[cell]]
        if counts[own]:
            counts[own] -= 1  # the tile's own group holds the tile itself
        for i, task in enumerate(TILE_TASKS[tiles[cell]]):
            if mask >> i & 1:
                for c, need in task:
                    if counts[c] < need:
                        break
                else:
                    found.append((cell, i))

    def fulfilled_by(self, tile: int, cell: int) -> list[tuple[int, int]]:
        """Tasks that laying ``tile`` on the empty ``cell`` would fulfil, sorted.

        The same as ``sorted(self.clone().lay(tile, cell))`` without copying the
        display (previews of every legal placement are sent to players each move).
        """
        tiles, group, members = self.tiles, self.group, self.members
        color = TILE_COLOR[tile]
        joined: list[int] = []  # same-colour groups the tile would connect
        for n in (cell + 1, cell - 1, cell + 256, cell - 256):
            t = tiles.get(n)
            if t and TILE_COLOR[t] == color and group[n] not in joined:
                joined.append(group[n])
        size = 1 + sum(len(members[g]) for g in joined)  # the grown group
        found: list[tuple[int, int]] = []
        tasks = TILE_TASKS[tile]
        if tasks:
            counts = self.counts_at(cell)  # the tile's own group, less the tile itself
            for i, task in enumerate(tasks):
                if all(counts[c] >= need for c, need in task):
                    found.append((cell, i))
        watch = self.watch[color]
        if watch:
            touched: list[int] = []
            for m in (cell, *(m for g in joined for m in members[g])):
                for n in (m + 1, m - 1, m + 256, m - 256):
                    if n in watch and n not in touched:
                        touched.append(n)
            for u in touched:
                self._collect_if_grown(u, watch[u], cell, color, joined, size, found)
        return sorted(found)

    def _collect_if_grown(
        self, u: int, mask: int, cell: int, color: int, grown: Sequence[int], size: int,
        found: list[tuple[int, int]],
    ) -> None:  # fmt: skip
        """``_collect_fulfilled`` for the tile at ``u`` as if a ``color`` tile lay on
        ``cell``, merging the ``grown`` groups with it into one group of ``size`` tiles."""
        tiles, group, members = self.tiles, self.group, self.members
        counts = [0, 0, 0, 0]
        seen: list[int] = []
        for n in (u + 1, u - 1, u + 256, u - 256):
            if n == cell or (n in group and group[n] in grown):
                g, c, n_size = -1, color, size  # the grown group
            elif n in tiles:
                g, c, n_size = group[n], TILE_COLOR[tiles[n]], len(members[group[n]])
            else:
                continue
            if g not in seen:
                seen.append(g)
                counts[c] += n_size
        own = TILE_COLOR[tiles[u]]
        if counts[own]:
            counts[own] -= 1  # the tile's own group holds the tile itself
        for i, task in enumerate(TILE_TASKS[tiles[u]]):
            if mask >> i & 1 and all(counts[c] >= need for c, need in task):
                found.append((u, i))

    def cover(self, cell: int, index: int) -> None:
        """Put a disc on task ``index`` of the tile at ``cell``."""
        bit = 1 << index
        remaining = self.open[cell] & ~bit
        if remaining:
            self.open[cell] = remaining
        else:
            del self.open[cell]
        watch = self.watch
        for c, _ in TILE_TASKS[self.tiles[cell]][index]:
            left = watch[c][cell] & ~bit
            if left:
                watch[c][cell] = left
            else:
                del watch[c][cell]
        self.covered += 1

    def is_covered(self, cell: int, index: int) -> bool:
        return not self.open.get(cell, 0) >> index & 1

    def missing(self, cell: int, index: int) -> int:
        """How many more tiles task ``index`` at ``cell`` needs (0 = fulfilled)."""
        return sum(
            max(0, need - self.count(cell, c)) for c, need in TILE_TASKS[self.tiles[cell]][index]
        )

    def open_tasks(self) -> list[tuple[int, int]]:
        """All uncovered tasks as ``(cell, task index)``."""
        return [(cell, i) for cell, mask in self.open.items() for i in range(3) if mask >> i & 1]

    def is_fulfilled(self, cell: int, index: int) -> bool:
        """Recompute one task from scratch (for tests and rendering)."""
        return self._fulfilled(cell, TILE_TASKS[self.tiles[cell]][index])
