"""``red7 serve``: the web game (FastAPI and uvicorn, the optional ``web`` extra), and
``red7 db``: its database's migrations.

The options of ``red7 serve`` are declared once, on the fields of
:class:`red7.web.settings.Settings` (:mod:`red7.web.http.options`): this module makes them
flags. Each can also be set by its environment variable (``RED7_`` and the option's name
in capitals: ``--database-url`` is ``RED7_DATABASE_URL``; a list, comma-separated; a
switch, ``1`` or ``0``), as a container or a service manager sets them; an option given
on the command line wins.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from ..ui.i18n import _, error_text
from ..web.http.options import Kind, Option, OptionError, declared
from ..web.settings import Settings
from .common import Commands, UsageError, say_fallback

OPTIONS = declared(Settings)
"""Every option of ``red7 serve``, with the name of the settings field it sets."""
DATABASE_URL = dict(OPTIONS)["database_url"]


def _add_option(p: argparse.ArgumentParser, name: str, option: Option) -> None:
    """``option`` as a flag of ``p`` whose value goes to ``name`` (None when not given)."""
    how: dict[str, Any] = {"metavar": option.metavar or option.name.upper().replace("-", "_")}
    match option.kind:
        case Kind.WHOLE:
            how["type"] = int
        case Kind.NUMBER:
            how["type"] = float
        case Kind.LIST:
            how["action"] = "append"
        case Kind.SWITCH:
            how = {"action": argparse.BooleanOptionalAction}
    if option.check is not None and option.check.choices:
        how.update(choices=option.check.choices, metavar=None)
    p.add_argument(option.flag, dest=name, default=None, help=option.help().replace("%", "%%"), **how)


def _database_option(p: argparse.ArgumentParser) -> None:
    _add_option(p, "database_url", DATABASE_URL)


def _database_url(args: argparse.Namespace) -> str | None:
    """The database of ``red7 db`` and ``red7 admin``: ``--database-url``'s, else
    ``RED7_DATABASE_URL``'s, else None (the SQLite file in the user's data directory)."""
    url: str | None = DATABASE_URL.chosen(args.database_url, os.environ)  # (a text is never refused)
    return url


def add_commands(sub: Commands) -> None:
    p = sub.add_parser("serve", help=_("the web game: play in the browser, with friends online or against the bots"))
    for name, option in OPTIONS:
        _add_option(p, name, option)
    db = sub.add_parser("db", help=_("the web game's database: apply its migrations, back it up and restore it"))
    db_sub = db.add_subparsers(dest="db_command", metavar="COMMAND", required=True)
    upgrade = db_sub.add_parser("upgrade", help=_("bring the database's schema to this release (Alembic)"))
    _database_option(upgrade)
    db_sub.add_parser("current", help=_("say which migration the database is at")).set_defaults(db_command="current")
    _database_option(db_sub.choices["current"])
    backup = db_sub.add_parser(
        "backup", help=_("copy a SQLite database to a new file, the server running or not (PostgreSQL: pg_dump)")
    )
    backup.add_argument("file", metavar="FILE", help=_("the backup to write (never overwritten)"))
    _database_option(backup)
    restore = db_sub.add_parser(
        "restore", help=_("copy a backup into an empty SQLite database, and migrate it (PostgreSQL: pg_restore)")
    )
    restore.add_argument("file", metavar="FILE", help=_("the backup to restore"))
    restore.add_argument(
        "--replace",
        action="store_true",
        help=_("replace the database if it holds tables already (stop the server first)"),
    )
    _database_option(restore)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web.http.wire import MAX_FRAME
        from ..web.logs import log_config
        from ..web.server import create_app, tune_gc
    except ImportError as err:
        raise UsageError(
            _("red7 serve needs the web extra: pip install 'red7[web]' ({module} is missing)").format(module=err.name)
        ) from None
    try:
        settings = Settings.from_options(vars(args), os.environ)
    except OptionError as err:
        raise UsageError(error_text(err)) from None
    _check_drivers(settings.database_url, settings.redis_url)
    address = f"http://{settings.listening}:{settings.port}/"
    print(_("red7: the web game is at {address} (Ctrl+C stops it)").format(address=address), flush=True)
    say_fallback()  # the server's bots, at every level a table may choose
    app = create_app(settings)
    tune_gc()
    uvicorn.run(
        app,
        host=settings.listening,
        port=settings.port,
        access_log=settings.access_log,  # off by default: a line a request costs a busy server CPU
        ws_max_size=MAX_FRAME,
        # No permessage-deflate: a compressed frame's length tells something of what it
        # holds, and a frame holds its player's hidden hand beside words another player
        # chose (seat names), so an eavesdropper on the encrypted traffic who sits at the
        # table could learn cards from lengths (as CRIME and BREACH did with secrets).
        # Frames are a few kilobytes a second, and compressing them was an eighth of the
        # server's work.
        ws_per_message_deflate=False,
        log_config=log_config(settings.log_format, access=settings.access_log),
        proxy_headers=True,
        forwarded_allow_ips=list(settings.trusted_proxies),
    )
    return 0


def _check_drivers(database_url: str | None, redis_url: str | None) -> None:
    """A one-line error, before anything starts, when the database URL names no database
    SQLAlchemy knows (or is no URL), or PostgreSQL or Redis is asked for and its driver
    is missing."""
    if database_url:
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import SQLAlchemyError

        from ..web.storage.store import driver_url

        try:  # as the store reads it: postgres:// and postgresql:// are psycopg's
            make_url(driver_url(database_url)).get_dialect()
        except SQLAlchemyError as err:
            reason = str(err).splitlines()[0]
            raise UsageError(_("cannot use the database: {reason}").format(reason=reason)) from None
    if database_url and database_url.startswith(("postgresql", "postgres:")):
        try:
            import psycopg  # noqa: F401
            import psycopg_pool  # noqa: F401
        except ImportError:
            raise UsageError(_("a PostgreSQL database needs psycopg: pip install 'red7[cluster]'")) from None
    if redis_url:
        try:
            import redis  # noqa: F401
        except ImportError:
            raise UsageError(_("--redis-url needs the redis package: pip install 'red7[cluster]'")) from None


def cmd_db(args: argparse.Namespace) -> int:
    try:
        from sqlalchemy.exc import SQLAlchemyError

        from ..web.storage.store import Store
    except ImportError as err:
        raise UsageError(
            _("red7 db needs the web extra: pip install 'red7[web]' ({module} is missing)").format(module=err.name)
        ) from None
    url = _database_url(args)
    if args.db_command in ("backup", "restore"):
        return _backup_or_restore(args, url)
    _check_drivers(url, None)
    try:  # a URL SQLAlchemy cannot use (no such dialect, bad syntax) fails here, in one line too
        store = Store(url)
    except SQLAlchemyError as err:
        raise UsageError(_("cannot use the database: {reason}").format(reason=str(err).splitlines()[0])) from None
    try:
        before = store.revision()
        if args.db_command == "upgrade":
            store.upgrade()
            after = store.revision()
            if before == after:
                print(_("red7: the database is already at migration {after}").format(after=after))
            elif before:
                print(
                    _("red7: the database is upgraded from {before} to migration {after}").format(
                        before=before, after=after
                    )
                )
            else:
                print(
                    _("red7: the database is upgraded from an empty database to migration {after}").format(after=after)
                )
        elif before:
            print(_("red7: the database is at migration {before}").format(before=before))
        else:
            print(_("red7: the database is at migration none (empty)"))
    except SQLAlchemyError as err:
        raise UsageError(_("cannot use the database: {reason}").format(reason=str(err).splitlines()[0])) from None
    finally:
        store.close()
    return 0


def _backup_or_restore(args: argparse.Namespace, url: str | None) -> int:
    """``red7 db backup FILE`` and ``red7 db restore FILE`` (:mod:`red7.web.storage.backup`)."""
    import sqlite3
    from pathlib import Path

    from ..web.storage.backup import BackupError, backup, restore
    from ..web.storage.store import default_url

    try:
        if args.db_command == "backup":
            held = backup(url or default_url(), Path(args.file))
            message = _("red7: backed up to {file}: migration {revision}, {tables} tables, {games} games")
        else:
            held = restore(Path(args.file), url or default_url(), args.replace)
            message = _("red7: restored from {file}: migration {revision}, {tables} tables, {games} games")
    except BackupError as err:
        raise UsageError(str(err)) from None
    except (OSError, sqlite3.Error) as err:
        raise UsageError(_("cannot use the database: {reason}").format(reason=err)) from None
    print(message.format(file=args.file, revision=held.revision, tables=held.tables, games=held.games))
    return 0
