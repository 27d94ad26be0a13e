"""What the server needs of a game database, whichever it is.

Two implementations: ``store.Store`` (SQLite, one process, the default) and
``pgstore.PgStore`` (PostgreSQL, shared by several server processes). Writes are
``Write`` batches run by the ``Committer`` on a thread of their own; reads run on
the event loop. ``open_store`` picks one by the ``--db`` value.
"""

from __future__ import annotations

from typing import Any, Protocol

from .store import ActionRow, GameRow, Seat, Store, StoreError, Write


class StoreConflict(StoreError):
    """Another server process changed the game first (its ``seq`` moved on)."""


class GameStore(Protocol):
    """A game database; see ``store.Store`` for what each method means."""

    path: str
    #: several processes may share it: moves are compare-and-set on the game's
    #: ``seq``, and bots and clocks need a lease (see ``pgstore``)
    shared: bool

    def write_many(self, writes: list[Write]) -> list[Any]: ...
    def game(self, game_id: str) -> GameRow | None: ...
    def seats(self, game_id: str) -> list[Seat]: ...
    def actions(self, game_id: str) -> list[ActionRow]: ...
    def seat_for_token(self, game_id: str, token: str) -> int | None: ...
    def unfinished_games(self) -> list[str]: ...
    def checkpoint_separately(self) -> None: ...
    def checkpoint(self) -> None: ...
    def close(self) -> None: ...


class SharedStore(GameStore, Protocol):
    """A store several processes share (``shared`` is True): see ``pgstore.PgStore``."""

    def seqs(self, game_ids: list[str]) -> dict[str, int]: ...
    def changes_since(self, game_id: str, ply: int) -> tuple[int, list[ActionRow]] | None: ...
    def claim(self, game_id: str, task: str, owner: str, seconds: float) -> bool: ...
    def finish(self, game_id: str, task: str, owner: str) -> None: ...
    def orphaned(self, limit: int = 20) -> list[str]: ...


def is_postgres(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


def open_store(db: str) -> GameStore:
    """The store for ``--db``: a PostgreSQL URL, or a SQLite file (or ``:memory:``)."""
    if is_postgres(db):
        from .pgstore import PgStore  # psycopg is an optional extra

        return PgStore(db)
    return Store(db)
