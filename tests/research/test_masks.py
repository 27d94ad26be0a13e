"""The mask contract, checked for every game with an encoding (the toy games of
``tests/`` included), dealt and undealt: ``mask(seat)`` is a new ``int8`` array of
``Setup.actions`` entries, ``legal_actions(seat)`` its nonzero indices in increasing
order, the seat to act always has one, and an action the mask forbids raises
``IllegalActionError`` and changes nothing."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from tabletop.core.errors import IllegalActionError
from tabletop.research.encoding import CHANCE, TERMINAL, Encoder, encoding

from research_support import research_games, seats

GAMES = research_games()
CASES = [(name, p) for name in GAMES for p in sorted(set(seats(name)))]


def shown(encoder: Encoder, players: int) -> list[Any]:
    """Everything every seat is shown, to compare before and after a refused action."""
    return [(encoder.observe(s).tolist(), encoder.mask(s).tolist()) for s in range(players)]


def check_masks(encoder: Any, actions: int, players: int, rng: random.Random) -> int:
    """Play ``encoder`` out at random, checking the masks at every decision; the
    decisions checked."""
    checked = 0
    while (seat := encoder.acting()) != TERMINAL and encoder.truncation is None:
        if seat == CHANCE:
            outcomes, odds = zip(*encoder.chance_outcomes(), strict=True)
            encoder.apply_chance(rng.choices(outcomes, odds)[0])
            continue
        mask = encoder.mask(seat)
        assert mask.dtype == np.int8 and mask.shape == (actions,)
        legal = encoder.legal_actions(seat)
        assert legal == np.flatnonzero(mask).tolist() and legal, "the seat to act has none"
        mask[:] = 1 - mask  # the caller's to keep: the encoder's own is untouched
        assert encoder.legal_actions(seat) == legal
        forbidden = [a for a in range(actions) if a not in legal]
        if forbidden:
            before = shown(encoder, players)
            with pytest.raises(IllegalActionError):
                encoder.apply(rng.choice(forbidden), seat)
            assert shown(encoder, players) == before
        encoder.apply(rng.choice(legal), seat)
        checked += 1
    return checked


@pytest.mark.parametrize(("name", "players"), CASES)
def test_masks_name_the_legal_actions_and_refuse_the_rest(name: str, players: int) -> None:
    setup = encoding(name).setup(players)
    rng = random.Random(f"{name}{players}")
    assert check_masks(setup.deal(1, {}), setup.actions, players, rng) > 0
    assert check_masks(setup.undealt(), setup.actions, players, rng) > 0
