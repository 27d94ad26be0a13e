"""The coach's judgement of one move (``tabletop.analysis.coach``) sees only what the
player knew: two games alike up to the move but with different hidden futures (NMBR 9's
card order, Nova Luna's pile order) get the very same note."""

from __future__ import annotations

from typing import Any

from tabletop.analysis.coach import coach_budget, coach_move, coached_action
from tabletop.analysis.run import analyser_of
from tabletop.core.game import get_game
from tabletop.core.web import get_web_game

#: a small budget: the judgement, not its quality, is under test
BUDGET = 8


def _played(name: str, players: int, seed: int, moves: int) -> Any:
    """A match of ``name`` after ``moves`` moves (each seat's first choice)."""
    match = get_web_game(name).new_match(players, {}, seed)
    for _ in range(moves):
        seat = min(match.active_seats())
        match.apply(seat, match.choices(seat)[0]["action"])
    return match


def _note(name: str, match: Any, action: str) -> dict[str, Any]:
    seat = min(match.active_seats())
    scale = analyser_of(get_game(name)).scale(match.record(["a"] * match.state.game.players))
    return coach_move(name, scale.to_json(), match.state.view(seat), seat, action, 3, BUDGET, 7)


def test_nmbr9_notes_do_not_depend_on_the_cards_to_come() -> None:
    match = _played("nmbr9", 1, 11, 3)
    other = match.clone()
    unturned = other.state.unturned()
    other.state.arrange_unturned(sorted(unturned, reverse=True))
    assert other.state.deck_order() != match.state.deck_order()
    action = match.choices(0)[-1]["action"]
    assert _note("nmbr9", match, action) == _note("nmbr9", other, action)


def test_novaluna_notes_do_not_depend_on_the_pile_order() -> None:
    match = _played("nova-luna", 2, 5, 4)
    other = match.clone()
    pile = other.state.pile_order()
    other.state.arrange_pile([pile[-1]])
    assert other.state.pile_order() != pile
    seat = min(match.active_seats())
    action = match.choices(seat)[-1]["action"]
    mine, theirs = _note("nova-luna", match, action), _note("nova-luna", other, action)
    assert mine == theirs
    assert mine["played"] == action and mine["ply"] == 3


def test_nmbr9_names_a_symmetric_digits_turns_as_one_placement() -> None:
    analyser = analyser_of(get_game("nmbr9"))
    match = get_web_game("nmbr9").new_match(1, {}, 0)
    view = match.state.view(0)
    turned = get_game("nmbr9").parse_action("r2@0,0")
    expected = "r0@0,0" if view.card in (0, 8) else "r2@0,0"  # 0 and 8 look alike turned
    assert str(coached_action(analyser, view, turned)) == expected


def test_each_game_coaches_at_less_than_its_analysis_budget() -> None:
    for name in ("nmbr9", "nova-luna"):
        analyser = analyser_of(get_game(name))
        assert 0 < coach_budget(analyser) < analyser.default_budget
