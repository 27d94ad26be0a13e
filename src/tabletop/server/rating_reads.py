"""The reads of ratings: a player's, a game's leaderboard and a place on it, a game's
changes (``sqlstore.SqlStore`` has them, on both stores)."""

from __future__ import annotations

from typing import Any

from . import ratings
from .ratings import OPPONENTS_SQL, PROVISIONAL_OPPONENTS
from .rows import (
    LeaderRow,
)
from .sqlreader import SqlReader


class RatingReads(SqlReader):
    """What the store reads of ratings (a mixin of ``SqlStore``)."""

    # -- ratings -----------------------------------------------------------------

    def rating(self, game_type: str, player: str) -> tuple[float, float, int]:
        """``(mu, sigma, rated games)`` of a player in ``game_type`` (a pool's key,
        ``ratings.rating_key``: the game type alone is its live pool)."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT mu, sigma, games FROM ratings WHERE type = ? AND player = ?",
                (game_type, player),
            )
        )
        if row is None:
            start = ratings.initial(ratings.game_of(game_type), player)
            return start.mu, start.sigma, 0
        return row[0], row[1], row[2]

    def ratings(self, game_type: str) -> list[tuple[str, float, float, int]]:
        """Every rated player of ``game_type``: ``(player, mu, sigma, games)``."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT player, mu, sigma, games FROM ratings WHERE type = ?", (game_type,)
            )
        )
        return [(row[0], row[1], row[2], row[3]) for row in rows]

    def leaderboard(
        self,
        game_type: str,
        seeds: dict[str, tuple[float, float]],
        offset: int,
        limit: int,
        bot_accounts: bool = False,
    ) -> tuple[list[LeaderRow], int]:
        """One page of ``game_type``'s players, established first, each part best first
        (``ratings.provisional``), and how many there are in all. ``seeds``: the bots'
        starting ``(mu, sigma)``, listed as well before their first rated game;
        ``bot_accounts``: the bot accounts' board, else everybody else's."""
        players, params = _players(game_type, seeds, bot_accounts)
        order = (
            f"SELECT player, mu, sigma, games, opponents FROM {players} t "
            f"ORDER BY {_PROVISIONAL} , mu - 3 * sigma DESC, player LIMIT ? OFFSET ?"
        )
        rows = self._read(
            lambda sql: sql.rows(order, (*params, PROVISIONAL_OPPONENTS, limit, offset))
        )
        total = self._read(lambda sql: sql.row(f"SELECT COUNT(*) FROM {players} t", params))
        return [LeaderRow(*row) for row in rows], int(total[0]) if total else 0

    def leaderboard_place(
        self,
        game_type: str,
        seeds: dict[str, tuple[float, float]],
        player: str,
        bot_accounts: bool = False,
    ) -> tuple[LeaderRow | None, int]:
        """``player``'s row of the leaderboard (``None`` before a rated game, or on the
        other board) and how many players are listed before it."""
        players, params = _players(game_type, seeds, bot_accounts)
        found = self._read(
            lambda sql: sql.row(
                f"SELECT player, mu, sigma, games, opponents FROM {players} t WHERE player = ?",
                (*params, player),
            )
        )
        if found is None:
            return None, 0
        row = LeaderRow(*found)
        ahead = self._read(
            lambda sql: sql.row(
                f"SELECT COUNT(*) FROM {players} t WHERE {_PROVISIONAL} < ? OR "
                f"({_PROVISIONAL} = ? AND (mu - 3 * sigma > ? OR "
                "(mu - 3 * sigma = ? AND player < ?)))",
                (
                    *params,
                    PROVISIONAL_OPPONENTS,
                    int(row.provisional),
                    PROVISIONAL_OPPONENTS,
                    int(row.provisional),
                    row.ordinal,
                    row.ordinal,
                    player,
                ),
            )
        )
        return row, int(ahead[0]) if ahead else 0

    def rating_changes(self, game_id: str) -> dict[str, tuple[int, float, float, float]]:
        """A rated game's ``{player: (rank, ordinal before, ordinal after, weight)}``
        (``weight``: how much the game counted, ``ratings.pair_weight``)."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT player, rank, before, after, weight FROM rating_changes WHERE game_id = ?",
                (game_id,),
            )
        )
        return {row[0]: (row[1], row[2], row[3], row[4]) for row in rows}


#: 1 for a provisional player of the ``_players`` table ``t`` (its parameter: the
#: opponents needed), else 0: the leaderboard's first order
_PROVISIONAL = "(CASE WHEN substr(player, 1, 2) = 'a:' AND opponents < ? THEN 1 ELSE 0 END)"


#: the rating keys of the bot accounts ("a:<id>"): few, read once per query
_BOT_ACCOUNT_KEYS = "(SELECT 'a:' || CAST(id AS TEXT) FROM accounts WHERE bot)"


def _players(
    game_type: str, seeds: dict[str, tuple[float, float]], bot_accounts: bool = False
) -> tuple[str, list[Any]]:
    """A table (SQL, parameters) of ``game_type``'s rated players, with the seeded bots
    not rated yet: ``player, mu, sigma, games, opponents``; the bot accounts only if
    ``bot_accounts``, else everybody but them."""
    which = "IN" if bot_accounts else "NOT IN"
    parts = [
        f"SELECT r.player, r.mu, r.sigma, r.games, {OPPONENTS_SQL} AS opponents "
        f"FROM ratings r WHERE r.type = ? AND r.player {which} {_BOT_ACCOUNT_KEYS}"
    ]
    params: list[Any] = [game_type]
    for player, (mu, sigma) in seeds.items():
        parts.append(
            "SELECT CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION), "
            "CAST(? AS DOUBLE PRECISION), 0, 0 "
            "WHERE NOT EXISTS (SELECT 1 FROM ratings WHERE type = ? AND player = ?)"
        )
        params += [player, mu, sigma, game_type, player]
    return "(" + " UNION ALL ".join(parts) + ")", params
