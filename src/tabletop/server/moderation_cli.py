"""``novaluna moderator grant|revoke|list`` (issue 46): the moderator role, given and
taken on the command line by whoever runs the server, never through the web.

    novaluna moderator grant ann --db games.sqlite3
    novaluna moderator list --db postgresql://...
"""

from __future__ import annotations

import argparse

from .arguments import default_db_path


def add_moderator_commands(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="moderator_command", metavar="COMMAND", required=True)
    for name, help in (
        ("grant", "make an account a moderator (it sees /moderation)"),
        ("revoke", "take the moderator role from an account"),
    ):
        command = sub.add_parser(name, help=help)
        command.add_argument("name", help="the account's name")
        _add_db(command)
    _add_db(sub.add_parser("list", help="the moderators"))


def _add_db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", help=f"SQLite file (default: {default_db_path()}) or postgresql://... URL"
    )


def moderator_command(args: argparse.Namespace) -> int:
    from .accounts import AccountError, check_name, name_key
    from .main import prepare_db
    from .moderation_writes import SetModerator
    from .storage import open_store

    db = str(args.db or default_db_path())
    prepare_db(db, 1)  # a PostgreSQL database's tables up to date
    store = open_store(db)
    try:
        if args.moderator_command == "list":
            for account in store.moderators():
                print(account.name)
            return 0
        try:
            found = store.account_login(name_key(check_name(args.name)))
        except AccountError:
            found = None
        if found is None:
            raise SystemExit(f"moderator: there is no account named {args.name!r}")
        account = found[0]
        granted = args.moderator_command == "grant"
        changed = store.write(SetModerator(account.id, granted))
        what = "is now" if granted else "is no longer"
        print(f"{account.name} {what} a moderator" + ("" if changed else " (already so)"))
        return 0
    finally:
        store.close()
