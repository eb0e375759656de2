"""red7's compiled hot paths, and whether they are in use.

The package's own build compiles ``_core.c`` and the C files beside it (C11 against the
CPython API: only a C compiler is needed, see ``setup.py``); ``defs.h``, the constants and
the position's fields they share with the Python engine, is generated from it
(:mod:`red7.core.native_defs`). Where it could not be built (no compiler) the
build goes on without it and every caller uses the pure-Python reference instead,
only slower; :func:`available` says which is in use, and ``RED7_NATIVE=0`` in the
environment turns the compiled code off (for comparisons and tests).

What is compiled so far (each with its Python twin, compared in ``tests/native/test_native.py``):

* the rules' keys (:mod:`red7.core.rules`);
* the exact solver's turn plans and search (:mod:`red7.solver.exact`), which the
  ``hard`` level, ``red7 analyse`` and the reviews run;
* the engine (``Engine``: :mod:`red7.core.compiled` is its bridge to
  :class:`~red7.core.game.Game`), with the random games of ``red7 sim`` and ``red7 bench``
  (:mod:`red7.analysis.sim`).

Every entry point of the compiled module checks what it is given and answers a bad call
with a ``ValueError`` that says what is wrong (``tests/native/test_native_boundary.py``, and the
fuzz of ``tests/native/test_native_fuzz.py``, which ``make sanitize`` runs under AddressSanitizer
and UndefinedBehaviorSanitizer). ``_core.pyi`` declares its types; ``make lint`` checks it
against the built module.

A module built from other sources than the ones beside it is refused: importing this package
(the bots, the solver and :mod:`red7.core.compiled` do; the tests' ``conftest.py`` first) raises
:class:`StaleBuildError`, whose one sentence says how to rebuild it (:mod:`.sources`: the
module carries its sources' digest, ``SOURCES``). Refused rather than replaced by the Python
engine with a warning, because a stale module is a mistake to mend, not a machine without a
compiler: a fallback would quietly skip the tests that compare the two engines and make ``hard``
another bot, behind a warning easily missed; and a stale module that ran would fail far from its
cause (an old ``defs.h`` answered "decision 11: the game is over"). ``RED7_NATIVE=0``
still runs the Python engine on purpose. An installed wheel holds the module with the sources it
was built from (the package's build copies them beside it), so they agree; a package shipped
without its C sources has nothing to compare, and its module runs.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import TYPE_CHECKING

from . import sources

TURNED_OFF = "turned off by RED7_NATIVE=0"
""":data:`why_not` when the environment turned the compiled code off."""


class StaleBuildError(ImportError):
    """The compiled module was built from other sources than the ones beside it: the
    message says how to rebuild it."""


def _load() -> tuple[ModuleType | None, str | None]:
    if os.environ.get("RED7_NATIVE", "1") == "0":
        return None, TURNED_OFF
    try:
        from . import _core
    except ImportError as err:  # built without a compiler: the reference code runs
        return None, f"not built ({err})"
    if stale := sources.refusal(_core.SOURCES, _core.__file__ or "_core"):
        raise StaleBuildError(stale)
    return _core, None


if TYPE_CHECKING:
    # mypy reads ``core`` as the module its stub (_core.pyi) declares, so that every call
    # into it is checked against the stub; at run time it may be None, as said below.
    from . import _core as core
else:
    core, why_not = _load()
    """core: the compiled module, or None when the pure-Python code is in use; why_not:
    why it is not in use (None when it is)."""

why_not: str | None


def available() -> bool:
    """Is the compiled code in use (else the pure-Python reference is)?"""
    return core is not None
