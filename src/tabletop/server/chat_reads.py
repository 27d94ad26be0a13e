"""The reads of games' chat (chat.py): its messages, who muted whom, and what decides
whether a new account may write yet (``sqlstore.SqlStore`` has them, on both stores)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .rows import Account
from .sql import Sql
from .sqlreader import SqlReader


@dataclass(frozen=True)
class ChatRow:
    """One stored chat message: a ``text``, or a quick ``phrase``'s id (the other is
    ``None``); ``name``: its writer's account name."""

    id: int
    game_id: str
    account_id: int
    name: str
    channel: str
    text: str | None
    phrase: str | None
    at: str


_COLUMNS = "c.id, c.game_id, c.account_id, a.name, c.channel, c.text, c.phrase, c.at"


def _chat_row(row: Sequence[Any]) -> ChatRow:
    id_, game_id, account_id, name, channel, text, phrase, at = row
    return ChatRow(int(id_), game_id, int(account_id), name, channel, text, phrase, at)


class ChatReads(SqlReader):
    """What the store reads of chat (a mixin of ``SqlStore``)."""

    def chat_messages(
        self, game_id: str, channels: Sequence[str], limit: int = 1000
    ) -> list[ChatRow]:
        """The last ``limit`` messages of a game's ``channels``, oldest first."""
        if not channels:
            return []
        marks = ", ".join("?" * len(channels))
        rows = self._read(
            lambda sql: sql.rows(
                f"SELECT {_COLUMNS} FROM chat_messages c JOIN accounts a ON a.id = c.account_id "
                f"WHERE c.game_id = ? AND c.channel IN ({marks}) ORDER BY c.id DESC LIMIT ?",
                (game_id, *channels, limit),
            )
        )
        return [_chat_row(row) for row in reversed(rows)]

    def chat_message(self, message_id: int) -> ChatRow | None:
        """One message by its id (another process stored it: ``chat.ChatRelay``)."""
        row = self._read(
            lambda sql: sql.row(
                f"SELECT {_COLUMNS} FROM chat_messages c JOIN accounts a ON a.id = c.account_id "
                "WHERE c.id = ?",
                (message_id,),
            )
        )
        return None if row is None else _chat_row(row)

    def chat_of(self, account_id: int) -> list[dict[str, Any]]:
        """An account's own messages, for its data export, oldest first."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT id, game_id, channel, text, phrase, at FROM chat_messages "
                "WHERE account_id = ? ORDER BY id",
                (account_id,),
            )
        )
        keys = ("id", "game", "channel", "text", "phrase", "at")
        return [dict(zip(keys, row, strict=True)) for row in rows]

    def chat_mutes(self, account_id: int) -> list[Account]:
        """The accounts ``account_id`` muted, by name."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT a.id, a.name FROM chat_mutes m JOIN accounts a ON a.id = m.muted "
                "WHERE m.account_id = ? ORDER BY a.name",
                (account_id,),
            )
        )
        return [Account(int(id_), str(name)) for id_, name in rows]

    def muted_or_blocked(self, account_id: int) -> set[int]:
        """The accounts ``account_id`` muted in chat or blocked (``blocks``)."""

        def read(sql: Sql) -> set[int]:
            muted = sql.rows("SELECT muted FROM chat_mutes WHERE account_id = ?", (account_id,))
            blocked = sql.rows("SELECT blocked FROM blocks WHERE account_id = ?", (account_id,))
            return {int(row[0]) for row in (*muted, *blocked)}

        return self._read(read)

    def finished_a_game(self, account_id: int) -> bool:
        """Whether ``account_id`` holds a seat in a game that is over."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT 1 FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE s.account_id = ? AND g.over LIMIT 1",
                (account_id,),
            )
        )
        return row is not None

    def invited_either(self, account_id: int, others: Sequence[int]) -> set[int]:
        """Those of ``others`` that ``account_id`` invited or was invited by (by name, to
        a seat: ``invitations_sent``)."""
        if not others:
            return set()
        marks = ", ".join("?" * len(others))
        rows = self._read(
            lambda sql: sql.rows(
                f"SELECT invitee FROM invitations_sent WHERE inviter = ? AND invitee IN ({marks}) "
                f"UNION SELECT inviter FROM invitations_sent WHERE invitee = ? "
                f"AND inviter IN ({marks})",
                (account_id, *others, account_id, *others),
            )
        )
        return {int(row[0]) for row in rows}
