"""Backing up and restoring the web game's database when it is a SQLite file
(``red7 db backup FILE``, ``red7 db restore FILE``). A PostgreSQL database is backed up
with ``pg_dump`` and restored with ``pg_restore`` (docs/deploying.md).

A backup is taken with SQLite's online backup API while the server runs: it copies a
consistent snapshot of the database (the server's writes go on meanwhile, in its WAL,
and are not in it), then checks the copy (``PRAGMA integrity_check``). It never
overwrites a file, and the file it makes is its owner's alone (0600): a backup holds
what the database does (the hashes of the seat tokens and passwords, the chat).

A restore copies a backup into a database that holds no table yet (a new file, or an
empty one), or, with ``replace``, over an existing database: the server must be
stopped then (it holds the file open). It checks that the backup is a red7 database
first, and brings its schema to this release (the migrations) after: a backup taken by
an older release is restored as this one uses it. The copy is a club of its own: it is
given a new identity (:func:`red7.web.storage.identity.renew`), so a server started on it
beside the original, on the same Redis, hears and counts only itself.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

from ...ui.i18n import _
from .identity import renew
from .store import Store, driver_url

PRIVATE = 0o600
"""A backup's mode: read and written by its owner only."""


class BackupError(Exception):
    """A backup or restore that cannot be done; its message says why, in the language in use."""


@dataclass(frozen=True)
class Summary:
    """What a database holds: its migration, and its count of tables, games and chat lines."""

    revision: str | None
    tables: int
    games: int
    chat: int


def sqlite_file(url: str) -> Path:
    """The file of a SQLite database URL; :class:`BackupError` for any other database."""
    parsed = make_url(driver_url(url))
    if parsed.get_backend_name() != "sqlite":
        raise BackupError(
            _("red7 db backup and restore work on a SQLite file; back up PostgreSQL with pg_dump (docs/deploying.md).")
        )
    if not parsed.database or parsed.database == ":memory:":
        raise BackupError(_("The database URL names no file: {url}").format(url=url))
    return Path(parsed.database)


def summary(path: Path) -> Summary:
    """What the SQLite database ``path`` holds (:class:`BackupError` if it is not a red7 one)."""
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as connection:
        try:
            names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not {"alembic_version", "tables", "games"} <= names:
                raise BackupError(_("{path} is not a database of the red7 web game.").format(path=path))
            revision = connection.execute("SELECT version_num FROM alembic_version").fetchone()
            counts = [
                connection.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0] if name in names else 0
                for name in ("tables", "games", "chat")
            ]
        except sqlite3.DatabaseError as err:
            raise BackupError(_("{path} is not a database of the red7 web game.").format(path=path)) from err
    return Summary(revision[0] if revision else None, *counts)


def _check(connection: sqlite3.Connection, path: Path) -> None:
    result = connection.execute("PRAGMA integrity_check").fetchone()
    if result is None or result[0] != "ok":
        raise BackupError(_("{path} is damaged (SQLite's integrity check failed).").format(path=path))


def backup(url: str, target: Path) -> Summary:
    """Copy the SQLite database of ``url`` to the new file ``target`` (the server may be
    running); what the copy holds."""
    source = sqlite_file(url)
    if not source.is_file():
        raise BackupError(_("There is no database at {path}.").format(path=source))
    if not target.parent.is_dir():
        raise BackupError(_("There is no folder {path}.").format(path=target.parent))
    try:
        # made here, private, before SQLite writes a byte into it (sqlite3.connect would make
        # it readable by everyone the umask lets read); O_EXCL: never a file that exists
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE))
    except FileExistsError:
        raise BackupError(_("{path} exists already: a backup never overwrites a file.").format(path=target)) from None
    try:
        with (
            contextlib.closing(sqlite3.connect(source, timeout=30)) as src,
            contextlib.closing(sqlite3.connect(target)) as dst,
        ):
            src.backup(dst)  # one step: a consistent snapshot, the server's writes going on
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no WAL beside it
            _check(dst, target)
    except (sqlite3.Error, BackupError):
        target.unlink(missing_ok=True)
        raise
    return summary(target)


def restore(source: Path, url: str, replace: bool = False) -> Summary:
    """Copy the backup ``source`` into the SQLite database of ``url``, which must hold no
    table unless ``replace`` (the server stopped); then bring its schema to this
    release. What the database holds then."""
    target = sqlite_file(url)
    if not source.is_file():
        raise BackupError(_("There is no backup at {path}.").format(path=source))
    summary(source)  # a red7 database, or refused here
    with contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as src:
        _check(src, source)
    if target.exists() and target.stat().st_size > 0 and not replace:
        with contextlib.closing(sqlite3.connect(target)) as existing:
            tables = existing.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
        if tables:
            raise BackupError(
                _(
                    "The database {path} is not empty: restore into a new database, or stop the server "
                    "and give --replace."
                ).format(path=target)
            )
    if replace:
        for path in (target, Path(f"{target}-wal"), Path(f"{target}-shm")):
            path.unlink(missing_ok=True)  # the old database whole, its WAL with it
    target.parent.mkdir(parents=True, exist_ok=True)
    with (
        contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst)
    store = Store(url)
    try:
        store.upgrade()
        renew(store.engine)
    finally:
        store.close()
    return summary(target)
