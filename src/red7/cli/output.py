"""An output directory written all at once or not at all (``--out DIR``).

:class:`StagedOutput` checks the target before any work is done (so an unwritable
``--out`` fails before the first game), collects the files in a temporary directory
next to the target, and moves them into place only by :meth:`StagedOutput.commit`.
Leaving the ``with`` block without committing removes everything it created.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from types import TracebackType

from ..ui.i18n import N_, _


class OutputError(Exception):
    """The output directory cannot be written (said in the language in use)."""


class StagedOutput:
    """Files for ``target`` staged in ``target``'s parent until :meth:`commit`.

    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> with StagedOutput(root / "out") as out:
    ...     _ = out.path("a.txt").write_text("hi")
    ...     _ = out.commit()
    >>> sorted(p.name for p in root.iterdir()), (root / "out" / "a.txt").read_text()
    (['out'], 'hi')
    """

    def __init__(self, target: str | os.PathLike[str]) -> None:
        self.target = Path(target).expanduser().absolute()
        self._created: list[Path] = []  # parent directories made here, deepest last
        self.staging = self._prepare()
        self.committed = False

    def _fail(self, what: Path, err: OSError | str) -> OutputError:
        """``err``: the sentence of what is wrong with ``what`` (``{path}`` in it), or the
        system's error (its text is the system's, in English)."""
        reason = _(err).format(path=what) if isinstance(err, str) else f"{what}: {err.strerror or err}"
        return OutputError(_("cannot write to {target}: {reason}").format(target=self.target, reason=reason))

    def _prepare(self) -> Path:
        target = self.target
        if target.exists() and not target.is_dir():
            raise self._fail(target, N_("{path} exists and is not a directory"))
        existing = target.parent
        while not existing.exists():
            existing = existing.parent
        if not existing.is_dir():
            raise self._fail(existing, N_("{path} is a file, not a directory"))
        missing = []
        p = target.parent
        while p != existing:
            missing.append(p)
            p = p.parent
        try:
            for d in reversed(missing):
                d.mkdir()
                self._created.append(d)
            staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent))
        except OSError as err:
            self._remove_created()
            raise self._fail(Path(err.filename or target.parent), err) from None
        if target.is_dir():  # the files will be moved in: check we may write there
            try:
                with tempfile.TemporaryFile(dir=target):
                    pass
            except OSError as err:
                shutil.rmtree(staging, ignore_errors=True)
                self._remove_created()
                raise self._fail(target, err) from None
        return staging

    def path(self, name: str) -> Path:
        """Where to write the file ``name`` for now."""
        return self.staging / name

    def commit(self) -> list[Path]:
        """Move every staged file into the target directory; returns their final paths."""
        names = sorted(p.name for p in self.staging.iterdir())
        if not self.target.exists():
            try:
                os.rename(self.staging, self.target)
            except OSError:
                self.target.mkdir(exist_ok=True)
        if self.staging.exists():
            for name in names:
                os.replace(self.staging / name, self.target / name)
            self.staging.rmdir()
        self.committed = True
        return [self.target / name for name in names]

    def discard(self) -> None:
        """Remove the staged files and any directory this object created."""
        shutil.rmtree(self.staging, ignore_errors=True)
        if not self.committed:
            self._remove_created()

    def _remove_created(self) -> None:
        for d in reversed(self._created):
            try:
                d.rmdir()
            except OSError:
                break
        self._created = []

    def __enter__(self) -> StagedOutput:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self.discard()
