"""Moderation (issue 46): the checks and steps the reports and moderator APIs share.

A moderator holds the role in the database (granted from the command line:
``moderation_cli``). Every moderation route first asks ``moderator(request)``:
401 signed out, 403 for anyone else, before anything of the request is looked at,
so a stranger learns nothing (not even whether a report exists).

A moderator's actions on an account: *warn* (the account sees the warning on its
pages until it acknowledges it), *mute* its chat until a time (``muted_until``, what
the chat's "may post" check asks), *close* it (``close_account``: it can no longer
sign in; its games are left as when it is deleted, its sessions and every channel
end at once). Each is stored with its line in the moderators' log, in one write.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from starlette.requests import Request

from .clock import CLOCK
from .errors import ApiError, reading
from .jsontext import dumps
from .request import hub_of, signed_in
from .rows import Account
from .sessions import everything
from .storage import GameStore

if TYPE_CHECKING:
    from .hub import Hub
    from .moderation_writes import Logged

#: characters a stored text may not hold: they reorder or hide what is shown around them
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def check_text(raw: object, field: str, most: int, required: bool = False) -> str:
    """A free text of a request (a report's, a warning's): at most ``most`` characters,
    no control character but line breaks and tabs, no lone surrogate, no bidirectional
    control; 400 otherwise. Missing or null: the empty text (unless ``required``)."""
    if raw is None and not required:
        return ""
    if not isinstance(raw, str):
        raise ApiError(400, "'{field}' must be text", field=field)
    text = raw.strip()
    if required and not text:
        raise ApiError(400, "'{field}' must not be empty", field=field)
    if len(text) > most:
        raise ApiError(400, "'{field}' is longer than {n} characters", field=field, n=most)
    if any(_unsafe(c) for c in text):
        raise ApiError(
            400, "'{field}' holds control or direction characters; send plain text", field=field
        )
    return text


def _unsafe(char: str) -> bool:
    if char in "\n\t":
        return False
    return char in BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Cs")


def moderator(request: Request) -> Account:
    """The signed-in moderator; 401 signed out, 403 for anyone else (asked first)."""
    account = signed_in(request)
    if not reading(hub_of(request).store.is_moderator, account.id):
        raise ApiError(403, "only moderators may do this")
    return account


def muted_until(store: GameStore, account_id: int, now: float | None = None) -> float | None:
    """Until when (``CLOCK`` seconds) the account may not chat; ``None`` if it may at
    ``now`` (default: ``CLOCK``'s). The chat's "may post" check asks this."""
    until = reading(store.chat_muted_until, account_id)
    now = CLOCK.time() if now is None else now
    return until if until is not None and until > now else None


def details(**parts: object) -> str:
    """A log line's details (JSON text: the page shows them in its language)."""
    return dumps({k: v for k, v in parts.items() if v not in (None, "")})


async def close_account(hub: Hub, account: Account, logged: Logged) -> bool:
    """Close ``account``: it leaves its games as a deleted account does (resigned, or
    withdrawn before they started), its invitations are declined, then it is closed
    with its sessions and API tokens, and every channel they opened here ends at once
    (other processes: ``announce_account``). Whether it was open."""
    from .moderation_writes import CloseAccount

    await hub.leave_all_games(account)
    await hub.authority.decline_all(account)
    closed = await hub.write(CloseAccount(logged))
    hub.sessions.ended(account.id, everything)
    return closed
