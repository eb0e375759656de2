"""red7's compiled hot paths, and whether they are in use.

The package's own build compiles ``_core.c`` (C11 against the CPython API: only a C
compiler is needed, see ``setup.py``). Where it could not be built (no compiler) the
build goes on without it and every caller uses the pure-Python reference instead,
only slower; :func:`available` says which is in use, and ``RED7_NATIVE=0`` in the
environment turns the compiled code off (for comparisons and tests).

What is compiled so far (each with its Python twin, compared in ``tests/test_native.py``):

* the rules' keys (:mod:`red7.core.rules`);
* the exact solver's turn plans and search (:mod:`red7.solver.exact`), which the
  ``hard`` and ``expert`` levels, ``red7 analyse`` and the reviews run, and the αμ
  search over sampled worlds of ``pimc:depth=M`` (:mod:`red7.solver.alpha_mu`);
* the engine (``Engine``: :mod:`red7.core.compiled` is its bridge to
  :class:`~red7.core.game.Game`), with the random games of ``red7 sim`` and ``red7 bench``
  (:mod:`red7.analysis.sim`).
"""

from __future__ import annotations

import os
from types import ModuleType

core: ModuleType | None
"""The compiled module, or None when the pure-Python code is in use."""
why_not: str | None
"""Why the compiled module is not in use (None when it is)."""

core = None
why_not = "turned off by RED7_NATIVE=0"
if os.environ.get("RED7_NATIVE", "1") != "0":
    try:
        from . import _core
    except ImportError as err:  # built without a compiler: the reference code runs
        why_not = f"not built ({err})"
    else:
        core, why_not = _core, None


def available() -> bool:
    """Is the compiled code in use (else the pure-Python reference is)?"""
    return core is not None
