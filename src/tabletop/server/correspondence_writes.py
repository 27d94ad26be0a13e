"""The writes of correspondence play (reminders.py): an account's reminder channels."""

from __future__ import annotations

from dataclasses import dataclass

from .rows import now
from .sql import Sql
from .writebase import Write


@dataclass(frozen=True)
class SaveReminderChannels(Write[None]):
    """How an account wants its reminders before a correspondence move's time runs out:
    on its open pages (``push``: the account socket, and a browser notification where the
    page may show one) and by e-mail (``mail``, to its confirmed address)."""

    account_id: int
    push: bool
    mail: bool

    def run(self, sql: Sql) -> None:
        sql.run(
            "INSERT INTO reminder_settings (account_id, push, mail, updated) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (account_id) DO UPDATE SET push = excluded.push, "
            "mail = excluded.mail, updated = excluded.updated",
            (self.account_id, self.push, self.mail, now()),
        )
