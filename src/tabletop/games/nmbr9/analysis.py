"""NMBR 9's post-game analysis: every placement judged by the seat's expected final
score, and the best game the search finds with the card order known (hindsight).

A decision is one seat's placement of one round, judged from that seat's view just
before it placed: its board, the card, and the *multiset* of cards not turned yet
(never their order, never another seat's placement of the round). The value of a
placement is the seat's expected final score over ``budget`` futures drawn from that
multiset, each evaluated as ``planner:learned`` evaluates it (the C kernel's
``evaluate`` with ``judge_policy``: the shipped model's one-move weights place the
next cards, its learned value scores the rest). Every candidate meets the same
futures, so the difference between two placements is paired and its standard error
small. The candidates are ``planner:learned``'s own (its one-move ranking) and the
placement played; the last round has no future and is exact. See
docs/analysis-nmbr9.md for the thresholds. Without the kernel (installed without a C
compiler) there is no analysis: ``check_available`` refuses it, and there is no
hindsight.

>>> from tabletop.harness.selfplay import play_game
>>> from tabletop.analysis import analyse
>>> from tabletop.games.nmbr9.gametype import GAME
>>> report = analyse(GAME, play_game(GAME, ["greedy"], seed=2), budget=4)
>>> len(report.seats[0].moves), report.seats[0].moves[0].label
(20, 'round 1')
>>> report.hindsight["score"] >= report.hindsight["scores"][0]
True
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterator, Sequence
from typing import Any

from ...core.analysis import JSON, Decision, Judgement, Scale
from ...core.errors import RecordError
from ...i18n import N_, Part, part
from .bots.compiled import KERNEL, kernel
from .bots.planner import (  # also sets up the kernel's tile shapes
    LEVELS,
    THREADS,
    learned_settings,
)
from .records import Recorder, replay, same_deal
from .rules import CANONICAL, Place, State, View

#: Losses in points of expected final score; measured in docs/analysis-nmbr9.md
#: (the planner's own moves rarely lose 3, greedy's level-0 mistakes lose 5-15).
SCALE = Scale("points", "{value:.1f}", inaccuracy=3, mistake=6, blunder=12, accuracy=6)
#: Placements the kernel ranks first that are played out beside the one played: the
#: planner's own root candidates (it plays out 16).
CANDIDATES = 16
#: The noise is this many standard errors of the paired difference best - played.
NOISE_ERRORS = 2.0
#: Hindsight: beam width per unit of budget, and the candidates per beam board.
HINDSIGHT_WIDTH_PER_BUDGET = 1 / 4
HINDSIGHT_CANDIDATES = 8


class Nmbr9Analyser:
    """NMBR 9's ``Analyser`` (see ``tabletop.core.analysis`` and the module)."""

    #: Sampled futures per candidate: about 5 s of CPU for a 20-round solo game here
    #: (18 s before the futures were cut after 3 cards and valued by the learned model).
    default_budget = 200
    #: The coach's futures per candidate (``analysis.coach``): well under 0.15 s a move.
    coach_budget = 50

    def scale(self, record: JSON) -> Scale:
        return SCALE

    def check_available(self, record: JSON | None) -> None:
        """``Unavailable`` where the kernel was not built: every judgement searches in it."""
        KERNEL.check_analysis()

    def decisions(self, record: JSON) -> Iterator[Decision]:
        """Every placement, round by round and seat by seat, with the seat's view at
        the start of the round (nobody's placement of the round is in it)."""
        views: list[list[View]] = []

        def before_round(rec: Recorder) -> None:
            state = rec.state
            if not state.is_over:
                views.append([state.view(seat) for seat in range(state.game.players)])

        rec = replay(record, before_round)
        if not rec.state.is_over:
            raise RecordError("only a finished game can be analysed")
        players = rec.state.game.players
        for number, (entry, seen) in enumerate(zip(record["rounds"], views, strict=True)):
            for seat, placement in enumerate(entry["placements"]):
                # a symmetric digit's turns are one placement: name it as the engine does
                rotation = CANONICAL[entry["card"]][placement["rotation"]]
                played = Place(rotation, placement["x"], placement["y"])
                yield Decision(
                    number * players + seat,
                    seat,
                    seen[seat],
                    played,
                    f"round {number + 1}",
                    # "frame": the replay's step after this decision (one per round)
                    {
                        "card": entry["card"],
                        "level": placement["level"],
                        "frame": number + 1,
                        "label_words": part(N_("round {n}"), n=number + 1),
                    },
                )

    def canonical(self, view: View, action: Place) -> Place:
        """``action`` named as the engine lists it: a symmetric digit's turns are one
        placement (the coach judges a placement as the page sent it)."""
        assert view.card is not None
        return Place(CANONICAL[view.card][action.rotation], action.x, action.y)

    def describe(self, view: View, action: Place) -> Part:
        """A placement in the words of the game's log: "the 9 at column 12, row 8,
        level 0, turned 90°" (the level it would lie on from ``view``'s board)."""
        return describe_place(view, action)

    def position(self, record: JSON, index: int) -> State:
        """The true state at the start of the round of decision ``index`` (nobody's
        placement of that round made yet; the game is over, nothing is secret)."""
        starts: list[State] = []
        replay(record, lambda rec: starts.append(rec.state.clone()))
        players = starts[0].game.players
        if not 0 <= index < players * (len(starts) - 1):
            raise RecordError(f"the record has no decision {index}")
        return starts[index // players]

    def judge(self, decision: Decision, budget: int, seed: int) -> Judgement:
        """The played placement against the planner's candidates, over ``budget``
        sampled futures each (see the module)."""
        view: View = decision.view
        played: Place = decision.played
        legal = dict(view.legal_with_levels())
        if played not in legal:
            raise RecordError(f"{decision.label}: {played} is not legal for seat {decision.seat}")
        if view.rounds_left == 0 or len(legal) == 1:
            return _exact(view, played, legal)
        if not view.board.tiles:
            # The first tile: the board has no edge, so where and how it lies changes
            # nothing; its value is still worth showing.
            (row,) = _evaluate(view, [played], budget, seed)
            return Judgement(played, statistics.fmean(row), statistics.fmean(row))
        moves = candidates(view)
        if played not in moves:
            moves.append(played)
        rows = _evaluate(view, moves, budget, seed)
        means = [statistics.fmean(row) for row in rows]
        mine = moves.index(played)
        # ties go to the move played, then to the planner's ranking
        best = max(range(len(moves)), key=lambda i: (means[i], i == mine, -i))
        noise = NOISE_ERRORS * paired_error(rows[best], rows[mine])
        facts = {"noise": round(noise, 4), "candidates": len(moves)}
        return Judgement(moves[best], means[mine], means[best], noise, facts)

    def hindsight(self, record: JSON, budget: int, seed: int) -> JSON | None:
        """The best game found with the card order known (see ``hindsight``); none
        without the kernel it searches with."""
        return hindsight(record, budget, seed) if KERNEL.built else None


def describe_place(view: View, action: Place) -> Part:
    """``action`` in words (see ``Nmbr9Analyser.describe``), as a ``Part``.

    >>> from .rules import Game
    >>> view = Game(players=1).new_state(seed=1).view(0)
    >>> words = describe_place(view, Place(1, 0, -2))
    >>> words["key"], words["args"]["y"], words["args"]["level"]
    ('the {card} at column {x}, row {y}, level {level}, turned {degrees}°', '−2', 0)
    """
    level = dict(view.legal_with_levels()).get(action, 0)
    args = {"card": view.card, "x": _minus(action.x), "y": _minus(action.y), "level": level}
    if action.rotation:
        return part(PLACED_TURNED, **args, degrees=90 * action.rotation)
    return part(PLACED, **args)


PLACED = N_("the {card} at column {x}, row {y}, level {level}")
PLACED_TURNED = N_("the {card} at column {x}, row {y}, level {level}, turned {degrees}°")


def _minus(number: int) -> str:
    """A coordinate as the page writes it, with a real minus sign."""
    return str(number).replace("-", "\u2212")


def judge_policy() -> dict[str, object]:
    """The kernel settings the judge evaluates with: ``planner:learned``'s, the strongest
    bot's (the shipped model's one-move weights rank the candidates and play the next
    cards of each future, its learned value scores the rest). Analyses stored before
    issue 48 played whole futures with the hand-tuned weights (docs/analysis-nmbr9.md)."""
    return {**learned_settings(), "horizon": LEVELS["learned"]["horizon"]}


def candidates(view: View, count: int = CANDIDATES) -> list[Place]:
    """The planner's root candidates for ``view``: its one-move ranking, best first."""
    assert view.card is not None
    found = kernel.candidates(
        list(view.board.tiles),
        view.card,
        _remaining(view),
        view.rounds_left,
        count,
        **judge_policy(),
    )
    return [Place(r, x, y) for r, x, y, _ in found]


def _remaining(view: View) -> list[int]:
    """The unturned multiset as ten counts: all a seat knows of the future."""
    return [view.unturned.count(digit) for digit in range(10)]


def _evaluate(view: View, moves: Sequence[Place], budget: int, seed: int) -> list[list[int]]:
    """Each move's final scores over the same ``budget`` sampled futures."""
    assert view.card is not None
    return kernel.evaluate(
        list(view.board.tiles),
        view.card,
        _remaining(view),
        view.rounds_left,
        [(move.rotation, move.x, move.y) for move in moves],
        budget,
        seed=seed,
        threads=THREADS,
        **judge_policy(),
    )


def _exact(view: View, played: Place, legal: dict[Place, int]) -> Judgement:
    """The last round (or a forced move): the final score is known for every move."""
    card, score = view.card, view.board.score
    assert card is not None
    best = max(legal, key=lambda place: (legal[place], place == played))
    return Judgement(best, score + card * legal[played], score + card * legal[best])


def paired_error(best: Sequence[int], played: Sequence[int]) -> float:
    """The standard error of the mean of the paired differences ``best - played``.

    >>> paired_error([10, 12, 14], [9, 11, 13])  # always 1 apart: no doubt at all
    0.0
    >>> round(paired_error([10, 14], [10, 10]), 3)
    2.0
    """
    if len(best) < 2:
        return 0.0
    diffs = [b - p for b, p in zip(best, played, strict=True)]
    return statistics.stdev(diffs) / math.sqrt(len(diffs))


# -- hindsight ------------------------------------------------------------------------


def hindsight_width(budget: int) -> int:
    """The hindsight beam's width for an analysis ``budget``.

    >>> hindsight_width(200), hindsight_width(1)
    (50, 1)
    """
    return max(1, min(4096, round(budget * HINDSIGHT_WIDTH_PER_BUDGET)))


def hindsight(record: JSON, budget: int, seed: int = 0) -> JSON:
    """The best final score the search finds for this game's card order known in
    advance, with its placements: ``{"score", "rounds": [{"card", "rotation", "x",
    "y", "level"}], "scores": [each seat's score], "found_by"}``. Never below the best
    seat's own game (every seat had the same order): that game is given if the search
    finds less. The search (the kernel's beam with known-order rollouts) has no
    randomness, so ``seed`` changes nothing."""
    rec = replay(record)
    if not rec.state.is_over:
        raise RecordError("only a finished game can be analysed")
    cards = [entry["card"] for entry in record["rounds"]]
    scores = [board.score for board in rec.state.boards]
    width = hindsight_width(budget)
    score, found = kernel.hindsight(cards, width=width, ncand=HINDSIGHT_CANDIDATES, threads=THREADS)
    placements = [(r, x, y, level) for r, x, y, level in found]
    found_by = f"beam search, width {width}"
    top = max(range(len(scores)), key=lambda seat: (scores[seat], -seat))
    if score < scores[top]:
        score, found_by = scores[top], f"seat {top + 1} ({rec.players[top]})"
        placements = [(t.rotation, t.x, t.y, t.level) for t in rec.state.boards[top].tiles]
    rounds = [
        {"card": card, "rotation": r, "x": x, "y": y, "level": level}
        for card, (r, x, y, level) in zip(cards, placements, strict=True)
    ]
    game = hindsight_record(record, rounds)
    if game["result"]["scores"] != [score]:  # the kernel is checked against the engine
        raise RuntimeError("the hindsight game does not replay in the engine")
    shown = {"score": score, "rounds": rounds, "scores": scores, "found_by": found_by}
    return {**shown, "record": game}


#: The hindsight game's one seat in its record (the page translates it as it does a
#: bot's name; German and Dutch call it the clairvoyant: it knew the card order).
HINDSIGHT_PLAYER = N_("Hindsight")


def hindsight_record(record: JSON, rounds: list[dict[str, Any]]) -> JSON:
    """The hindsight game as a record of its own: one seat on ``record``'s deal placing
    ``rounds``, each laid by the engine (``IllegalActionError`` if one is illegal,
    ``RuntimeError`` if it lies on another level than stated), so that the replay
    page steps through it like any finished game."""
    game = same_deal(record, [HINDSIGHT_PLAYER])
    for entry in rounds:
        placed = game.apply(Place(entry["rotation"], entry["x"], entry["y"]))
        if placed.level != entry["level"]:
            raise RuntimeError(f"hindsight: {entry} lies on level {placed.level}")
    return game.to_record()


ANALYSER = Nmbr9Analyser()
