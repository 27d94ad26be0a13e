"""What the two stores share: batched writes, the conveniences around them, every read.

``store.Store`` (SQLite) and ``pgstore.PgStore`` (PostgreSQL) differ only in
how they connect, migrate and recover from a lost connection, and in what a
shared database adds (the change counter, leases, notifications). Everything
here runs its statements through ``Sql``, written once with ``?`` marks.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from ..core.match import TAKE_BACK
from . import ratings
from .ratings import OPPONENTS_SQL, PROVISIONAL_OPPONENTS, RatedEnd
from .rows import (
    Account,
    AccountGame,
    ActionRow,
    AnalysisRow,
    DailyAttempt,
    GameRow,
    LeaderRow,
    MailRow,
    Seat,
    SessionRow,
    StoreError,
    TokenRow,
    hash_token,
)
from .sql import Sql
from .writes import AppendAction, CreateGame, Truncate, Write

T = TypeVar("T")


class SqlStore(ABC):
    """All games in one database; a subclass says how to reach it."""

    path: str
    #: several processes may share it: moves are compare-and-set on the game's
    #: ``seq``, and bots and clocks need a lease (see ``pgstore``)
    shared: bool = False
    #: what a game row reads as its ``seq``: only a shared store keeps the column
    _seq_column = "0"
    #: the driver's errors: any of them at the transaction's level fails the batch
    _database_errors: tuple[type[Exception], ...] = ()

    # -- what each database does its own way -------------------------------------

    @abstractmethod
    def _read(self, query: Callable[[Sql], T]) -> T:
        """``query`` on the connection for reads (the event loop's)."""

    @abstractmethod
    def _begin(self) -> Sql:
        """The writer (the committer's thread's connection) in a new transaction."""

    @abstractmethod
    def _rollback(self) -> None:
        """After a failure in the transaction: leave the writer ready for the next batch."""

    @abstractmethod
    def _failed(self, err: Exception) -> StoreError:
        """What every write of a batch says when the transaction itself failed."""

    def _connection_lost(self, err: Exception) -> bool:
        """Whether ``err`` took the connection (so the whole batch failed, not one write)."""
        return False

    @abstractmethod
    def checkpoint_separately(self) -> None:
        """Leave journal upkeep to ``checkpoint``, on another thread."""

    @abstractmethod
    def checkpoint(self) -> None:
        """Copy committed writes from a journal into the database."""

    @abstractmethod
    def close(self) -> None: ...

    # -- writes -----------------------------------------------------------------

    def write_many(self, writes: Sequence[Write[object]]) -> list[object]:
        """Apply several writes in one transaction: one commit (one wait for the disk)
        for all. Each result is the write's own or a ``StoreError`` (a
        ``StoreConflict`` if another process changed the game first); a write that
        fails leaves the others in."""
        results: list[object] = []
        try:
            sql = self._begin()
            for write in writes:
                sql.run("SAVEPOINT one_write")
                try:
                    results.append(write.run(sql))
                except Exception as err:  # noqa: BLE001 - any failure: undo this write only
                    if self._connection_lost(err):
                        raise
                    sql.run("ROLLBACK TO SAVEPOINT one_write")
                    results.append(_refusal(err))
                sql.run("RELEASE SAVEPOINT one_write")
            sql.run("COMMIT")
        except self._database_errors as err:
            self._rollback()
            return [self._failed(err)] * len(writes)
        except BaseException:
            self._rollback()  # whatever went wrong, the next batch must find no transaction
            raise
        return results

    def write(self, one: Write[T]) -> T:
        """Store one write now (tests, tools); its result, or ``StoreError`` raised."""
        (result,) = self.write_many([one])
        if isinstance(result, StoreError):
            raise result
        return cast(T, result)  # what ``one.run`` returned

    def create_game(
        self,
        game_id: str,
        type_name: str,
        options: dict[str, Any],
        seed: int,
        seats: Sequence[Seat],
        seed_chosen: bool = False,
        creator: int | None = None,
    ) -> None:
        """``CreateGame``, now."""
        self.write(CreateGame(game_id, type_name, options, seed, seats, seed_chosen, creator))

    def append_action(
        self,
        game_id: str,
        ply: int,
        seat: int,
        action: str,
        reveals: bool,
        over: bool,
        by: str | None = None,
        rated: RatedEnd | None = None,
        ranks: tuple[int, ...] | None = None,
        expected_seq: int | None = None,
    ) -> str:
        """``AppendAction``, now; the time stored with it."""
        return self.write(
            AppendAction(game_id, ply, seat, action, reveals, over, by, rated, ranks, expected_seq)
        )

    def truncate(self, game_id: str, ply: int, expected_seq: int | None = None) -> None:
        """``Truncate``, now."""
        self.write(Truncate(game_id, ply, expected_seq))

    # -- games ------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow | None:
        row = self._read(
            lambda sql: sql.row(
                "SELECT id, type, options, seed, created, updated, over, seed_chosen, creator, "
                f"undone, abandoned, started, {self._seq_column}, hinted, timed_out, clock_from, "
                "resigned FROM games WHERE id = ?",
                (game_id,),
            )
        )
        if row is None:
            return None
        id_, type_, options, seed, created, updated, over, chosen, creator, *rest = row
        undone, abandoned, started, seq, hinted, timed_out, clock_from, resigned = rest
        return GameRow(
            *(id_, type_, json.loads(options), seed, created, updated, bool(over)),
            *(bool(chosen), creator, bool(undone), bool(abandoned), started, seq),
            hinted=bool(hinted),
            timed_out=seat_list(timed_out),
            clock_from=clock_from,
            resigned=bool(resigned),
        )

    def seats(self, game_id: str) -> list[Seat]:
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT seat, name, kind, bot, account_id, open, rank, invited FROM seats "
                "WHERE game_id = ? ORDER BY seat",
                (game_id,),
            )
        )
        return [
            Seat(seat, name, kind, bot, None, account_id, bool(open_), rank, invited)
            for seat, name, kind, bot, account_id, open_, rank, invited in rows
        ]

    def actions(self, game_id: str) -> list[ActionRow]:
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT ply, seat, action, reveals, at, by FROM actions "
                "WHERE game_id = ? ORDER BY ply",
                (game_id,),
            )
        )
        return [action_row(row) for row in rows]

    def seat_for_token(self, game_id: str, token: str) -> int | None:
        row = self._read(
            lambda sql: sql.row(
                "SELECT seat FROM seats WHERE game_id = ? AND token_hash = ?",
                (game_id, hash_token(token)),
            )
        )
        return None if row is None else int(row[0])

    def unfinished_games(self) -> list[str]:
        rows = self._read(
            lambda sql: sql.rows("SELECT id FROM games WHERE NOT over ORDER BY created")
        )
        return [row[0] for row in rows]

    def analysis(self, game_id: str) -> AnalysisRow | None:
        """A game's analysis, if one was asked for."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT game_id, budget, requested, done, total, finished, result, error "
                "FROM analyses WHERE game_id = ?",
                (game_id,),
            )
        )
        if row is None:
            return None
        game, budget, requested, done, total, finished, result, error = row
        shown = json.loads(result) if result else None
        return AnalysisRow(game, budget, requested, done, total, finished, shown, error)

    def unfinished_analyses(self) -> list[str]:
        """Games whose analysis was asked for and is not finished, oldest first."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT game_id FROM analyses WHERE finished IS NULL ORDER BY requested"
            )
        )
        return [row[0] for row in rows]

    # -- daily challenges -----------------------------------------------------------

    def daily_game(self, game_type: str, day: str, account_id: int) -> str | None:
        """The game of an account's counted attempt at a day's challenge, if any."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT game_id FROM daily_attempts WHERE type = ? AND day = ? AND account_id = ?",
                (game_type, day, account_id),
            )
        )
        return None if row is None else str(row[0])

    def daily_attempts(self, game_type: str, day: str) -> list[DailyAttempt]:
        """Every counted attempt at a day's challenge, oldest first."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT d.account_id, a.name, d.game_id, g.over, g.abandoned, "
                "g.undone OR g.hinted OR EXISTS (SELECT 1 FROM actions x "
                "WHERE x.game_id = d.game_id AND x.action = ?) "
                "FROM daily_attempts d JOIN accounts a ON a.id = d.account_id "
                "JOIN games g ON g.id = d.game_id WHERE d.type = ? AND d.day = ? "
                "ORDER BY d.created, d.account_id",
                (TAKE_BACK, game_type, day),
            )
        )
        return [
            DailyAttempt(account, name, game, bool(over), bool(abandoned), bool(helped))
            for account, name, game, over, abandoned, helped in rows
        ]

    def open_games(self, limit: int = 100, invited: bool = False) -> list[str]:
        """Unfinished games with a seat open to any account (``invited``: or kept for
        an invited one), newest first."""
        listed = "" if invited else " AND s.invited IS NULL"
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT g.id FROM games g WHERE NOT g.over AND EXISTS "
                f"(SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.open{listed}) "
                "ORDER BY g.created DESC LIMIT ?",
                (limit,),
            )
        )
        return [row[0] for row in rows]

    def invitations_of(self, account_id: int) -> list[AccountGame]:
        """The unfinished games with a seat kept for ``account_id``, newest first."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT g.id, g.type, s.seat, g.updated FROM seats s "
                "JOIN games g ON g.id = s.game_id "
                "WHERE s.invited = ? AND s.open AND NOT g.over ORDER BY g.created DESC",
                (account_id,),
            )
        )
        return [AccountGame(id_, type_, seat, False, False, at) for id_, type_, seat, at in rows]

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

    # -- ratings -----------------------------------------------------------------

    def rating(self, game_type: str, player: str) -> tuple[float, float, int]:
        """``(mu, sigma, rated games)`` of a player in ``game_type``."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT mu, sigma, games FROM ratings WHERE type = ? AND player = ?",
                (game_type, player),
            )
        )
        if row is None:
            start = ratings.initial(game_type, player)
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

    # -- e-mail notifications ----------------------------------------------------------

    def mail_settings(self, account_id: int) -> MailRow | None:
        """An account's e-mail settings, if it ever gave an address."""
        rows = self._mail_rows("m.account_id = ?", (account_id,))
        return rows[0] if rows else None

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
            return found

        found = self._read(read)
        for row in found["email"]:
            row["verified"] = bool(row["verified"])
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
}

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


def seat_list(text: str | None) -> tuple[int, ...]:
    """Seats stored as ``"0,2"`` (``games.timed_out``); none for ``NULL``."""
    return tuple(int(part) for part in text.split(",")) if text else ()


def action_row(row: Sequence[Any]) -> ActionRow:
    """An ``ActionRow`` from ``ply, seat, action, reveals, at, by`` as either database
    returns them (SQLite keeps flags as 0 and 1)."""
    ply, seat, action, reveals, at, by = row
    return ActionRow(ply, seat, action, bool(reveals), at, by)


def _refusal(err: Exception) -> StoreError:
    """What a failed write says: its own ``StoreError`` (say a ``StoreConflict``) as it
    is, any other failure as the database's refusal."""
    if isinstance(err, StoreError):
        return err
    return StoreError(f"the game database refused the write: {err}")


def _chunks(items: list[str], size: int = 500) -> list[list[str]]:
    """``items`` in lists of at most ``size``: a bound on a statement's parameters."""
    return [items[i : i + size] for i in range(0, len(items), size)]
