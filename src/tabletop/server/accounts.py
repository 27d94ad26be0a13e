"""Optional accounts: a name that is yours, sessions in a cookie, on every device.

Passwords are hashed with argon2 (``argon2-cffi``) on a thread, since a hash
takes tens of milliseconds of CPU the event loop must not wait for; a bounded
queue refuses a burst beyond it at once (``Passwords``). A session is
a random token in an ``HttpOnly``, ``SameSite=Lax`` cookie (``Secure`` over
HTTPS); the database keeps only its SHA-256 hash, so a copy of the file opens
no session, and "log out everywhere" deletes them all. A wrong password and an
unknown name get the same answer, after the same work.

>>> name_key("  Ann  Lee "), name_key("Ｊｏｓé"), name_key("𝐀𝐧𝐧")
('ann lee', 'josé', 'ann')
"""

from __future__ import annotations

import asyncio
import secrets
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from confusable_homoglyphs import categories, confusables

from ..i18n import N_
from .errors import ApiError
from .names import BadName, clean_name
from .storage import Account, hash_token

COOKIE = "session"
MIN_NAME, MAX_NAME = 2, 24
MIN_PASSWORD, MAX_PASSWORD = 8, 200
WRONG = N_("wrong name or password")
BUSY = N_("too many people are signing in at once; try again in {seconds} s")
T = TypeVar("T")

_hasher = PasswordHasher()
# argon2 takes 64 MiB per hash: two at a time bounds the memory a burst of sign-ins takes
_threads = ThreadPoolExecutor(2, thread_name_prefix="tabletop-argon2")
# verified against when the name is unknown: the answer takes as long as a wrong password
_DUMMY = _hasher.hash(secrets.token_urlsafe(16))


class AccountError(ValueError):
    """Refused account input: ``key`` is the msgid of the message for the user, filled
    from ``params``."""

    def __init__(self, key: str, /, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class NewSession:
    token: str  # for the cookie only
    account: Account


def name_key(name: str) -> str:
    """What makes two names the same account: case, spacing and compatibility forms
    (full-width or mathematical letters, ligatures) do not count (NFKC with case folding,
    as Unicode's identifier guidance, UAX #31, does it)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


def legacy_name_key(name: str) -> str:
    """The key accounts registered before NFKC keys were stored under (case and spacing
    only); an account whose new key was taken by another keeps it (``rekeyed``)."""
    return " ".join(name.split()).casefold()


def check_name(raw: object) -> str:
    """``raw`` as it is stored and shown: spacing collapsed, composed (NFC, so "José"
    typed with a combining accent is the same name); ``AccountError`` saying what is
    wrong. Nothing is cut or dropped: a name that would need it is refused."""
    if not isinstance(raw, str):
        raise AccountError(N_("'name' must be text"))
    name = unicodedata.normalize("NFC", " ".join(raw.split()))
    if not MIN_NAME <= len(name) <= MAX_NAME:
        raise AccountError(
            N_("a name is 2 to 24 characters long; this one has {count}"), count=len(name)
        )
    try:
        clean_name(name)
    except BadName:
        raise AccountError(N_("a name may only hold visible characters")) from None
    if not all(_name_char(c) for c in name) or unicodedata.category(name[0]).startswith("M"):
        raise AccountError(N_("a name may hold letters, digits, spaces and - _ . only"))
    if lookalike_scripts(name):
        raise AccountError(
            N_(
                "a name may not mix letters of different scripts that look alike (such as a "
                "Cyrillic А among Latin letters)"
            )
        )
    return name


def _name_char(char: str) -> bool:
    # marks (accents, vowel signs) belong to the letter before them: "हिन्दी" is a name
    return char.isalnum() or char in " -_." or unicodedata.category(char).startswith("M")


def lookalike_scripts(name: str) -> bool:
    """Whether ``name`` mixes scripts (ignoring digits, spaces and punctuation) and
    holds a letter that looks like one of another script: "Аnn" with a Cyrillic А
    passes for "Ann". Unicode's confusables data (UTS #39), through
    ``confusable_homoglyphs``. The mixes that are one writing system (Japanese: Han,
    Hiragana, Katakana; Korean: Han and Hangul; Chinese: Han and Bopomofo) are allowed."""
    form = unicodedata.normalize("NFKC", name)
    scripts = categories.unique_aliases(form) - {"COMMON", "INHERITED"}
    if len(scripts) <= 1 or any(scripts <= mix for mix in _ONE_WRITING_SYSTEM):
        return False
    return bool(confusables.is_dangerous(form))


_ONE_WRITING_SYSTEM = [
    {"HAN", "HIRAGANA", "KATAKANA"},
    {"HAN", "HANGUL"},
    {"HAN", "BOPOMOFO"},
]


def check_password(raw: object) -> str:
    """``raw`` as it is, or ``AccountError``: a password is never altered."""
    if not isinstance(raw, str):
        raise AccountError(N_("'password' must be text"))
    if not MIN_PASSWORD <= len(raw) <= MAX_PASSWORD:
        raise AccountError(
            N_("a password is 8 to 200 characters long; this one has {count}"), count=len(raw)
        )
    return raw


class Passwords:
    """argon2 on two threads of its own, with at most ``queue`` hashes running or
    waiting: one more is refused at once (503, retry in a second) instead of making
    every sign-in, and everybody's requests with them, wait behind a burst."""

    def __init__(self, queue: int = 8) -> None:
        self.queue = queue
        self.busy = 0  # hashes running or waiting for a thread

    async def hash(self, password: str) -> str:
        return await self._run(_hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored`` (``None``: an unknown name, still hashed)."""

        def verify() -> bool:
            try:
                return _hasher.verify(stored or _DUMMY, password) and stored is not None
            except (VerificationError, InvalidHashError):
                return False

        return await self._run(verify)

    async def _run(self, work: Callable[..., T], *args: Any) -> T:
        if self.busy >= self.queue:
            raise ApiError.wait(503, BUSY, 1)
        self.busy += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(_threads, work, *args)
        finally:
            self.busy -= 1


def new_token() -> tuple[str, str]:
    """A session token and the hash the database keeps."""
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)
