"""``<game> serve`` (any game's command serves every game): start the web server
(uvicorn) on a SQLite database, or as several processes (``--workers``) on a
PostgreSQL one; ``<game> db``: migrate a PostgreSQL database, copy a SQLite one
into it. The messages name no game: the command is the same for every one."""

from __future__ import annotations

import argparse
import errno
import gc
import json
import logging
import os
import socket
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..core.web import DEFAULT_LIMITS, BotLimits, web_games
from .crowds import CrowdLimits
from .httpproto import ConnectionLimits
from .ratelimit import RateLimits
from .sessions import SessionLimits
from .sync import Takeover

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from .httpproto import Connections
    from .mail import MailSettings, SmtpServer

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


def _check_free(host: str, port: int) -> None:
    """Fail early, with a clear message, if the address cannot be listened on."""
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as err:
        reason = "it is in use" if err.errno == errno.EADDRINUSE else err.strerror
        raise SystemExit(
            f"serve: cannot listen on {host}:{port}: {reason}; "
            "choose another with --port (or --host)"
        ) from None


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


def _mail(args: argparse.Namespace) -> MailSettings | None:
    """The mail settings of ``serve``'s arguments; ``None`` without ``--smtp``."""
    from .mail import MailSettings

    if args.smtp is None:
        return None
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    public = args.public_url or f"http://{shown}:{args.port}"
    host = urlsplit(public).hostname or ""
    sender = args.mail_from or f"tabletop@{host if '.' in host else 'localhost'}"
    return MailSettings(
        args.smtp, sender, public, max(0.0, args.mail_delay), args.mail_digest_check
    )


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


def tune_gc() -> None:
    """Collect the oldest objects rarely: live games hold many objects but make few
    reference cycles, and a full collection of a big heap stalls every game at once."""
    gc.freeze()  # what is loaded so far stays
    gc.set_threshold(10_000, 20, 100)


SETTINGS_ENV = "TABLETOP_SERVE_SETTINGS"  # how ``--workers`` processes get the settings


def _settings(args: argparse.Namespace, db: str) -> dict[str, Any]:
    return {
        "db_path": db,
        "bot_pause": max(0.0, args.bot_pause),
        "bot_workers": args.bot_workers,
        "bot_limits": [args.bot_max_iterations, args.bot_max_seconds],
        "daily_bots": dict(args.daily_bot),
        "analysis_budget": args.analysis_budget,
        "takeover": [args.lease_seconds, args.takeover_check_seconds],
        "shortest_time_limit": args.min_time_per_move,
        "mail": None if (mail := _mail(args)) is None else mail.settings(),
        "rate_limits": [
            *(args.rate_creates, args.rate_actions, args.rate_hints),
            *(args.rate_messages, args.rate_logins, args.rate_login_failures),
            args.rate_replays,
        ],
        "open_seat_days": args.open_seat_days,
        "crowd": [
            args.max_sockets_per_address,
            args.max_sockets_per_game,
            args.presence_interval,
            args.max_sockets_per_account,
            args.hello_timeout,
        ],
        "sessions": [args.session_idle, args.session_max, args.session_check],
        "password_queue": args.password_queue,
        "password_threads": args.password_threads,
        "test_clock": args.test_clock,
        "test_gate": None if args.test_gate is None else str(args.test_gate),
    }


def app_from_settings(settings: dict[str, Any] | None = None) -> Starlette:
    """The app for ``settings`` (``_settings``); by default those in the environment,
    which is how each ``--workers`` process builds its own."""
    from .app import create_app
    from .mail import MailSettings

    if settings is None:
        settings = json.loads(os.environ[SETTINGS_ENV])
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
        tune_gc()
    return create_app(
        settings["db_path"],
        bot_pause=settings["bot_pause"],
        bot_workers=settings["bot_workers"],
        bot_limits=BotLimits(*settings["bot_limits"]),
        rate_limits=RateLimits(*settings["rate_limits"]),
        daily_bots=settings.get("daily_bots"),
        analysis_budget=settings.get("analysis_budget"),
        takeover=Takeover(*settings.get("takeover", ())),
        shortest_time_limit=settings.get("shortest_time_limit"),
        mail=MailSettings.from_settings(settings["mail"]) if settings.get("mail") else None,
        crowd=CrowdLimits(*settings.get("crowd", [])),
        open_seat_days=settings.get("open_seat_days", 7.0),
        session_limits=SessionLimits(*settings.get("sessions", [])),
        password_queue=settings.get("password_queue", 8),
        password_threads=settings.get("password_threads"),
        test_clock=settings.get("test_clock", False),
        test_gate=None if settings.get("test_gate") is None else Path(settings["test_gate"]),
    )


def prepare_db(db: str, workers: int) -> None:
    """Check ``--workers`` against the database, and bring a PostgreSQL one's schema
    up to date once, before any worker starts."""
    from .storage import is_postgres, require_psycopg

    if not is_postgres(db):
        if workers > 1:
            raise SystemExit(
                f"serve: --workers {workers} needs a database the processes can "
                "share: SQLite serves one process; use --db postgresql://... (see README)"
            )
        return
    try:
        require_psycopg()
        from .pgstore import migrate

        migrate(db)
    except Exception as err:  # noqa: BLE001 - psycopg missing, server down, bad URL
        raise SystemExit(f"serve: cannot prepare the database: {err}") from None


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from .httpproto import LimitedProtocol

    _check_free(args.host, args.port)
    db = str(args.db or default_db_path())
    prepare_db(db, args.workers)
    settings = _settings(args, db)
    shown_db = db.split("@")[-1] if "://" in db else db  # no password on the screen
    options: dict[str, Any] = {
        "host": args.host,
        "port": args.port,
        "ws_max_size": 256 * 1024,
        "ws_per_message_deflate": False,  # CPU matters more than bytes for ~10 KB states
        "log_level": "warning",
        "timeout_graceful_shutdown": 2,
        # uvicorn would wait for ever for a request's headers or body, and count no
        # connections (httpproto.py)
        "http": partial(LimitedProtocol, connections=_connections(args)),
        # X-Forwarded-For decides the address rate limits count by: believed only
        # from the proxies named, or anyone could pick a fresh address per request
        "proxy_headers": bool(args.trusted_proxy),
        "forwarded_allow_ips": ",".join(args.trusted_proxy),
    }
    if args.workers > 1:
        os.environ[SETTINGS_ENV] = json.dumps(settings)
        app: str | Starlette = f"{__name__}:app_from_settings"
        options.update(factory=True, workers=args.workers)
    else:
        try:
            app = app_from_settings(settings)
        except Exception as err:  # noqa: BLE001 - e.g. an unreadable database file
            raise SystemExit(f"serve: cannot open the game database {shown_db}: {err}") from None
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    games = " and ".join(game.title for game in web_games().values())
    processes = f"{args.workers} processes; " if args.workers > 1 else ""
    print(f"{games}: http://{shown}:{args.port}/  ({processes}games in {shown_db}; Ctrl-C stops)")
    for game in web_games().values():  # installed without a C compiler: say what is weaker
        warning = game.kernel_warning()
        if warning is not None:
            print(f"warning: {warning}")
    if settings["mail"]:
        smtp, public = settings["mail"]["server"], settings["mail"]["public_url"]
        print(f"e-mail through {smtp['host']}:{smtp['port']}, links to {public}")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    tune_gc()
    uvicorn.run(app, **options)
    return 0


def _connections(args: argparse.Namespace) -> Connections:
    """The connection limits of ``serve``'s arguments, with the process's file limit
    raised to the hard limit first (``--workers`` processes inherit it)."""
    from .httpproto import Connections, capacity_for, file_limit

    limits = ConnectionLimits(
        header_timeout=args.header_timeout,
        body_timeout=args.body_timeout,
        per_address=args.max_connections_per_address,
        capacity=args.max_connections or capacity_for(file_limit()),
        trusted_proxies=tuple(args.trusted_proxy),
    )
    return Connections(limits)


def add_db_commands(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="db_command", metavar="COMMAND", required=True)
    mig = sub.add_parser("migrate", help="bring a PostgreSQL database's tables up to date")
    mig.add_argument("url", help="postgresql://...")
    copy = sub.add_parser("copy", help="copy the games of a SQLite file into PostgreSQL")
    copy.add_argument("source", help="the SQLite file (left as it is)")
    copy.add_argument("url", help="postgresql://... (games already there are skipped)")


def db_command(args: argparse.Namespace) -> int:
    from .storage import is_postgres, require_psycopg

    if not is_postgres(args.url):
        raise SystemExit(f"db: {args.url!r} is not a postgresql://... URL")
    try:
        require_psycopg()
        from . import dbcopy, pgstore

        if args.db_command == "migrate":
            print(f"{pgstore.migrate(args.url)} migration(s) applied")
            return 0
        if not Path(args.source).is_file():
            raise SystemExit(f"db copy: no SQLite file at {args.source}")
        copied, skipped = dbcopy.copy_sqlite(args.source, args.url)
    except (ImportError, OSError) as err:
        raise SystemExit(f"db: {err}") from None
    except Exception as err:  # noqa: BLE001 - psycopg's and sqlite3's errors, said plainly
        raise SystemExit(f"db: {type(err).__name__}: {err}") from None
    print(f"copied {copied} game(s); {skipped} already there were left alone")
    return 0
