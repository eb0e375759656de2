"""The two tiers of the test suite (``tests.support.tiers``).

* The **fast** tier, ``pytest`` alone (``make test``): every test module but those of
  ``tests/web/browser`` and ``tests/web/services`` (marked for the full tier, and not
  collected), each check at a size that finds a broken rule in seconds; nothing it needs
  is outside the ``test`` extra's Python packages.
* The **full** tier, ``pytest --full`` (``make check``, what CI runs): every test, each at
  its release size, and those that need what a fresh machine does not have.

A test that belongs to the full tier only carries one of the markers below. A check that
runs in both tiers at two sizes says so with :func:`size` (a number of games, seeds or
positions) or :func:`examples` (a hypothesis budget), or by marking its larger
parameters: ``pytest.param(..., marks=pytest.mark.slow)``.
"""

from __future__ import annotations

from typing import Final

import pytest

MARKERS: Final = {
    "slow": "a check at its release size (minutes of CPU): the full tier only",
    "services": "needs PostgreSQL, Redis or nginx (Debian packages, see .ci/run): the full tier only",
    "browser": "drives Debian's Chromium (see .ci/run): the full tier only",
}
"""The markers of the tests that run in the full tier only, and why."""

full = False
"""Whether this run is the full tier (set once, by ``conftest.py``, from ``--full``)."""


def leaves_out_the_full_tiers_tests(config: pytest.Config) -> bool:
    """Whether this run leaves out the tests carrying a marker of :data:`MARKERS`: the fast
    tier, unless a marker expression (``-m``) chooses the tests itself. Then the folders
    whose every test is marked (``tests/web/browser``, ``tests/web/services``) are not even
    collected, so the fast tier needs neither Playwright nor the clients of PostgreSQL and
    Redis (the ``test-full`` extra)."""
    return not full and not config.getoption("markexpr")


def size(fast: int, full_size: int) -> int:
    """How many games, seeds or positions a check covers in this run's tier."""
    return full_size if full else fast


def examples(release: int) -> int:
    """A hypothesis budget: ``release`` examples in the full tier; in the fast tier a
    tenth, but at least 10 (or ``release`` itself, if smaller)."""
    return release if full else max(min(release, 10), release // 10)
