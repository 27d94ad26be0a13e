"""Optional accounts: a name that is yours, sessions in a cookie, on every device.

Passwords are hashed with argon2 (``argon2-cffi``) on a thread, since a hash
takes tens of milliseconds of CPU the event loop must not wait for. A session is
a random token in an ``HttpOnly``, ``SameSite=Lax`` cookie (``Secure`` over
HTTPS); the database keeps only its SHA-256 hash, so a copy of the file opens
no session, and "log out everywhere" deletes them all. A wrong password and an
unknown name get the same answer, after the same work.

>>> name_key("  Ann  Lee ")
'ann lee'
"""

from __future__ import annotations

import asyncio
import secrets
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..i18n import N_
from .names import BadName, clean_name
from .storage import Account, hash_token

COOKIE = "session"
COOKIE_DAYS = 365
MIN_NAME, MAX_NAME = 2, 24
MIN_PASSWORD, MAX_PASSWORD = 8, 200
WRONG = N_("wrong name or password")

_hasher = PasswordHasher()
# argon2 takes 64 MiB per hash: two at a time bounds the memory a burst of sign-ins takes
_threads = ThreadPoolExecutor(2, thread_name_prefix="tabletop-argon2")
# verified against when the name is unknown: the answer takes as long as a wrong password
_DUMMY = _hasher.hash(secrets.token_urlsafe(16))


class AccountError(ValueError):
    """Refused account input; the message is for the user."""


@dataclass(frozen=True)
class NewSession:
    token: str  # for the cookie only
    account: Account


def name_key(name: str) -> str:
    """What makes two names the same account: case and spacing do not count."""
    return " ".join(name.split()).casefold()


def check_name(raw: object) -> str:
    if not isinstance(raw, str):
        raise AccountError(N_("'name' must be text"))
    try:
        name = clean_name(raw)
    except BadName:
        raise AccountError(N_("a name may only hold visible characters")) from None
    if not MIN_NAME <= len(name) <= MAX_NAME:
        raise AccountError(N_("a name is 2 to 24 characters long"))
    if not all(c.isalnum() or c in " -_." for c in name):
        raise AccountError(N_("a name may hold letters, digits, spaces and - _ . only"))
    return name


def check_password(raw: object) -> str:
    if not isinstance(raw, str):
        raise AccountError(N_("'password' must be text"))
    if not MIN_PASSWORD <= len(raw) <= MAX_PASSWORD:
        raise AccountError(N_("a password is 8 to 200 characters long"))
    return raw


async def hash_password(password: str) -> str:
    return await asyncio.get_running_loop().run_in_executor(_threads, _hasher.hash, password)


async def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored`` (``None``: an unknown name, still hashed)."""

    def verify() -> bool:
        try:
            return _hasher.verify(stored or _DUMMY, password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False

    return await asyncio.get_running_loop().run_in_executor(_threads, verify)


def new_token() -> tuple[str, str]:
    """A session token and the hash the database keeps."""
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)
