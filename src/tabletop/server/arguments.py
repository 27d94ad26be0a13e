"""The command-line options of ``<game> serve``: each one's flag, type, default and help.

``main`` turns the parsed options into the server's settings; everything a person can
pass to ``serve`` is declared here (docs/web.md lists them with their reasons)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ..core.limits import CoachLimits
from ..core.web import DEFAULT_LIMITS
from .crowds import CrowdLimits
from .httpproto import ConnectionLimits
from .ratelimit import RateLimits
from .sessions import SessionLimits
from .sync import Takeover

if TYPE_CHECKING:
    from .mail import SmtpServer

APP_NAME = "novaluna"


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/novaluna/games.sqlite3`` (``~/.local/share`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / APP_NAME / "games.sqlite3"


def _positive(kind: type[int] | type[float]) -> Callable[[str], int | float]:  # argparse type
    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if not 0 < value < float("inf"):
            raise argparse.ArgumentTypeError(f"a positive number, not {text!r}")
        return value

    return parse


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 5) or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 1 to 65535, not {text!r}")
    return int(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=_port, default=8000, help="port to listen on")
    parser.add_argument(
        "--db",
        help=f"SQLite file (default: {default_db_path()}) or postgresql://... URL",
    )
    parser.add_argument(
        "--workers",
        type=_positive(int),
        default=1,
        help="server processes sharing the port (more than 1 needs PostgreSQL)",
    )
    parser.add_argument(
        "--bot-pause",
        type=float,
        default=0.5,
        help="seconds a bot waits before moving, so people can follow (default 0.5)",
    )
    parser.add_argument("--bot-workers", type=int, help="bot processes (default: one per core)")
    parser.add_argument(
        "--bot-max-iterations",
        type=_positive(int),
        default=DEFAULT_LIMITS.iterations,
        help="refuse bots that search more per move (default %(default)s)",
    )
    parser.add_argument(
        "--bot-max-seconds",
        type=_positive(float),
        default=DEFAULT_LIMITS.seconds,
        help="stop every bot search after this long (default %(default)s)",
    )
    parser.add_argument(
        "--daily-bot",
        action="append",
        default=[],
        metavar="GAME=BOT",
        type=_daily_bot,
        help="the bot a game's daily board compares with (default: its strongest solo "
        "bot), e.g. nmbr9=planner:normal; repeat for each game",
    )
    parser.add_argument(
        "--analysis-budget",
        type=_positive(int),
        metavar="N",
        help="search work per move of a post-game analysis (default: each game's own; "
        "less is faster and coarser)",
    )
    parser.add_argument(
        "--coach-budget",
        type=_positive(int),
        metavar="N",
        help="search work per coached move of a casual game (default: each game's own "
        "coach budget, well under a second a move)",
    )
    parser.add_argument(
        "--coach-jobs",
        type=_positive(int),
        metavar="N",
        help="coached moves judged at once, each in a worker of its own at a lower priority "
        "(default: half as many as --bot-workers); "
        "the rest queue, the games taking turns",
    )
    parser.add_argument(
        "--coach-queue",
        type=_positive(int),
        default=CoachLimits().waiting,
        metavar="N",
        help="coached moves that may wait on this server; beyond, a move is not judged "
        "(default %(default)s)",
    )
    takeover = Takeover()
    parser.add_argument(
        "--lease-seconds",
        type=_positive(float),
        default=takeover.lease_seconds,
        metavar="S",
        help="several processes: a dead process's bot move, time limit or analysis is "
        "free for another after S seconds (default %(default)s)",
    )
    parser.add_argument(
        "--takeover-check-seconds",
        type=_positive(float),
        default=takeover.check_seconds,
        metavar="S",
        help="several processes: how often each looks for such tasks (default %(default)s)",
    )
    parser.add_argument(
        "--min-time-per-move",
        type=_positive(int),
        metavar="SECONDS",
        help="the shortest time per move a new game may have (default: what the lobby "
        "offers: the shortest choice of a game's own move clock, 1 h for turn-based games)",
    )
    _add_mail_arguments(parser)
    _add_crowd_arguments(parser)
    _add_account_arguments(parser)
    rates = RateLimits()
    for name, what, default in [
        ("creates", "new games per address", rates.creates_per_minute),
        ("actions", "moves and undos per seat", rates.actions_per_minute),
        ("hints", "hints per seat", rates.hints_per_minute),
        ("messages", "WebSocket messages per connection", rates.messages_per_minute),
        ("logins", "registrations and logins per address", rates.logins_per_minute),
        ("replays", "replays worked out (not cached) per address", rates.replays_per_minute),
        ("chats", "chat messages per account", rates.chats_per_minute),
        ("chat-addresses", "chat messages per address", rates.chat_addresses_per_minute),
    ]:
        parser.add_argument(
            f"--rate-{name}",
            type=_positive(float),
            default=default,
            metavar="N",
            help=f"{what} a minute before 429 (default {default:g})",
        )


def _add_mail_arguments(parser: argparse.ArgumentParser) -> None:
    """E-mail notifications (off without ``--smtp``); see docs/web.md, "E-mail"."""
    parser.add_argument(
        "--smtp",
        metavar="URL",
        type=_smtp,
        help="send e-mail notifications through this server: smtp://host:port (plain), "
        "smtp+starttls://user@host:587 or smtps://user@host:465; the password in "
        "$TABLETOP_SMTP_PASSWORD rather than the URL (default: no e-mail)",
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        type=_public_url,
        help="this site's address as players reach it, for the links in mails "
        "(default: http://HOST:PORT)",
    )
    parser.add_argument(
        "--mail-from",
        type=_sender,
        metavar="ADDRESS",
        help="the sender of the mails (default: tabletop@ the public URL's host)",
    )
    parser.add_argument(
        "--mail-delay",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="how long a turn waits before its mail goes; a player who moves sooner "
        "gets none (default %(default)g)",
    )
    parser.add_argument(
        "--mail-digest-check",
        type=_positive(float),
        default=300.0,
        metavar="SECONDS",
        help="how often due daily digests are looked for (default %(default)g)",
    )


def _smtp(text: str) -> SmtpServer:
    from .mail import SmtpServer  # here: a command that sends no mail loads none of it

    try:
        return SmtpServer.parse(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _sender(text: str) -> str:
    from .mail import check_sender

    try:
        return check_sender(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _public_url(text: str) -> str:
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(f"an http:// or https:// address, not {text!r}")
    return text.rstrip("/")


def _add_crowd_arguments(parser: argparse.ArgumentParser) -> None:
    crowd = CrowdLimits()
    parser.add_argument(
        "--max-sockets-per-address",
        type=_positive(int),
        default=crowd.per_address,
        metavar="N",
        help="WebSockets one address may hold open (default %(default)s)",
    )
    parser.add_argument(
        "--max-sockets-per-game",
        type=_positive(int),
        default=crowd.per_game,
        metavar="N",
        help="WebSockets one game may have; its players always get in (default %(default)s)",
    )
    parser.add_argument(
        "--presence-interval",
        type=_positive(float),
        default=crowd.presence_interval,
        metavar="S",
        help="seconds between two 'who is connected' messages of a game (default %(default)s)",
    )
    parser.add_argument(
        "--open-seat-days",
        type=_positive(float),
        default=7.0,
        metavar="D",
        help="days an open game waits in the lobby before it is withdrawn (default %(default)s)",
    )
    parser.add_argument(
        "--max-sockets-per-account",
        type=_positive(int),
        default=crowd.per_account,
        metavar="N",
        help="WebSockets and event streams one account may hold open, from any "
        "address (default %(default)s)",
    )
    parser.add_argument(
        "--hello-timeout",
        type=_positive(float),
        default=crowd.hello_timeout,
        metavar="S",
        help="close a game socket that has not said hello after S seconds (default %(default)s)",
    )
    _add_connection_arguments(parser)


def _add_connection_arguments(parser: argparse.ArgumentParser) -> None:
    """Limits on HTTP connections (httpproto.py)."""
    limits = ConnectionLimits()
    parser.add_argument(
        "--header-timeout",
        type=_positive(float),
        default=limits.header_timeout,
        metavar="S",
        help="answer 408 and close a connection that takes longer to send a request's "
        "headers, or to finish a WebSocket handshake (default %(default)s)",
    )
    parser.add_argument(
        "--body-timeout",
        type=_positive(float),
        default=limits.body_timeout,
        metavar="S",
        help="answer 408 and close a connection that takes longer to send a request's "
        "body, from its headers (default %(default)s)",
    )
    parser.add_argument(
        "--max-connections-per-address",
        type=_positive(int),
        default=limits.per_address,
        metavar="N",
        help="HTTP connections (WebSockets included) one address may hold open; "
        "429 past it (default %(default)s)",
    )
    parser.add_argument(
        "--max-connections",
        type=_positive(int),
        metavar="N",
        help="connections a server process may hold open; 503 past it (default: its "
        "limit on open files, raised to the hard limit, less an eighth for its own files)",
    )


def _add_account_arguments(parser: argparse.ArgumentParser) -> None:
    limits = SessionLimits()
    parser.add_argument(
        "--session-idle",
        type=_duration,
        default=limits.idle,
        metavar="TIME",
        help="a session unused this long ends, e.g. 30d, 12h, 90m (default 30d)",
    )
    parser.add_argument(
        "--session-max",
        type=_duration,
        default=limits.absolute,
        metavar="TIME",
        help="a session ends this long after sign-in, however used (default 365d)",
    )
    parser.add_argument(
        "--session-check",
        type=_duration,
        default=limits.check,
        metavar="TIME",
        help="how often the sockets and streams open here are checked for sessions that "
        "expired or ended in another process (default 5s)",
    )
    parser.add_argument(
        "--password-queue",
        type=_positive(int),
        default=8,
        metavar="N",
        help="password hashes running or waiting before sign-ins get 503 (default 8)",
    )
    parser.add_argument(
        "--password-threads",
        type=_positive(int),
        default=None,
        metavar="N",
        help="threads hashing passwords (default: one per core but one, at most 4; "
        "the core left over keeps the games moving)",
    )
    parser.add_argument(
        "--rate-login-failures",
        type=_positive(float),
        default=RateLimits().login_failures_per_hour,
        metavar="N",
        help="failed sign-ins per account an hour in the long run, from any address; the "
        "first few are free, then each doubles the wait up to 60/N minutes (default 10)",
    )
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy (address or network, e.g. 127.0.0.1 or 10.0.0.0/8) whose "
        "X-Forwarded-For/-Proto headers are believed; repeat for each (default: none)",
    )
    parser.add_argument(
        "--test-clock",
        action="store_true",
        help="for tests, never a real server: POST /api/test/clock moves the clock on",
    )
    parser.add_argument(
        "--test-gate",
        type=Path,
        metavar="FOLDER",
        help="for tests, never a real server: searches wait while FOLDER/closed says so",
    )


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _duration(text: str) -> float:
    """An ``argparse`` type: a time as a number and a unit (s, m, h, d): ``30d``."""
    number, unit = text[:-1], text[-1:].lower()
    try:
        seconds = float(number) * _UNITS[unit]
    except (KeyError, ValueError):
        seconds = 0.0
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"a time such as 30d, 12h, 90m or 45s, not {text!r}")
    return seconds


def _daily_bot(text: str) -> tuple[str, str]:
    """An ``argparse`` type: ``GAME=BOT`` for ``--daily-bot``, checked against the game."""
    from ..core.errors import BotSpecError, OptionsError
    from ..core.game import get_game

    name, _, spec = text.partition("=")
    try:
        game = get_game(name.strip())
        game.check_bot(spec.strip(), game.daily_players)
    except (OptionsError, BotSpecError) as err:
        raise argparse.ArgumentTypeError(f"--daily-bot {text}: {err}") from None
    return game.name, spec.strip()
