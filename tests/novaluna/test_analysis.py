"""Nova Luna's post-game analysis: decisions, judgements, marks and ``novaluna analyse``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tabletop.analysis import analyse
from tabletop.cli import novaluna as main
from tabletop.core.analysis import Decision
from tabletop.games.novaluna.analysis import (
    ANALYSER,
    FAIR_SHARE,
    KERNEL_ITERATIONS,
    SOLO_SCALE,
    STANDARD_SCALE,
    judge_solo,
    judge_standard,
)
from tabletop.games.novaluna.bots import make_bot, mcts
from tabletop.games.novaluna.gametype import GAME
from tabletop.games.novaluna.records import Recorder
from tabletop.games.novaluna.rules import REFILL, Game, Place
from tabletop.harness.selfplay import play_game

FAST = 24  # a budget that keeps these tests quick


@pytest.fixture(scope="module")
def duel() -> dict[str, Any]:
    return play_game(GAME, ["greedy", "random"], seed=3)  # with a chosen refill


@pytest.fixture(scope="module")
def solo() -> dict[str, Any]:
    return play_game(GAME, ["greedy"], seed=5)


def test_decisions_are_every_action_with_its_view(duel: dict[str, Any]) -> None:
    decisions = list(ANALYSER.decisions(duel))
    refills = [d for d in decisions if d.played == REFILL]
    places = [d for d in decisions if isinstance(d.played, Place)]
    assert len(places) == len(duel["turns"])
    assert [d.index for d in decisions] == list(range(len(decisions)))
    for d in decisions:
        assert d.view.current_seat == d.seat and d.played in d.view.legal_actions()
        assert d.label.startswith("turn ")
    # A refill is a decision only when chosen (an empty wheel refills by itself).
    chosen = sum(t["refill"] for t in duel["turns"])
    assert 0 < len(refills) <= chosen


def test_the_scale_follows_the_mode(duel: dict[str, Any], solo: dict[str, Any]) -> None:
    assert ANALYSER.scale(duel) is STANDARD_SCALE and STANDARD_SCALE.higher_is_better
    assert ANALYSER.scale(solo) is SOLO_SCALE and not SOLO_SCALE.higher_is_better
    assert ANALYSER.hindsight(solo, FAST, 0) is None


def test_analysis_is_deterministic_for_a_seed(duel: dict[str, Any]) -> None:
    first = analyse(GAME, duel, budget=FAST, seed=3).to_json()
    assert analyse(GAME, duel, budget=FAST, seed=3).to_json() == first
    values = [m["value_played"] for s in first["seats"] for m in s["moves"]]
    assert all(0.0 <= v <= 1.0 for v in values)


def test_a_solo_game_is_judged_in_points(solo: dict[str, Any]) -> None:
    report = analyse(GAME, solo, budget=FAST).to_json()
    moves = report["seats"][0]["moves"]
    assert len(moves) >= len(solo["turns"])
    total = solo["result"]["total"]
    # The last move's value is exact: the final score, or less had the best been played.
    assert moves[-1]["value_played"] == total and moves[-1]["value_best"] <= total


def _twin(record: dict[str, Any], n: int) -> dict[str, Any]:
    """A game that plays ``record``'s first ``n`` actions on the same dealt wheel but
    with the rest of the pile in the reverse order; finished by greedy."""
    pile = record["pile"][:11] + record["pile"][11:][::-1]
    game = Game(players=len(record["players"]))
    state = game.new_state(pile=pile, start_stack=record.get("start_stack"))
    rec = Recorder(state, record["players"], seed=None)
    for decision in list(ANALYSER.decisions(record))[:n]:
        rec.apply(decision.played)
    bot = make_bot("greedy", seed=1)
    while not rec.state.is_over:
        rec.apply(bot.choose(rec.state.view(rec.state.current_seat)))
    return rec.to_record()


@pytest.mark.parametrize("players", [2, 1])
def test_analysis_never_reads_the_pile_order(players: int) -> None:
    record = play_game(GAME, ["greedy"] * players, seed=11)
    decisions = list(ANALYSER.decisions(record))
    # Up to the first draw from the pile (a refill, or the solo phase 2's): the twin
    # draws other tiles then, so only the order of unseen tiles tells the games apart.
    k = max(i for i, d in enumerate(decisions) if d.view.pile_count == 57)
    twin = _twin(record, k + 1)
    others = list(ANALYSER.decisions(twin))
    assert others[k + 1].view.wheel != decisions[k + 1].view.wheel
    for mine, theirs in zip(decisions[: k + 1], others, strict=False):
        assert mine.played == theirs.played
        assert mine.view.to_json() == theirs.view.to_json()
        assert ANALYSER.judge(mine, FAST, 7) == ANALYSER.judge(theirs, FAST, 7)


@pytest.fixture(params=["kernel", "python"])
def search_in(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """2-4 players are judged in mcts's kernel where it was built, else in Python."""
    if request.param == "python":
        monkeypatch.setattr(mcts, "mcts_kernel", None)
    elif mcts.mcts_kernel is None:
        pytest.skip("built without a C compiler")
    return str(request.param)


def test_the_search_gets_its_budget_and_the_played_move_a_quarter(
    duel: dict[str, Any], search_in: str
) -> None:
    decision = list(ANALYSER.decisions(duel))[10]
    judged = ANALYSER.judge(decision, 40, 3)
    iterations = 40 * (KERNEL_ITERATIONS if search_in == "kernel" else 1)
    mine, best = judged.facts["visits"]
    assert mine >= iterations // FAIR_SHARE and best <= iterations + iterations // FAIR_SHARE
    assert judged.best in decision.view.legal_actions()
    assert judged == ANALYSER.judge(decision, 40, 3)  # deterministic for a seed
    # the kernel's noise is that of 20 times the iterations: about a fifth as wide
    assert judged.noise < (0.12 if search_in == "kernel" else 0.5)


@pytest.mark.usefixtures("search_in")
def test_giving_up_the_winning_disc_is_a_blunder() -> None:
    record = play_game(GAME, ["greedy", "greedy"], seed=2)
    assert record["result"]["ended_by"] == "last disc"
    last = list(ANALYSER.decisions(record))[-1]  # it placed the winner's last disc
    view = last.view
    losing = next(a for a in view.legal_actions() if isinstance(a, Place) and not view.preview(a))
    judged = judge_standard(view, losing, 200, seed=1)
    assert judged.value_best == 1.0 and judged.best != losing
    loss = STANDARD_SCALE.loss(judged.value_played, judged.value_best)
    assert loss > judged.noise and STANDARD_SCALE.mark(loss) == "blunder"


def test_the_worst_solo_move_is_a_blunder(solo: dict[str, Any]) -> None:
    view = list(ANALYSER.decisions(solo))[5].view  # in phase 1: tiles there count twice
    values = {a: judge_solo(view, a, FAST, 1).value_played for a in view.legal_actions()}
    worst = max(values, key=lambda a: values[a])
    judged = ANALYSER.judge(Decision(0, 0, view, worst, "worst"), 500, 1)
    loss = SOLO_SCALE.loss(judged.value_played, judged.value_best)
    assert loss > judged.noise and SOLO_SCALE.mark(loss) == "blunder"


# -- the command ------------------------------------------------------------------------


def _write(path: Any, *records: dict[str, Any]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


def test_analyse_json_prints_the_platform_shape(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], duel: dict[str, Any]
) -> None:
    path = _write(tmp_path / "one.json", duel)
    assert main(["analyse", path, "--json", "--budget", str(FAST)]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["game"] == "nova-luna" and shown["budget"] == FAST
    assert [s["name"] for s in shown["seats"]] == duel["players"]
    for seat in shown["seats"]:
        assert {"name", "accuracy", "average_loss", "moves"} <= set(seat)
        for move in seat["moves"]:
            keys = {"index", "played", "best", "value_played", "value_best", "loss", "mark"}
            assert keys <= set(move)


def test_an_unfinished_record_is_refused(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], duel: dict[str, Any]
) -> None:
    unfinished = {**duel, "turns": duel["turns"][:5], "over": False}
    unfinished.pop("result")
    path = _write(tmp_path / "open.json", unfinished)
    assert main(["analyse", path, "--budget", str(FAST)]) == 1
    err = capsys.readouterr().err
    assert "only a finished game can be analysed" in err and "Traceback" not in err


def test_jobs_give_the_same_output(
    tmp_path: Any,
    capsys: pytest.CaptureFixture[str],
    duel: dict[str, Any],
    solo: dict[str, Any],
) -> None:
    path = _write(tmp_path / "two.jsonl", duel, solo)
    outputs = []
    for jobs in ("1", "2"):
        assert main(["analyse", path, "--json", "--budget", "12", "--jobs", jobs]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and len(outputs[0].splitlines()) == 2


# -- the strong bots' own games -----------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("specs", "seat"), [(["mcts:2000", "greedy"], 0), (["greedy", "mcts:2000"], 1), (["solo"], 0)]
)
def test_the_strong_bot_makes_no_mistake(specs: list[str], seat: int) -> None:
    """At the default budget the analysis agrees with the strong bot's own moves up to
    inaccuracies (the seeded games; about a minute each)."""
    record = play_game(GAME, specs, seed=21)
    report = analyse(GAME, record).seats[seat]
    assert report.count("mistake") == report.count("blunder") == 0
    assert report.accuracy > 90
