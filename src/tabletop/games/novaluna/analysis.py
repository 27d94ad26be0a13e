"""Nova Luna's post-game analysis (the platform's ``Analyser``, see docs/analysis-novaluna.md).

Every action of a finished game is a decision: each take-and-place, each optional
refill and the solo "end phase 1". It is judged from the acting seat's ``View`` (no
pile order: every search determinises the unseen tiles from the view, as the bots do).

* **2–4 players**: the chance to win, from the ``mcts`` bot's search: the mean reward
  of a root child (1 for a win at the end of a simulated future, the bot's logistic
  score gap where the future is cut short). The played action is always a root
  candidate and gets at least a quarter of the iterations. The search runs in the
  bot's C kernel (``KERNEL_ITERATIONS`` iterations per unit of budget, the time one
  takes in Python) where it was built, else in Python.
* **Solo**: the expected final score (lower is better), from the ``solo`` planner:
  the best line it finds after the action, its phase-2 part averaged over sampled
  refills (the same samples for the move played and the best, so they compare fairly).
  Without its compiled kernel (installed without a C compiler) ``check_available``
  refuses solo games.

>>> from tabletop.harness.selfplay import play_game
>>> from tabletop.analysis import analyse
>>> from tabletop.games.novaluna.gametype import GAME
>>> report = analyse(GAME, play_game(GAME, ["greedy", "greedy"], seed=1), budget=20)
>>> report.scale.unit, len(report.seats)
('chance to win', 2)
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, replace

from ...core.analysis import JSON, Decision, Judgement, Scale
from ...core.errors import RecordError
from ...i18n import N_, Part, part
from .bots import mcts
from .bots.compiled import KERNEL
from .bots.mcts import (
    MctsBot,
    Node,
    Settings,
    kernel_move,
    kernel_params,
    kernel_position,
    kernel_root,
)
from .bots.solo import LEVELS, Line, SoloPlanner, _after, _position
from .page import beside
from .records import replay
from .rules import END_PHASE, REFILL, Action, Place, SoloResult, State, View
from .rules.display import cell_key
from .rules.tiles import TILES

# -- scales -------------------------------------------------------------------------
# Thresholds were chosen from measurements (docs/analysis-novaluna.md): the strong bot's
# own moves stay under "mistake", greedy's worst moves reach "blunder".

#: 2–4 players: the chance to win, 0–1.
STANDARD_SCALE = Scale(
    "chance to win", "{value:.0%}", inaccuracy=0.05, mistake=0.12, blunder=0.25, accuracy=0.08
)
#: Solo: the expected final score, lower is better.
SOLO_SCALE = Scale(
    "points",
    "{value:.1f}",
    inaccuracy=2.0,
    mistake=5.0,
    blunder=10.0,  # a missing disc costs 10
    accuracy=8.0,
    higher_is_better=False,
)

# -- search work ----------------------------------------------------------------------

#: The budget: mcts iterations per decision; solo, ``SOLO_PLACEMENTS`` times as many
#: placements evaluated by each of the planner's searches.
DEFAULT_BUDGET = 2000
#: A coached move's budget: a casual game's note comes within about a second.
COACH_BUDGET = 300
SOLO_PLACEMENTS = 2000  # the default budget gives the planner's own 4 M a search
#: Where mcts's kernel was built, a unit of budget buys this many of its iterations:
#: about what one iteration costs in Python (the kernel runs 20 times as many a second).
KERNEL_ITERATIONS = 20
#: The played action's least share of the mcts iterations (1/4), so that its value is
#: measured about as well as the best's, however the prior ranks it.
FAIR_SHARE = 4
#: Noise: how many standard errors apart two equally good actions may come out.
NOISE_SIGMAS = 2.0
#: Solo: the least noise in points (the beam may miss the best line by a little).
SOLO_NOISE_FLOOR = 1.0


class NovaLunaAnalyser:
    """Nova Luna's ``Analyser`` (see the module docstring)."""

    default_budget = DEFAULT_BUDGET
    #: The coach's budget (``analysis.coach``): about 0.15 s of CPU a move (0.3 s solo).
    coach_budget = COACH_BUDGET

    def scale(self, record: JSON) -> Scale:
        return SOLO_SCALE if record.get("mode") == "solo" else STANDARD_SCALE

    def check_available(self, record: JSON | None) -> None:
        """``Unavailable`` for a solo game where the planner's kernel was not built (2-4
        players' games search with ``mcts``, in Python); None asks about any game."""
        if record is not None and record.get("mode") == "solo":
            KERNEL.check_analysis()

    def decisions(self, record: JSON) -> Iterator[Decision]:
        """Every action in order, each with its seat's view just before it."""
        state = _start(record)
        for index, (number, action) in enumerate(_actions(record, state)):
            seat = state.current_seat
            # "frame": the replay's step after this decision (one per turn)
            facts = {"frame": number, "label_words": part(N_("turn {n}"), n=number)}
            yield Decision(index, seat, state.view(seat), action, f"turn {number}", facts)
            state.apply(action)

    def describe(self, view: View, action: Action) -> Part:
        """An action in the words of the game's log ("the red 4, laid right of the blue
        3"), from ``view`` just before it (the wheel as it was then)."""
        return describe_action(view, action)

    def position(self, record: JSON, index: int) -> State:
        """The true state just before decision ``index`` (the game is over)."""
        state = _start(record)
        for done, (_, action) in enumerate(_actions(record, state)):
            if done == index:
                return state
            state.apply(action)
        raise RecordError(f"the record has no decision {index}")

    def judge(self, decision: Decision, budget: int, seed: int) -> Judgement:
        view: View = decision.view
        if view.game.solo:
            return judge_solo(view, decision.played, budget, seed)
        return judge_standard(view, decision.played, budget, seed)

    def hindsight(self, record: JSON, budget: int, seed: int) -> JSON | None:
        return None


#: The colours as the page names them (translated there).
COLOURS = {"red": N_("red"), "blue": N_("blue"), "cyan": N_("cyan"), "yellow": N_("yellow")}
#: Where a tile was laid: beside which of the seat's tiles, or as its first.
SIDES = {
    "right": N_("right of the {tile}"),
    "left": N_("left of the {tile}"),
    "above": N_("above the {tile}"),
    "below": N_("below the {tile}"),
}


def describe_action(view: View, action: Action) -> Part:
    """``action`` in words as a ``Part`` (see ``NovaLunaAnalyser.describe``).

    >>> from .rules import Game
    >>> view = Game(players=2).new_state(seed=1).view(0)
    >>> describe_action(view, REFILL)["key"]
    'a refill of the wheel'
    """
    if not isinstance(action, Place):
        return part(N_("a refill of the wheel") if action == REFILL else N_("the end of phase 1"))
    tiles = {cell_key(x, y): tile for (x, y), (tile, _) in view.display(view.current_seat).items()}
    near = beside(tiles, action.x, action.y)
    where = part(N_("as the first tile"))
    if near is not None:
        where = part(SIDES[near["side"]], tile=tile_words(near["tile"]))
    return part(
        N_("the {tile}, laid {where}"), tile=tile_words(view.wheel[action.space]), where=where
    )


def tile_words(tile: int) -> Part:
    """A tile as the page names it: "red 4"."""
    found = TILES[tile]
    return part(N_("{colour} {cost}"), colour=part(COLOURS[found.color]), cost=found.cost)


def _start(record: JSON) -> State:
    """The record's initial state, once the whole record has been checked."""
    first: list[State] = []
    rec = replay(record, on_turn=lambda r: first.append(r.state.clone()) if not first else None)
    if not rec.state.is_over:
        raise RecordError("only a finished game can be analysed")
    return first[0]


def _actions(record: JSON, state: State) -> Iterator[tuple[int, Action]]:
    """Each action of the record with its turn's number, read against ``state`` as it
    is played on (a refill or phase end chosen, not forced by an empty wheel, is an
    action of its own before the turn's placement)."""
    solo = state.game.solo
    for number, turn in enumerate(record["turns"], 1):
        if turn["refill"] and not state.refilled:
            yield number, END_PHASE if solo else REFILL
        yield number, Place(turn["space"], *turn["cell"])


# -- 2–4 players: mcts ------------------------------------------------------------------


def judge_standard(view: View, played: Action, budget: int, seed: int) -> Judgement:
    """The played action and the best by their mean reward at the search's root: the
    compiled search (``budget × KERNEL_ITERATIONS`` iterations) where it was built, else
    the same search in Python (``budget`` iterations)."""
    if mcts.mcts_kernel is not None:  # looked up here: tests take it away
        return _judge_compiled(view, played, budget * KERNEL_ITERATIONS, seed)
    bot = MctsBot(Settings(iterations=budget, max_seconds=None), seed)
    root = Node(view.current_seat)
    # The bot's own root candidates (they depend only on what is public), plus the
    # played action if its prior would have left it out.
    candidates = bot._candidates(view.determinize(random.Random(seed)))
    if played not in candidates:
        candidates.append(played)
    root.candidates = candidates
    for _ in range(budget):
        bot._iterate(root, view.determinize(bot.rng))
    fair = max(1, budget // FAIR_SHARE)
    children = root.children
    # The best: the highest mean among the children searched most (as much as the
    # played action will be, or as the most searched one if the search spread evenly).
    enough = min(fair, max(c.visits for c in children.values()))
    _top_up(bot, root, view, played, fair)
    return _judged(children, played, enough)


def _judge_compiled(view: View, played: Action, iterations: int, seed: int) -> Judgement:
    """``judge_standard`` in mcts's C kernel: the same root (the bot's candidates and the
    played action), top-up and choice of the best."""
    kernel = mcts.mcts_kernel
    assert kernel is not None
    fair = max(1, iterations // FAIR_SHARE)
    done, found, topped = kernel.search(
        kernel_position(view),
        view.unseen_tiles,
        kernel_params(Settings()),
        iterations,
        -1.0,
        random.Random(seed).getrandbits(64),
        kernel_move(played),
        fair,
    )
    children = kernel_root(view, done, found).children
    # As in Python: "enough" visits are counted before the top-up, the children after it.
    before = max(c.visits - (topped if a == played else 0) for a, c in children.items())
    enough = min(fair, before)
    return _judged(children, played, enough)


def _judged(children: dict[Action, Node], played: Action, enough: int) -> Judgement:
    """The best: the highest mean among the children with ``enough`` visits; both it
    and the played action with their means and the noise of their difference."""
    best = max(
        (a for a, c in children.items() if c.visits >= enough),
        key=lambda a: (_mean(children[a]), children[a].visits),
    )
    mine, top = children[played], children[best]
    return Judgement(
        best,
        _mean(mine),
        _mean(top),
        noise=NOISE_SIGMAS * math.hypot(_error(mine), _error(top)),
        facts={"visits": [mine.visits, top.visits]},
    )


def _top_up(bot: MctsBot, root: Node, view: View, played: Action, fair: int) -> None:
    """More iterations through ``played`` until it has ``fair`` visits: the root offers
    it alone meanwhile (the tree below it grows as in any iteration)."""
    child = root.children.get(played)
    missing = fair - (child.visits if child is not None else 0)
    if missing <= 0:
        return
    kept, root.candidates = root.candidates, [played]
    for _ in range(missing):
        bot._iterate(root, view.determinize(bot.rng))
    root.candidates = kept


def _mean(node: Node) -> float:
    return node.value / node.visits


def _error(node: Node) -> float:
    """The standard error of a child's mean: rewards lie in [0, 1], so their variance
    is at most m(1 - m) (the node keeps no sum of squares)."""
    m = min(1.0, max(0.0, _mean(node)))
    return math.sqrt(m * (1.0 - m) / node.visits)


# -- solo: the planner ---------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """An action's expected final score; ``scores``: the sampled phase-2 scores it
    averages (None where nothing is random any more)."""

    value: float
    scores: tuple[float, ...] | None = None


def judge_solo(view: View, played: Action, budget: int, seed: int) -> Judgement:
    """The best action the planner finds from ``view``, and both actions' expected
    final scores, each from the best line the planner finds after it."""
    settings = replace(LEVELS["normal"], budget=budget * SOLO_PLACEMENTS, threads=1)
    planner = SoloPlanner(settings, seed)
    rng = random.Random(seed)
    if view.phase == 1:
        root, samples = _best_phase1_line(planner, view)
        best = root.moves[0]
    else:
        samples = 0
        best = _best_phase2_line(planner, view)[1][0]
    mine = _value_after(planner, view, played, rng, samples)
    top = mine if best == played else _value_after(planner, view, best, rng, samples)
    if mine.value < top.value:  # the deeper search after it found a better line
        best, top = played, mine
    return Judgement(best, mine.value, top.value, noise=_solo_noise(mine, top))


def _best_phase1_line(planner: SoloPlanner, view: View) -> tuple[Line, int]:
    planner._left = planner.settings.budget
    return planner._best_line(view)


def _best_phase2_line(planner: SoloPlanner, view: View) -> tuple[float, tuple[Action, ...]]:
    planner._left = planner.settings.budget
    value, moves, *_ = planner._search(view, 2, planner.settings.phase2_beam, keep=1)[0]
    return value, moves


def _value_after(
    planner: SoloPlanner, view: View, action: Action, rng: random.Random, samples: int
) -> Estimate:
    """The expected final score after ``action``: exact once the game is over or in
    phase 2; in phase 1, sampled over ``samples`` refills (at least 8)."""
    state = view.determinize(rng)
    state.apply(action)  # in phase 1 a placement draws nothing; ends are handled below
    if state.is_over:
        result = state.result()
        assert isinstance(result, SoloResult)
        return Estimate(float(result.total))
    if view.phase == 2:
        after = state.view(0)
        return Estimate(after.phase1_score + _best_phase2_line(planner, after)[0])
    if state.phase == 2:  # phase 1 ended: what follows is the refill
        before = _position(view)
        end = before if action == END_PHASE else _after(before, action)
        line = Line((), end, state.phase1_score)
    else:
        line = _best_phase1_line(planner, state.view(0))[0]
    scores = _sampled(planner, line, max(samples, 8))
    return Estimate(line.phase1_score + statistics.fmean(scores), scores)


def _sampled(planner: SoloPlanner, line: Line, samples: int) -> tuple[float, ...]:
    """The first ``samples`` sampled phase-2 scores of ``line``'s end state, however
    much of the budget is left: played and best are compared on the same refills."""
    planner._left = planner.settings.budget
    planner._sample([line], samples)
    return tuple(planner._scores[line.end][:samples])


def _solo_noise(mine: Estimate, top: Estimate) -> float:
    """Twice the standard error of the paired sample differences, plus the floor."""
    if mine.scores is None or top.scores is None or mine is top:
        return SOLO_NOISE_FLOOR
    gaps = [a - b for a, b in zip(mine.scores, top.scores, strict=False)]
    if len(gaps) < 2:
        return SOLO_NOISE_FLOOR
    return SOLO_NOISE_FLOOR + NOISE_SIGMAS * statistics.stdev(gaps) / math.sqrt(len(gaps))


ANALYSER = NovaLunaAnalyser()
