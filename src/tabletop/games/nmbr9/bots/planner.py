"""``planner``: the strong NMBR 9 bot — Monte Carlo over sampled futures, in C.

For this round's digit the kernel (``_nmbr9kernel.c``) lists every legal
placement and ranks them with a tuned one-move evaluation: points now, the
exposed area of each level that later tiles can still use, squares that no card
still to come could ever cover (the 0's hole, slivers), compactness. The best
few are then played out to the end of the game many times. Each playout draws
the rest of the deck from the cards not yet turned — the multiset a player
knows, never their order — and places those tiles with the same evaluation;
every candidate meets the same sampled futures, so few samples compare them
fairly. Successive halving gives the better half more playouts, stage after
stage, and the highest mean final score wins.

The ``learned`` level uses a value model fitted to the planner's own playouts
(``..learning``, shipped as ``data/value_model.json``): its candidates and its
playouts rank placements with the model's one-move weights (a policy found by
policy iteration, of the hand-tuned evaluation's shape), and each playout stops
after ``horizon`` cards and adds the learned value of what is left (that policy's
expected points still to come). Short playouts cost less, so it plays more of them
in about ``normal``'s time. The old levels are unchanged.

Work is counted in playouts, not seconds, so a seed gives the same move on any
machine and with any number of threads. Where the kernel was not built (installed
without a C compiler) every level plays as ``greedy`` (``compiled.KERNEL``).

>>> from tabletop.games.nmbr9.rules import Game
>>> state = Game(players=1).new_state(seed=3)
>>> bot = PlannerBot("fast", seed=1)
>>> bot.choose(state.view(0)) in state.legal_actions(0)
True
"""

from __future__ import annotations

import os
import random
from functools import cache
from typing import TYPE_CHECKING

from ....i18n import N_, Reason
from ..rules import DRAWN, Place, View
from .base import REGISTRY, Bot, BotSpecError, legal_or_raise
from .compiled import KERNEL, kernel
from .greedy import points_now

if TYPE_CHECKING:  # only in the kernel's stub: the compiled module has no such name
    from ._nmbr9kernel import ChooseInfo

if KERNEL.built:
    kernel.setup_tiles(DRAWN)

#: Strengths: ``fast`` answers at once; ``normal`` is the default (about 0.25 s a
#: move on two cores here); ``strong`` plays more futures; ``learned`` plays playouts
#: cut after 3 cards and valued by the learned model, more of them in about
#: ``normal``'s time; ``learned-fast`` is ``fast``'s budget with the learned model and
#: playouts cut after 4 cards, the hint (docs/learned-evaluation.md). See the kernel
#: for the keys.
LEVELS: dict[str, dict[str, str | int]] = {
    "fast": {"strength": "fast"},
    "normal": {"strength": "normal"},
    "strong": {"strength": "strong"},
    "learned": {"strength": "normal", "samples": 48, "horizon": 3},
    "learned-fast": {"strength": "fast", "horizon": 4},
}
#: The levels whose evaluation is the shipped learned model (``learned_settings``).
LEARNED = frozenset({"learned", "learned-fast"})
#: Threads per move: only the speed depends on it, never the move.
THREADS = max(1, min(2, os.cpu_count() or 1))


class PlannerBot:
    """Monte Carlo over sampled futures with a tuned evaluation (see the module)."""

    name = "planner"

    def __init__(self, level: str = "normal", seed: int | None = None) -> None:
        if not KERNEL.built:  # make_bot plays the fallback instead: only a direct call
            raise RuntimeError(
                "the planner's compiled kernel was not built (no C compiler at install)"
            )
        self.level = level
        self.settings: dict[str, object] = {**LEVELS[level], "threads": THREADS}
        if level in LEARNED:
            self.settings.update(learned_settings())
        self.seed = seed

    def choose(self, view: View) -> Place:
        return self.explain(view)[0]

    def explain(self, view: View) -> tuple[Place, Reason]:
        """The placement and why, e.g. ``'on level 2: 14 points now; a mean final
        score of 88.1 over 96 sampled futures (next best 87.5, at column 2, row 0,
        turned 90°)'``."""
        legal = dict(legal_or_raise(view))
        card = view.card
        assert card is not None  # legal_or_raise: the game is not over
        remaining = [view.unturned.count(digit) for digit in range(10)]
        r, x, y, info = kernel.choose(
            list(view.board.tiles),
            card,
            remaining,
            view.rounds_left,
            seed=self._move_seed(view),
            **self.settings,
        )
        place = Place(r, x, y)
        if legal.get(place) != info["level"]:  # the kernel is checked against the engine
            raise RuntimeError(f"the planner's kernel chose {place}, which is not legal here")
        return place, self._reason(view, card, info)

    def _move_seed(self, view: View) -> int:
        """A seed per bot and round: a position is played the same whatever came before."""
        return random.Random(f"nmbr9 planner {self.seed} {view.round}").getrandbits(64)

    def _reason(self, view: View, card: int, info: ChooseInfo) -> Reason:
        level = info["level"]
        why = points_now(level, card * level)
        ranked = sorted(info["candidates"], key=lambda c: (-c["samples"], -c["mean"]))
        if len(ranked) >= 1 and ranked[0]["samples"]:
            best = {"mean": f"{ranked[0]['mean']:.1f}", "n": ranked[0]["samples"]}
            if len(ranked) == 1:
                return why + Reason.of(
                    N_("a mean final score of {mean} over {n} sampled futures"), **best
                )
            runner = ranked[1]
            r, x, y, _ = runner["move"]
            spot = {"next": f"{runner['mean']:.1f}", "x": _minus(x), "y": _minus(y)}
            if r:
                return why + Reason.of(NEXT_BEST_TURNED, **best, **spot, degrees=90 * r)
            return why + Reason.of(NEXT_BEST, **best, **spot)
        if not view.board.tiles:
            return why + Reason.of(N_("the first tile: where it lies changes nothing"))
        return why + Reason.of(N_("the most points possible with the last card"))


MEAN_SCORE = N_("a mean final score of {mean} over {n} sampled futures")
NEXT_BEST = N_(
    "a mean final score of {mean} over {n} sampled futures"
    " (next best {next}, at column {x}, row {y})"
)
NEXT_BEST_TURNED = N_(
    "a mean final score of {mean} over {n} sampled futures"
    " (next best {next}, at column {x}, row {y}, turned {degrees}°)"
)


def _minus(number: int) -> str:
    """A coordinate as people read it, with a real minus sign."""
    return str(number).replace("-", "\u2212")


@cache
def learned_settings() -> dict[str, object]:
    """The kernel settings that make the shipped model the evaluation: its one-move
    weights for the candidates and the playouts, its value for the playouts' ends."""
    from ..learning.value import shipped_model  # plain JSON: no numpy to play

    model = shipped_model()
    return {"weights": list(model.weights), "value": list(model.coefficients)}


def _make(option: str | None, seed: int | None) -> Bot:
    level = (option or "normal").lower()
    if level not in LEVELS:
        raise BotSpecError(f"planner strengths are {', '.join(LEVELS)}, not {option!r}")
    if not KERNEL.built:  # said where play starts (KERNEL.warning)
        return REGISTRY.make(KERNEL.plays_as("planner"), seed)
    return PlannerBot(level, seed)


REGISTRY.register("planner", _make)
