"""The compiled core's C sources, and whether the module built from them is theirs.

``setup.py`` runs this file (it cannot import the package it is building) to hash the C
sources of this folder, and compiles the digest into the module (``_core.SOURCES``). On
import, :mod:`red7.native` hashes the sources it finds beside it again and refuses a
module built from other ones (:func:`refusal`): after ``defs.h`` is regenerated, or a C
file edited, the old module would otherwise run on against the new Python engine and
fail far from the cause.

Standard library only, and no import of the package.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Final

FOLDER: Final = Path(__file__).resolve().parent
"""The folder of the C sources (src/red7/native in a checkout)."""


def digest(folder: Path = FOLDER) -> str | None:
    """The SHA-256, in hex, of ``folder``'s C sources: every ``*.c`` and ``*.h``, by name,
    each as its name, its length and its bytes. None when the folder holds none (a package
    shipped without its C sources: there is nothing to compare its module with; red7's own
    wheel ships them beside the module built from them)."""
    files = sorted(p for p in folder.iterdir() if p.suffix in (".c", ".h") and p.is_file())
    if not files:
        return None
    sha = hashlib.sha256()
    for path in files:
        data = path.read_bytes()
        sha.update(f"{path.name}\0{len(data)}\0".encode())
        sha.update(data)
    return sha.hexdigest()


def refusal(built: str, module: str, folder: Path = FOLDER) -> str | None:
    """Why the compiled module (its file ``module``), built from sources of digest ``built``,
    may not run beside ``folder``'s sources (one sentence, with the command that rebuilds
    it), or None when they are its sources or there are none to compare."""
    now = digest(folder)
    if now is None or now == built:
        return None
    project = folder.parents[2]  # src/red7/native -> the project's folder, which holds setup.py
    if not (project / "setup.py").is_file():
        project = Path("<the project's folder>")
    return (
        f"red7's compiled core ({Path(module).name}) was built from other sources than the ones in {folder} now: "
        f"rebuild it with `{sys.executable} -m pip install -e {project}` (`make test` and `make play` do it too), "
        "or set RED7_NATIVE=0 to run the Python engine alone"
    )
