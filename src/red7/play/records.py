"""Record files: where finished games are kept, and reading and writing them safely.

The record itself (what it holds, how it replays) is :mod:`red7.core.record`; this
module adds the files: written atomically (never half-written), read with a
:class:`~red7.core.record.RecordError` for anything that is not a record.

Finished games go to :func:`records_dir`. A game in progress in the terminal game is
saved after every decision that can no longer be taken back into
:func:`unfinished_dir`, one file per game (two games played at once in two terminals
do not overwrite each other); the file goes when the game ends, and
``red7 play --resume`` takes up the most recently saved one (:func:`last_unfinished`).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core.game import Game
from ..core.model import N_
from ..core.record import RecordError, SeatRecord, dumps, parse


def records_dir() -> Path:
    """Where finished games are saved: the user's data directory (XDG on Linux)."""
    from platformdirs import user_data_path

    return user_data_path("red7") / "records"


def unfinished_dir(records: Path | None = None) -> Path:
    """Where games in progress are saved, one record file each: ``unfinished`` in
    ``records`` (default :func:`records_dir`)."""
    return (records or records_dir()) / "unfinished"


def last_unfinished(directory: Path | None = None) -> Path | None:
    """The most recently saved game in progress in ``directory`` (default
    :func:`unfinished_dir`): the record file written last; None if there is none."""
    try:
        files = [f for f in (directory or unfinished_dir()).glob("*.json") if f.is_file()]
    except OSError:
        return None
    return max(files, key=lambda f: (f.stat().st_mtime_ns, f.name), default=None)


def _temporary(directory: Path) -> tuple[int, str]:
    """A new temporary file in ``directory`` (its descriptor and name), where a record is
    written before it takes its place."""
    return tempfile.mkstemp(dir=directory, prefix=".record-", suffix=".tmp")


def unsaveable(path: str | os.PathLike[str]) -> str | None:
    """Why :func:`save` could not write a record to ``path`` now, in words; None if it can.

    Checked without leaving anything behind: ``path`` must not be a directory, and the
    nearest of its parent directories that exists (save makes the missing ones) must be
    a directory in which a file can be created (tried, not guessed from permission bits,
    which say nothing on a read-only file system or to root).
    """
    target = Path(path)
    try:
        if target.is_dir():
            return f"{target} is a directory"
        existing = target.parent
        while not existing.exists():
            existing = existing.parent
    except OSError as err:  # a parent that may not be looked into (exists() raises PermissionError)
        return f"{err.filename or target} cannot be looked into ({err.strerror or err})"
    if not existing.is_dir():
        return f"{existing} is not a directory"
    try:
        fd, tmp = _temporary(existing)
    except OSError as err:
        return f"no file can be created in {existing} ({err.strerror or err})"
    os.close(fd)
    os.unlink(tmp)
    return None


def save(
    game: Game,
    path: str | os.PathLike[str],
    seats: Sequence[SeatRecord] | None = None,
    settings: Mapping[str, Any] | None = None,
) -> Path:
    """Write the record of ``game`` (with who sat where, if ``seats`` is given, and the
    ``settings`` a resumed game takes up, see :func:`red7.core.record.to_record``) to
    ``path`` atomically (never half-written), making the missing parent directories
    (:func:`unsaveable` says beforehand if it cannot)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _temporary(target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(dumps(game, seats, settings))
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def load(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a record file; unreadable or non-JSON files raise RecordError."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RecordError(N_("cannot read record {path!r}: {reason}"), path=str(path), reason=err) from None
    return parse(text, repr(str(path)))  # (the path alone: "record" would stay English)
