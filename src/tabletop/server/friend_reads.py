"""The reads of friends (``friends.py``): whom an account follows, with what a follower
may see of each in one query, and (a shared store only) which accounts have a socket
open in some server process.

``FriendReads`` is a mixin of ``sqlstore.SqlStore`` (both stores); ``SharedPresence``
of ``pgstore.PgStore`` alone: one process holds every socket of a SQLite store, so
there its own count of sockets is the whole truth (``friends.OnlineBoard``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .sqlreader import SqlReader

#: the games each account plays: under way (none waiting for a seat to be taken: a
#: friends-only game's link would reach strangers), without daily challenges (watching
#: one would show a player the day's deal before they play it)
_PLAYING = (
    "SELECT s.account_id, g.id AS game_id, g.type, g.updated FROM seats s "
    "JOIN games g ON g.id = s.game_id WHERE NOT g.over AND s.account_id IS NOT NULL "
    "AND NOT EXISTS (SELECT 1 FROM seats o WHERE o.game_id = g.id AND o.open) "
    "AND NOT EXISTS (SELECT 1 FROM daily_attempts d WHERE d.game_id = g.id)"
)


@dataclass(frozen=True)
class FriendRow:
    """A followed account as its follower's list reads it."""

    id: int
    name: str
    blocks_you: bool  # it blocked the follower: shown offline, playing nothing
    online: bool  # a socket open in some process (a shared store's table; else False)
    games: tuple[tuple[str, str], ...]  # (game id, game type) of the games it plays, newest first


class FriendReads(SqlReader):
    """What the store reads of follows (a mixin of ``SqlStore``)."""

    #: whether ``a.id`` has a socket open in some process, as SQL (``SharedPresence``)
    _online_column = "0"

    def friends_of(self, account_id: int) -> list[FriendRow]:
        """The accounts ``account_id`` follows, by name, each with whether it blocked
        ``account_id``, is online (shared stores) and the games it plays: one query."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT a.id, a.name, EXISTS (SELECT 1 FROM blocks b WHERE b.account_id = a.id "
                f"AND b.blocked = f.account_id), {self._online_column}, p.game_id, p.type "
                f"FROM follows f JOIN accounts a ON a.id = f.follows LEFT JOIN ({_PLAYING}) p "
                "ON p.account_id = a.id WHERE f.account_id = ? ORDER BY a.name_key, a.id, "
                "p.updated DESC",
                (account_id,),
            )
        )
        heads: dict[int, tuple[str, bool, bool]] = {}
        games: dict[int, list[tuple[str, str]]] = {}
        for id_, name, blocks_you, online, game_id, game_type in rows:
            heads.setdefault(id_, (str(name), bool(blocks_you), bool(online)))
            playing = games.setdefault(id_, [])
            if game_id is not None:
                playing.append((str(game_id), str(game_type)))
        return [FriendRow(int(i), *head, tuple(games[i])) for i, head in heads.items()]

    def follows_account(self, account_id: int, other: int) -> bool:
        """Whether ``account_id`` follows ``other``."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT 1 FROM follows WHERE account_id = ? AND follows = ?", (account_id, other)
            )
        )
        return row is not None

    def following(self, account_ids: list[int], other: int) -> set[int]:
        """Those of ``account_ids`` that follow ``other`` (a lobby's friends-only games'
        creators, for one reader)."""
        if not account_ids:
            return set()
        marks = ", ".join("?" * len(account_ids))
        rows = self._read(
            lambda sql: sql.rows(
                f"SELECT account_id FROM follows WHERE follows = ? AND account_id IN ({marks})",
                (other, *account_ids),
            )
        )
        return {int(row[0]) for row in rows}


class SharedPresence(SqlReader):
    """The ``presence`` table of a shared store (a mixin of ``PgStore``): each process
    writes the accounts with a socket open in it, and renews them before they expire."""

    _online_column = (
        "EXISTS (SELECT 1 FROM presence r WHERE r.account_id = a.id AND r.expires > now())"
    )

    def mark_present(self, owner: str, present: list[int], gone: list[int], seconds: float) -> None:
        """``present`` have a socket open in process ``owner`` for ``seconds`` more (the
        database's clock: every process reads the same); ``gone`` no longer."""
        if present:
            self._read(
                lambda sql: sql.run(
                    "INSERT INTO presence (owner, account_id, expires) SELECT ?, x, "
                    "now() + make_interval(secs => ?) FROM unnest(?::bigint[]) AS x "
                    "ON CONFLICT (account_id, owner) DO UPDATE SET expires = EXCLUDED.expires",
                    (owner, seconds, present),
                )
            )
        if gone:
            self._read(
                lambda sql: sql.run(
                    "DELETE FROM presence WHERE owner = ? AND account_id = ANY(?)", (owner, gone)
                )
            )

    def sweep_presence(self, owner: str, keep: list[int]) -> None:
        """Drop every expired row (a dead process's), and ``owner``'s rows but ``keep``:
        whatever a lost write left behind."""
        self._read(
            lambda sql: sql.run(
                "DELETE FROM presence WHERE expires < now() "
                "OR (owner = ? AND NOT account_id = ANY(?))",
                (owner, keep),
            )
        )
