"""What concerns a signed-in player, pushed as it happens: ``AccountEvents``.

Every change of a game (a move, a seat taken, an undo, the end) calls
``AccountEvents.game_changed(room)`` once; for each account seated in it, a
``{"type": "game", ...}`` message goes to every account socket of that account open in
this process (``WS /api/account/ws``, one per tab; docs/web.md, "The account
socket"). That is a handful of seats per change: a socket opening costs the others
nothing, and a change costs nothing for accounts with no socket here.

With several processes, each one's follower (sync.py) calls ``game_changed`` for
changes another process made to a game it holds, or to a game of an account with a
socket here (the notice names the game's accounts). (E-mail has its own hook:
``notify.Notifier``.)
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from ..core.web import JSON
from .errors import ApiError
from .jsontext import dumps
from .readmodels import ReadModels
from .room import Room

#: what a change means for a seated account, most telling first (``event_for``)
OVER, INVITED, JOINED, YOUR_TURN, MOVED = "over", "invited", "joined", "your_turn", "moved"


@dataclass(frozen=True)
class GameChange:
    """A change of one game, as one of its seated accounts sees it."""

    account_id: int
    game: JSON  # its summary for the account, as in ``GET /api/account``'s ``games``
    # OVER, INVITED (a seat is kept for it), JOINED (a seat was taken: before the first
    # move), YOUR_TURN or MOVED
    event: str


@dataclass(eq=False)
class AccountSocket:
    """One open account socket (a tab): what it is still to be sent."""

    account_id: int
    outbox: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    by_token: bool = False  # opened with an API token: a bot account's event stream
    ending: ApiError | None = None  # why it closes (``end``)

    def end(self, reason: ApiError) -> None:
        """The session or API token it was opened with has ended: close it (4401),
        saying ``reason``; nothing queued after this is sent."""
        self.ending = reason
        self.outbox.put_nowait(ENDED)


ENDED = "\x00ended"  # an outbox item no message can be: the stream closes (4401)


class AccountEvents:
    """Pushes the changes of games to their seated accounts' sockets."""

    def __init__(self, reads: ReadModels) -> None:
        self.reads = reads
        self.sockets: dict[int, set[AccountSocket]] = {}  # per account with a socket here
        # per account with a socket here: the games whose turn is its (the count shown)
        self.turns: dict[int, set[str]] = {}

    def watching(self, account_ids: list[int]) -> bool:
        """Whether any of these accounts has a socket open here."""
        return any(a in self.sockets for a in account_ids)

    def game_changed(self, room: Room) -> None:
        """Tell the game's seated accounts with sockets here what changed."""
        for seat in room.seats:
            account_id = seat.account_id if seat.invited is None else seat.invited
            if account_id is None or account_id not in self.sockets:
                continue
            summary = self.reads.game_summary(room, seat.seat)
            self._push(GameChange(account_id, summary, event_for(room, summary)))

    def game_gone(self, game_id: str, account_ids: list[int]) -> None:
        """Tell these accounts' sockets here that a game left their lists (withdrawn by
        its creator, or an invitation declined)."""
        for account_id in account_ids:
            turns = self.turns.get(account_id)
            if turns is None:
                continue
            turns.discard(game_id)
            text = dumps({"type": "gone", "id": game_id, "waiting": len(turns)})
            for sock in self.sockets[account_id]:
                sock.outbox.put_nowait(text)

    def tell(self, account_id: int, message: JSON) -> None:
        """Send ``message`` to the account's sockets here (a reminder, a warning, a
        tournament's notice); nothing if it has none."""
        sockets = self.sockets.get(account_id)
        if not sockets:
            return
        text = dumps(message)
        for sock in sockets:
            sock.outbox.put_nowait(text)

    def _push(self, change: GameChange) -> None:
        turns = self.turns[change.account_id]
        game_id = change.game["id"]
        if change.game["your_turn"]:
            turns.add(game_id)
        else:
            turns.discard(game_id)
        text = dumps(
            {"type": "game", "event": change.event, "game": change.game, "waiting": len(turns)}
        )
        for sock in self.sockets[change.account_id]:
            sock.outbox.put_nowait(text)

    def open(self, account_id: int, games: list[JSON], by_token: bool = False) -> AccountSocket:
        """A new socket of ``account_id``, whose games (``ReadModels.my_games``) were
        just read: it is sent them first. ``by_token``: opened with an API token."""
        sock = AccountSocket(account_id, by_token=by_token)
        turns = {g["id"] for g in games if g["your_turn"]}
        self.turns[account_id] = turns  # read afresh: whatever was missed is caught up
        self.sockets.setdefault(account_id, set()).add(sock)
        sock.outbox.put_nowait(dumps({"type": "games", "games": games, "waiting": len(turns)}))
        return sock

    def streaming(self) -> list[int]:
        """The accounts with an event stream open here (a socket opened with an API
        token): a bot account's owner with its page open is not its program online."""
        return sorted(a for a, socks in self.sockets.items() if any(s.by_token for s in socks))

    def close(self, sock: AccountSocket) -> None:
        socks = self.sockets.get(sock.account_id)
        if socks is None:
            return
        socks.discard(sock)
        if not socks:
            del self.sockets[sock.account_id]
            del self.turns[sock.account_id]


def event_for(room: Room, summary: JSON) -> str:
    """What the change means for the account of ``summary``: the game ended, it is
    invited to a seat, a seat was taken (before the first move nothing else can change
    a game), it is the account's turn, or someone moved."""
    if summary["over"]:
        return OVER
    if summary["invited"]:
        return INVITED
    if room.ply == 0:
        return JOINED
    return YOUR_TURN if summary["your_turn"] else MOVED
