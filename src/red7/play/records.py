"""Record files: where finished games are kept, and reading and writing them safely.

The record itself (what it holds, how it replays) is :mod:`red7.core.record`; this
module adds the files: written atomically (never half-written), read with a
:class:`~red7.core.record.RecordError` for anything that is not a record.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from ..core.game import Game
from ..core.record import RecordError, dumps, parse


def records_dir() -> Path:
    """Where finished games are saved: the user's data directory (XDG on Linux)."""
    from platformdirs import user_data_path

    return user_data_path("red7") / "records"


def save(game: Game, path: str | os.PathLike[str]) -> Path:
    """Write the record of ``game`` to ``path`` atomically (never half-written)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".record-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(dumps(game))
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
        raise RecordError(f"cannot read record {str(path)!r}: {err}") from None
    return parse(text, f"record {str(path)!r}")
