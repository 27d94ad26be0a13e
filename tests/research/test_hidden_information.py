"""Two research rules every encoding must keep, checked for every game with one (the
toy games of ``tests/`` included), each proven able to fail on a deliberately bad
encoding:

* **A simultaneous round hides who has acted.** The encoder takes a round's seats one
  after another (``acting()`` in seat order), but the game is simultaneous: while the
  round is open, a seat's action changes no other seat's observation or mask — neither
  what it chose nor *that* it has chosen. (PettingZoo's parallel environment observes
  every seat between rounds; an AEC observation that showed who had acted would hand a
  policy what the real game never shows.)
* **An observation holds nothing its seat has not seen.** The encoder rebuilt from a
  seat record (``Encoding.from_seat_record``) draws what the seat has not seen — the
  pile's order, other seats' pending moves — from a seed: whatever the seed, the seat's
  observation and mask are the same.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from tabletop.core.game import get_game
from tabletop.research.encoding import CHANCE, TERMINAL, Encoder, encoding

from research_support import research_games, seats

GAMES = research_games()
SIMULTANEOUS = [name for name in GAMES if encoding(name).simultaneous]
WITH_SEAT_RECORDS = [name for name in GAMES if get_game(name).offers_seat_records]


def seen(encoder: Encoder, seat: int) -> tuple[list[Any], list[int]]:
    """What ``seat`` is shown: its observation and its mask."""
    return encoder.observe(seat).tolist(), encoder.mask(seat).tolist()


def check_rounds_hide_who_acted(encoder: Encoder, players: int, rng: random.Random) -> int:
    """Play ``encoder`` out at random; ``AssertionError`` where a seat's action, the
    round still open, changed what another seat is shown. Returns the actions checked."""
    checked = 0
    while encoder.acting() not in (TERMINAL, CHANCE) and encoder.truncation is None:
        seat = encoder.acting()
        before = {other: seen(encoder, other) for other in range(players) if other != seat}
        encoder.apply(rng.choice(encoder.legal_actions(seat)), seat)
        if encoder.acting() > seat:  # a later seat of the same round: the round is open
            for other, shown in before.items():
                assert seen(encoder, other) == shown, (
                    f"seat {other} is shown that seat {seat} has acted in the open round"
                )
            checked += 1
    return checked


def simultaneous_cases() -> list[tuple[str, int]]:
    return [(name, p) for name in SIMULTANEOUS for p in sorted({2, seats(name)[1]})]


@pytest.mark.parametrize(("name", "players"), simultaneous_cases())
def test_a_pending_action_shows_nothing_to_the_other_seats(name: str, players: int) -> None:
    setup = encoding(name).setup(players)
    checked = sum(
        check_rounds_hide_who_acted(setup.deal(seed, {}), players, random.Random(seed))
        for seed in range(3)
    )
    assert checked > 0


class ShowsWhoActed:
    """A deliberately bad encoder: the real one, its observation followed by the seat
    to act, which tells every seat how many of the round have acted already."""

    def __init__(self, inner: Encoder) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def observe(self, seat: int) -> np.ndarray:
        return np.append(self.inner.observe(seat), self.inner.acting())


def test_the_round_check_catches_an_encoding_that_shows_who_has_acted() -> None:
    assert SIMULTANEOUS, "no simultaneous game with an encoding is registered"
    setup = encoding(SIMULTANEOUS[0]).setup(2)
    bad: Any = ShowsWhoActed(setup.deal(1, {}))
    with pytest.raises(AssertionError, match="shown that seat 0 has acted"):
        check_rounds_hide_who_acted(bad, 2, random.Random(1))


# -- an observation shows nothing the seat has not seen --------------------------------


def random_match(name: str, players: int, rng: random.Random, steps: int) -> Any:
    """A web match of ``name`` after ``steps`` random moves that the encoding can
    express (``Encoder.action_index``; NMBR 9's window has an edge, the table none)."""
    game = get_game(name)
    match = game.new_match(players, game.check_options({}, players), rng.randrange(999))
    for _ in range(steps):
        if match.is_over():
            break
        seat = rng.choice(sorted(match.active_seats()))
        mirror = encoding(name).from_seat_record(game.seat_record(match.recorder, seat), 0)
        choices = [c for c in match.choices(seat) if _expressible(mirror, game, c["action"])]
        match.apply(seat, rng.choice(choices)["action"])
    return match


def _expressible(encoder: Encoder, game: Any, text: str) -> bool:
    try:
        encoder.action_index(game.parse_action(text))
    except ValueError:
        return False
    return True


def check_seat_records_hide_the_unseen(
    rebuild: Any, name: str, players: int, rng: random.Random
) -> int:
    """At random points of a random match, every seat's encoder rebuilt from its seat
    record with two seeds (``rebuild(seat_record, seed)``) shows that seat the same.
    Returns the seats checked."""
    game = get_game(name)
    checked = 0
    for steps in (0, 2, 5, 9):
        match = random_match(name, players, rng, steps)
        for seat in range(players):
            record = game.seat_record(match.recorder, seat)
            one, two = (rebuild(record, seed) for seed in (1, 2))
            assert seen(one, seat) == seen(two, seat), (
                f"seat {seat} is shown something of what it has not seen"
            )
            checked += 1
    return checked


@pytest.mark.parametrize("name", WITH_SEAT_RECORDS)
def test_an_observation_shows_nothing_its_seat_has_not_seen(name: str) -> None:
    rebuild = encoding(name).from_seat_record
    for players in sorted({max(2, seats(name)[0]), seats(name)[1]}):
        assert check_seat_records_hide_the_unseen(rebuild, name, players, random.Random(name))


class ShowsTheNextTile:
    """A deliberately bad Toy Draft encoder: its observation followed by the pile's next
    tile, which nobody has seen."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def observe(self, seat: int) -> np.ndarray:
        pile = self.inner.state.pile
        return np.append(self.inner.observe(seat), pile[0] if pile else 0)


def test_the_seat_record_check_catches_an_encoding_that_shows_the_pile() -> None:
    rebuild = encoding("toy").from_seat_record

    def bad(record: Any, seed: int) -> Any:
        return ShowsTheNextTile(rebuild(record, seed))

    with pytest.raises(AssertionError, match="has not seen"):
        check_seat_records_hide_the_unseen(bad, "toy", 2, random.Random(3))
