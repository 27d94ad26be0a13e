"""``novaluna serve``: start the web server (uvicorn) on a SQLite database."""

from __future__ import annotations

import argparse
import errno
import gc
import logging
import os
import socket
from pathlib import Path

from ..core.web import DEFAULT_LIMITS, BotLimits, web_games
from .ratelimit import RateLimits

APP_NAME = "novaluna"


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/novaluna/games.sqlite3`` (``~/.local/share`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / APP_NAME / "games.sqlite3"


def _positive(kind: type[int] | type[float]):  # noqa: ANN202 - an argparse type
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
            f"novaluna serve: cannot listen on {host}:{port}: {reason}; "
            "choose another with --port (or --host)"
        ) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=_port, default=8000, help="port to listen on")
    parser.add_argument("--db", type=Path, help=f"SQLite file (default: {default_db_path()})")
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
    rates = RateLimits()
    for name, what, default in [
        ("creates", "new games per address", rates.creates_per_minute),
        ("actions", "moves and undos per seat", rates.actions_per_minute),
        ("hints", "hints per seat", rates.hints_per_minute),
        ("messages", "WebSocket messages per connection", rates.messages_per_minute),
        ("logins", "registrations and logins per address", rates.logins_per_minute),
    ]:
        parser.add_argument(
            f"--rate-{name}",
            type=_positive(float),
            default=default,
            metavar="N",
            help=f"{what} a minute before 429 (default {default:g})",
        )


def tune_gc() -> None:
    """Collect the oldest objects rarely: live games hold many objects but make few
    reference cycles, and a full collection of a big heap stalls every game at once."""
    gc.freeze()  # what is loaded so far stays
    gc.set_threshold(10_000, 20, 100)


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from .app import create_app

    _check_free(args.host, args.port)
    db = args.db or default_db_path()
    try:
        app = create_app(
            str(db),
            bot_pause=max(0.0, args.bot_pause),
            bot_workers=args.bot_workers,
            bot_limits=BotLimits(args.bot_max_iterations, args.bot_max_seconds),
            rate_limits=RateLimits(
                args.rate_creates,
                args.rate_actions,
                args.rate_hints,
                args.rate_messages,
                args.rate_logins,
            ),
        )
    except Exception as err:  # noqa: BLE001 - e.g. an unreadable database file
        raise SystemExit(f"novaluna serve: cannot open the game database {db}: {err}") from None
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    games = " and ".join(game.title for game in web_games().values())
    print(f"{games}: http://{shown}:{args.port}/  (games stored in {db}; Ctrl-C stops)")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    tune_gc()
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        ws_max_size=256 * 1024,
        ws_per_message_deflate=False,  # CPU matters more than bytes for ~10 KB states
        log_level="warning",
        timeout_graceful_shutdown=2,
    )
    return 0
