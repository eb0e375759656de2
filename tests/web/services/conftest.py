"""Several ``red7 serve`` processes on PostgreSQL and Redis, nginx in front of them, and
the throwaway services themselves (every module here is marked ``services``). Left
uncollected by the fast tier, which does not install the clients of PostgreSQL and Redis
nor Playwright (see :func:`tests.support.tiers.leaves_out_the_full_tiers_tests`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import tiers


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    return True if tiers.leaves_out_the_full_tiers_tests(config) else None
