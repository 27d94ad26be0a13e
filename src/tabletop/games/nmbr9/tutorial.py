"""NMBR 9's interactive tutorial: four rounds against Ada that teach every rule.

The steps are data (``core.tutorial``): the card, the first tile anywhere, all placing
the same card at once, touching on the table, higher levels and their support rule,
scoring digit × level, the end. The deck is arranged (9, 8, 8, 0, ...), so every step's
outline is a legal placement the rules check like any other.

What a step's ``highlight`` names (the board, ``web/index.js``, draws it):

* ``card``: the card of this round and the cards still to come;
* ``placement``: the outline of the placement the step asks for (its ``ask``);
* ``players``: the players' boards (Ada's among them);
* ``board``: your board;
* ``levels``: the table of points by level.

A wrong try's kind (``kind_of_try``) comes from the rules' own refusal: ``"alone"``
(rests on one tile), ``"overhang"`` (a square over nothing), ``"uneven"`` (squares at
different heights), ``"apart"`` (touches no tile of its level), else ``"illegal"``;
``"legal"`` for an allowed placement that is not the one asked.
"""

# ruff: noqa: E501 - each text is one msgid, kept whole so that it reads as it shows

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalActionError
from ...core.game import State
from ...core.tutorial import ILLEGAL, LEGAL, Step, Tutorial
from ...i18n import N_
from .records import Recorder
from .rules import Game

#: The cards in draw order: the tutorial plays the first four.
DECK = (9, 8, 8, 0, 5, 3, 7, 1, 6, 2, 4, 9, 5, 3, 0, 7, 1, 6, 2, 4)


def deal() -> Recorder:
    """The tutorial's game: you and Ada, the arranged deck."""
    state = Game(players=2).new_state(deck=DECK)
    return Recorder(state, ["You", "Ada"], seed=0)


#: The rules' refusals (``rules.board``) by a word of their message: the kind it is.
_KINDS = (
    ("alone", "alone"),
    ("nothing under it", "overhang"),
    ("lower than square", "uneven"),
    ("does not touch", "apart"),
)


def kind_of_try(state: State, seat: int, action: Any, error: IllegalActionError | None) -> str:
    """Which rule a wrong try breaks (see the module), from the rules' own refusal."""
    if error is None:
        return LEGAL
    return next((kind for word, kind in _KINDS if word in error.key), ILLEGAL)


TUTORIAL = Tutorial(
    players=(N_("You"), N_("Ada")),
    start=deal,
    wrong={
        "alone": N_(
            "This tile would rest on one tile only: above the table a tile must rest on at least two tiles."
        ),
        "overhang": N_(
            "Part of this tile would lie over nothing: above the table every square must lie on a tile, with no overhang and no gap."
        ),
        "uneven": N_(
            "The squares under this tile are not all at the same height: a tile must lie flat on one level."
        ),
        "apart": N_(
            "This tile touches none of your tiles on its level: it must share a square's edge with one of them."
        ),
        "legal": N_(
            "That spot is allowed, but this step asks for the outlined one: move the tile onto the outline."
        ),
    },
    classify=kind_of_try,
    steps=(
        Step(
            "card",
            N_(
                "Each round one number card is turned, and every player takes a number tile of that number. There are 20 cards, each number from 0 to 9 twice: here you see this round's card and the cards still to come."
            ),
            highlight={"target": "card"},
        ),
        Step(
            "first",
            N_(
                "Round 1: the {card}. Your first tile goes anywhere on the table, turned any way you like. Place it on the outline and confirm (Enter)."
            ),
            args={"card": 9},
            ask="r0@0,0",
            highlight={"target": "placement"},
            wrong={
                "legal": N_(
                    "In a game you may turn your first tile any way; here place it as the outline shows, so that the next steps fit."
                )
            },
            then=((1, "r0@0,0"),),
        ),
        Step(
            "together",
            N_(
                "Ada placed her {card} at the same time, on her own table: in every round all players place the same number at once. You see the other boards once everyone has placed."
            ),
            args={"card": 9},
            highlight={"target": "players"},
        ),
        Step(
            "touch",
            N_(
                "Round 2: the {card}. A new tile on the table must touch one of your tiles along at least one square's edge; a corner is not enough. Place the {card} on the outline, beside your 9."
            ),
            args={"card": 8},
            ask="r0@3,-1",
            highlight={"target": "placement"},
            then=((1, "r1@-4,0"),),
        ),
        Step(
            "higher",
            N_(
                "You may also place a tile on top of your tiles: on level 1, then level 2, and so on. It must lie completely on tiles, with no overhang and no gap under it, and rest on at least two different tiles."
            ),
            highlight={"target": "board"},
        ),
        Step(
            "up",
            N_(
                "Round 3: the second {card}. Place it on level 1, across your 9 and your 8, on the outline. Try another spot first if you like: the rules say why it fails."
            ),
            args={"card": 8},
            ask="r1@1,0",
            highlight={"target": "placement"},
            wrong={
                "legal": N_(
                    "That spot is allowed, but on the table, where a tile scores nothing: place this {card} on level 1, on the outline."
                )
            },
            then=((1, "r1@-2,1"),),
        ),
        Step(
            "score",
            N_(
                "At the end each tile scores its number × its level: your 8 on level 1 scores 8 points, and tiles on the table (level 0) score nothing. So put the high numbers high."
            ),
            highlight={"target": "levels"},
        ),
        Step(
            "end",
            N_(
                "After the 20th card the game ends and the highest total wins; equal totals share the place. That is every rule: leave the tutorial and play a real game."
            ),
            highlight={"target": "card"},
        ),
    ),
)
