"""The writes of e-mail notifications (settings, confirmations, the day's counts) and of
sign-in tries (``writes`` lists every write; ``notify`` and ``throttle`` make them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .rows import StoreError, now
from .sql import Sql
from .writebase import Write


@dataclass(frozen=True)
class SaveMailSettings(Write[None]):
    """An account's e-mail settings: its ``address`` (``verified`` or not), what it wants
    mailed (``mode``: "off", "turn" or "digest") and in which language."""

    account_id: int
    address: str
    verified: bool
    mode: str
    lang: str

    def run(self, sql: Sql) -> None:
        sql.run(
            "INSERT INTO mail_settings (account_id, address, verified, mode, lang, updated) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (account_id) DO UPDATE SET "
            "address = excluded.address, verified = excluded.verified, mode = excluded.mode, "
            "lang = excluded.lang, updated = excluded.updated",
            (self.account_id, self.address, self.verified, self.mode, self.lang, now()),
        )


@dataclass(frozen=True)
class MailRefusal:
    """Why a confirmation mail may not go now: ``"address"`` (that address had its
    share today) or ``"account"`` (the account asked for its share), and the seconds
    until the oldest of them leaves the day."""

    limit: str
    seconds: float


@dataclass(frozen=True)
class ReserveConfirmation(Write[MailRefusal | None]):
    """Count a confirmation mail to ``address_key`` asked by ``account_id`` at ``at``
    (an ISO time) and save the settings ``then`` in the same transaction; or, when the
    address has had ``per_address`` or the account ``per_account`` since ``since``
    (a day before), change nothing and say why. Rows from before ``since`` go."""

    account_id: int
    address_key: str
    at: str
    since: str
    per_address: int
    per_account: int
    then: SaveMailSettings

    def run(self, sql: Sql) -> MailRefusal | None:
        sql.lock_mail_limits()
        sql.run("DELETE FROM mail_confirmations WHERE created < ?", (self.since,))
        for limit, column, key, most in (
            ("address", "address_key", self.address_key, self.per_address),
            ("account", "account_id", self.account_id, self.per_account),
        ):
            found = sql.rows(
                f"SELECT created FROM mail_confirmations WHERE {column} = ? "  # names from code
                "ORDER BY created DESC",
                (key,),
            )
            if len(found) >= most:
                return MailRefusal(limit, _seconds_between(self.since, found[most - 1][0]))
        sql.run(
            "INSERT INTO mail_confirmations (address_key, account_id, created) VALUES (?, ?, ?)",
            (self.address_key, self.account_id, self.at),
        )
        self.then.run(sql)
        return None


def _seconds_between(earlier: str, later: str) -> float:
    """Seconds from one stored ISO time to another."""
    return (datetime.fromisoformat(later) - datetime.fromisoformat(earlier)).total_seconds()


@dataclass(frozen=True)
class VerifyMail(Write[bool]):
    """The account's ``address`` is verified; False if the account has another one now."""

    account_id: int
    address: str

    def run(self, sql: Sql) -> bool:
        changed = sql.run(
            "UPDATE mail_settings SET verified = ?, updated = ? "
            "WHERE account_id = ? AND address = ?",
            (True, now(), self.account_id, self.address),
        )
        return changed == 1


@dataclass(frozen=True)
class StopMail(Write[bool]):
    """No more mails to the account's ``address`` (an unsubscribe link); False if the
    account has another address now."""

    account_id: int
    address: str

    def run(self, sql: Sql) -> bool:
        changed = sql.run(
            "UPDATE mail_settings SET mode = 'off', updated = ? "
            "WHERE account_id = ? AND address = ?",
            (now(), self.account_id, self.address),
        )
        return changed == 1


@dataclass(frozen=True)
class ClaimMail(Write[bool]):
    """Record that the mail ``key`` (a game's turn, a day's digest) is sent to an
    account; False if it was already (by this process or another): the key decides
    who sends, so a mail goes out once however many processes learn of the turn."""

    key: str
    account_id: int

    def run(self, sql: Sql) -> bool:
        claimed = sql.run(
            "INSERT INTO mails_sent (key, account_id, created) VALUES (?, ?, ?) "
            "ON CONFLICT (key) DO NOTHING",
            (self.key, self.account_id, now()),
        )
        return claimed == 1


@dataclass(frozen=True)
class PruneMails(Write[int]):
    """Forget the keys of mails sent before ``before`` (an ISO time); how many. A digest's
    key names its day and a turn's its move, so an old key stops nothing any more —
    except a turn still waiting after that long, which then gets one more mail (a
    reminder, not a flood)."""

    before: str

    def run(self, sql: Sql) -> int:
        return sql.run("DELETE FROM mails_sent WHERE created < ?", (self.before,))


@dataclass(frozen=True)
class ServerSecret(Write[str]):
    """The server's secret ``name``, made of ``fresh`` the first time; the result is the
    stored one (which another process may have made first)."""

    name: str
    fresh: str

    def run(self, sql: Sql) -> str:
        sql.run(
            "INSERT INTO server_secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
            (self.name, self.fresh),
        )
        row = sql.row("SELECT value FROM server_secrets WHERE name = ?", (self.name,))
        if row is None:  # cannot happen: inserted or there already
            raise StoreError("the server's secret could not be stored")
        return str(row[0])


@dataclass(frozen=True)
class ForgetMail(Write[None]):
    """The account takes its address back: no mails, and the address is gone."""

    account_id: int

    def run(self, sql: Sql) -> None:
        sql.run("DELETE FROM mail_settings WHERE account_id = ?", (self.account_id,))


@dataclass(frozen=True)
class ReserveLoginTry(Write[float]):
    """One sign-in try for ``key``, taken before its password is hashed and counted as
    failed until ``GiveBackLoginTry``: 0.0 when taken, else the seconds until the next
    may be. A compare-and-set on the row, so of several processes asking at once each
    try is taken once (``LoginThrottle``)."""

    key: str
    now: float
    free: int  # failures in a row before any wait
    cap: float  # the longest wait
    forget: float  # quiet seconds after which past failures no longer count

    def run(self, sql: Sql) -> float:
        row = sql.row("SELECT failures, next_try FROM login_tries WHERE key = ?", (self.key,))
        if row is None:
            taken = sql.run(
                "INSERT INTO login_tries (key, failures, next_try) VALUES (?, 1, ?) "
                "ON CONFLICT (key) DO NOTHING",
                (self.key, self.now + self.wait_after(1)),
            )
        else:
            failures, next_try = int(row[0]), float(row[1])
            if self.now < next_try:
                return next_try - self.now
            counted = 0 if self.now >= next_try + self.forget else failures
            taken = sql.run(
                "UPDATE login_tries SET failures = ?, next_try = ? "
                "WHERE key = ? AND failures = ? AND next_try = ?",
                (counted + 1, self.now + self.wait_after(counted + 1), self.key, *row),
            )
        return 0.0 if taken else 1.0  # another process took it this instant

    def wait_after(self, failures: int) -> float:
        """The wait after ``failures`` in a row: none for the first ``free - 1``, then
        1 s, doubling with each one, at most ``cap``."""
        return 0.0 if failures < self.free else min(self.cap, 2.0 ** (failures - self.free))


@dataclass(frozen=True)
class GiveBackLoginTry(Write[None]):
    """The try was right: ``key``'s failures start over."""

    key: str

    def run(self, sql: Sql) -> None:
        sql.run("DELETE FROM login_tries WHERE key = ?", (self.key,))


@dataclass(frozen=True)
class RefundLoginTry(Write[None]):
    """The try was never hashed (503, the client left): it does not count. Only that
    one try: a guesser whose tries are refused must not wipe out his failures (the
    wait it set stands)."""

    key: str

    def run(self, sql: Sql) -> None:
        sql.run(
            "UPDATE login_tries SET failures = failures - 1 WHERE key = ? AND failures > 0",
            (self.key,),
        )


@dataclass(frozen=True)
class PruneLoginTries(Write[int]):
    """Forget the counts that no longer count (quiet since before ``before``)."""

    before: float

    def run(self, sql: Sql) -> int:
        return sql.run("DELETE FROM login_tries WHERE next_try < ?", (self.before,))
