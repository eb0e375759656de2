"""Which chapters of the guided first game a person finished, kept between runs.

The terminal front ends keep it in a small JSON file in the user's data directory
(:func:`progress_path`); the web page keeps the same list in the browser's
``localStorage``. A file that cannot be read counts as no progress: a lesson is never
lost to a broken file, only its bookmark.
"""

from __future__ import annotations

import json
from pathlib import Path

from .chapters import CHAPTERS


def progress_path() -> Path:
    """Where the terminal keeps the progress: ``tutorial.json`` in the user's data directory."""
    from platformdirs import user_data_path

    return user_data_path("red7") / "tutorial.json"


class TutorialProgress:
    """The chapters done (by key), read from and written to ``path`` (None: kept in memory only)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.done: set[str] = set()
        if path is not None:
            try:
                keys = json.loads(path.read_text(encoding="utf-8")).get("done", [])
                self.done = {k for k in keys if isinstance(k, str)}
            except (OSError, ValueError, AttributeError):
                self.done = set()

    def next_index(self) -> int:
        """The first chapter not done (its index; ``len(CHAPTERS)`` when all are)."""
        return next((i for i, c in enumerate(CHAPTERS) if c.key not in self.done), len(CHAPTERS))

    def finish(self, key: str) -> None:
        """Chapter ``key`` is done: kept at once."""
        self.done.add(key)
        self._write()

    def restart(self) -> None:
        """Forget every chapter done: the tutorial starts again from the first."""
        self.done.clear()
        self._write()

    def _write(self) -> None:
        if self.path is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            keys = [c.key for c in CHAPTERS if c.key in self.done]
            self.path.write_text(json.dumps({"done": keys}) + "\n", encoding="utf-8")
        except OSError:
            pass  # the progress is a bookmark: the lesson goes on without it
