"""The writes of games' chat (chat.py): a message, and muting an account for oneself."""

from __future__ import annotations

from dataclasses import dataclass

from .rows import now
from .sql import Sql
from .writebase import Write


@dataclass(frozen=True)
class PostChat(Write[tuple[int, str] | None]):
    """Store a message (a ``text`` or a quick ``phrase``'s id) of ``account_id`` in a
    game's ``channel``: its id and time, or ``None`` once the channel holds ``cap``
    messages (counted in the same statement, so two processes cannot both pass it)."""

    game_id: str
    account_id: int
    channel: str
    text: str | None
    phrase: str | None
    cap: int

    def run(self, sql: Sql) -> tuple[int, str] | None:
        at = now()
        full = sql.row(
            "SELECT count(*) >= ? FROM chat_messages WHERE game_id = ? AND channel = ?",
            (self.cap, self.game_id, self.channel),
        )
        if full is None or full[0]:
            return None
        new_id = sql.insert_id(
            "INSERT INTO chat_messages (game_id, account_id, channel, text, phrase, at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (self.game_id, self.account_id, self.channel, self.text, self.phrase, at),
        )
        sql.announce_chat(self.game_id, new_id)  # other processes' sockets get it too
        return new_id, at


@dataclass(frozen=True)
class MuteChat(Write[bool]):
    """``account_id`` no longer receives ``muted``'s chat; whether that is new."""

    account_id: int
    muted: int

    def run(self, sql: Sql) -> bool:
        added = sql.run(
            "INSERT INTO chat_mutes (account_id, muted, at) VALUES (?, ?, ?) "
            "ON CONFLICT (account_id, muted) DO NOTHING",
            (self.account_id, self.muted, now()),
        )
        return added == 1


@dataclass(frozen=True)
class UnmuteChat(Write[bool]):
    """``account_id`` receives ``muted``'s chat again; whether it had muted it."""

    account_id: int
    muted: int

    def run(self, sql: Sql) -> bool:
        removed = sql.run(
            "DELETE FROM chat_mutes WHERE account_id = ? AND muted = ?",
            (self.account_id, self.muted),
        )
        return removed == 1
