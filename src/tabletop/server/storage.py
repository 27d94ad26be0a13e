"""What the server needs of a game database, whichever it is.

Two implementations share their tables, writes and reads (``sqlstore.SqlStore``):
``store.Store`` (SQLite, one process, the default) and ``pgstore.PgStore``
(PostgreSQL, shared by several server processes). Writes are typed values
(``writes``) that the ``Committer`` hands over in batches on a thread of its
own; reads run on the event loop. ``open_store`` picks one by the ``--db`` value.
The row types and errors are defined in ``rows`` and offered here with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.util import find_spec
from typing import Any, Protocol, TypeVar

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
    StoreConflict,
    StoreError,
    TokenRow,
    hash_token,
    now,
)
from .writes import Write

__all__ = [
    "Account",
    "AccountGame",
    "ActionRow",
    "AnalysisRow",
    "DailyAttempt",
    "GameRow",
    "GameStore",
    "MailRow",
    "Seat",
    "SharedStore",
    "StoreConflict",
    "StoreError",
    "hash_token",
    "is_postgres",
    "now",
    "open_store",
]

T = TypeVar("T")


class GameStore(Protocol):
    """A game database; see ``sqlstore.SqlStore`` for what each method means."""

    path: str
    #: several processes may share it: moves are compare-and-set on the game's
    #: ``seq``, and bots and clocks need a lease (see ``pgstore``)
    shared: bool

    def write_many(self, writes: Sequence[Write[object]]) -> list[object]: ...
    def write(self, one: Write[T]) -> T: ...
    def game(self, game_id: str) -> GameRow | None: ...
    def seats(self, game_id: str) -> list[Seat]: ...
    def actions(self, game_id: str) -> list[ActionRow]: ...
    def analysis(self, game_id: str) -> AnalysisRow | None: ...
    def unfinished_analyses(self) -> list[str]: ...
    def coach_notes(self, game_id: str) -> list[tuple[int, str, dict[str, Any]]]: ...
    # daily challenges (written by ``StartDaily``; hints by ``MarkHinted``)
    def daily_game(self, game_type: str, day: str, account_id: int) -> str | None: ...
    def daily_attempts(self, game_type: str, day: str) -> list[DailyAttempt]: ...
    def seat_for_token(self, game_id: str, token: str) -> int | None: ...
    def unfinished_games(self) -> list[str]: ...
    def open_games(self, limit: int = 100, invited: bool = False) -> list[str]: ...
    def invitations_of(self, account_id: int) -> list[AccountGame]: ...
    # fair play (written by ``Block``, ``Unblock`` and ``CreateGame``)
    def blocked_by(self, account_id: int) -> list[Account]: ...
    def blocks(self, account_id: int, other: int) -> bool: ...
    def open_invitations_sent(self, account_id: int) -> int: ...
    def invitations_sent_since(self, account_id: int, since: str) -> tuple[int, int]: ...
    def rated_opponents(self, game_type: str, player: str) -> int: ...
    # accounts and sessions (written by ``CreateAccount``, ``CreateSession``,
    # ``EndSession``, ``EndSessions``, ``TouchSession``, ``ChangePassword``,
    # ``DeleteAccount``, ``RekeyNames`` and ``ClaimSeat``)
    def account_login(self, key: str) -> tuple[Account, str] | None: ...
    def account_named(self, key: str) -> Account | None: ...
    def account_for_session(self, token: str) -> Account | None: ...
    def session_of(self, token: str) -> SessionRow | None: ...

    def token_of(self, token: str) -> TokenRow | None: ...

    def credentials_alive(
        self, session_hashes: list[str], token_hashes: list[str], link_hashes: list[str]
    ) -> tuple[dict[str, tuple[str, str | None]], set[str]]: ...

    def tokens_of(self, account_id: int) -> list[TokenRow]: ...

    def seats_taken_by(self, account_id: int) -> int: ...

    def bot_accounts(self, ids: list[int]) -> list[int]: ...
    def password_of(self, account_id: int) -> str | None: ...
    def account_created(self, account_id: int) -> str | None: ...
    def holds_seats(self, account_id: int) -> bool: ...
    def account_keys(self) -> list[tuple[int, str, str]]: ...
    def sessions_of(self, account_id: int) -> int: ...
    def account_records(self, account_id: int) -> dict[str, list[dict[str, Any]]]: ...
    def games_of(self, account_id: int, limit: int = 200) -> list[AccountGame]: ...
    def account_names(self, ids: list[int]) -> dict[int, str]: ...
    # ratings (written with a rated game's last action, in its transaction)
    def rating(self, game_type: str, player: str) -> tuple[float, float, int]: ...
    def ratings(self, game_type: str) -> list[tuple[str, float, float, int]]: ...
    def rating_changes(self, game_id: str) -> dict[str, tuple[int, float, float, float]]: ...
    def leaderboard(
        self,
        game_type: str,
        seeds: dict[str, tuple[float, float]],
        offset: int,
        limit: int,
        bot_accounts: bool = False,
    ) -> tuple[list[LeaderRow], int]: ...
    def leaderboard_place(
        self,
        game_type: str,
        seeds: dict[str, tuple[float, float]],
        player: str,
        bot_accounts: bool = False,
    ) -> tuple[LeaderRow | None, int]: ...
    # e-mail notifications (written by ``SaveMailSettings``, ``VerifyMail``,
    # ``StopMail`` and ``ClaimMail``)
    def mail_settings(self, account_id: int) -> MailRow | None: ...
    def reminder_channels(self, account_id: int) -> tuple[bool, bool]: ...
    def digest_readers(self) -> list[MailRow]: ...
    def checkpoint_separately(self) -> None: ...
    def checkpoint(self) -> None: ...
    def close(self) -> None: ...


class SharedStore(GameStore, Protocol):
    """A store several processes share (``shared`` is True): see ``pgstore.PgStore``."""

    def seqs(self, game_ids: list[str]) -> dict[str, int]: ...
    def changes_since(self, game_id: str, ply: int) -> tuple[int, list[ActionRow]] | None: ...
    def claim(self, game_id: str, task: str, owner: str, seconds: float) -> bool: ...
    def finish(self, game_id: str, task: str, owner: str) -> None: ...
    def orphaned(self, limit: int = 20) -> list[tuple[str, str]]: ...


def is_postgres(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def require_psycopg() -> None:
    """Say which extra to install where PostgreSQL is asked for without psycopg
    (the base install leaves it out), rather than "No module named 'psycopg'"."""
    if find_spec("psycopg") is None:
        raise ImportError(
            "a postgresql:// database needs psycopg, the optional extra pg: "
            "pip install 'tabletop[pg]'"
        )


def open_store(db: str) -> GameStore:
    """The store for ``--db``: a PostgreSQL URL, or a SQLite file (or ``:memory:``)."""
    if is_postgres(db):
        require_psycopg()
        from .pgstore import PgStore

        return PgStore(db)
    from .store import Store

    return Store(db)
