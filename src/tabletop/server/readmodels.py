"""What the pages list, read from the store and the rooms: the lobby, an account's
games, the leaderboards and a player's profile. Nothing here changes a game."""

from __future__ import annotations

import re

from ..core.web import JSON, get_web_game, web_games
from .encoding import public_seat
from .errors import ApiError
from .ratings import MODEL, bot_seeds, player_key
from .room import Rooms
from .rows import Account, AccountGame, Seat
from .setup import bot_labels
from .storage import GameStore


class ReadModels:
    def __init__(self, store: GameStore, rooms: Rooms) -> None:
        self.store = store
        self.rooms = rooms

    def lobby(self) -> list[JSON]:
        """The open games, newest first."""
        games = []
        for game_id in self.store.open_games():
            try:
                room = self.rooms.room(game_id)
            except ApiError:
                continue
            games.append(
                {
                    "id": room.id,
                    "type": room.type.name,
                    "title": room.type.title,
                    "created": room.row.created,
                    "options": _shown_options(room.row.options),
                    "time_limit": room.time_limit or None,
                    "on_timeout": room.on_timeout,
                    "seats": [public_seat(s) for s in room.seats],
                }
            )
        return games

    def my_games(self, account: Account, limit: int = 200) -> list[JSON]:
        """The account's games: ongoing with its turn first, then ongoing, then finished."""
        games = []
        for row in self.store.games_of(account.id, limit):
            if row.over:  # from the store alone: finished games are not replayed for this
                games.append(self._finished_summary(row))
                continue
            try:
                room = self.rooms.room(row.id)
            except ApiError:
                continue
            your_turn = (
                not room.finished and not room.waiting and row.seat in room.match.active_seats()
            )
            games.append(_summary(row, room.seats, your_turn, room.waiting))
        order = {True: 0, False: 1}
        games.sort(key=lambda g: (g["over"], order[g["your_turn"]]))
        return games

    def _finished_summary(self, row: AccountGame) -> JSON:
        seats = self.store.seats(row.id)
        summary = _summary(row, seats, False, False)
        changes = self.store.rating_changes(row.id)
        mine = changes.get(player_key(seats[row.seat]))
        summary.update(
            rank=seats[row.seat].rank,
            rated=bool(changes),
            rating=None if mine is None else {"before": mine[1], "after": mine[2]},
        )
        return summary

    def leaderboard(self, game_type: str) -> JSON:
        """Every rated account and every bot strength of ``game_type``, best first."""
        rows = {
            player: (mu, sigma, games) for player, mu, sigma, games in self.store.ratings(game_type)
        }
        seeds = bot_seeds().get(game_type, {})
        for spec in seeds:
            rows.setdefault(f"b:{spec}", self.store.rating(game_type, f"b:{spec}"))
        ids = [int(p[2:]) for p in rows if p.startswith("a:")]
        names = self.store.account_names(ids)
        labels = bot_labels(get_web_game(game_type))
        players = []
        for player, (mu, sigma, games) in rows.items():
            is_bot, key = player.startswith("b:"), player[2:]
            # a bot as its seats are named: the label without its note ("MCTS hard")
            name = _without_note(labels.get(key, key)) if is_bot else names.get(int(key))
            entry: JSON = {
                "name": name,
                "kind": "bot" if is_bot else "account",
                "rating": round(MODEL.rating(mu=mu, sigma=sigma).ordinal(), 2),
                "mu": round(mu, 2),
                "sigma": round(sigma, 2),
                "games": games,
            }
            if is_bot:  # the games of the tournament its rating started from
                entry["seeded_games"] = seeds.get(key, {}).get("games", 0)
            players.append(entry)
        players.sort(key=lambda p: -p["rating"])
        return {"type": game_type, "title": get_web_game(game_type).title, "players": players}

    def profile(self, account: Account) -> JSON:
        """An account's ratings per game and its finished games."""
        ratings = {}
        for name, game in web_games().items():
            mu, sigma, games = self.store.rating(name, f"a:{account.id}")
            ratings[name] = {
                "title": game.title,
                "rating": round(MODEL.rating(mu=mu, sigma=sigma).ordinal(), 2),
                "games": games,
            }
        history = [g for g in self.my_games(account) if g["over"]]
        return {"name": account.name, "ratings": ratings, "history": history}


def _summary(row: AccountGame, seats: list[Seat], your_turn: bool, waiting: bool) -> JSON:
    game = get_web_game(row.type)
    return {
        "id": row.id,
        "type": row.type,
        "title": game.title,
        "url": f"/g/{row.id}",
        "seat": row.seat,
        "seats": [public_seat(s) for s in seats],
        "updated": row.updated,
        "over": row.over,
        "abandoned": row.abandoned,
        "waiting": waiting,
        "your_turn": your_turn,
        "rank": None,
        "rated": False,
        "rating": None,
    }


def _shown_options(options: JSON) -> JSON:
    """A game's options for the lobby: the time per move as ``time_limit`` and, for
    clients of the API before it took that name, as ``clock`` too (games stored
    before kept it under ``clock``)."""
    seconds = options.get("time_limit", options.get("clock"))
    if seconds is None:
        return options
    return {**options, "time_limit": seconds, "clock": seconds}


def _without_note(label: str) -> str:
    """A bot's label without the note in brackets at its end, as the page names a bot
    seat: "MCTS hard (3 s a move)" -> "MCTS hard" (a msgid of the game's ``BOT_NAMES``)."""
    return re.sub(r"\s*\(.*\)$", "", label) or label
