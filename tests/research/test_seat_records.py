"""A program playing one seat on the server gets only its seat record
(``GameType.seat_record``); the research side turns it into what its policy needs: the
encoder (``Encoding.from_seat_record``) and OpenSpiel's state
(``SpielGame.state_from_seat_record``), for every game with an encoding. The games' own
tests check the encoder against the real game's; here the OpenSpiel state is checked
against the encoder, and an MCTS bot chooses from it."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts  # noqa: E402

from tabletop.core.errors import RecordError  # noqa: E402
from tabletop.core.game import get_game  # noqa: E402
from tabletop.games.nmbr9.encoding import in_window  # noqa: E402
from tabletop.games.nmbr9.rules import parse_action  # noqa: E402
from tabletop.research import openspiel  # noqa: E402
from tabletop.research.encoding import encoding, spiel_name  # noqa: E402

from research_support import research_games, seats  # noqa: E402

GAMES = research_games()


@pytest.fixture(autouse=True)
def spiel_games():
    openspiel.register()  # every registered game with an encoding, the toy included


def parameters(record: dict) -> dict:
    """The OpenSpiel parameters of the game a seat record is of."""
    params = {"players": len(record["players"])}
    if "removed" in record:  # NMBR 9: the cards removed are known once the game is set up
        params["remove"] = record["removed"]
    return params


def random_match(name: str, players: int, rng: random.Random, steps: int):
    game = get_game(name)
    options = {"remove": "random"} if name == "nmbr9" and rng.random() < 0.5 else {}
    match = game.new_match(players, game.check_options(options, players), rng.randrange(999))
    for _ in range(steps):
        if match.is_over():
            break
        seat = rng.choice(sorted(match.active_seats()))
        match.apply(seat, rng.choice(encodable(match, seat))["action"])
    return match


def encodable(match, seat: int) -> list[dict]:
    """The seat's choices that the research encoding can express: NMBR 9's inside its
    window (the table has no edge)."""
    choices = match.choices(seat)
    if match.game.name != "nmbr9":
        return choices
    card = match.state.card
    return [c for c in choices if in_window(card, parse_action(c["action"]))]


CASES = [(name, players) for name in GAMES for players in sorted(set(seats(name)))]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_spiel_state_of_a_seat_record_is_the_encoders_position(name, players):
    game, rng = get_game(name), random.Random(f"{name}{players}")
    for steps in (0, 3, 11, 25):
        match = random_match(name, players, rng, steps)
        for seat in range(players):
            record = game.seat_record(match.recorder, seat)
            seed = rng.randrange(2**32)
            spiel = pyspiel.load_game(spiel_name(name), parameters(record))
            state = spiel.state_from_seat_record(record, seed)
            encoder = encoding(name).from_seat_record(record, seed)
            assert state.is_terminal() == match.is_over()
            if seat not in match.active_seats():
                continue
            assert state.current_player() == seat
            assert state.legal_actions() == encoder.legal_actions(seat)
            scaled = spiel.setup.scaler(encoder.observe(seat))
            assert np.array_equal(np.asarray(state.observation_tensor(seat)), scaled)
            clone = state.clone()
            clone.apply_action(state.legal_actions()[0])  # the game goes on from there


@pytest.mark.parametrize("name", GAMES)
def test_an_mcts_bot_plays_a_seat_from_its_seat_record(name):
    game, rng = get_game(name), random.Random(name)
    match = random_match(name, 2, rng, 5)
    seat = sorted(match.active_seats())[0]
    record = game.seat_record(match.recorder, seat)
    spiel = pyspiel.load_game(spiel_name(name), parameters(record))
    state = spiel.state_from_seat_record(record, 1)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(spiel, 2, 8, evaluator, random_state=np.random.RandomState(0))
    action = bot.step(state)
    assert action in state.legal_actions()
    text = state.action_to_string(seat, action)
    match.apply(seat, text)  # the move the server is sent, in the game's notation


def test_a_seat_record_of_another_variant_or_game_is_refused():
    luna = get_game("nova-luna")
    record = luna.seat_record(random_match("nova-luna", 3, random.Random(1), 4).recorder, 0)
    two = pyspiel.load_game(spiel_name("nova-luna"), {"players": 2})
    with pytest.raises(RecordError, match="loaded for 2"):
        two.state_from_seat_record(record, 1)
    nmbr9 = pyspiel.load_game(spiel_name("nmbr9"), {"players": 3, "remove": 2})
    with pytest.raises(RecordError, match="not a seat record of NMBR 9"):
        nmbr9.state_from_seat_record(record, 1)
    n9 = get_game("nmbr9")
    other = n9.seat_record(random_match("nmbr9", 3, random.Random(2), 4).recorder, 1)
    other["removed"], other["random_removal"] = 0, False
    with pytest.raises(RecordError, match="remove=2"):
        nmbr9.state_from_seat_record(other, 1)
    with pytest.raises(RecordError):
        nmbr9.state_from_seat_record({**other, "revealed": [11]}, 1)


def test_a_game_the_window_cannot_hold_is_refused_clearly():
    nmbr9 = get_game("nmbr9")
    rec = nmbr9.new_recorder(1, {"remove": 0}, ["Ann"], seed=3)
    state = rec.state
    rec.apply(state.legal_actions(0)[0], 0)
    while True:  # lay tiles away to the right until one lies outside the window
        far = max(state.legal_actions(0), key=lambda p: p.x)
        rec.apply(far, 0)
        if not in_window(state.deck_order()[state.round - 1], far):
            break
    record = nmbr9.seat_record(rec, 0)
    with pytest.raises(RecordError, match="outside the encoding's 40 x 40 window"):
        encoding("nmbr9").from_seat_record(record, 1)
    spiel = pyspiel.load_game(spiel_name("nmbr9"), {"players": 1})
    with pytest.raises(RecordError, match="outside the encoding's 40 x 40 window"):
        spiel.state_from_seat_record(record, 1)
    assert nmbr9.determinize(record, 1).round == state.round  # the rules have no edge
