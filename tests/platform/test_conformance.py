"""What every game the platform hosts must do, checked the same way for each.

Random games through the game's ``Table`` end, record themselves, replay to the
same outcome and are fixed by their seed; outcomes are well formed (and a game that
reads a record's outcome itself agrees with replaying it); bad bot names and bad
records are refused with the game's own errors; the declared options make the page's
fields, the check and the command line's flags alike.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random

import pytest

from tabletop.core.errors import BotSpecError, OptionsError, RecordError
from tabletop.core.game import ROUND, TURN, GameType, game_types, get_game
from tabletop.core.options import UNKNOWN
from tabletop.core.web import SIMULTANEOUS, TAKE_BACK, ActionRejected, web_games
from tabletop.harness.selfplay import play_game

GAMES = sorted(game_types())


def seat_counts(name: str) -> list[int]:
    game = get_game(name)
    return list(range(game.min_seats, game.max_seats + 1))


CASES = [(name, players) for name in GAMES for players in seat_counts(name)]


def strip(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "created"}


@pytest.mark.parametrize(("name", "players"), CASES)
def test_random_games_end_record_and_replay(name, players):
    game = get_game(name)
    for seed in (1, 2):
        record = play_game(game, ["random"] * players, seed)
        assert record["game"] == name and record["over"] is True
        again = json.loads(json.dumps(record))  # records survive JSON unchanged
        assert again == record
        summary = game.verify(again)
        assert isinstance(summary, str) and summary
        outcome = game.outcome(record)
        assert len(outcome.ranks) == len(outcome.scores) == players
        assert min(outcome.ranks) == 1 and all(1 <= r <= players for r in outcome.ranks)
        # a shared rank takes the places of all who share it: ranks are "1 + seats ahead"
        for seat, rank in enumerate(outcome.ranks):
            assert rank == 1 + sum(other < rank for other in outcome.ranks)
            assert outcome.wins(seat) == (1 / outcome.ranks.count(1) if rank == 1 else 0)
        assert outcome.length > 0


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_outcome_of_a_record_is_that_of_its_replayed_state(name, players):
    """``GameType.outcome`` replays the record by default; a game that reads the record
    instead (much faster) must say the same as ``State.outcome()``."""
    game = get_game(name)
    for seed in (3, 4, 5):
        record = play_game(game, ["random"] * players, seed)
        assert game.outcome(record) == game.read_record(record).state.outcome()


def _options_parser(game: GameType) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(exit_on_error=False)
    game.add_options(parser)
    return parser


@pytest.mark.parametrize("name", GAMES)
def test_declared_options_make_the_page_fields_the_check_and_the_flags(name):
    game = get_game(name)
    fields = game.describe()["options"]
    assert fields == [option.page_field() for option in game.declared_options]
    assert json.loads(json.dumps(fields)) == fields  # the page reads them as JSON
    defaults = {option.name: option.default for option in game.declared_options}
    for players in seat_counts(name):
        assert game.check_options({}, players) == defaults
        assert game.check_options(defaults, players) == defaults
    with pytest.raises(OptionsError) as refused:
        game.check_options({"no_such_option": 1}, game.max_seats)
    assert refused.value.key == UNKNOWN
    parser = _options_parser(game)
    assert game.options(parser.parse_args([]), game.max_seats) == {
        option.name: option.default for option in game.declared_options if option.flag
    }
    for option in game.declared_options:
        if option.flag is None:
            continue
        values = [c.value for c in option.choices] if option.choices else [True, False]
        for value in values:
            switch = [option.flag] * (value != option.default)  # a switch: given or not
            argv = [option.flag, str(value)] if option.choices else switch
            read = game.options(parser.parse_args(argv), game.max_seats)
            assert read[option.name] == value, argv  # a flag reads back the option's value


@pytest.mark.parametrize("name", GAMES)
def test_a_game_is_fixed_by_its_seed_and_bots(name):
    game = get_game(name)
    players = min(2, game.max_seats)
    first = play_game(game, ["greedy", "random"][:players], 7)
    second = play_game(game, ["greedy", "random"][:players], 7)
    other = play_game(game, ["greedy", "random"][:players], 8)
    assert strip(first) == strip(second)
    assert strip(first) != strip(other)


@pytest.mark.parametrize("name", GAMES)
def test_tables_ask_every_acting_seat_and_refuse_what_is_not_legal(name):
    game = get_game(name)
    table = game.new_table(2, {}, ["A", "B"], seed=3)
    rng = random.Random(0)
    asked = set()
    while acting := table.acting():
        for seat in acting:
            asked.add(seat)
            view = table.view(seat)
            table.apply(seat, rng.choice(view.legal_actions()))
        if len(asked) == 2:
            break
    assert asked == {0, 1}


@pytest.mark.parametrize("name", GAMES)
def test_unknown_bots_and_foreign_records_are_refused(name):
    game = get_game(name)
    with pytest.raises(BotSpecError, match="unknown bot 'nobody'"):
        game.check_bot("nobody", 2)
    for record in ({"game": "chess", "format": 1}, [], "x", {"game": name, "format": 99}):
        with pytest.raises(RecordError):
            game.verify(record)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_offers_random_and_greedy_bots(name):
    game = get_game(name)
    assert {"random", "greedy"} <= set(game.bots.names())


# -- the web side: every game the server hosts ------------------------------------------------

WEB_GAMES = sorted(web_games())


def _views(match, seats: int) -> list[str]:
    return [json.dumps(match.view(viewer)) for viewer in [None, *range(seats)]]


@pytest.mark.parametrize("name", WEB_GAMES)
def test_web_matches_play_out_and_rebuild_from_their_stored_actions(name):
    web = web_games()[name]
    seats = min(3, web.max_seats)
    options = web.check_setup([{"kind": "human"}] * seats, {})
    match = web.new_match(seats, options, seed=5)
    rng = random.Random(1)
    stored: list[tuple[int, str]] = []
    while active := match.active_seats():
        assert web.dynamics == SIMULTANEOUS or len(active) == 1
        for seat in range(seats):  # only active seats have choices
            assert bool(match.choices(seat)) == (seat in active)
        seat = rng.choice(sorted(active))
        action = rng.choice(match.choices(seat))["action"]
        copy, before = match.clone(), _views(match, seats)
        applied = match.apply(seat, action)
        stored.append((seat, action))
        assert _views(copy, seats) == before  # a clone is independent
        assert isinstance(applied.log["text"], str)
        if web.dynamics == SIMULTANEOUS and not applied.reveals:
            assert match.has_pending(seat) and seat not in match.active_seats()
            if rng.random() < 0.2:  # take it back now and then: as if never placed
                assert not match.apply(seat, TAKE_BACK).reveals
                stored.append((seat, TAKE_BACK))
                assert _views(match, seats) == before
        else:
            assert not any(match.has_pending(s) for s in range(seats))
    assert match.is_over() and match.result() is not None
    again = web.new_match(seats, options, seed=5)
    for seat, action in stored:  # what a restart does: same actions, same game
        again.apply(seat, action)
    assert _views(again, seats) == _views(match, seats) and again.result() == match.result()
    record = json.loads(json.dumps(match.record([f"P{s}" for s in range(seats)])))
    frames = web.replay(record)
    assert frames[-1]["view"] == json.loads(json.dumps(match.view(None)))
    with pytest.raises(ActionRejected):
        match.apply(0, stored[-1][1])


@pytest.mark.parametrize("name", WEB_GAMES)
def test_the_page_is_told_what_a_replay_step_is(name):
    """replay.js counts turns or rounds by the facts' ``replay_step`` (by default rounds
    in a simultaneous game): the replay's steps must be what the outcome counts."""
    web = web_games()[name]
    step = web.describe()["replay_step"]
    assert step in (TURN, ROUND)
    record = play_game(web, ["random"] * min(2, web.max_seats), 6)
    outcome = web.outcome(record)
    # the replay's steps are those the outcome counts: "Turn 3 of 37" is the 37 turns
    assert (len(web.replay(record)) - 1, outcome.length_name) == (outcome.length, step + "s")


@pytest.mark.parametrize("name", [n for n in WEB_GAMES if web_games()[n].dynamics == SIMULTANEOUS])
def test_a_pending_action_shows_in_no_other_view_and_no_log(name):
    """Two different actions of one seat leave every other seat's and the spectator's
    view, and the public log entry, the same: nothing of a pending action leaks."""
    web = web_games()[name]
    seats = 3
    match = web.new_match(seats, web.check_setup([{"kind": "human"}] * seats, {}), seed=2)
    rng = random.Random(4)
    for _ in range(12):  # several rounds, each seat in turn holding back
        active = sorted(match.active_seats())
        if len(active) < 2:
            seat = active[0]
            match.apply(seat, rng.choice(match.choices(seat))["action"])
            continue
        seat = rng.choice(active)
        first, second = rng.sample([c["action"] for c in match.choices(seat)], 2)
        one, other = match.clone(), match.clone()
        log_one = one.apply(seat, first).log
        log_other = other.apply(seat, second).log
        assert log_one == log_other
        for viewer in [None, *(s for s in range(seats) if s != seat)]:
            assert one.view(viewer) == other.view(viewer)
        assert one.view(seat) != other.view(seat)  # the seat itself sees its own
        bots = [s for s in active if s != seat]
        job_one, job_other = (m.bot_job(bots[0], "random", 1) for m in (one, other))
        # what a bot is given holds nothing of the pending action
        assert pickle.dumps(job_one.args) == pickle.dumps(job_other.args)
        match = one
