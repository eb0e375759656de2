"""Shared test settings: the two tiers (``--full``, see ``tiers.py``) and their
hypothesis profiles, the interface language, the real services (PostgreSQL, Redis)
some tests run against, and the browser of the browser tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

from red7.ui.i18n import set_language
from tests.support import local_services as services
from tests.support import tiers

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.support.browser_driver import People
    from tests.support.web_server import WebServer

# No deadline and no health check that times the test: a busy machine must not fail a
# correct test. The fast tier tries fewer examples of each property; the full tier,
# hypothesis's own default (and the release budgets of tiers.examples).
_UNTIMED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("fast", max_examples=20, **_UNTIMED)
settings.register_profile("full", max_examples=100, **_UNTIMED)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        help="the full tier: every test at its release size, services and browser included (make check)",
    )


def pytest_configure(config: pytest.Config) -> None:
    for marker, meaning in tiers.MARKERS.items():
        config.addinivalue_line("markers", f"{marker}: {meaning}")
    tiers.full = bool(config.getoption("--full"))
    settings.load_profile("full" if tiers.full else "fast")


def pytest_report_header(config: pytest.Config) -> str:
    return f"red7 test tier: {'full' if tiers.full else 'fast (pytest --full runs the full tier)'}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The fast tier leaves out the tests marked for the full tier only, unless a marker
    expression (``-m``) chooses the tests itself."""
    if tiers.full or config.getoption("markexpr"):
        return
    now: list[pytest.Item] = []
    later: list[pytest.Item] = []
    for item in items:
        (later if any(item.get_closest_marker(m) for m in tiers.MARKERS) else now).append(item)
    if later:
        config.hook.pytest_deselected(items=later)
        items[:] = now


@pytest.fixture(autouse=True)
def _english_between_tests() -> Iterator[None]:
    """The interface language is process-wide: every test starts and ends in English."""
    set_language("en")
    yield
    set_language("en")


@pytest.fixture(autouse=True)
def _data_dir_of_the_tests(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The user's data directory (records, games in progress: platformdirs follows
    XDG_DATA_HOME) is the tests' own, never the real one: a game a test leaves
    unfinished is saved there (a fresh directory for each test)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg")))


# Real services, for the tests that name them: started on first use, once per session (a
# fresh PostgreSQL cluster takes about a second), and stopped at its end. Never skipped
# when missing: a test that needs PostgreSQL fails, saying what to install (CI installs it,
# see .ci/run).


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


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium (Debian's, driven by Playwright: :func:`browser_driver.launched`), one per
    browser test module."""
    from tests.support.browser_driver import launched

    with launched() as running:
        yield running


@pytest.fixture
def people(browser: Browser, server: WebServer) -> Iterator[People]:
    """The people of one browser test, each a browser context on the module's ``server``
    fixture (a server per module, with that module's options); a JavaScript error on any
    of their pages fails the test."""
    from tests.support.browser_driver import People

    crowd = People(browser, server)
    yield crowd
    crowd.close()
    assert not crowd.errors, f"JavaScript errors: {crowd.errors}"
