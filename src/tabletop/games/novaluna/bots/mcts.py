"""The ``mcts`` bot: Monte Carlo tree search for 2–4 players.

Information-set MCTS with determinisation: every iteration draws an order for
the unseen tiles from the ``View`` (the bot never sees the real order) and
walks one shared tree keyed by actions. Each seat maximises its own reward
(max^n style). Only the most promising placements of each position are in
the tree (ranked by an immediate-gain prior); below the tree a short
cover-seeking rollout is played and the position is scored by discs placed,
time used and tasks close to fulfilment.

Strength is set by the iteration budget (``mcts:easy``, ``mcts:normal``,
``mcts:hard`` or ``mcts:400``); a time cap keeps every move under a second at
the default. ``mcts:strong`` and ``mcts:strong-fast`` run the same search in a C
kernel (``_mctskernel.c``), about 20 times as many iterations in the time of
``normal`` and ``easy``. With a fixed seed and no time cap hit, the choice is
deterministic.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ....i18n import N_, Reason
from ..rules import END_PHASE, REFILL, Action, Place, SoloResult, State, View
from ..rules.display import Display, cell_key, cell_xy
from ..rules.tiles import TILE_COLOR, TILE_COST, TILE_TASKS
from .base import BotSpecError, legal_or_raise, register
from .compiled import mcts_kernel as mcts_kernel  # re-exported: the analysis searches with it
from .explain import describe

if TYPE_CHECKING:
    from ._mctskernel import KernelChild, KernelParams, KernelPosition

if mcts_kernel is not None:
    mcts_kernel.setup(TILE_COLOR, TILE_COST, TILE_TASKS)

LEVELS = {"easy": 150, "normal": 600, "hard": 2000, "strong": 13000, "strong-fast": 3000}
DEFAULT_SECONDS = {"easy": 0.3, "normal": 0.9, "hard": 3.0, "strong": 0.9, "strong-fast": 0.3}
#: Levels that search in the C kernel (``_mctskernel.c``): the same search, about 20
#: times the iterations in the same time (``strong`` takes ``normal``'s time a move,
#: ``strong-fast``, the hint, ``easy``'s); in Python where the kernel was not built.
COMPILED = frozenset({"strong", "strong-fast"})


@dataclass(frozen=True, slots=True)
class Settings:
    iterations: int = LEVELS["normal"]
    max_seconds: float | None = DEFAULT_SECONDS["normal"]
    candidates: int = 8  # placements kept per tree node
    rollout_plies: int = 6  # plies played below the tree before scoring
    rollout_samples: int = 5  # placements a rollout ply chooses from
    exploration: float = 0.7
    time_weight: float = 0.3  # discs a unit of moon-track time is worth
    near_weight: float = 0.35  # value of an open task one tile short
    sharpness: float = 0.8  # logistic slope turning score gaps into rewards
    # values of open tasks two and three or more tiles short, and of being the seat to
    # move (0 in every level: a leaf fitted to who won tries them, see
    # docs/learned-evaluation.md)
    far_weights: tuple[float, float] = (0.0, 0.0)
    turn_weight: float = 0.0
    compiled: bool = False  # search in the C kernel, where it was built


class Node:
    """A tree node: the seat to move, its candidate actions and visited children."""

    __slots__ = ("seat", "candidates", "children", "visits", "value")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.candidates: list[Action] | None = None
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.value = 0.0  # summed reward of the seat that chose the action leading here


class MctsBot:
    name = "mcts"

    def __init__(self, settings: Settings | None = None, seed: int | None = None) -> None:
        self.settings = settings or Settings()
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        legal = legal_or_raise(view)
        if len(legal) == 1:
            return legal[0]
        root = self.search(view)
        return max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].value))[0]

    def explain(self, view: View) -> tuple[Action, Reason]:
        """The action ``choose`` would take, with a one-line reason."""
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0], describe(view, legal[0]) + Reason.of(N_("the only legal move"))
        root = self.search(view)
        action, node = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].value))
        share = node.value / node.visits
        return action, describe(view, action) + Reason.of(
            N_("looks best in {n} simulated futures (expected result {share})"),
            n=root.visits,
            share=f"{share:.0%}",
        )

    def search(self, view: View) -> Node:
        """Run the search from ``view`` and return the root (for inspection)."""
        s = self.settings
        if s.compiled and mcts_kernel is not None:
            return self._search_compiled(view)
        deadline = None if s.max_seconds is None else time.perf_counter() + s.max_seconds
        root = Node(view.current_seat)
        for i in range(s.iterations):
            self._iterate(root, view.determinize(self.rng))
            if deadline is not None and i % 8 == 7 and time.perf_counter() > deadline:
                break
        return root

    def _search_compiled(self, view: View) -> Node:
        """The same search in the C kernel; the root and its children as Python's."""
        s = self.settings
        assert mcts_kernel is not None
        done, children, _ = mcts_kernel.search(
            kernel_position(view),
            view.unseen_tiles,
            kernel_params(s),
            s.iterations,
            -1.0 if s.max_seconds is None else s.max_seconds,
            self.rng.getrandbits(64),
        )
        return kernel_root(view, done, children)

    # -- one iteration -----------------------------------------------------------

    def _iterate(self, root: Node, state: State) -> None:
        node = root
        path = [root]
        while not state.is_over:
            if node.candidates is None:
                node.candidates = self._candidates(state)
            legal = [a for a in node.candidates if _is_legal(state, a)]
            if not legal:
                legal = self._candidates(state)  # a refill changed what is on offer
            untried = [a for a in legal if a not in node.children]
            if untried:
                action = untried[0]
                state.apply(action)
                child = node.children[action] = Node(state.current_seat)
                path.append(child)
                break
            action = self._select(node, legal)
            state.apply(action)
            node = node.children[action]
            path.append(node)
        rewards = self._rollout(state)
        root.visits += 1
        for parent, child in zip(path, path[1:], strict=False):
            child.visits += 1
            child.value += rewards[parent.seat]

    def _select(self, node: Node, legal: list[Action]) -> Action:
        log_n = math.log(node.visits + 1)
        c = self.settings.exploration
        best, best_score = legal[0], -1.0
        for action in legal:
            child = node.children[action]
            score = child.value / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = action, score
        return best

    # -- knowledge -----------------------------------------------------------------

    def _candidates(self, state: State) -> list[Action]:
        """Refill/end (when legal) and the best placements by immediate gain."""
        actions: list[Action] = []
        if state.can_end_phase():
            actions.append(END_PHASE)
        if state.can_refill():
            actions.append(REFILL)
        scored = _scored_places(state, None)
        scored.sort(key=lambda item: -item[0])
        actions.extend(place for _, place in scored[: self.settings.candidates])
        return actions

    def _rollout(self, state: State) -> list[float]:
        """Play a few cover-seeking plies, then score every seat in [0, 1]."""
        s = self.settings
        rng = self.rng
        for _ in range(s.rollout_plies):
            if state.is_over:
                break
            if state.can_end_phase():
                state.apply(END_PHASE)
                continue
            scored = _scored_places(state, (rng, s.rollout_samples))
            best = max(scored, key=lambda item: item[0])[1]
            if state.can_refill() and max(sc for sc, _ in scored) < 0:
                state.apply(REFILL)
                continue
            state.apply(best)
        return self._rewards(state)

    def _rewards(self, state: State) -> list[float]:
        players = state.game.players
        if state.is_over:
            result = state.result()
            if isinstance(result, SoloResult):  # the solo game
                return [1.0 - min(result.total, 300) / 300]
            winner = result.ranking[0]
            return [1.0 if seat == winner else 0.0 for seat in range(players)]
        s = self.settings
        scores = []
        for seat in range(players):
            one, two, more = short_tasks(state.displays[seat])
            scores.append(
                state.displays[seat].covered
                - s.time_weight * state.time[seat]
                + s.near_weight * one
                + s.far_weights[0] * two
                + s.far_weights[1] * more
            )
        scores[state.current_seat] += s.turn_weight
        if players == 1:
            return [scores[0]]
        rewards = []
        for seat in range(players):
            best_other = max(scores[o] for o in range(players) if o != seat)
            gap = scores[seat] - best_other
            rewards.append(1.0 / (1.0 + math.exp(-s.sharpness * gap)))
        return rewards


def _is_legal(state: State, action: Action) -> bool:
    if isinstance(action, Place):
        return (
            action.space in state.takeable_spaces()
            and cell_key(action.x, action.y) in state.displays[state.current_seat]._fpos
        )
    if action is REFILL:
        return state.can_refill()
    return state.can_end_phase()


def _scored_places(
    state: State, sample: tuple[random.Random, int] | None
) -> list[tuple[float, Place]]:
    """``(gain, place)`` for placements: all of them, or a random ``sample``.

    Gain = 10 per task covered now − the tile's cost + 0.5 per same-colour or
    task-tile neighbour (a cheap sign of future cover).
    """
    display = state.displays[state.current_seat]
    wheel = state.wheel
    spaces = state.takeable_spaces()
    cells = display.frontier
    pairs = [(space, cell) for space in spaces for cell in cells]
    if sample is not None:
        rng, k = sample
        if len(pairs) > k:
            pairs = rng.sample(pairs, k)
    out = []
    for space, cell in pairs:
        tile = wheel[space]
        covers = len(_lay_copy(display, tile, cell))
        gain = 10.0 * covers - TILE_COST[tile] + 0.5 * _neighbours_with_tasks(display, cell)
        x, y = cell_xy(cell)
        out.append((gain, Place(space, x, y)))
    return out


def _lay_copy(display: Display, tile: int, cell: int) -> list[tuple[int, int]]:
    return display.clone().lay(tile, cell)


def _neighbours_with_tasks(display: Display, cell: int) -> int:
    open_ = display.open
    return (cell + 1 in open_) + (cell - 1 in open_) + (cell + 256 in open_) + (cell - 256 in open_)


def short_tasks(display: Display) -> tuple[int, int, int]:
    """Open tasks missing one tile, two, and three or more."""
    short = [0, 0, 0, 0]
    for cell, mask in display.open.items():
        for i in range(len(TILE_TASKS[display.tiles[cell]])):
            if mask >> i & 1:
                short[min(3, display.missing(cell, i))] += 1
    return short[1], short[2], short[3]


def kernel_params(s: Settings) -> KernelParams:
    """``Settings`` as ``_mctskernel.search`` reads them (see its ``.pyi``)."""
    return (
        s.candidates,
        s.rollout_plies,
        s.rollout_samples,
        s.exploration,
        s.time_weight,
        s.near_weight,
        s.sharpness,
        *s.far_weights,
        s.turn_weight,
    )


def kernel_root(view: View, done: int, children: list[KernelChild]) -> Node:
    """A root as Python's search leaves it, from the kernel's iterations and children."""
    root = Node(view.current_seat)
    root.visits = done
    for space, x, y, visits, value in children:
        child = root.children[kernel_action(space, x, y)] = Node(-1)  # seat: the kernel's
        child.visits, child.value = visits, value
    return root


def kernel_move(action: Action) -> tuple[int, int, int]:
    """``kernel_action``'s inverse: the kernel's ``(space, x, y)`` for an action."""
    if isinstance(action, Place):
        return action.space, action.x, action.y
    return (-1, 0, 0) if action == END_PHASE else (-2, 0, 0)


def kernel_action(space: int, x: int, y: int) -> Action:
    """An action from the kernel's ``(space, x, y)``: space -1 ends phase 1, -2 refills."""
    return END_PHASE if space == -1 else REFILL if space == -2 else Place(space, x, y)


def kernel_position(view: View) -> KernelPosition:
    """The position as ``_mctskernel.search`` reads it (see its ``.pyi``)."""
    players = view.game.players
    wheel = view.wheel
    displays = []
    for seat in range(players):
        tiles = []
        for (x, y), (tile, flags) in view.display(seat).items():  # in the order laid
            open_mask = sum(1 << i for i, covered in enumerate(flags) if not covered)
            tiles.append((x, y, tile, open_mask))
        displays.append(tuple(tiles))
    stamp = view.stamp
    return (
        players,
        int(view.game.solo),
        view.phase,
        view.meeple,
        sum(1 for tile in wheel if tile),
        len(TILE_COLOR) - 1 - len(view.unseen_tiles),  # tiles drawn: ids are 1..68
        view.current_seat,
        int(view.refilled),
        int(view.is_over),
        view.turn,
        max(stamp) + 1,  # only the stamps' order counts
        view.phase1_score,
        0,
        wheel,
        view.supply,
        view.time,
        stamp,
        tuple(displays),
        tuple(view.discs_placed(seat) for seat in range(players)),
    )


def _factory(option: str | None, seed: int | None) -> MctsBot:
    level = option or "normal"
    if level in LEVELS:
        compiled = level in COMPILED
        return MctsBot(Settings(LEVELS[level], DEFAULT_SECONDS[level], compiled=compiled), seed)
    if level.isascii() and level.isdigit() and int(level) > 0:  # "²" is a digit too
        return MctsBot(Settings(int(level), None), seed)
    raise BotSpecError(
        f"mcts takes a level ({', '.join(LEVELS)}) or an iteration count, not {option!r}"
    )


register("mcts", _factory)
