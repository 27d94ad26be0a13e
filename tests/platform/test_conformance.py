"""What every game the platform hosts must do, checked the same way for each.

Random games through the game's ``Table`` end, record themselves, replay to the
same outcome and are fixed by their seed; outcomes are well formed (and a game that
reads a record's outcome itself agrees with replaying it); bad bot names and bad
records are refused with the game's own errors; the declared options make the page's
fields, the check and the command line's flags alike. Nothing still hidden reaches a
page: not a seat's or a spectator's view, choices, log, result or replay (page
secrecy, below), nor, in a simultaneous game, a pending action.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import pickle
import random

import pytest

from tabletop.core.errors import BotSpecError, OptionsError, RecordError
from tabletop.core.game import JSON, ROUND, TURN, GameType, game_types, get_game
from tabletop.core.match import Match
from tabletop.core.options import UNKNOWN
from tabletop.core.page import page_choices, page_view
from tabletop.core.web import SIMULTANEOUS, TAKE_BACK, ActionRejected, web_games
from tabletop.games.nmbr9.page import Nmbr9Page
from tabletop.harness.selfplay import play_game
from toygame.page import ToyPage

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


def check_pending_actions_stay_hidden(web) -> None:
    """Two different actions of one seat leave every other seat's and the spectator's
    view, the public log entry, and the log of another seat's action after it the same:
    nothing of a pending action leaks."""
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
        assert log_one == log_other, "a log shows a pending action"
        for viewer in [None, *(s for s in range(seats) if s != seat)]:
            assert one.view(viewer) == other.view(viewer), "a page shows a pending action"
        assert one.view(seat) != other.view(seat)  # the seat itself sees its own
        bots = [s for s in active if s != seat]
        if len(bots) > 1:  # a further action that resolves nothing: its log is public too
            action = rng.choice(one.choices(bots[0]))["action"]
            after = [m.clone().apply(bots[0], action) for m in (one, other)]
            assert not after[0].reveals
            assert after[0].log == after[1].log, "a log shows another seat's pending action"
        job_one, job_other = (m.bot_job(bots[0], "random", 1) for m in (one, other))
        # what a bot is given holds nothing of the pending action
        assert pickle.dumps(job_one.args) == pickle.dumps(job_other.args)
        match = one


@pytest.mark.parametrize("name", [n for n in WEB_GAMES if web_games()[n].dynamics == SIMULTANEOUS])
def test_a_pending_action_shows_in_no_other_view_and_no_log(name):
    check_pending_actions_stay_hidden(web_games()[name])


class _LogShowsPendingPlacements(Nmbr9Page):
    """NMBR 9's page whose log of a placement lists the other seats' pending ones."""

    def play(self, recorder, seat, action):
        applied = super().play(recorder, seat, action)
        placed = recorder.state.placed
        log = {**applied.log, "others": [repr(p) for s, p in enumerate(placed) if s != seat]}
        return dataclasses.replace(applied, log=log)


def test_a_log_that_shows_pending_actions_is_caught():
    honest = get_game("nmbr9")

    class Leaky(type(honest)):
        page = _LogShowsPendingPlacements()

    check_pending_actions_stay_hidden(honest)
    with pytest.raises(AssertionError, match="another seat's pending action"):
        check_pending_actions_stay_hidden(Leaky())


# -- page secrecy: nothing hidden reaches a page ----------------------------------------------
#
# Two games that agree on everything a seat has seen but differ in what is still hidden
# (the unseen order, other seats' pending actions) are dealt from the seat's seat record
# (``GameType.determinize`` with two seeds): the seat's and a spectator's page, the seat's
# choices and the result must be the same in both, and the same as the real game's. The
# replay's frames must show only what the live spectator page showed, in order.


def check_pages_keep_secrets(game, match, seed: int) -> None:
    """Every seat's twins (see above) show the seat and a spectator what ``match`` does."""
    page = game.page
    for seat in range(len(match.recorder.players)):
        seen = game.seat_record(match.recorder, seat)
        twins = [game.determinize(json.loads(json.dumps(seen)), seed + n) for n in (0, 1)]
        for viewer in (seat, None):
            shown = [page_view(page, twin, viewer) for twin in twins]
            assert shown[0] == shown[1] == match.view(viewer), f"seat {seat} sees {viewer}"
        if seat in match.active_seats():
            choices = [page_choices(page, twin, seat) for twin in twins]
            assert choices[0] == choices[1] == match.choices(seat)


def twin_record(game, record: JSON, rng: random.Random) -> JSON | None:
    """``record`` with what is still hidden in it drawn again: its hidden order is the key
    a seat record replaces by ``"revealed"`` (``tabletop.records.seat_record_of``), kept
    up to what was revealed, the rest shuffled, and no seed. ``None`` where a game's
    hidden order is not such a list, or nothing is left to shuffle."""
    seen = game.seat_record(game.read_record(record), 0)
    hidden = [key for key in record if key not in seen and key != "seed"]
    if len(hidden) != 1 or not isinstance(record[hidden[0]], list):
        return None
    order, revealed = record[hidden[0]], seen["revealed"]
    rest = order[len(revealed) :]
    if order[: len(revealed)] != revealed or len(set(rest)) < 2:
        return None
    while rest == order[len(revealed) :]:
        rng.shuffle(rest)
    return {**record, "seed": None, hidden[0]: revealed + rest}


def check_replay_keeps_secrets(game, match, action: tuple[int, str], rng) -> bool:
    """The replay's frames of the game so far are those of its twin record (the still
    hidden order drawn again), and ``action`` (the seat's next) logs the same in both
    games unless it reveals something; whether there was a twin to compare."""
    record = json.loads(json.dumps(match.record(list(match.recorder.players))))
    twin = twin_record(game, record, rng)
    if twin is None:
        return False
    assert game.replay(twin) == game.replay(record), "the replay shows what is hidden"
    if not match.is_over():
        real, other = match.clone(), Match(game, game.read_record(twin))
        applied = real.apply(*action)
        if not applied.reveals:
            assert other.apply(*action).log == applied.log, "the log shows what is hidden"
    return True


def check_frames_show_only_live_views(game, match, live: list[JSON]) -> None:
    """The replay's frames of the finished ``match``: each frame's view is one the live
    spectator page showed (``live``: after every action), in order."""
    record = json.loads(json.dumps(match.record(list(match.recorder.players))))
    frames = game.replay(record)
    position = 0
    for number, frame in enumerate(frames):
        while position < len(live) and live[position] != frame["view"]:
            position += 1
        assert position < len(live), f"frame {number} shows what no live page showed"


def play_checking_secrets(game, players: int, seed: int, check_every: int = 3) -> int:
    """A random match of ``players`` from ``seed``, its pages and replay checked every
    few actions and at the end, its frames against the live spectator pages; how many
    times a twin record's replay was compared."""
    rng = random.Random(seed)
    match = game.new_match(players, game.check_options({}, players), seed=seed)
    live = [json.loads(json.dumps(match.view(None)))]
    steps = twins = 0
    while not match.is_over():
        seat = rng.choice(sorted(match.active_seats()))
        if game.dynamics == SIMULTANEOUS and match.has_pending(seat) and rng.random() < 0.3:
            action = TAKE_BACK
        else:
            action = rng.choice(match.choices(seat))["action"]
        if steps % check_every == 0 and steps < 10 * check_every:
            check_pages_keep_secrets(game, match, rng.randrange(2**32))
            twins += check_replay_keeps_secrets(game, match, (seat, action), rng)
        match.apply(seat, action)
        live.append(json.loads(json.dumps(match.view(None))))
        steps += 1
    check_pages_keep_secrets(game, match, rng.randrange(2**32))
    twins += check_replay_keeps_secrets(game, match, (0, ""), rng)
    check_frames_show_only_live_views(game, match, live)
    return twins


@pytest.mark.parametrize("name", WEB_GAMES)
def test_no_hidden_information_reaches_any_page_or_replay(name):
    game = web_games()[name]
    if not game.offers_seat_records:  # said in the report, never passed in silence
        pytest.skip(f"{game.title} offers no seat records: page secrecy is proven through them")
    twins = 0
    for players in sorted({max(game.min_seats, 2), game.max_seats}):
        twins += play_checking_secrets(game, players, seed=players)
    if name in ("nova-luna", "nmbr9", "toy"):  # their hidden order is a list: compared
        assert twins > 0


class _ResultShowsThePile(ToyPage):
    """A page that shows the tiles nobody drew once the game is over."""

    def result_json(self, state):
        return {**super().result_json(state), "left": list(state.pile)}


class _FramesShowThePile(ToyPage):
    """A replay that shows, in every frame, the pile's order from the record."""

    def frames(self, game, record):
        return [
            {**f, "view": {**f["view"], "pile": record["pile"]}}
            for f in super().frames(game, record)
        ]


class _ReplayLogShowsTheLastTile(ToyPage):
    """A replay whose log names the pile's last tile (its views are honest)."""

    def frames(self, game, record):
        last = {"text": f"the last tile is {record['pile'][-1]}"}
        return [{**f, "log": [*f["log"], last]} for f in super().frames(game, record)]


class _PlacementLogShowsTheDeck(Nmbr9Page):
    """NMBR 9's page whose log of a placement names the deck's last card."""

    def play(self, recorder, seat, action):
        applied = super().play(recorder, seat, action)
        log = {**applied.log, "last": recorder.state.deck_order()[-1]}
        return dataclasses.replace(applied, log=log)


@pytest.mark.parametrize(
    "leaky",
    [
        _ResultShowsThePile,
        _FramesShowThePile,
        _ReplayLogShowsTheLastTile,
        _PlacementLogShowsTheDeck,
    ],
)
def test_a_page_that_shows_hidden_information_is_caught(leaky):
    honest = get_game("nmbr9" if issubclass(leaky, Nmbr9Page) else "toy")

    class Leaky(type(honest)):
        page = leaky()

    play_checking_secrets(honest, 2, seed=2)  # the honest page passes
    with pytest.raises(AssertionError, match="hidden|sees"):
        play_checking_secrets(Leaky(), 2, seed=2)
