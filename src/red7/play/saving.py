"""The files of a local game (the terminal and text games): what a session reports to
persist (:meth:`~red7.play.session.Session.to_save`), written.

A :class:`Saver` told where to ``autosave`` keeps the game in progress there: at every
:class:`~red7.play.session.Progress` (a decision that can no longer be taken back) the
record of the game so far, with its seats and settings, replaces the file; a failed
write is kept in :attr:`Saver.autosave_error` and tried again at the next progress,
and the game goes on. At :class:`~red7.play.session.Finished` the file goes (nothing is
left to resume) and the record is saved once: to ``save_to`` if given, else into the
directory ``records`` under :meth:`~red7.play.table.Table.record_name` (the command
line passes :func:`~red7.play.records.records_dir`), else nowhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .session import Finished, GameEnd, Progress, Session
from .table import Table

__all__ = ["Saved", "Saver"]


@dataclass(frozen=True)
class Saved:
    """Where a finished game's record went."""

    end: GameEnd
    record: Path | None = None
    """Where the record was saved, or was to be saved (None: the saver saves nowhere)."""
    error: OSError | None = None
    """Why writing the record failed (None: it did not fail)."""

    @property
    def saved(self) -> Path | None:
        """Where the record was saved; None if it was not."""
        return self.record if self.error is None else None


class Saver:
    """Writes what a local game's session reports (see the module docstring)."""

    def __init__(self, records: Path | None = None, save_to: Path | None = None, autosave: Path | None = None) -> None:
        self.records, self.save_to, self.autosave = records, save_to, autosave
        self.autosave_error: OSError | None = None
        self.finished: Saved | None = None
        """The record's fate once the game ended (None before)."""
        self._autosaved = 0  # how many decisions the autosave file holds

    def keep(self, session: Session) -> Saved | None:
        """Write what ``session`` reports to persist since last asked (call it after each
        :meth:`~red7.play.session.Session.next`); the record's fate when this call
        saved it (the game ended), else None."""
        saved = None
        for item in session.to_save():
            if isinstance(item, Progress):
                self._keep(session.table)
            elif isinstance(item, Finished):
                saved = self.finished = self._finish(session.table, item.end)
        return saved

    def _keep(self, table: Table) -> None:
        if self.autosave is None:
            return
        try:
            table.save_committed(self.autosave)
        except OSError as err:
            self.autosave_error = err
        else:
            self.autosave_error, self._autosaved = None, table.committed

    @property
    def autosaved(self) -> Path | None:
        """The file that holds the game in progress as of its last decision that cannot
        be taken back; None when there is none (no autosave, nothing decided yet, the
        last write failed, or the game is over)."""
        if self.autosave is None or self.finished is not None or self.autosave_error is not None:
            return None
        return self.autosave if self._autosaved else None

    def _finish(self, table: Table, end: GameEnd) -> Saved:
        if self.autosave is not None:  # the game is over: nothing is left to resume
            try:
                self.autosave.unlink(missing_ok=True)
            except OSError:
                pass  # a file that cannot be removed is left; resuming it says the game is over
        path = self.record_path(table)
        if path is None:
            return Saved(end)
        try:
            return Saved(end, table.save(path))
        except OSError as err:
            return Saved(end, path, err)

    def record_path(self, table: Table) -> Path | None:
        """Where the record of ``table``'s game will be saved at the end (None: nowhere)."""
        if self.save_to is not None:
            return self.save_to
        if self.records is not None:
            return self.records / table.record_name()
        return None
