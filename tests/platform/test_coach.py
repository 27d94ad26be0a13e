"""The coach's judgement of one move (``tabletop.analysis.coach``) sees only what the
player knew: two games alike up to the move but with different hidden futures (NMBR 9's
card order, Nova Luna's pile order) get the very same note; and the better move's board
(``coaching._boards``) shows nothing the move played kept hidden."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tabletop.analysis.coach import coach_budget, coach_move, coached_action
from tabletop.analysis.run import analyser_of
from tabletop.core.game import get_game
from tabletop.core.web import get_web_game
from tabletop.server.botpool import BotPool
from tabletop.server.coaching import _boards
from tabletop.server.hub import Hub
from tabletop.server.store import Store

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
    view: Any = match.state.view(0)  # NMBR 9's own View
    turned = get_game("nmbr9").parse_action("r2@0,0")
    expected = "r0@0,0" if view.card in (0, 8) else "r2@0,0"  # 0 and 8 look alike turned
    assert str(coached_action(analyser, view, turned)) == expected


def test_each_game_coaches_at_less_than_its_analysis_budget() -> None:
    for name in ("nmbr9", "nova-luna"):
        analyser = analyser_of(get_game(name))
        assert 0 < coach_budget(analyser) < analyser.default_budget


def test_the_better_moves_board_shows_nothing_the_move_played_kept_hidden(
    tmp_path: Path,
) -> None:
    """A Nova Luna refill turns up the pile's next tiles: as the better move beside a
    placement, its board is not drawn (the note names it in words); a placement's is."""
    asyncio.run(_refill_not_drawn(tmp_path))


def _mover(room: Any) -> int:
    seat = room.match.to_move()
    assert seat is not None
    return int(seat)


def _choices(room: Any) -> list[str]:
    return [c["action"] for c in room.match.choices(_mover(room))]


async def _refill_not_drawn(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite3")
    hub = Hub(store, BotPool(1))
    seats = [{"kind": "human"}, {"kind": "human"}]
    game_id = (await hub.create({"type": "nova-luna", "seats": seats, "seed": 4}))["id"]
    room = hub.rooms.room(game_id)
    while "refill" not in (actions := _choices(room)):
        room = await hub.authority.act(game_id, frozenset({_mover(room)}), actions[-1], room.ply)
    seat = _mover(room)
    places = [a for a in actions if a != "refill"]
    stored = store.actions(game_id)
    for best, drawn in (("refill", False), (places[-1], True)):
        note = {"ply": room.ply, "played": places[0], "best": best}
        shown = _boards(room, stored, seat, note)
        assert shown["played"]["view"] is not None
        assert (shown["best"]["view"] is not None) is drawn
    hub.close()
    store.close()
