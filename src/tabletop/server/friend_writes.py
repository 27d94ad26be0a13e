"""The writes of friends (``friends_api.py`` makes them): following and unfollowing."""

from __future__ import annotations

from dataclasses import dataclass

from .rows import now
from .sql import Sql
from .writebase import Write

#: ``Follow``'s results
FOLLOWED, ALREADY, TOO_MANY = "followed", "already", "too_many"


@dataclass(frozen=True)
class Follow(Write[str]):
    """``account_id`` follows ``follows``, unless it follows ``most`` accounts already:
    counted and added in one statement, so that two follows at once cannot both pass
    the cap. Its result: ``FOLLOWED``, ``ALREADY`` or ``TOO_MANY``."""

    account_id: int
    follows: int
    most: int

    def run(self, sql: Sql) -> str:
        added = sql.run(
            "INSERT INTO follows (account_id, follows, at) SELECT ?, ?, ? "
            "WHERE (SELECT COUNT(*) FROM follows WHERE account_id = ?) < ? "
            "ON CONFLICT (account_id, follows) DO NOTHING",
            (self.account_id, self.follows, now(), self.account_id, self.most),
        )
        if added == 1:
            return FOLLOWED
        known = sql.row(
            "SELECT 1 FROM follows WHERE account_id = ? AND follows = ?",
            (self.account_id, self.follows),
        )
        return ALREADY if known is not None else TOO_MANY


@dataclass(frozen=True)
class Unfollow(Write[bool]):
    """``account_id`` no longer follows ``follows``; whether it did."""

    account_id: int
    follows: int

    def run(self, sql: Sql) -> bool:
        return (
            sql.run(
                "DELETE FROM follows WHERE account_id = ? AND follows = ?",
                (self.account_id, self.follows),
            )
            == 1
        )
