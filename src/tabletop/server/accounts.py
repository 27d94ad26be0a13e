"""Optional accounts: a name that is yours, sessions in a cookie, on every device.

Passwords are hashed with argon2 (``argon2-cffi``) on threads, since a hash
takes tens of milliseconds of CPU the event loop must not wait for; a bounded,
fair queue refuses a burst beyond it at once (``Passwords``). A session is
a random token in an ``HttpOnly``, ``SameSite=Lax`` cookie (``Secure`` over
HTTPS); the database keeps only its SHA-256 hash, so a copy of the file opens
no session, and "log out everywhere" deletes them all. A wrong password and an
unknown name get the same answer, after the same work.

>>> name_key("  Ann  Lee "), name_key("Ｊｏｓé"), name_key("𝐀𝐧𝐧")
('ann lee', 'josé', 'ann')
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import itertools
import os
import secrets
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
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

#: For test suites only: argon2 at its lowest cost, so that a suite that registers and
#: signs in a thousand times spends its time on what it tests. A hash carries its own
#: parameters, so hashes made either way verify either way. A server started with it
#: says so on its first line (``serve``), and a real deployment never sets it.
INSECURE_FAST_HASHES = "TABLETOP_INSECURE_FAST_HASHES"


def fast_hashes() -> bool:
    return os.environ.get(INSECURE_FAST_HASHES) == "1"


def _new_hasher() -> PasswordHasher:
    if fast_hashes():
        return PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    return PasswordHasher()


_hasher = _new_hasher()
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


# who waits for a hash, best first: a browser that signed in to the account before, an
# account that exists (or a signed-in player's own), then anything else (unknown names,
# new registrations) — a flood of made-up names from many addresses waits behind them all
KNOWN_DEVICE, ACCOUNT, OTHER = 0, 1, 2


def hash_threads() -> int:
    """Threads for argon2 (it releases the GIL while hashing): every core but one, which
    is left for the event loop and so for the games; at most four (64 MiB each)."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


def _yield_to_the_loop() -> None:
    """Run this hashing thread at a lower CPU priority (Linux: the nice value is per
    thread, and the threads argon2 starts for its lanes inherit it). A hash of
    argon2-cffi's defaults works 4 lanes on 4 threads, more than the cores a small
    server has: without this, a flood of sign-ins would take the event loop's core too."""
    with contextlib.suppress(OSError, AttributeError):  # elsewhere: as it is
        thread = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, thread, os.getpriority(os.PRIO_PROCESS, thread) + 10)


@dataclass
class _Job:
    rank: tuple[int, int, int]  # (class, the address's jobs already in, arrival)
    address: object
    work: Callable[[], Any]
    done: asyncio.Future[Any]


class Passwords:
    """argon2 on ``threads`` threads of its own, with at most ``queue`` hashes running or
    waiting, so that a burst is refused at once (503, retry in a second) instead of
    making every sign-in wait behind it.

    The queue is fair rather than first come, first served: a job of a better class
    (``KNOWN_DEVICE``, ``ACCOUNT``, ``OTHER``) goes first, and within a class each
    address's first job goes before any address's second. When the queue is full, a
    newcomer that would go before the last waiting job takes its place (that one is
    refused), so neither a flood from one address nor a flood of made-up names from
    many can keep a real player from signing in."""

    def __init__(self, queue: int = 8, threads: int | None = None) -> None:
        self.queue = queue
        self.threads = threads or hash_threads()
        self._pool = ThreadPoolExecutor(
            self.threads, thread_name_prefix="tabletop-argon2", initializer=_yield_to_the_loop
        )
        self._waiting: list[_Job] = []  # in the order they will run
        self._running = 0
        self._arrivals = itertools.count()
        self._per_address: Counter[object] = Counter()  # jobs running or waiting

    @property
    def busy(self) -> int:
        """Hashes running or waiting for a thread."""
        return self._running + len(self._waiting)

    async def hash(self, password: str, address: object = None, rank: int = OTHER) -> str:
        return await self.run(partial(_hasher.hash, password), address, rank)

    async def verify(
        self, stored: str | None, password: str, address: object = None, rank: int = OTHER
    ) -> bool:
        """Whether ``password`` matches ``stored`` (``None``: an unknown name, still hashed)."""

        def verify() -> bool:
            try:
                return _hasher.verify(stored or _DUMMY, password) and stored is not None
            except (VerificationError, InvalidHashError):
                return False

        return await self.run(verify, address, rank)

    async def run(self, work: Callable[[], T], address: object = None, rank: int = OTHER) -> T:
        """``work()`` on a hashing thread, in its turn (503 if it gets none)."""
        job = self._admit(work, address, rank)
        self._start()
        try:
            return await asyncio.shield(job.done)
        except asyncio.CancelledError:
            if job in self._waiting:  # the client left before its turn
                self._waiting.remove(job)
                self._left(job)
            raise

    def check_room(self, address: object = None, rank: int = OTHER) -> None:
        """503 now if a hash for ``address`` of class ``rank`` would be refused: a flood
        is answered before it costs anything more (a sign-in try's reservation)."""
        if self._no_room((rank, self._per_address[address])):
            raise ApiError.wait(503, BUSY, 1)

    def _no_room(self, rank: tuple[int, int]) -> bool:
        """Whether the queue is full of jobs that go before one of ``rank``."""
        if self.busy < self.queue:
            return False
        return not self._waiting or self._waiting[-1].rank[:2] <= rank

    def _admit(self, work: Callable[[], Any], address: object, rank: int) -> _Job:
        ahead = self._per_address[address]
        job = _Job((rank, ahead, next(self._arrivals)), address, work, _future())
        if self._no_room(job.rank[:2]):
            raise ApiError.wait(503, BUSY, 1)
        if self.busy >= self.queue:
            last = self._waiting[-1]
            self._waiting.pop()
            self._left(last)
            last.done.set_exception(ApiError.wait(503, BUSY, 1))
        bisect.insort(self._waiting, job, key=lambda j: j.rank)
        self._per_address[address] += 1
        return job

    def _left(self, job: _Job) -> None:
        self._per_address[job.address] -= 1
        if not self._per_address[job.address]:
            del self._per_address[job.address]

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        while self._running < self.threads and self._waiting:
            job = self._waiting.pop(0)
            self._running += 1
            ran = loop.run_in_executor(self._pool, job.work)
            ran.add_done_callback(partial(self._finished, job))

    def _finished(self, job: _Job, ran: asyncio.Future[Any]) -> None:
        self._running -= 1
        self._left(job)
        if not job.done.done():
            if ran.exception() is not None:
                job.done.set_exception(ran.exception())  # type: ignore[arg-type]
            else:
                job.done.set_result(ran.result())
        self._start()


def _future() -> asyncio.Future[Any]:
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    # a refused job's client may have left already: its 503 is nobody's error
    future.add_done_callback(lambda f: f.cancelled() or f.exception())
    return future


def new_token() -> tuple[str, str]:
    """A session token and the hash the database keeps."""
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)
