"""The web game's tests: the real services some of them run against (PostgreSQL, Redis),
started on first use, once per session (a fresh PostgreSQL cluster takes about a second),
and stopped at its end. Never skipped when missing: a test that needs PostgreSQL fails,
saying what to install (CI installs it, see .ci/run)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support import local_services as services


@pytest.fixture(scope="session")
def postgres() -> Iterator[services.Postgres]:
    """A PostgreSQL cluster of the session's own; a test wanting a database of its own
    calls ``postgres.create_database()``, which returns the database's SQLAlchemy URL."""
    if not services.Postgres.available():
        pytest.fail("PostgreSQL is not installed: run `apt-get install -y postgresql` (as root)")
    with services.Postgres() as server:
        yield server


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The URL of an empty Redis of the session's own, e.g. ``redis://127.0.0.1:43210/0``."""
    if not services.Redis.available():
        pytest.fail("redis-server is not installed: run `apt-get install -y redis-server` (as root)")
    with services.Redis() as server:
        yield server.url
