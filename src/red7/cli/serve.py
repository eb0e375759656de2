"""``red7 serve``: the web game (FastAPI and uvicorn, the optional ``web`` extra), and
``red7 db``: its database's migrations.

Every option of ``red7 serve`` can also be set by an environment variable (``RED7_`` and
the option's name in capitals: ``--database-url`` is ``RED7_DATABASE_URL``; a list,
comma-separated; a switch, ``1`` or ``0``), as a container or a service manager sets
them; an option given on the command line wins.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
from collections.abc import Callable
from typing import Any, TypeVar

from ..ui.i18n import N_, _, error_text
from ..web.http.limits import LimitError, Limits
from .common import Commands, UsageError, say_fallback

T = TypeVar("T")


def _env(name: str, default: T, kind: Callable[[str], T]) -> T:
    """The value of ``RED7_<NAME>`` as ``kind`` (``default`` when unset); a value that is
    not one is a UsageError saying what is expected."""
    raw = os.environ.get(f"RED7_{name}")
    if raw is None or raw == "":
        return default
    try:
        return kind(raw)
    except ValueError:
        expected = _(EXPECTED[kind])  # str never fails: every other kind is there
        raise UsageError(
            _("RED7_{name}={value!r} is not valid: give {expected}").format(name=name, value=raw, expected=expected)
        ) from None


def _switch(text: str) -> bool:
    """An environment variable's yes or no."""
    answer = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False}
    if text.strip().lower() not in answer:
        raise ValueError(text)
    return answer[text.strip().lower()]


EXPECTED: dict[Callable[[str], Any], str] = {
    int: N_("a whole number"),
    float: N_("a number"),
    _switch: N_("1 or 0 (yes or no, true or false, on or off)"),
}
"""What an environment variable of each kind must hold, for its error."""


def _database_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--database-url",
        metavar="URL",
        default=None,
        help=_(
            "a SQLAlchemy database URL, e.g. postgresql://red7@db/red7 "
            "(default: a SQLite file in the user's data directory; env RED7_DATABASE_URL)"
        ),
    )


def add_commands(sub: Commands) -> None:
    p = sub.add_parser("serve", help=_("the web game: play in the browser, with friends online or against the bots"))
    p.add_argument("--host", default=None, help=_("the address to listen on (default 127.0.0.1: this machine)"))
    p.add_argument("--port", type=int, default=None, help=_("the port (default 8000)"))
    _database_option(p)
    p.add_argument(
        "--redis-url",
        metavar="URL",
        default=None,
        help=_(
            "the Redis that several server processes sharing the database talk through, e.g. "
            "redis://127.0.0.1:6379/0 (default: PostgreSQL's LISTEN/NOTIFY on a PostgreSQL database)"
        ),
    )
    p.add_argument("--workers", type=int, default=None, help=_("processes the bots think in (default 2)"))
    p.add_argument("--bot-delay", type=float, default=None, help=_("least seconds a bot's move takes (default 0.8)"))
    p.add_argument(
        "--away",
        type=float,
        default=None,
        metavar="SECONDS",
        help=_("seconds a player may be away on their turn before a bot plays for them (default 60)"),
    )
    p.add_argument(
        "--rate-look",
        type=float,
        default=None,
        metavar="SECONDS",
        help=_(
            "seconds between two looks for finished rated games left unrated by a process that died "
            "(default 30; env RED7_RATE_LOOK)"
        ),
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=None,
        metavar="ORIGIN",
        help=_(
            "another origin whose pages may use the server (e.g. https://red7.example.org; "
            "env RED7_ALLOW_ORIGIN, comma-separated)"
        ),
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        default=None,
        metavar="HOST",
        help=_(
            "a host name the server answers to, as people's browsers write it (e.g. red7.example.org, "
            "*.example.org; default: the --host address and localhost; env RED7_ALLOWED_HOST, comma-separated)"
        ),
    )
    p.add_argument(
        "--trusted-proxy",
        action="append",
        default=None,
        metavar="ADDRESS",
        help=_(
            "the address of a reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are believed "
            "(default 127.0.0.1 and ::1; env RED7_TRUSTED_PROXY, comma-separated)"
        ),
    )
    defaults = Limits()
    p.add_argument(
        "--tables-per-hour",
        type=float,
        default=None,
        metavar="N",
        help=_("tables one client may create an hour (default {n:g})").format(n=defaults.tables_per_hour),
    )
    p.add_argument(
        "--table-burst",
        type=int,
        default=None,
        metavar="N",
        help=_("tables one client may create at once (default {n})").format(n=defaults.table_burst),
    )
    p.add_argument(
        "--joins-per-hour",
        type=float,
        default=None,
        metavar="N",
        help=_("seats one client may take or leave an hour (default {n:g})").format(n=defaults.joins_per_hour),
    )
    p.add_argument(
        "--join-burst",
        type=int,
        default=None,
        metavar="N",
        help=_("seats one client may take or leave at once (default {n})").format(n=defaults.join_burst),
    )
    p.add_argument(
        "--open-tables",
        type=int,
        default=None,
        metavar="N",
        help=_("tables one client may have open, their game not started (default {n})").format(n=defaults.open_tables),
    )
    p.add_argument(
        "--sockets",
        type=int,
        default=None,
        metavar="N",
        help=_("WebSockets one client may have open (default {n})").format(n=defaults.sockets),
    )
    p.add_argument(
        "--expire-open",
        type=float,
        default=None,
        metavar="SECONDS",
        help=_("seconds an open table stays with nobody at it before it expires (default {n:g}; 0: never)").format(
            n=defaults.expire_open
        ),
    )
    p.add_argument(
        "--access-log",
        action="store_true",
        default=None,
        help=_("log every request (method, path, status; never a seat token: none travels in an address)"),
    )
    p.add_argument(
        "--log-format",
        choices=("text", "json"),
        default=None,
        help=_("text lines (default) or one JSON object a line, for a log collector"),
    )
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


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    """The options, each from the command line, else its environment variable, else its default."""

    def pick(name: str, default: T, kind: Callable[[str], T]) -> T:
        given = getattr(args, name.lower())
        return given if given is not None else _env(name, default, kind)

    def listed(name: str) -> tuple[str, ...]:
        given = getattr(args, name.lower())
        items = given if given is not None else _env(name, "", str).split(",")
        return tuple(item.strip() for item in items if item.strip())

    return {
        "host": pick("HOST", "127.0.0.1", str),
        "port": pick("PORT", 8000, int),
        "database_url": pick("DATABASE_URL", None, str),
        "redis_url": pick("REDIS_URL", None, str),
        "workers": pick("WORKERS", 2, int),
        "bot_delay": pick("BOT_DELAY", 0.8, float),
        "away": pick("AWAY", 60.0, float),
        "rate_look": pick("RATE_LOOK", 30.0, float),
        "origins": listed("ALLOW_ORIGIN"),
        "hosts": listed("ALLOWED_HOST"),
        "proxies": listed("TRUSTED_PROXY") or ("127.0.0.1", "::1"),
        "tables_per_hour": pick("TABLES_PER_HOUR", Limits.tables_per_hour, float),
        "table_burst": pick("TABLE_BURST", Limits.table_burst, int),
        "open_tables": pick("OPEN_TABLES", Limits.open_tables, int),
        "sockets": pick("SOCKETS", Limits.sockets, int),
        "expire_open": pick("EXPIRE_OPEN", Limits.expire_open, float),
        "joins_per_hour": pick("JOINS_PER_HOUR", Limits.joins_per_hour, float),
        "join_burst": pick("JOIN_BURST", Limits.join_burst, int),
        "log_format": pick("LOG_FORMAT", "text", str),
        "access_log": pick("ACCESS_LOG", False, _switch),
    }


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web.http.origins import parse_origin, split_host
        from ..web.http.wire import MAX_FRAME
        from ..web.logs import log_config
        from ..web.server import Settings, create_app, tune_gc
    except ImportError as err:
        raise UsageError(
            _("red7 serve needs the web extra: pip install 'red7[web]' ({module} is missing)").format(module=err.name)
        ) from None
    o = _settings(args)
    if not 0 < o["port"] < 65536:
        raise UsageError(_("--port must be between 1 and 65535, not {port}").format(port=o["port"]))
    if not 0 <= o["workers"] <= 64:
        raise UsageError(_("--workers must be between 0 and 64, not {workers}").format(workers=o["workers"]))
    if not 0 <= o["bot_delay"] <= 10:
        raise UsageError(_("--bot-delay must be between 0 and 10 seconds, not {delay}").format(delay=o["bot_delay"]))
    if not o["away"] > 0:
        raise UsageError(_("--away must be a positive number of seconds, not {away}").format(away=o["away"]))
    if not 1 <= o["rate_look"] <= 86400:
        raise UsageError(
            _("--rate-look must be between 1 and 86400 seconds, not {seconds}").format(seconds=o["rate_look"])
        )
    if o["log_format"] not in ("text", "json"):
        raise UsageError(_("--log-format must be text or json, not {format!r}").format(format=o["log_format"]))
    try:
        ipaddress.ip_address(o["host"])
    except ValueError:
        if o["host"] != "localhost":
            raise UsageError(
                _("--host must be an IP address (or localhost), not {host!r}").format(host=o["host"])
            ) from None
    try:
        limits = Limits(
            tables_per_hour=o["tables_per_hour"],
            table_burst=o["table_burst"],
            open_tables=o["open_tables"],
            sockets=o["sockets"],
            expire_open=o["expire_open"],
            joins_per_hour=o["joins_per_hour"],
            join_burst=o["join_burst"],
        )
    except LimitError as err:
        raise UsageError(error_text(err)) from None
    for origin in o["origins"]:
        if parse_origin(origin) is None:
            raise UsageError(
                _("--allow-origin must be an origin such as https://red7.example.org, not {origin!r}").format(
                    origin=origin
                )
            )
    for host in o["hosts"]:
        if host != "*" and split_host(host.removeprefix("*.")) is None:
            raise UsageError(
                _("--allowed-host must be a host name such as red7.example.org, not {host!r}").format(host=host)
            )
    for proxy in o["proxies"]:
        try:
            if proxy != "*":
                ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise UsageError(
                _("--trusted-proxy must be an IP address or network, not {proxy!r}").format(proxy=proxy)
            ) from None
    _check_drivers(o["database_url"], o["redis_url"])
    settings = Settings(
        o["database_url"],
        o["workers"],
        o["bot_delay"],
        o["away"],
        o["origins"],
        redis_url=o["redis_url"],
        allowed_hosts=o["hosts"],
        listening=o["host"],
        limits=limits,
        rate_look=o["rate_look"],
    )
    address = f"http://{o['host']}:{o['port']}/"
    print(_("red7: the web game is at {address} (Ctrl+C stops it)").format(address=address), flush=True)
    say_fallback()  # the server's bots, at every level a table may choose
    app = create_app(settings)
    tune_gc()
    uvicorn.run(
        app,
        host=o["host"],
        port=o["port"],
        access_log=o["access_log"],  # off by default: a line a request costs a busy server CPU
        ws_max_size=MAX_FRAME,
        # No permessage-deflate: a compressed frame's length tells something of what it
        # holds, and a frame holds its player's hidden hand beside words another player
        # chose (seat names), so an eavesdropper on the encrypted traffic who sits at the
        # table could learn cards from lengths (as CRIME and BREACH did with secrets).
        # Frames are a few kilobytes a second, and compressing them was an eighth of the
        # server's work.
        ws_per_message_deflate=False,
        log_config=log_config(o["log_format"], access=o["access_log"]),
        proxy_headers=True,
        forwarded_allow_ips=list(o["proxies"]),
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
    url = args.database_url or _env("DATABASE_URL", None, str)
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
