"""Settings every test folder shares: the two tiers (``--full``, see
:mod:`tests.support.tiers`) and their hypothesis profiles, the interface language and the
user's data directory. What only one folder needs is in that folder's ``conftest.py``
(the PostgreSQL and Redis of the web tests in ``tests/web``, the browser in
``tests/web/browser``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

import red7.native  # noqa: F401  a compiled core built from other sources stops the session here, saying how to rebuild
from red7.ui.i18n import set_language
from tests.support import tiers

# tests/support holds no test, and no doctest for --doctest-modules to import it for: its
# browser_driver imports Playwright, which only the full tier installs.
collect_ignore = ["support"]

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
    if not tiers.leaves_out_the_full_tiers_tests(config):
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
