"""Nova Luna's interactive tutorial: five short chapters that teach every rule by doing it.

The steps are data (``core.tutorial``). Each chapter starts from a position of its own
(``rules.from_position``), so the end of the game and the solo rules need no forty
turns first:

1. the moon wheel (the next three tiles after the moon figure), the moon track (the
   rearmost marker moves, twice in a row, the top of a stack first), placing;
2. tasks, chains of one colour, discs, two tasks at once, a task's own tile;
3. refilling the wheel;
4. the end: the last disc wins at once; when the tiles run out, fewest discs, and a tie
   goes to whoever would move next;
5. the solo game: two phases, the tiles' cost as the score.

Every scripted action is checked by the rules in ``tests/novaluna/test_tutorial.py``.

What a step's ``highlight`` names (the board, ``web/tutorial.js``, draws each key it
finds; ``target`` is the main one, for the page's wording):

* ``spaces``: wheel spaces (their tiles) to look at;
* ``track``: moon-track spaces (0-23);
* ``cell``: ``[x, y]``, a cell of your display;
* ``task``: ``[x, y, i]``, task ``i`` of the tile at ``x, y`` in your display;
* ``button``: ``"refill"`` or ``"end-phase"``.

A wrong try's kind (``kind_of_try``): for one the rules refuse ``"not-next"`` (a tile
that is not one of the next three), ``"apart"`` (a cell that touches none of your
tiles), ``"empty"``, ``"first-cell"``, ``"taken"``, ``"no-refill"``, ``"no-end"``
(``"illegal"`` for any other); for an allowed try ``"refill"``, ``"end"``, ``"space-N"`` (a tile from
space N that fulfils no task) or ``"space-N-covers"`` (one that fulfils a task).
"""

# ruff: noqa: E501 - each text is one msgid, kept whole so that it reads as it shows

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalActionError
from ...core.game import State
from ...core.tutorial import ILLEGAL, Step, Tutorial
from ...i18n import N_
from .records import Recorder
from .rules import END_PHASE, REFILL, Game, Place, from_position
from .rules.tiles import TILE_IDS

#: The learner's opponent (seat 1).
NAMES = ("You", "Lea")


def _rest(*named: int) -> list[int]:
    """The tiles not named, in id order: a pile whose order plays no part."""
    return [t for t in TILE_IDS if t not in named]


def _recorder(state: Any) -> Recorder:
    return Recorder(state, list(NAMES[: state.game.players]), seed=0)


# Chapter 1: a fresh deal. You lie on top of the start stack, so you move first.
WHEEL_1 = {1: 12, 2: 52, 3: 22, 4: 44, 5: 19, 6: 5, 7: 35, 8: 55, 9: 9, 10: 27, 11: 42}


def first_deal() -> Recorder:
    """Chapter 1: the moon figure on the golden space, 11 tiles, empty displays."""
    state = from_position(
        Game(players=2),
        wheel=WHEEL_1,
        meeple=0,
        pile=_rest(*WHEEL_1.values()),
        displays=[{}, {}],
        stack=[1, 0],
    )
    return _recorder(state)


# Chapter 2: your display holds a red 5 ("2 blue" | "1 yellow"), a blue 4, a yellow 5
# ("3 red" | "1 red") and a red 2 ("4 red"); Lea is 7 spaces ahead.
TASKS_YOU = {(0, 0): 13, (1, 0): 26, (-1, 0): 63, (-1, 1): 2}
TASKS_LEA = {(0, 0): 44, (1, 0): 60, (0, 1): 36}
TASKS_WHEEL = {4: 18, 5: 1, 6: 46, 8: 40, 9: 23, 11: 57, 0: 15, 2: 33}


def tasks_position() -> Recorder:
    """Chapter 2: tasks, chains and discs."""
    named = [*TASKS_YOU.values(), *TASKS_LEA.values(), *TASKS_WHEEL.values()]
    state = from_position(
        Game(players=2),
        wheel=TASKS_WHEEL,
        meeple=3,
        pile=_rest(*named),
        displays=[TASKS_YOU, TASKS_LEA],
        time=[0, 7],
    )
    return _recorder(state)


# Chapter 3: two tiles left on the wheel, neither of use to you; the pile's top tile,
# a cyan 3, fulfils your red 4's "1 cyan + 1 yellow".
REFILL_YOU = {(0, 0): 8, (1, 0): 53}
REFILL_LEA = {(0, 0): 30, (0, 1): 47}
REFILL_WHEEL = {11: 3, 2: 20}
REFILL_PILE = [38, 21, 64, 6, 41, 16, 56, 11, 45]


def refill_position() -> Recorder:
    """Chapter 3: refilling the wheel."""
    named = [*REFILL_YOU.values(), *REFILL_LEA.values(), *REFILL_WHEEL.values(), *REFILL_PILE]
    state = from_position(
        Game(players=2),
        wheel=REFILL_WHEEL,
        meeple=9,
        pile=REFILL_PILE + _rest(*named),
        displays=[REFILL_YOU, REFILL_LEA],
        time=[10, 14],
    )
    return _recorder(state)


# Chapter 4a: one disc left; the blue 2 fulfils the red 5's "2 blue".
LAST_YOU = {(0, 0): 13, (1, 0): 26, (-1, 0): 63}
LAST_LEA = {(0, 0): 31, (1, 0): 45, (0, 1): 50}
LAST_WHEEL = {7: 54, 8: 20, 9: 10, 11: 28}


def last_disc_position() -> Recorder:
    """Chapter 4a: late in a game, one disc left."""
    named = [*LAST_YOU.values(), *LAST_LEA.values(), *LAST_WHEEL.values()]
    state = from_position(
        Game(players=2),
        wheel=LAST_WHEEL,
        meeple=6,
        pile=_rest(*named),
        displays=[LAST_YOU, LAST_LEA],
        time=[15, 18],
        supply=[1, 3],
    )
    return _recorder(state)


# Chapter 4b: the pile is empty, two tiles are left (a 3 and a 2), both players have two
# discs; you are on 20, Lea on 22. Neither tile fulfils a task anywhere.
TIE_YOU = {(0, 0): 36, (1, 0): 19, (0, 1): 25}
TIE_LEA = {(0, 0): 53, (1, 0): 43}
TIE_WHEEL = {3: 57, 5: 3}


def tie_position() -> Recorder:
    """Chapter 4b: the tiles run out and the discs are level."""
    state = from_position(
        Game(players=2),
        wheel=TIE_WHEEL,
        meeple=2,
        pile=[],
        displays=[TIE_YOU, TIE_LEA],
        time=[20, 22],
        supply=[2, 2],
    )
    return _recorder(state)


# Chapter 5: the solo game, 7 discs placed in phase 1; no refill until the phase ends.
SOLO_YOU = {(0, 0): 29, (-1, 0): 49, (0, 1): 20, (0, -1): 46, (-1, -1): 2, (-1, -2): 5, (-1, 1): 13}
SOLO_WHEEL = {2: 12, 4: 52, 5: 33, 8: 40, 10: 61}
SOLO_PILE = [35, 41, 62, 17, 7, 23, 55, 66, 14, 9, 47]


def solo_position() -> Recorder:
    """Chapter 5: alone, one disc short of phase 1's eight."""
    state = from_position(
        Game(players=1),
        wheel=SOLO_WHEEL,
        meeple=1,
        pile=SOLO_PILE,
        displays=[SOLO_YOU],
    )
    return _recorder(state)


#: The rules' refusals (``rules.refusals``) by a word of their message: the kind it is.
#: Each has a sentence of the tutorial's own, which comes before a step's "default" (that
#: one is worded for an allowed tile that is not the step's).
_REFUSALS = (
    ("next three", "not-next"),
    ("does not touch", "apart"),
    ("is empty", "empty"),
    ("first tile goes", "first-cell"),
    ("is taken", "taken"),
    ("refill", "no-refill"),
    ("phase", "no-end"),
)


def kind_of_try(state: State, seat: int, action: Any, error: IllegalActionError | None) -> str:
    """Which kind of wrong try ``action`` is (see the module docstring)."""
    if error is not None:
        return next((kind for word, kind in _REFUSALS if word in error.key), ILLEGAL)
    if action == REFILL:
        return "refill"
    if action == END_PHASE:
        return "end"
    assert isinstance(action, Place)  # the rules allow nothing else
    covers = bool(state.preview(action))  # type: ignore[attr-defined]  # a Nova Luna state
    return f"space-{action.space}-covers" if covers else f"space-{action.space}"


TAKE_ASKED = N_("That tile is allowed, but this step asks for the highlighted one.")
CELL_ASKED = N_(
    "Any cell touching your tiles edge to edge is allowed; this step asks for the highlighted one."
)
ALSO_FULFILS = N_(
    "That fulfils the task too, well spotted; still, lay it on the highlighted cell, which the next steps build on."
)

TUTORIAL = Tutorial(
    players=(N_("You"), N_("Lea")),
    start=first_deal,
    wrong={
        "not-next": N_(
            "Only the next three tiles clockwise from the moon figure may be taken (empty spaces are skipped): they carry the numbers 1, 2 and 3."
        ),
        "apart": N_("Every tile after your first must touch one of your tiles edge to edge."),
        "empty": N_("That space of the wheel is empty: take one of the marked tiles."),
        "first-cell": N_("Your first tile starts your display: it goes on the one cell offered."),
        "taken": N_(
            "That cell already holds a tile: lay the new one on an empty cell next to yours."
        ),
        "no-refill": N_(
            "You may refill only at the start of your turn with 1 or 2 tiles on the wheel and some left in the pile, and never during a solo phase."
        ),
        "no-end": N_("Only the solo game has phases, and phase 1 can end once 8 discs are placed."),
        "default": TAKE_ASKED,
    },
    classify=kind_of_try,
    steps=(
        # -- chapter 1: the moon wheel and the moon track ---------------------------
        Step(
            "welcome",
            N_(
                "Welcome to Nova Luna! You and Lea take tiles from the moon wheel and lay them in your displays. Tiles carry tasks; each fulfilled task gets one of your discs, and whoever first places all their discs wins."
            ),
            highlight={"target": "spaces", "spaces": [1, 2, 3]},
        ),
        Step(
            "take",
            N_(
                "The moon figure stands on the golden space. You may take one of the next three tiles clockwise from it, marked 1, 2 and 3. Take the yellow 1 on space 2: your first tile may go anywhere."
            ),
            ask="2@0,0",
            highlight={"target": "spaces", "spaces": [2], "cell": [0, 0]},
            wrong={
                "default": N_(
                    "That tile is one of the three, but it costs more time: take the yellow 1 (a tile's time is the number at its top left)."
                )
            },
        ),
        Step(
            "track",
            N_(
                "The moon figure moved to space 2, and your marker moved 1 space on the moon track: the tile's time. Whoever lies furthest back on the moon track moves next, so now it is Lea, still on 0."
            ),
            highlight={"target": "track", "track": [0, 1]},
            then=((1, "4@0,0"),),
        ),
        Step(
            "behind",
            N_(
                "Lea took the cyan 4 and moved to 4. Now you are furthest back, so it is your turn. The moon figure stands on Lea's space; space 3 lies behind it now. Take the blue 2 and lay it right of your yellow tile: every new tile must touch one of yours edge to edge."
            ),
            ask="5@1,0",
            highlight={"target": "spaces", "spaces": [5], "cell": [1, 0], "track": [1, 4]},
            wrong={
                "space-5": CELL_ASKED,
                "default": N_(
                    "That is allowed, but take the blue 2: it keeps you behind Lea, so the next step shows you moving twice in a row."
                ),
            },
        ),
        Step(
            "again",
            N_(
                "You are on 3 and Lea on 4: you are still furthest back, so you move again, twice in a row. Take the cyan 1 and lay it below your yellow tile."
            ),
            ask="7@0,1",
            highlight={"target": "spaces", "spaces": [7], "cell": [0, 1], "track": [3, 4]},
            wrong={
                "space-7": CELL_ASKED,
                "default": N_(
                    "That tile costs 3 and would take you past Lea, so she would move next; the cyan 1 keeps you behind her."
                ),
            },
        ),
        Step(
            "stack",
            N_(
                "Both markers are on 4 now, yours on top because it arrived last. Of markers on one space the top one moves first, so it is your turn again. Take the yellow 3 and lay it on the highlighted cell."
            ),
            ask="8@1,1",
            highlight={"target": "track", "track": [4], "spaces": [8], "cell": [1, 1]},
            wrong={
                "space-8": CELL_ASKED,
                "default": N_(
                    "That is allowed, but it costs 4: take the yellow 3, which the next step counts on."
                ),
            },
        ),
        Step(
            "ahead",
            N_(
                "Now you are 3 spaces ahead, so Lea moves next, as often as she stays behind you. Cheap tiles give you more turns; costly ones let the others catch up."
            ),
            highlight={"target": "track", "track": [4, 7]},
        ),
        # -- chapter 2: tasks, chains and discs -------------------------------------
        Step(
            "tasks",
            N_(
                "A new position: your display has four tiles. The coloured circles on a tile are its tasks. A task is fulfilled when as many tiles of each colour as it shows touch the tile edge to edge; then one of your discs covers it, as on the red 5's “1 yellow”."
            ),
            restart=tasks_position,
            highlight={"target": "task", "task": [0, 0, 1]},
        ),
        Step(
            "fulfil",
            N_(
                "The red 5 also asks for 2 blue and has one blue tile beside it. Take the blue 1 and lay it below the red 5: “2 blue” is fulfilled and a disc covers it."
            ),
            ask="4@0,1",
            highlight={"target": "task", "task": [0, 0, 0], "spaces": [4], "cell": [0, 1]},
            wrong={
                "space-4": N_(
                    "There the blue 1 touches neither the red 5 nor a blue tile beside it, so “2 blue” stays open."
                ),
                "space-4-covers": ALSO_FULFILS,
                "default": N_(
                    "That tile is not blue, so it cannot help with “2 blue”: take the blue 1."
                ),
            },
        ),
        Step(
            "chain",
            N_(
                "Tiles of one colour that touch edge to edge form a chain, and a task counts the whole chain if one of its tiles touches the task's tile. The yellow 5 wants 3 red and touches two. Lay the red 1 below the red 2: the chain red 2 and red 1 counts twice."
            ),
            ask="5@-1,2",
            highlight={"target": "task", "task": [-1, 0, 0], "spaces": [5], "cell": [-1, 2]},
            wrong={
                "space-5": N_(
                    "There the red 1 joins no red tile that touches the yellow 5 (corners never count), so it still sees only 2 red."
                ),
                "space-5-covers": ALSO_FULFILS,
                "default": N_(
                    "That tile is not red, so it cannot help with “3 red”: take the red 1."
                ),
            },
        ),
        Step(
            "two-tasks",
            N_(
                "One tile can fulfil several tasks at once. Lay the cyan 5 below the blue 1: its “2 red” counts the red chain beside it and its “1 blue” the blue 1, so two discs at once."
            ),
            ask="6@0,2",
            highlight={"target": "cell", "cell": [0, 2], "spaces": [6]},
            wrong={
                "space-6": N_(
                    "There no task would be fulfilled: the cyan 5 needs the red chain and a blue tile beside it."
                ),
                "space-6-covers": N_(
                    "There only one of its tasks would be fulfilled; below the blue 1 it touches the red chain and the blue 1, which fulfils both."
                ),
                "default": N_(
                    "That tile would fulfil one task at most; the cyan 5 below the blue 1 fulfils two at once."
                ),
            },
        ),
        Step(
            "own-tile",
            N_(
                "A task's own tile never counts for it: the red 2's “4 red” needs four other red tiles in the chains it touches. Corners never count, and a covered task stays covered."
            ),
            highlight={"target": "task", "task": [-1, 1, 0]},
        ),
        # -- chapter 3: refilling ---------------------------------------------------
        Step(
            "refill",
            N_(
                "Only two tiles are left on the wheel. With 1 or 2 tiles at the start of your turn you may refill it: a tile from the pile goes on every empty space, clockwise from the moon figure, whose own space stays empty. Refill the wheel."
            ),
            restart=refill_position,
            ask="refill",
            highlight={"target": "button", "button": "refill", "spaces": [11, 2]},
            wrong={
                "default": N_(
                    "You may take one of the two, but neither fulfils a task of yours: refill first and see what the pile brings."
                )
            },
        ),
        Step(
            "refilled",
            N_(
                "The new tiles lie clockwise from the moon figure. Take the cyan 3 and lay it below your red 4 to fulfil its “1 cyan + 1 yellow”. When no tile is left at the start of a turn, the refill is compulsory and happens by itself."
            ),
            ask="10@0,1",
            accept=("10@-1,0", "10@0,-1"),  # they fulfil it too; chapter 4 starts afresh
            highlight={"target": "spaces", "spaces": [10], "cell": [0, 1], "task": [0, 0, 1]},
            wrong={
                "space-10": N_(
                    "There the cyan 3 does not touch your red 4, so its task stays open."
                ),
                "default": N_(
                    "That tile fulfils no task of yours; the cyan 3 the refill brought does."
                ),
            },
        ),
        # -- chapter 4: the end -----------------------------------------------------
        Step(
            "last-disc",
            N_(
                "Late in a game: you have one disc left, Lea three. Whoever places their last disc wins at once. Take the blue 2 and lay it below the red 5 to fulfil its “2 blue”."
            ),
            restart=last_disc_position,
            ask="8@0,1",
            accept=("8@0,-1", "8@1,-1", "8@1,1", "8@2,0"),  # each places the last disc
            highlight={"target": "task", "task": [0, 0, 0], "spaces": [8], "cell": [0, 1]},
            wrong={
                "space-8": N_(
                    "There the blue 2 fulfils no task, so your last disc would stay in your supply."
                ),
                "default": N_(
                    "That tile fulfils no task, so your last disc would stay in your supply."
                ),
            },
        ),
        Step(
            "won",
            N_(
                "You placed your last disc and won. The game also ends when, at the start of a turn, no tile is left on the wheel or in the pile: then whoever has the fewest discs left wins."
            ),
        ),
        Step(
            "tie",
            N_(
                "The pile is empty and two tiles are left; you and Lea both have 2 discs. If the discs are level at the end, whoever would move next wins. Take the yellow 3 and lay it on the highlighted cell."
            ),
            restart=tie_position,
            ask="3@-1,0",
            accept=("3@-1,1", "3@0,-1", "3@0,2", "3@1,-1", "3@1,1", "3@2,0"),  # the tile counts
            highlight={"target": "spaces", "spaces": [3], "cell": [-1, 0], "track": [20, 22]},
            wrong={
                "default": N_(
                    "With the red 2 you would land on Lea's space, on top, so you would move again and have to take the 3 as well: then you would end ahead of her and lose the tie."
                ),
            },
            then=((1, "5@-1,0"),),
        ),
        Step(
            "tie-won",
            N_(
                "Lea took the last tile and moved to 24. No tile is left, so the game is over. Both of you have 2 discs left, but you lie further back on the moon track and would move next: you win the tie."
            ),
            highlight={"target": "track", "track": [23, 0]},
        ),
        # -- chapter 5: the solo game -----------------------------------------------
        Step(
            "solo",
            N_(
                "Alone, you place 21 discs in two phases: 8 in phase 1, 13 in phase 2. There is no moon track: each tile's time is added to your score, and lower is better. You have placed 7. Take the yellow 1 and lay it left of the red 5 to fulfil its “1 yellow”."
            ),
            restart=solo_position,
            ask="4@-2,1",
            accept=("4@-1,2",),
            highlight={"target": "spaces", "spaces": [4], "cell": [-2, 1], "task": [-1, 1, 1]},
            wrong={
                "space-4": N_("There the yellow 1 touches no tile with an open yellow task."),
                "default": N_(
                    "Every tile's time is added to your score: the yellow 1 fulfils a task for just 1."
                ),
            },
        ),
        Step(
            "end-phase",
            N_(
                "8 discs placed: you may end phase 1 now. Its score is your tiles' time (plus 10 for each of the 8 discs not placed). The wheel is never refilled during a phase; ending phase 1 refills it. End phase 1."
            ),
            ask="end",
            highlight={"target": "button", "button": "end-phase"},
            wrong={
                "default": N_(
                    "You may keep taking tiles in phase 1, which fills the wheel better for phase 2, but each adds its time to your score: end phase 1 now."
                )
            },
        ),
        Step(
            "phase-2",
            N_(
                "Phase 2 ends when all 21 discs are placed or the wheel is empty. Take the cyan 1 and lay it right of the blue 5: with the two cyan tiles beside it, its “3 cyan” is fulfilled."
            ),
            ask="6@1,0",
            accept=("6@-2,0", "6@0,-2", "6@1,-1"),  # through a cyan chain: “3 cyan” too
            highlight={"target": "task", "task": [0, 0, 0], "spaces": [6], "cell": [1, 0]},
            wrong={
                "space-6": N_(
                    "There the cyan 1 does not touch the blue 5, so “3 cyan” stays open."
                ),
                "default": N_(
                    "Every tile's time is added to your score: the cyan 1 fulfils a task for just 1."
                ),
            },
        ),
        Step(
            "done",
            N_(
                "Phase 2's score is the time of all your tiles plus 10 for each of the 21 discs not placed; your total adds both phases, and the rulebook calls under 100 good. You know the rules now: try a real game!"
            ),
        ),
    ),
)
