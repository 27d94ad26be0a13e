"""The writes of accounts, their sessions, bot tokens and blocks (``writes`` lists
every write; the account and token APIs make them)."""

from __future__ import annotations

from dataclasses import dataclass

from .moderation_writes import forget_moderation
from .rows import OPEN_NAME, now
from .sql import Sql
from .tournament_writes import forget_tournaments
from .writebase import Write


@dataclass(frozen=True)
class CreateAccount(Write[int]):
    """A new account; its result is the account's id. Fails if ``key`` (the case-folded
    name) is taken."""

    name: str
    key: str
    password_hash: str

    def run(self, sql: Sql) -> int:
        return sql.insert_id(
            "INSERT INTO accounts (name, name_key, password_hash, created) VALUES (?, ?, ?, ?)",
            (self.name, self.key, self.password_hash, now()),
        )


@dataclass(frozen=True)
class CreateSession(Write[None]):
    token_hash: str
    account_id: int

    def run(self, sql: Sql) -> None:
        sql.run(
            "INSERT INTO sessions (token_hash, account_id, created) VALUES (?, ?, ?)",
            (self.token_hash, self.account_id, now()),
        )


@dataclass(frozen=True)
class EndSession(Write[None]):
    token_hash: str

    def run(self, sql: Sql) -> None:
        row = sql.row("SELECT account_id FROM sessions WHERE token_hash = ?", (self.token_hash,))
        if row is not None:
            sql.announce_account(int(row[0]))
            sql.run("DELETE FROM sessions WHERE token_hash = ?", (self.token_hash,))


@dataclass(frozen=True)
class EndSessions(Write[int]):
    """Log out everywhere; its result is how many sessions ended."""

    account_id: int

    def run(self, sql: Sql) -> int:
        sql.announce_account(self.account_id)
        return sql.run("DELETE FROM sessions WHERE account_id = ?", (self.account_id,))


@dataclass(frozen=True)
class TouchSession(Write[None]):
    """A session was used: it lives on (its idle limit counts from ``at``)."""

    token_hash: str
    at: str

    def run(self, sql: Sql) -> None:
        sql.run(
            "UPDATE sessions SET last_used = ? WHERE token_hash = ?", (self.at, self.token_hash)
        )


@dataclass(frozen=True)
class EndOtherSessions(Write[int]):
    """Every session of the account but ``keep`` ends; its result is how many did."""

    account_id: int
    keep: str  # the token hash of the session that asked

    def run(self, sql: Sql) -> int:
        sql.announce_account(self.account_id)
        return sql.run(
            "DELETE FROM sessions WHERE account_id = ? AND token_hash <> ?",
            (self.account_id, self.keep),
        )


@dataclass(frozen=True)
class ChangePassword(Write[tuple[int, int]]):
    """A new password hash; every other session of the account ends, so whoever knew
    the old password is signed out everywhere, and its API tokens are revoked unless
    kept (``revoke_tokens``): its result is how many sessions ended and tokens went."""

    account_id: int
    password_hash: str
    keep: str
    revoke_tokens: bool = True

    def run(self, sql: Sql) -> tuple[int, int]:
        sql.run(
            "UPDATE accounts SET password_hash = ? WHERE id = ?",
            (self.password_hash, self.account_id),
        )
        revoked = RevokeTokens(self.account_id).run(sql) if self.revoke_tokens else 0
        return EndOtherSessions(self.account_id, self.keep).run(sql), revoked


DELETED_PLAYER = "deleted player"  # the seat name a deleted account leaves in its games


@dataclass(frozen=True)
class DeleteAccount(Write[None]):
    """Delete an account: its sessions, ratings and daily attempts go; its games stay,
    its seats named ``DELETED_PLAYER``, tied to no account and playable by no link."""

    account_id: int

    def run(self, sql: Sql) -> None:
        account, player = (self.account_id,), (f"a:{self.account_id}",)
        sql.run(
            "UPDATE seats SET name = ?, account_id = NULL, token_hash = NULL WHERE account_id = ?",
            (DELETED_PLAYER, self.account_id),
        )
        sql.run(  # its invitations: the seats open to the lobby, as when declined
            "UPDATE seats SET name = ?, invited = NULL WHERE invited = ?",
            (OPEN_NAME, self.account_id),
        )
        sql.run("UPDATE games SET creator = NULL WHERE creator = ?", account)
        sql.run("DELETE FROM daily_attempts WHERE account_id = ?", account)
        sql.run("DELETE FROM mails_sent WHERE account_id = ?", account)
        sql.run("DELETE FROM mail_settings WHERE account_id = ?", account)
        sql.run("DELETE FROM reminder_settings WHERE account_id = ?", account)
        # the address's count stays (a new account starts no new day of mails to it)
        sql.run("UPDATE mail_confirmations SET account_id = NULL WHERE account_id = ?", account)
        sql.run("DELETE FROM ratings WHERE player = ?", player)
        sql.run("DELETE FROM rating_changes WHERE player = ?", player)
        sql.announce_account(self.account_id)
        sql.run("DELETE FROM sessions WHERE account_id = ?", account)
        sql.run("DELETE FROM api_tokens WHERE account_id = ?", account)
        sql.run("DELETE FROM blocks WHERE account_id = ? OR blocked = ?", account * 2)
        sql.run("DELETE FROM follows WHERE account_id = ? OR follows = ?", account * 2)
        forget_moderation(sql, self.account_id)
        sql.run("DELETE FROM invitations_sent WHERE inviter = ? OR invitee = ?", account * 2)
        # its chat goes with it (chat.py): its messages, and the mutes it made or got
        sql.run("DELETE FROM chat_messages WHERE account_id = ?", account)
        sql.run("DELETE FROM chat_mutes WHERE account_id = ? OR muted = ?", account * 2)
        forget_tournaments(sql, self.account_id, DELETED_PLAYER)
        sql.run("DELETE FROM accounts WHERE id = ?", account)


@dataclass(frozen=True)
class Block(Write[bool]):
    """``account_id`` blocks ``blocked`` (whose invitations it no longer gets); whether
    that is new."""

    account_id: int
    blocked: int

    def run(self, sql: Sql) -> bool:
        return (
            sql.run(
                "INSERT INTO blocks (account_id, blocked, created) VALUES (?, ?, ?) "
                "ON CONFLICT (account_id, blocked) DO NOTHING",
                (self.account_id, self.blocked, now()),
            )
            == 1
        )


@dataclass(frozen=True)
class Unblock(Write[bool]):
    """``account_id`` no longer blocks ``blocked``; whether it did."""

    account_id: int
    blocked: int

    def run(self, sql: Sql) -> bool:
        return (
            sql.run(
                "DELETE FROM blocks WHERE account_id = ? AND blocked = ?",
                (self.account_id, self.blocked),
            )
            == 1
        )


@dataclass(frozen=True)
class MakeBot(Write[bool]):
    """Turn an account into a bot account, for good; its result: whether it changed
    (not if it holds seats as a person meanwhile, or is a bot account already)."""

    account_id: int

    def run(self, sql: Sql) -> bool:
        return (
            sql.run(
                "UPDATE accounts SET bot = ? WHERE id = ? AND NOT bot AND NOT EXISTS "
                "(SELECT 1 FROM seats WHERE account_id = ? OR invited = ?)",
                (True, *(self.account_id,) * 3),
            )
            == 1
        )


@dataclass(frozen=True)
class CreateToken(Write[int]):
    """A new API token of a bot account (stored hashed); its result is the token's id."""

    account_id: int
    name: str
    token_hash: str
    scopes: tuple[str, ...]

    def run(self, sql: Sql) -> int:
        return sql.insert_id(
            "INSERT INTO api_tokens (account_id, name, token_hash, scopes, created) "
            "VALUES (?, ?, ?, ?, ?)",
            (self.account_id, self.name, self.token_hash, " ".join(self.scopes), now()),
        )


@dataclass(frozen=True)
class RevokeToken(Write[str | None]):
    """Delete an account's API token ``token_id``; its result is the token's hash (the
    sockets opened with it close), ``None`` if the account has no such token."""

    account_id: int
    token_id: int

    def run(self, sql: Sql) -> str | None:
        row = sql.row(
            "SELECT token_hash FROM api_tokens WHERE id = ? AND account_id = ?",
            (self.token_id, self.account_id),
        )
        if row is None:
            return None
        sql.announce_account(self.account_id)
        sql.run("DELETE FROM api_tokens WHERE id = ?", (self.token_id,))
        return str(row[0])


@dataclass(frozen=True)
class RevokeTokens(Write[int]):
    """Revoke all of an account's API tokens; its result is how many there were."""

    account_id: int

    def run(self, sql: Sql) -> int:
        sql.announce_account(self.account_id)
        return sql.run("DELETE FROM api_tokens WHERE account_id = ?", (self.account_id,))


@dataclass(frozen=True)
class TouchToken(Write[None]):
    """When an API token was last used (at most once a minute: ``Sessions.refresh_after``)."""

    token_hash: str
    at: str

    def run(self, sql: Sql) -> None:
        sql.run(
            "UPDATE api_tokens SET last_used = ? WHERE token_hash = ?", (self.at, self.token_hash)
        )


@dataclass(frozen=True)
class RekeyNames(Write[int]):
    """Store each account's name key as ``name_key`` now makes it (``(id, key)``), unless
    another account has that key already (the older account keeps its old one, and
    signs in with it); its result is how many changed."""

    keys: tuple[tuple[int, str], ...]

    def run(self, sql: Sql) -> int:
        changed = 0
        for account_id, key in self.keys:
            if sql.row("SELECT 1 FROM accounts WHERE name_key = ?", (key,)) is None:
                changed += sql.run(
                    "UPDATE accounts SET name_key = ? WHERE id = ?", (key, account_id)
                )
        return changed
