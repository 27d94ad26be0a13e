"""The reads of accounts, their sessions and bot tokens, fair play and e-mail settings
(``sqlstore.SqlStore`` has them, on both stores), and an account's data export."""

from __future__ import annotations

from typing import Any

from . import ratings
from .rows import (
    Account,
    AccountGame,
    MailRow,
    SessionRow,
    TokenRow,
    hash_token,
)
from .sql import Sql
from .sqlreader import SqlReader


class AccountReads(SqlReader):
    """What the store reads of accounts (a mixin of ``SqlStore``)."""

    # -- fair play: blocks and invitations sent -----------------------------------

    def blocked_by(self, account_id: int) -> list[Account]:
        """The accounts ``account_id`` blocked, by name."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT a.id, a.name FROM blocks b JOIN accounts a ON a.id = b.blocked "
                "WHERE b.account_id = ? ORDER BY a.name",
                (account_id,),
            )
        )
        return [Account(int(id_), str(name)) for id_, name in rows]

    def blocks(self, account_id: int, other: int) -> bool:
        """Whether ``account_id`` blocked ``other``."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT 1 FROM blocks WHERE account_id = ? AND blocked = ?", (account_id, other)
            )
        )
        return row is not None

    def open_invitations_sent(self, account_id: int) -> int:
        """Seats kept for invited accounts in unfinished games ``account_id`` created."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT COUNT(*) FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE g.creator = ? AND s.invited IS NOT NULL AND s.open AND NOT g.over",
                (account_id,),
            )
        )
        return int(row[0]) if row else 0

    def invitations_sent_since(self, account_id: int, since: str) -> tuple[int, int]:
        """Invitations ``account_id`` sent since ``since``: all, and of newcomers."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT COUNT(*), COALESCE(SUM(CASE WHEN newcomer THEN 1 ELSE 0 END), 0) "
                "FROM invitations_sent WHERE inviter = ? AND created >= ?",
                (account_id, since),
            )
        )
        return (int(row[0]), int(row[1])) if row else (0, 0)

    def rated_opponents(self, game_type: str, player: str) -> int:
        """``ratings.opponents``: whether ``player`` is still provisional."""
        return self._read(lambda sql: ratings.opponents(sql, game_type, player))

    # -- accounts ----------------------------------------------------------------

    def account_login(self, key: str) -> tuple[Account, str] | None:
        """The account of a (case-folded) name and its password hash."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT id, name, password_hash, bot FROM accounts WHERE name_key = ?", (key,)
            )
        )
        return None if row is None else (Account(row[0], row[1], bool(row[3])), row[2])

    def account_named(self, key: str) -> Account | None:
        found = self.account_login(key)
        return None if found is None else found[0]

    def account_for_session(self, token: str) -> Account | None:
        row = self._read(
            lambda sql: sql.row(
                "SELECT a.id, a.name, a.bot FROM sessions s JOIN accounts a "
                "ON a.id = s.account_id WHERE s.token_hash = ?",
                (hash_token(token),),
            )
        )
        return None if row is None else Account(row[0], row[1], bool(row[2]))

    def session_of(self, token: str) -> SessionRow | None:
        """The session of a cookie's token, with when it began and was last used."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT a.id, a.name, s.created, s.last_used, a.bot FROM sessions s "
                "JOIN accounts a ON a.id = s.account_id WHERE s.token_hash = ?",
                (hash_token(token),),
            )
        )
        if row is None:
            return None
        return SessionRow(Account(row[0], row[1], bool(row[4])), row[2], row[3])

    def credentials_alive(
        self, session_hashes: list[str], token_hashes: list[str], link_hashes: list[str]
    ) -> tuple[dict[str, tuple[str, str | None]], set[str]]:
        """Of these hashed session tokens, API tokens and seat links (of seats an account
        holds), the sessions that exist (with when each began and was last used), and
        the API tokens and links that do: one read per 500."""
        sessions: dict[str, tuple[str, str | None]] = {}
        others: set[str] = set()
        for part in _chunks(session_hashes):
            for row in self._hashed("token_hash, created, last_used FROM sessions WHERE", part):
                sessions[row[0]] = (row[1], row[2])
        for part in _chunks(token_hashes):
            others.update(row[0] for row in self._hashed("token_hash FROM api_tokens WHERE", part))
        for part in _chunks(link_hashes):
            seats = "token_hash FROM seats WHERE account_id IS NOT NULL AND"
            others.update(row[0] for row in self._hashed(seats, part))
        return sessions, others

    def _hashed(self, what: str, hashes: list[str]) -> list[tuple[Any, ...]]:
        """``SELECT what`` (columns, table and ``WHERE``, from code) ``token_hash IN`` these."""
        query = f"SELECT {what} token_hash IN ({', '.join('?' for _ in hashes)})"
        return self._read(lambda sql: sql.rows(query, hashes))

    # -- bot accounts and their API tokens ------------------------------------------------

    def token_of(self, token: str) -> TokenRow | None:
        """The API token ``token`` (sent as ``Authorization: Bearer``), if it exists."""
        rows = self._token_rows("t.token_hash = ?", (hash_token(token),))
        return rows[0] if rows else None

    def tokens_of(self, account_id: int) -> list[TokenRow]:
        """An account's API tokens, oldest first."""
        return self._token_rows("t.account_id = ?", (account_id,))

    def _token_rows(self, where: str, params: tuple[Any, ...]) -> list[TokenRow]:
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT t.id, a.id, a.name, a.bot, t.name, t.scopes, t.created, t.last_used "
                f"FROM api_tokens t JOIN accounts a ON a.id = t.account_id WHERE {where} "
                "ORDER BY t.id",
                params,
            )
        )
        return [
            TokenRow(
                row[0],
                Account(row[1], row[2], bool(row[3]), "play" not in row[5].split()),
                row[4],
                tuple(row[5].split()),
                row[6],
                row[7],
            )
            for row in rows
        ]

    def seats_taken_by(self, account_id: int) -> int:
        """How many seats of games the account has held (a bot account must start with
        none: its games as a person would mix into its ratings)."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT COUNT(*) FROM seats WHERE account_id = ? OR invited = ?",
                (account_id, account_id),
            )
        )
        return int(row[0]) if row else 0

    def bot_accounts(self, ids: list[int]) -> list[int]:
        """Which of these accounts are bot accounts."""
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        rows = self._read(
            lambda sql: sql.rows(f"SELECT id FROM accounts WHERE bot AND id IN ({marks})", ids)
        )
        return [row[0] for row in rows]

    def password_of(self, account_id: int) -> str | None:
        row = self._read(
            lambda sql: sql.row("SELECT password_hash FROM accounts WHERE id = ?", (account_id,))
        )
        return None if row is None else str(row[0])

    def account_created(self, account_id: int) -> str | None:
        row = self._read(
            lambda sql: sql.row("SELECT created FROM accounts WHERE id = ?", (account_id,))
        )
        return None if row is None else str(row[0])

    def holds_seats(self, account_id: int) -> bool:
        """Whether the account holds (or is invited to) a seat: then it may not become
        a bot account (``MakeBot``'s condition)."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT 1 FROM seats WHERE account_id = ? OR invited = ? LIMIT 1",
                (account_id, account_id),
            )
        )
        return row is not None

    def account_keys(self) -> list[tuple[int, str, str]]:
        """Every account's ``(id, name, name_key)``."""
        rows = self._read(lambda sql: sql.rows("SELECT id, name, name_key FROM accounts", ()))
        return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]

    def sessions_of(self, account_id: int) -> int:
        row = self._read(
            lambda sql: sql.row("SELECT COUNT(*) FROM sessions WHERE account_id = ?", (account_id,))
        )
        return int(row[0]) if row else 0

    def games_of(self, account_id: int, limit: int = 200) -> list[AccountGame]:
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT g.id, g.type, s.seat, g.over, g.abandoned, g.updated FROM seats s "
                "JOIN games g ON g.id = s.game_id WHERE s.account_id = ? "
                "ORDER BY g.updated DESC LIMIT ?",
                (account_id, limit),
            )
        )
        return [
            AccountGame(id_, type_, seat, bool(over), bool(abandoned), updated)
            for id_, type_, seat, over, abandoned, updated in rows
        ]

    def account_names(self, ids: list[int]) -> dict[int, str]:
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        rows = self._read(
            lambda sql: sql.rows(f"SELECT id, name FROM accounts WHERE id IN ({marks})", ids)
        )
        return {row[0]: row[1] for row in rows}

    # -- e-mail notifications ----------------------------------------------------------

    def mail_settings(self, account_id: int) -> MailRow | None:
        """An account's e-mail settings, if it ever gave an address."""
        rows = self._mail_rows("m.account_id = ?", (account_id,))
        return rows[0] if rows else None

    def reminder_channels(self, account_id: int) -> tuple[bool, bool]:
        """``(push, mail)``: how the account wants its correspondence reminders (both
        until it chose: reminders.py)."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT push, mail FROM reminder_settings WHERE account_id = ?", (account_id,)
            )
        )
        return (True, True) if row is None else (bool(row[0]), bool(row[1]))

    def digest_readers(self) -> list[MailRow]:
        """The accounts with a verified address that asked for a daily digest."""
        return self._mail_rows("m.mode = 'digest' AND m.verified", ())

    def _mail_rows(self, where: str, params: tuple[Any, ...]) -> list[MailRow]:
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT m.account_id, a.name, m.address, m.verified, m.mode, m.lang "
                f"FROM mail_settings m JOIN accounts a ON a.id = m.account_id WHERE {where} "
                "ORDER BY m.account_id",
                params,
            )
        )
        return [
            MailRow(account, name, address, bool(verified), mode, lang)
            for account, name, address, verified, mode, lang in rows
        ]

    def account_records(self, account_id: int) -> dict[str, list[dict[str, Any]]]:
        """What else is kept of an account, for its export: its e-mail settings, the
        keys of the mails it was sent, the confirmation mails it asked for (the last
        day's), its API tokens, sessions, daily attempts, the accounts it blocked and the
        invitations it sent (kept a few days); never a secret (no
        password, token or address hash)."""

        def read(sql: Sql) -> dict[str, list[dict[str, Any]]]:
            found = {}
            for what, (table, columns, order) in _ACCOUNT_RECORDS.items():
                query = f"SELECT {', '.join(columns)} FROM {table} WHERE account_id = ? "
                rows = sql.rows(query + f"ORDER BY {order}", (account_id,))  # names from code
                found[what] = [dict(zip(columns, row, strict=True)) for row in rows]
            # the fair-play records name the other account, never its id
            found["blocks"] = [
                {"name": name, "created": created}
                for name, created in sql.rows(
                    "SELECT a.name, b.created FROM blocks b JOIN accounts a ON a.id = b.blocked "
                    "WHERE b.account_id = ? ORDER BY b.created",
                    (account_id,),
                )
            ]
            found["invitations_sent"] = [
                {"name": name, "created": created}
                for name, created in sql.rows(
                    "SELECT a.name, i.created FROM invitations_sent i "
                    "JOIN accounts a ON a.id = i.invitee WHERE i.inviter = ? ORDER BY i.created",
                    (account_id,),
                )
            ]
            found["follows"] = [  # friends (friends.py)
                {"name": name, "at": at}
                for name, at in sql.rows(
                    "SELECT a.name, f.at FROM follows f JOIN accounts a ON a.id = f.follows "
                    "WHERE f.account_id = ? ORDER BY f.at",
                    (account_id,),
                )
            ]
            return found

        found = self._read(read)
        for row in found["email"]:
            row["verified"] = bool(row["verified"])
        for row in found["reminders"]:
            row.update(push=bool(row["push"]), mail=bool(row["mail"]))
        for row in found["api_tokens"]:
            row["scopes"] = row["scopes"].split()
        return found


#: the export's other records (``account_records``): (table, columns, order)
_ACCOUNT_RECORDS = {
    "email": ("mail_settings", ("address", "verified", "mode", "lang", "updated"), "updated"),
    "mails_sent": ("mails_sent", ("key", "created"), "created"),
    "confirmation_mails": ("mail_confirmations", ("created",), "created"),
    "api_tokens": ("api_tokens", ("id", "name", "scopes", "created", "last_used"), "id"),
    "sessions": ("sessions", ("created", "last_used"), "created"),
    "daily_attempts": ("daily_attempts", ("type", "day", "game_id", "created"), "created"),
    "reminders": ("reminder_settings", ("push", "mail", "updated"), "updated"),
    # the events it joined (tournaments.py): under the name it had, Unix seconds
    "tournaments": (
        "tournament_entrants",
        ("tournament_id", "entrant", "name", "joined", "withdrawn"),
        "joined",
    ),
}


def _chunks(items: list[str], size: int = 500) -> list[list[str]]:
    """``items`` in lists of at most ``size``: a bound on a statement's parameters."""
    return [items[i : i + size] for i in range(0, len(items), size)]
