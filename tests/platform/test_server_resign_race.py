"""A seat that resigns while its bot opponent's move is on its way (issue 46's chat work
found it): the bot's move, worked out before the resignation and waiting for the game's
turn behind it, must not be stored after the game ended. It was, with ``over`` set back
to false, so the stored game read as unfinished while the room said it was over."""

from __future__ import annotations

from account_support import error, register, unique

from server_support import ServerProcess

GAMES = 6  # the race was lost in 6 of 6 games of NMBR 9 (every seat places at once)


def test_a_resignation_is_not_undone_by_the_bots_move_behind_it(server: ServerProcess) -> None:
    ann = register(server, unique("Ann"))
    seats = [{"kind": "human", "me": True}, {"kind": "bot", "bot": "greedy"}]
    for _ in range(GAMES):
        game_id = ann.post("/api/games", json={"type": "nmbr9", "seats": seats}).json()["id"]
        assert ann.post(f"/api/games/{game_id}/resign", json={}).status_code == 200
        # a change of the game queued after whatever the bot queued meanwhile: once it is
        # answered, the bot's move has been stored or dropped
        assert error(ann.post(f"/api/games/{game_id}/resign", json={}), 409) == "the game is over"
        row = server.query_one("SELECT over, abandoned FROM games WHERE id = ?", game_id)
        assert row is not None and (bool(row[0]), bool(row[1])) == (True, True), game_id
