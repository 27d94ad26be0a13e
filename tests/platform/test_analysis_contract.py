"""What every game with an analysis (``GameType.analysis``) must give the platform,
checked the same way for each (docs/adding-a-game.md, "Analysis"): decisions numbered
in the record's order, each made in the position ``position`` returns and seen through
its seat's view; actions written so that ``parse_action`` reads them back (the page's
"Show both boards" parses the best move's text); each decision's ``"frame"`` a step of
the replay, the last decision's the last step; judgements fixed by their seed and naming
a legal move."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.analysis.run import analyser_of, boards
from tabletop.core.game import GameType, game_types, get_game
from tabletop.harness.selfplay import play_game

ANALYSED = sorted(name for name, game in game_types().items() if game.analysis is not None)
#: A small budget: these check the contract, not the judgements' quality.
BUDGET = 4


def finished(game: GameType, players: int, seed: int) -> dict[str, Any]:
    record: dict[str, Any] = play_game(game, ["random"] * players, seed)
    return record


def moves(view: Any) -> list[str]:
    return [str(action) for action in view.legal_actions()]


def seat_cases() -> list[tuple[str, int]]:
    out = []
    for name in ANALYSED:
        game = get_game(name)
        out += [(name, p) for p in sorted({game.min_seats, min(2, game.max_seats)})]
    return out


def test_the_toy_and_the_shipped_games_are_analysed() -> None:
    assert {"toy", "nova-luna", "nmbr9"} <= set(ANALYSED)


@pytest.mark.parametrize(("name", "players"), seat_cases())
def test_decisions_are_made_where_position_says_and_read_back(name: str, players: int) -> None:
    game = get_game(name)
    analyser = analyser_of(game)
    record = finished(game, players, seed=3)
    decisions = list(analyser.decisions(record))
    assert [d.index for d in decisions] == list(range(len(decisions))) != []
    assert {d.seat for d in decisions} == set(range(players))
    for decision in decisions:
        assert game.parse_action(str(decision.played)) == decision.played
        state = analyser.position(record, decision.index)
        # the seat's view there is the decision's (views need not compare: their moves)
        assert moves(state.view(decision.seat)) == moves(decision.view)
        assert str(decision.played) in moves(decision.view)
        state.apply(decision.played, decision.seat)


@pytest.mark.parametrize(("name", "players"), seat_cases())
def test_every_decision_has_a_frame_of_the_replay(name: str, players: int) -> None:
    """``"frame"`` (default ``index + 1``) places a move in the replay: the analysis
    graph, the marked moves' links and the line under the replay all use it."""
    game = get_game(name)
    if game.page is None:
        pytest.skip("not played in the browser: no replay page")
    record = finished(game, players, seed=4)
    steps = len(game.page.frames(game, record))
    frames = [d.facts.get("frame", d.index + 1) for d in analyser_of(game).decisions(record)]
    assert all(1 <= frame < steps for frame in frames)
    assert frames == sorted(frames) and frames[-1] == steps - 1


@pytest.mark.parametrize("name", ANALYSED)
def test_a_judgement_is_fixed_by_its_seed_and_its_best_move_is_legal(name: str) -> None:
    game = get_game(name)
    analyser = analyser_of(game)
    players = min(2, game.max_seats)
    record = finished(game, players, seed=5)
    first = next(iter(analyser.decisions(record)))
    judged = [analyser.judge(first, BUDGET, seed) for seed in (7, 7)]
    assert judged[0] == judged[1]
    best = str(judged[0].best)
    shown = boards(game, record, first.index, best)  # the page's "Show both boards"
    assert shown["best"]["action"] == best and shown["played"]["view"]
