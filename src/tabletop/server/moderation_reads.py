"""The reads of moderation (issue 46; ``sqlstore.SqlStore`` has them, on both stores):
who is kept apart by a block, the moderators, reports and the moderators' log,
warnings, chat mutes and closed accounts, and a reported chat message's context."""

from __future__ import annotations

import json
from typing import Any

from .rows import Account
from .sql import Sql
from .sqlreader import SqlReader

CONTEXT_BEFORE = 10  # chat messages before a reported one kept with its report
#: the columns of the chat's table (chat_messages, built apart) a report's context keeps
CHAT_COLUMNS = ("id", "game_id", "account_id", "channel", "text", "phrase", "at")


class ModerationReads(SqlReader):
    """What the store reads for blocks and moderation (a mixin of ``SqlStore``)."""

    # -- blocks, both ways ------------------------------------------------------------

    def kept_apart(self, account_id: int) -> frozenset[int]:
        """The accounts ``account_id`` blocked or was blocked by: never seated, listed
        or mailed together, whoever asked."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT blocked FROM blocks WHERE account_id = ? "
                "UNION SELECT account_id FROM blocks WHERE blocked = ?",
                (account_id, account_id),
            )
        )
        return frozenset(int(row[0]) for row in rows)

    # -- moderators -----------------------------------------------------------------------

    def is_moderator(self, account_id: int) -> bool:
        row = self._read(
            lambda sql: sql.row("SELECT 1 FROM moderators WHERE account_id = ?", (account_id,))
        )
        return row is not None

    def moderators(self) -> list[Account]:
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT a.id, a.name FROM moderators m JOIN accounts a ON a.id = m.account_id "
                "ORDER BY a.name"
            )
        )
        return [Account(int(id_), str(name)) for id_, name in rows]

    # -- reports and the log -------------------------------------------------------------

    def reports_since(self, reporter: int, since: str) -> int:
        """How many reports ``reporter`` filed since ``since`` (a stored time)."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT COUNT(*) FROM reports WHERE reporter = ? AND at >= ?", (reporter, since)
            )
        )
        return int(row[0]) if row else 0

    def open_reports(self, limit: int = 100) -> list[dict[str, Any]]:
        """The open reports, oldest first (the longest waiting on top)."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT r.id, a.name, r.account_name, r.reason, r.text, r.game_id, "
                "r.message_id, r.context, r.at, r.account_id FROM reports r "
                "LEFT JOIN accounts a ON a.id = r.reporter "
                "WHERE r.state = 'open' ORDER BY r.id LIMIT ?",
                (limit,),
            )
        )
        return [_report(row) for row in rows]

    def report_account(self, report_id: int) -> tuple[int, str] | None:
        """The id and name of the account an open report is about."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT account_id, account_name FROM reports WHERE id = ? AND state = 'open'",
                (report_id,),
            )
        )
        return None if row is None else (int(row[0]), str(row[1]))

    def moderation_log(self, limit: int = 100) -> list[dict[str, Any]]:
        """The latest moderator actions, newest first."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT id, moderator_name, action, account_name, report_id, details, at "
                "FROM moderation_log ORDER BY id DESC LIMIT ?",
                (limit,),
            )
        )
        keys = ("id", "moderator", "action", "account", "report", "details", "at")
        return [dict(zip(keys, row, strict=True)) for row in rows]

    # -- what a moderator's actions leave on an account ----------------------------------

    def warnings_of(self, account_id: int) -> list[dict[str, Any]]:
        """The warnings the account has not acknowledged yet, oldest first."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT id, text, at FROM warnings WHERE account_id = ? "
                "AND acknowledged IS NULL ORDER BY id",
                (account_id,),
            )
        )
        return [{"id": int(id_), "text": str(text), "at": str(at)} for id_, text, at in rows]

    def chat_muted_until(self, account_id: int) -> float | None:
        """Until when (``CLOCK`` seconds) a moderator muted the account's chat; ``None``
        if never (a time already past means it may chat again)."""
        row = self._read(
            lambda sql: sql.row("SELECT until FROM chat_mutes WHERE account_id = ?", (account_id,))
        )
        return None if row is None else float(row[0])

    def account_closed(self, account_id: int) -> bool:
        row = self._read(
            lambda sql: sql.row("SELECT 1 FROM closed_accounts WHERE account_id = ?", (account_id,))
        )
        return row is not None

    def moderation_records(self, account_id: int) -> dict[str, list[dict[str, Any]]]:
        """What moderation keeps of the account, for its data export: the warnings it
        was given and the reports it filed (what it wrote; not the moderators' notes)."""
        warnings = self._read(
            lambda sql: sql.rows(
                "SELECT text, at, acknowledged FROM warnings WHERE account_id = ? ORDER BY id",
                (account_id,),
            )
        )
        filed = self._read(
            lambda sql: sql.rows(
                "SELECT account_name, reason, text, game_id, message_id, at, state "
                "FROM reports WHERE reporter = ? ORDER BY id",
                (account_id,),
            )
        )
        keys = ("account", "reason", "text", "game", "message", "at", "state")
        return {
            "warnings": [
                dict(zip(("text", "at", "acknowledged"), w, strict=True)) for w in warnings
            ],
            "reports_filed": [dict(zip(keys, r, strict=True)) for r in filed],
        }

    # -- a reported chat message's context ------------------------------------------------

    def chat_context(self, message_id: int) -> list[dict[str, Any]]:
        """The reported message and up to ``CONTEXT_BEFORE`` before it in its game's
        channel, oldest first, with their authors' names; empty where there is no such
        message, or no chat table at all (a store made before the chat)."""
        return self._read(lambda sql: _chat_context(sql, message_id))


def _report(row: tuple[Any, ...]) -> dict[str, Any]:
    id_, reporter, account, reason, text, game, message, context, at, account_id = row
    return {
        "id": int(id_),
        "reporter": reporter,  # None: the reporter's account was deleted since
        "account": account,
        "account_id": int(account_id),
        "reason": reason,
        "text": text,
        "game": game,
        "message": message,
        "context": json.loads(context),
        "at": at,
    }


def chat_columns(sql: Sql) -> list[str]:
    """The columns of ``CHAT_COLUMNS`` the chat's table has (none: no such table)."""
    if sql.dialect.name == "sqlite":
        found = [str(row[1]) for row in sql.rows("PRAGMA table_info(chat_messages)")]
    else:
        found = [
            str(row[0])
            for row in sql.rows(
                "SELECT column_name FROM information_schema.columns "
                "WHERE table_name = 'chat_messages' AND table_schema = current_schema()"
            )
        ]
    return [c for c in CHAT_COLUMNS if c in found]


def _chat_context(sql: Sql, message_id: int) -> list[dict[str, Any]]:
    columns = chat_columns(sql)
    if not {"id", "game_id", "account_id"} <= set(columns):
        return []
    chosen = ", ".join(f"m.{c}" for c in columns)  # names from CHAT_COLUMNS, not input
    reported = sql.row(f"SELECT {chosen} FROM chat_messages m WHERE m.id = ?", (message_id,))
    if reported is None:
        return []
    message = dict(zip(columns, reported, strict=True))
    same_channel = " AND m.channel = ?" if "channel" in columns else ""
    params: list[Any] = [message["game_id"], message_id]
    if same_channel:
        params.append(message["channel"])
    rows = sql.rows(
        f"SELECT {chosen}, a.name FROM chat_messages m LEFT JOIN accounts a "
        f"ON a.id = m.account_id WHERE m.game_id = ? AND m.id <= ?{same_channel} "
        "ORDER BY m.id DESC LIMIT ?",
        (*params, CONTEXT_BEFORE + 1),
    )
    found = [{**dict(zip(columns, row[:-1], strict=True)), "name": row[-1]} for row in rows]
    return found[::-1]
