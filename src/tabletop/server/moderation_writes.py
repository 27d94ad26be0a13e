"""The writes of moderation (issue 46): the moderator role, reports, and each moderator
action stored with its line in the log, in one transaction (an action is never done
unlogged, nor logged undone)."""

from __future__ import annotations

from dataclasses import dataclass

from .rows import now
from .sql import Sql
from .writebase import Write


@dataclass(frozen=True)
class SetModerator(Write[bool]):
    """Grant (``moderator``) or revoke the role; whether anything changed."""

    account_id: int
    moderator: bool

    def run(self, sql: Sql) -> bool:
        if not self.moderator:
            return sql.run("DELETE FROM moderators WHERE account_id = ?", (self.account_id,)) > 0
        added = sql.run(
            "INSERT INTO moderators (account_id, created) VALUES (?, ?) "
            "ON CONFLICT (account_id) DO NOTHING",
            (self.account_id, now()),
        )
        return added > 0


@dataclass(frozen=True)
class FileReport(Write[int | None]):
    """A report, unless its reporter filed ``per_day`` since ``since`` already (then
    ``None``): counted in the transaction, so two at once cannot both pass the limit on
    one SQLite writer (PostgreSQL may let one more through: harmless)."""

    reporter: int
    account_id: int
    account_name: str
    reason: str
    text: str
    game_id: str | None
    message_id: int | None
    context: str  # JSON text
    since: str
    per_day: int

    def run(self, sql: Sql) -> int | None:
        row = sql.row(
            "SELECT COUNT(*) FROM reports WHERE reporter = ? AND at >= ?",
            (self.reporter, self.since),
        )
        if row is not None and int(row[0]) >= self.per_day:
            return None
        return sql.insert_id(
            "INSERT INTO reports (reporter, account_id, account_name, reason, text, game_id, "
            "message_id, context, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                *(self.reporter, self.account_id, self.account_name, self.reason, self.text),
                *(self.game_id, self.message_id, self.context, now()),
            ),
        )


@dataclass(frozen=True)
class Logged:
    """Who did what to whom, for the log line of a moderator action."""

    moderator: int
    moderator_name: str
    account_id: int
    account_name: str
    report_id: int | None
    details: str

    def log(self, sql: Sql, action: str) -> None:
        sql.run(
            "INSERT INTO moderation_log (moderator, moderator_name, action, account_id, "
            "account_name, report_id, details, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                *(self.moderator, self.moderator_name, action, self.account_id),
                *(self.account_name, self.report_id, self.details, now()),
            ),
        )
        if self.report_id is not None:  # acting on a report settles it
            _close_report(sql, self.report_id, self.moderator)


def _close_report(sql: Sql, report_id: int, moderator: int) -> bool:
    changed = sql.run(
        "UPDATE reports SET state = 'closed', closed_by = ?, closed_at = ? "
        "WHERE id = ? AND state = 'open'",
        (moderator, now(), report_id),
    )
    return changed > 0


@dataclass(frozen=True)
class DismissReport(Write[bool]):
    """Close a report with no action on the account; whether it was open."""

    logged: Logged

    def run(self, sql: Sql) -> bool:
        assert self.logged.report_id is not None
        if not _close_report(sql, self.logged.report_id, self.logged.moderator):
            return False
        self.logged.log(sql, "dismiss")
        return True


@dataclass(frozen=True)
class Warn(Write[None]):
    """A warning the account sees until it acknowledges it (``text``: the moderator's)."""

    logged: Logged
    text: str

    def run(self, sql: Sql) -> None:
        sql.run(
            "INSERT INTO warnings (account_id, text, at) VALUES (?, ?, ?)",
            (self.logged.account_id, self.text, now()),
        )
        self.logged.log(sql, "warn")


@dataclass(frozen=True)
class MuteChat(Write[None]):
    """The account may not chat until ``until`` (``CLOCK`` seconds); a later mute
    replaces an earlier one (0 lifts it)."""

    logged: Logged
    until: float

    def run(self, sql: Sql) -> None:
        sql.run(
            "INSERT INTO chat_mutes (account_id, until) VALUES (?, ?) "
            "ON CONFLICT (account_id) DO UPDATE SET until = excluded.until",
            (self.logged.account_id, self.until),
        )
        self.logged.log(sql, "mute")


@dataclass(frozen=True)
class CloseAccount(Write[bool]):
    """The account can no longer sign in: its sessions and API tokens end (the caller
    closes their channels and resigns its games first); whether it was open."""

    logged: Logged

    def run(self, sql: Sql) -> bool:
        closed = sql.run(
            "INSERT INTO closed_accounts (account_id, at) VALUES (?, ?) "
            "ON CONFLICT (account_id) DO NOTHING",
            (self.logged.account_id, now()),
        )
        account = (self.logged.account_id,)
        sql.announce_account(self.logged.account_id)  # other processes close its channels
        sql.run("DELETE FROM sessions WHERE account_id = ?", account)
        sql.run("DELETE FROM api_tokens WHERE account_id = ?", account)
        self.logged.log(sql, "close")
        return closed > 0


@dataclass(frozen=True)
class AcknowledgeWarning(Write[bool]):
    """The account read its warning; whether it was its own and not acknowledged yet."""

    account_id: int
    warning_id: int

    def run(self, sql: Sql) -> bool:
        changed = sql.run(
            "UPDATE warnings SET acknowledged = ? WHERE id = ? AND account_id = ? "
            "AND acknowledged IS NULL",
            (now(), self.warning_id, self.account_id),
        )
        return changed > 0


def forget_moderation(sql: Sql, account_id: int) -> None:
    """Part of deleting an account: what is only about it goes (its role, warnings,
    mute, closure); the reports it filed lose their reporter, while the reports about
    it and the log keep the names they were filed under."""
    account = (account_id,)
    sql.run("DELETE FROM moderators WHERE account_id = ?", account)
    sql.run("DELETE FROM warnings WHERE account_id = ?", account)
    sql.run("DELETE FROM chat_mutes WHERE account_id = ?", account)
    sql.run("DELETE FROM closed_accounts WHERE account_id = ?", account)
    sql.run("UPDATE reports SET reporter = NULL WHERE reporter = ?", account)
