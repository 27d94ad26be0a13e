"""What the pages list, read from the store and the rooms: the lobby, an account's
games, the leaderboards and a player's profile. Nothing here changes a game."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..core.web import JSON, get_web_game, web_games
from .apart import accounts_in
from .correspondence import POOLS, days_per_move, rating_pool
from .encoding import iso, public_seat, seat_account, seat_bots
from .errors import ApiError
from .friends import OPTION, visible
from .rated import unrated_reason
from .ratings import (
    MODEL,
    PAIR_WINDOW,
    PROVISIONAL_OPPONENTS,
    bot_starts,
    player_key,
    rating_key,
)
from .room import Room, Rooms, room_age
from .rows import Account, AccountGame, LeaderRow, Seat
from .setup import bot_labels
from .storage import GameStore


class ReadModels:
    def __init__(self, store: GameStore, rooms: Rooms, open_seat_seconds: float) -> None:
        self.store = store
        self.rooms = rooms
        self.open_seat_seconds = open_seat_seconds  # an open game's time in the lobby
        #: a tournament game's event, ``{"id", "name"}`` (tournament_director.Director.tag)
        self.tournament_of: Callable[[JSON], JSON | None] = lambda options: None

    def lobby(
        self,
        game_type: str | None = None,
        time_limit: int | None = None,
        reader: Account | None = None,
        hidden: frozenset[int] = frozenset(),
    ) -> list[JSON]:
        """The open games not yet expired, newest first; of ``game_type`` only, and
        with ``time_limit`` seconds per move only (0: none), if given; friends-only
        ones only where ``reader`` may see them (``friends.visible``); none with a seat
        of an account in ``hidden`` (kept apart from the reader by a block)."""
        rooms = []
        for game_id in self.store.open_games():
            try:
                room = self.rooms.room(game_id)
            except ApiError:
                continue
            if room_age(room) >= self.open_seat_seconds:  # withdrawn at the next sweep
                continue
            if game_type is not None and room.type.name != game_type:
                continue
            if time_limit is not None and (room.time_limit or 0) != time_limit:
                continue
            if hidden and accounts_in(room) & hidden:
                continue
            rooms.append(room)
        rooms = visible(self.store, rooms, reader)
        # which creators are bot accounts: one read for the whole list
        creators = [r.row.creator for r in rooms if r.row.creator is not None]
        bot_creators = frozenset(self.store.bot_accounts(sorted(set(creators))))
        games = []
        for room in rooms:
            age = room_age(room)
            unrated = unrated_reason(room, when_full=True)
            bots = seat_bots(self.store, room)
            games.append(
                {
                    "id": room.id,
                    "type": room.type.name,
                    "title": room.type.title,
                    "created": room.row.created,
                    "age": round(age),
                    "expires_in": round(self.open_seat_seconds - age),
                    "creator": self._creator(room, bot_creators),
                    "options": _shown_options(room.row.options),
                    "time_limit": room.time_limit or None,
                    "on_timeout": room.on_timeout,
                    "days_per_move": days_per_move(room.row.options),
                    "pool": rating_pool(room.row.options),
                    "seats": [public_seat(s, bots) for s in room.seats],
                    # why it will not count for the ratings once full ("seed", "players")
                    "unrated": unrated,
                    "rated": unrated is None,
                    "friends_only": bool(room.row.options.get(OPTION)),
                }
            )
        return games

    def _creator(self, room: Room, bots: frozenset[int] = frozenset()) -> JSON | None:
        """The creator's name and rating in the game's type and pool (``None``: not
        signed in), and whether it is a bot account (one of ``bots``)."""
        creator = room.row.creator
        if creator is None:
            return None
        name = self.store.account_names([creator]).get(creator)
        key = rating_key(room.type.name, rating_pool(room.row.options))
        mu, sigma, games = self.store.rating(key, f"a:{creator}")
        rating = round(MODEL.rating(mu=mu, sigma=sigma).ordinal(), 2)
        return {"name": name, "rating": rating, "games": games, "bot": creator in bots}

    def my_games(self, account: Account, limit: int = 200) -> list[JSON]:
        """The account's games: ongoing with its turn (or its invitation) first, then
        ongoing, then finished."""
        finished: list[tuple[AccountGame, list[Seat]]] = []
        live: list[tuple[AccountGame, Room]] = []
        for row in self.store.games_of(account.id, limit):
            if row.over:  # from the store alone: finished games are not replayed for this
                finished.append((row, self.store.seats(row.id)))
                continue
            try:
                live.append((row, self.rooms.room(row.id)))
            except ApiError:
                continue
        invitations = []
        for row in self.store.invitations_of(account.id):
            try:
                invitations.append((row, self.rooms.room(row.id)))
            except ApiError:
                continue
        # which of all these seats' accounts are bot accounts: one read for the list
        seats = [s for _, ss in finished for s in ss]
        seats += [s for _, room in live + invitations for s in room.seats]
        ids = sorted({a for s in seats if (a := seat_account(s)) is not None})
        bots = frozenset(self.store.bot_accounts(ids))
        games = [self._finished_summary(row, ss, bots) for row, ss in finished]
        games += [_live_summary(row, room, bots) for row, room in live]
        games += [self._invitation(row, room, bots) for row, room in invitations]
        games.sort(key=_urgency)
        return games

    def game_summary(self, room: Room, seat: int) -> JSON:
        """One game of ``my_games`` as the account playing ``seat`` sees it now."""
        over = room.finished
        updated = room.log[-1]["at"] if room.log else room.row.started or room.row.created
        row = AccountGame(room.id, room.type.name, seat, over, room.row.abandoned, updated)
        bots = seat_bots(self.store, room)
        if over:
            summary = self._finished_summary(row, self.store.seats(room.id), bots)
        elif room.seat(seat).invited:
            summary = self._invitation(row, room, bots)
        else:
            summary = _live_summary(row, room, bots)
        event = self.tournament_of(room.row.options)
        return summary if event is None else {**summary, "tournament": event}

    def _invitation(self, row: AccountGame, room: Room, bots: frozenset[int]) -> JSON:
        """A game with a seat kept for the account: who invited it, too."""
        creator = self._creator(room)
        return {**_live_summary(row, room, bots), "creator": creator and creator["name"]}

    def _finished_summary(self, row: AccountGame, seats: list[Seat], bots: frozenset[int]) -> JSON:
        summary = _summary(row, seats, False, False, bots)
        changes = self.store.rating_changes(row.id)
        mine = changes.get(player_key(seats[row.seat]))
        stored = self.store.game(row.id) if row.abandoned else None
        summary.update(
            rank=seats[row.seat].rank,
            # the seats whose time ran out, if the clock ended it
            timed_out=list(stored.timed_out) if stored is not None else [],
            resigned=stored is not None and stored.resigned,
            rated=bool(changes),
            rating=None
            if mine is None
            else {"before": mine[1], "after": mine[2], "weight": mine[3]},
        )
        return summary

    def leaderboard(
        self,
        game_type: str,
        offset: int,
        limit: int,
        account: Account | None = None,
        players: str = "people",
        pool: str = "live",
    ) -> JSON:
        """One page of ``game_type``'s leaderboard ``players`` (``LEADERBOARDS``) in a
        rating ``pool`` (``correspondence.POOLS``): the established ones best first, then
        the provisional ones (``ratings.provisional``); and, for a signed-in ``account``
        listed on it, where it stands (``you``)."""
        bots = players == "bots"
        seeds = (
            {}
            if bots
            else {f"b:{spec}": (s["mu"], s["sigma"]) for spec, s in bot_seeds_of(game_type)}
        )
        key = rating_key(game_type, pool)
        rows, total = self.store.leaderboard(key, seeds, offset, limit, bots)
        names = self.store.account_names([int(r.player[2:]) for r in rows if _is_account(r)])
        labels = bot_labels(get_web_game(game_type))
        entries = [
            self._leader(game_type, row, offset + i + 1, names, labels, bots)
            for i, row in enumerate(rows)
        ]
        # a person is not on the bot accounts' board, nor a bot account on the people's
        listed = account is not None and account.bot == bots
        return {
            "type": game_type,
            "title": get_web_game(game_type).title,
            "players_shown": players,
            "pool": pool,
            "pools": list(POOLS),
            "players": entries,
            "total": total,
            "offset": offset,
            "limit": limit,
            "next": offset + limit if offset + limit < total else None,
            "previous": max(0, offset - limit) if offset > 0 else None,
            "rules": {
                "provisional_opponents": PROVISIONAL_OPPONENTS,
                "pair_window_days": PAIR_WINDOW.days,
            },
            "you": (
                self._you(game_type, key, seeds, account, labels) if listed and account else None
            ),
        }

    def _you(
        self,
        game_type: str,
        key: str,
        seeds: dict[str, tuple[float, float]],
        account: Account,
        labels: dict[str, str],
    ) -> JSON:
        """Where a signed-in account stands in the pool ``key``: its row (``None``
        before its first rated game) and the opponents it still needs to be ranked."""
        player = f"a:{account.id}"
        row, ahead = self.store.leaderboard_place(key, seeds, player, account.bot)
        names = {account.id: account.name}
        entry = (
            None
            if row is None
            else self._leader(game_type, row, ahead + 1, names, labels, account.bot)
        )
        met = 0 if row is None else row.opponents
        return {"player": entry, "opponents_needed": max(0, PROVISIONAL_OPPONENTS - met)}

    def _leader(
        self,
        game_type: str,
        row: LeaderRow,
        place: int,
        names: dict[int, str],
        labels: dict[str, str],
        bot_account: bool,
    ) -> JSON:
        """One row of a leaderboard; ``bot_account``: the board of bot accounts."""
        is_bot, key = row.player.startswith("b:"), row.player[2:]
        # a bot as its seats are named: the label without its note ("MCTS hard")
        name = _without_note(labels.get(key, key)) if is_bot else names.get(int(key))
        entry: JSON = {
            "name": name,
            "kind": "bot" if is_bot else "account",
            "rating": round(row.ordinal, 2),
            "mu": round(row.mu, 2),
            "sigma": round(row.sigma, 2),
            "games": row.games,
            "opponents": row.opponents,
            "provisional": row.provisional,
            # its place among the established players; none while provisional
            "rank": None if row.provisional else place,
            "bot_account": bot_account,  # an account playing through the bot API
        }
        if is_bot:  # the games of the tournament its rating started from (0: the default)
            entry["seeded_games"] = bot_starts(game_type).get(key, {}).get("games", 0)
        return entry

    def profile(self, account: Account) -> JSON:
        """An account's ratings per game (``rating`` and ``games``: the live pool's;
        ``pools``: each pool's) and its finished games."""
        ratings = {}
        for name, game in web_games().items():
            pools = {pool: self._pool_rating(rating_key(name, pool), account.id) for pool in POOLS}
            ratings[name] = {"title": game.title, **pools["live"], "pools": pools}
        history = [g for g in self.my_games(account) if g["over"]]
        return {"name": account.name, "bot": account.bot, "ratings": ratings, "history": history}

    def _pool_rating(self, key: str, account_id: int) -> JSON:
        """An account's rating and rated games in the pool ``key``."""
        mu, sigma, games = self.store.rating(key, f"a:{account_id}")
        return {"rating": round(MODEL.rating(mu=mu, sigma=sigma).ordinal(), 2), "games": games}


#: the leaderboards of a game type: people's accounts and our own bots (as seated by the
#: lobby), and the bot accounts (programs playing through the bot API), apart
LEADERBOARDS = ("people", "bots")


def bot_seeds_of(game_type: str) -> list[tuple[str, dict[str, float]]]:
    """The bot strengths of ``game_type`` with their starting ratings (seeded or the
    default: ``ratings.bot_starts``)."""
    return list(bot_starts(game_type).items())


def _is_account(row: LeaderRow) -> bool:
    return row.player.startswith("a:")


def _live_summary(row: AccountGame, room: Room, bots: frozenset[int]) -> JSON:
    """An unfinished game's summary, with its time per move and current deadline."""
    your_turn = not room.finished and not room.waiting and row.seat in room.match.active_seats()
    summary = _summary(row, room.seats, your_turn, room.waiting, bots)
    deadline = room.time_limit_deadline()
    seat = room.seats[row.seat]
    summary.update(
        time_limit=room.time_limit or None,
        deadline=None if deadline is None else iso(deadline),
        invited=seat.open and seat.invited is not None,
        on_timeout=room.on_timeout,
        days_per_move=days_per_move(room.row.options),
    )
    return summary


def _urgency(game: JSON) -> tuple[bool, bool, str]:
    """Ongoing first, your turn or an invitation first among them, the least time left
    first (ISO times in UTC sort as text; no deadline: last, "~" sorts after digits)."""
    waits = game["your_turn"] or game.get("invited", False)
    return (game["over"], not waits, game.get("deadline") or "~")


def _summary(
    row: AccountGame, seats: list[Seat], your_turn: bool, waiting: bool, bots: frozenset[int]
) -> JSON:
    game = get_web_game(row.type)
    return {
        "id": row.id,
        "type": row.type,
        "title": game.title,
        "url": f"/g/{row.id}",
        "seat": row.seat,
        "seats": [public_seat(s, bots) for s in seats],
        "updated": row.updated,
        "over": row.over,
        "abandoned": row.abandoned,
        "waiting": waiting,
        "your_turn": your_turn,
        "rank": None,
        "rated": False,
        "rating": None,
        "invited": False,
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
