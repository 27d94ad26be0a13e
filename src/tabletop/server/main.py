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
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..core.limits import CoachLimits
from ..core.web import BotLimits, web_games
from .arguments import default_db_path
from .crowds import CrowdLimits
from .httpproto import ConnectionLimits
from .ratelimit import RateLimits
from .sessions import SessionLimits
from .sync import Takeover

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from .httpproto import Connections
    from .mail import MailSettings


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
        "coach": [args.coach_jobs, args.coach_queue, args.coach_budget],
        "takeover": [args.lease_seconds, args.takeover_check_seconds],
        "shortest_time_limit": args.min_time_per_move,
        "mail": None if (mail := _mail(args)) is None else mail.settings(),
        "rate_limits": [
            *(args.rate_creates, args.rate_actions, args.rate_hints),
            *(args.rate_messages, args.rate_logins, args.rate_login_failures),
            *(args.rate_replays, args.rate_chats, args.rate_chat_addresses),
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
        coach=CoachLimits(*settings.get("coach", [])),
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

    from .accounts import INSECURE_FAST_HASHES, fast_hashes
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
    if fast_hashes():
        print(
            f"warning: {INSECURE_FAST_HASHES}=1: passwords hashed at the lowest cost (tests only)"
        )
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
