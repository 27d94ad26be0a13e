"""NMBR 9's post-game analysis: values from the seat's view only, sensible marks,
hindsight that is never worse than the game played, and the ``analyse`` command."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tabletop.analysis import analyse
from tabletop.analysis.report import judged_move
from tabletop.cli import nmbr9 as main
from tabletop.core.analysis import Decision, decision_seed
from tabletop.games.nmbr9 import analysis
from tabletop.games.nmbr9.analysis import ANALYSER, SCALE, hindsight
from tabletop.games.nmbr9.bots import _nmbr9kernel as kernel
from tabletop.games.nmbr9.bots import make_bot
from tabletop.games.nmbr9.bots.planner import LEVELS, learned_settings
from tabletop.games.nmbr9.gametype import GAME
from tabletop.games.nmbr9.records import Recorder
from tabletop.games.nmbr9.rules import Board, Game, Place, State, View
from tabletop.harness.selfplay import play_game

#: Chooses a placement for a seat from its view (and the round, for overrides).
Chooser = Callable[[int, int, View], Place]


def bot_chooser(spec: str, seed: int = 1) -> Chooser:
    """One bot per seat, so that what one seat plays never changes another's moves."""
    bots = [make_bot(spec, seed=seed + seat) for seat in range(4)]
    return lambda _round, seat, view: bots[seat].choose(view)


def play_deck(deck: list[int], players: int, choose: Chooser, remove: int = 0) -> dict:
    """A finished record of a game on ``deck`` (no seed), each placement chosen by
    ``choose(round, seat, view)`` from the seat's view at the start of the round."""
    state = Game(players=players, remove=remove).new_state(deck=deck)
    rec = Recorder(state, [f"p{seat}" for seat in range(players)], seed=None)
    while not rec.state.is_over:
        number = rec.state.round
        views = [rec.state.view(seat) for seat in range(players)]
        for seat in range(players):
            rec.apply(choose(number, seat, views[seat]), seat)
    return rec.to_record()


def judge_all(record: dict, budget: int, up_to: int, seed: int = 0) -> list[tuple]:
    """Every decision with index <= ``up_to`` judged as ``analyse`` would."""
    judged = []
    for decision in ANALYSER.decisions(record):
        if decision.index > up_to:
            break
        j = ANALYSER.judge(decision, budget, decision_seed(seed, record, decision.index))
        judged.append((decision.index, str(j.best), j.value_played, j.value_best, j.noise))
    return judged


@pytest.fixture(scope="module")
def planner_record() -> dict:
    return play_game(GAME, ["planner"], seed=11)


@pytest.fixture(scope="module")
def planner_report(planner_record):
    return analyse(GAME, planner_record, budget=64, seed=3)


def test_the_planners_own_game_has_no_mistake_or_blunder(planner_report):
    seat = planner_report.seats[0]
    assert len(seat.moves) == 20
    assert [m.label for m in seat.moves[:2]] == ["round 1", "round 2"]
    assert seat.count("mistake") == 0 and seat.count("blunder") == 0
    assert seat.accuracy > 90


def worst_case(record: dict) -> tuple[Decision, Place]:
    """A mid-game decision whose card could score 12 or more at once, and a level-0
    placement for it instead."""
    for decision in ANALYSER.decisions(record):
        view = decision.view
        legal = view.legal_with_levels()
        top = max(level for _, level in legal)
        if view.rounds_left >= 2 and view.card * top >= 12:
            return decision, next(place for place, level in legal if level == 0)
    raise AssertionError("no such round in this game")


def test_a_high_card_left_on_the_table_is_a_blunder(planner_record):
    decision, bad = worst_case(planner_record)
    blunder = Decision(decision.index, 0, decision.view, bad, decision.label)
    judged = ANALYSER.judge(blunder, 32, 5)
    move = judged_move(0, str(bad), str(judged.best), judged.value_played,
                       judged.value_best, judged.noise, SCALE)  # fmt: skip
    assert move.mark == "blunder", move


def test_the_last_round_is_exact(planner_record):
    *_, last = ANALYSER.decisions(planner_record)
    view = last.view
    best_level = max(level for _, level in view.legal_with_levels())
    on_table = next(p for p, level in view.legal_with_levels() if level == 0)
    judged = ANALYSER.judge(Decision(last.index, 0, view, on_table, last.label), 4, 0)
    assert judged.value_best - judged.value_played == view.card * best_level
    assert judged.noise == 0


def test_hidden_card_order_is_never_read():
    # Two decks that share their first 9 cards: the games agree until round 9, and so
    # must every judgement of rounds 1-9.
    first = [3, 9, 5, 0, 8, 6, 1, 7, 9]
    rest = [d for d in range(10) for _ in range(2)]
    for card in first:
        rest.remove(card)
    deck_a, deck_b = first + rest, first + rest[::-1]
    assert deck_a != deck_b
    a = play_deck(deck_a, 1, bot_chooser("planner:fast"))
    b = play_deck(deck_b, 1, bot_chooser("planner:fast"))
    assert a["rounds"][:9] == b["rounds"][:9]
    assert judge_all(a, 6, up_to=8) == judge_all(b, 6, up_to=8)


def test_another_seats_placement_of_the_same_round_is_never_read():
    deck = list(Game(players=2).new_state(seed=21).deck_order())
    greedy = bot_chooser("greedy")

    def odd(number: int, seat: int, view: View) -> Place:
        if number == 6 and seat == 1:  # seat 1 places differently in round 7
            return view.legal_actions()[-1]
        return greedy(number, seat, view)

    a = play_deck(deck, 2, bot_chooser("greedy"))
    b = play_deck(deck, 2, odd)
    assert a["rounds"][6]["placements"][1] != b["rounds"][6]["placements"][1]
    assert a["rounds"][6]["placements"][0] == b["rounds"][6]["placements"][0]
    seat0 = [j for j in judge_all(a, 6, up_to=12) if j[0] % 2 == 0]
    assert seat0 == [j for j in judge_all(b, 6, up_to=12) if j[0] % 2 == 0]


def replayed(rounds: list[dict]) -> int:
    board = Board()
    for entry in rounds:
        placed = board.place(entry["card"], entry["rotation"], entry["x"], entry["y"])
        assert placed.level == entry["level"]
    return board.score


def test_hindsight_beats_every_seat_and_replays_legally():
    record = play_game(GAME, ["planner:fast", "greedy"], seed=4, options={"remove": 3})
    found = hindsight(record, budget=16)
    assert len(found["rounds"]) == 17
    assert [r["card"] for r in found["rounds"]] == [r["card"] for r in record["rounds"]]
    assert found["scores"] == record["result"]["scores"]
    assert found["score"] >= max(found["scores"])
    assert replayed(found["rounds"]) == found["score"]


def test_hindsight_falls_back_on_the_best_seats_game(monkeypatch):
    record = play_game(GAME, ["greedy", "planner:fast"], seed=5)
    monkeypatch.setattr(analysis.kernel, "hindsight", lambda cards, **_: (-1, []))
    found = hindsight(record, budget=4)
    assert found["score"] == max(record["result"]["scores"]) == replayed(found["rounds"])
    assert found["found_by"].startswith("seat")


def test_the_kernel_is_deterministic_whatever_the_threads():
    state = State._setup(Game(), tuple(d for d in range(10) for _ in range(2)), 0)
    for _ in range(6):
        state.apply(state.legal_actions()[len(state.legal_actions()) // 2])
    view = state.view(0)
    tiles, remaining = list(view.board.tiles), [view.unturned.count(d) for d in range(10)]
    moves = [m[:3] for m in kernel.candidates(tiles, view.card, remaining, view.rounds_left)]
    one = kernel.evaluate(
        tiles, view.card, remaining, view.rounds_left, moves, 8, seed=2, threads=1
    )
    two = kernel.evaluate(
        tiles, view.card, remaining, view.rounds_left, moves, 8, seed=2, threads=2
    )
    assert one == two and len(one) == len(moves) and all(len(row) == 8 for row in one)
    with pytest.raises(ValueError, match="not legal"):
        kernel.evaluate(tiles, view.card, remaining, view.rounds_left, [(0, 99, 99)], 4)
    cards = list(state.deck_order())
    assert kernel.hindsight(cards, width=3, threads=1) == kernel.hindsight(cards, width=3)


def test_analyse_json_is_the_documented_object_and_deterministic(tmp_path, capsys):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(play_game(GAME, ["greedy"], seed=8)))
    argv = ["analyse", str(path), "--json", "--budget", "4", "--seed", "9"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == out
    shown = json.loads(out)
    assert shown["game"] == "nmbr9" and shown["budget"] == 4
    (seat,) = shown["seats"]
    assert {"name", "accuracy", "average_loss", "moves"} <= set(seat)
    assert len(seat["moves"]) == 20
    keys = {"index", "played", "best", "value_played", "value_best", "loss", "mark"}
    assert all(keys <= set(move) for move in seat["moves"])
    assert {"score", "rounds"} <= set(shown["hindsight"])
    assert shown["hindsight"]["score"] >= shown["hindsight"]["scores"][0]


def test_an_unfinished_record_is_refused(tmp_path, capsys):
    record = play_game(GAME, ["greedy"], seed=8)
    record["rounds"] = record["rounds"][:12]
    record["over"] = False
    del record["result"]
    path = tmp_path / "unfinished.json"
    path.write_text(json.dumps(record))
    assert main(["analyse", str(path), "--budget", "2"]) == 1
    err = capsys.readouterr().err
    assert "only a finished game can be analysed" in err and "Traceback" not in err
    with pytest.raises(Exception, match="finished"):
        list(ANALYSER.decisions(record))


def test_the_judge_evaluates_as_planner_learned() -> None:
    """The candidates and their values are planner:learned's (its weights, learned value
    and horizon), not the hand-tuned planner's."""
    assert analysis.judge_policy() == {
        **learned_settings(),
        "horizon": LEVELS["learned"]["horizon"],
    }
    record = play_game(GAME, ["greedy"], seed=4)
    view = list(ANALYSER.decisions(record))[8].view
    moves = analysis.candidates(view)
    args = (list(view.board.tiles), view.card, analysis._remaining(view), view.rounds_left)
    learned = make_bot("planner:learned").settings
    ranked = kernel.candidates(*args, 16, weights=learned["weights"], value=learned["value"])
    assert [Place(r, x, y) for r, x, y, _ in ranked] == moves
    plays = [(m.rotation, m.x, m.y) for m in moves[:3]]
    rows = analysis._evaluate(view, moves[:3], 40, seed=5)
    assert rows == kernel.evaluate(
        *args,
        plays,
        40,
        seed=5,
        threads=1,
        weights=learned["weights"],
        value=learned["value"],
        horizon=learned["horizon"],
    )
    assert rows != kernel.evaluate(*args, plays, 40, seed=5, threads=1)
