"""The web game in Debian's Chromium (every module here is marked ``browser``): the
browser and the people of a test. Left uncollected by the fast tier, which does not
install Playwright (see :func:`tests.support.tiers.leaves_out_the_full_tiers_tests`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support import tiers

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.support.browser_driver import People
    from tests.support.web_server import WebServer


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    return True if tiers.leaves_out_the_full_tiers_tests(config) else None


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium (Debian's, driven by Playwright: :func:`tests.support.browser_driver.launched`),
    one per browser test module."""
    from tests.support.browser_driver import launched

    with launched() as running:
        yield running


@pytest.fixture
def people(browser: Browser, server: WebServer) -> Iterator[People]:
    """The people of one browser test, each a browser context on the module's ``server``
    fixture (a server per module, with that module's options); a JavaScript error or a
    Content-Security-Policy violation on any of their pages fails the test."""
    from tests.support.browser_driver import People

    crowd = People(browser, server)
    yield crowd
    crowd.close()
    assert not crowd.errors, f"JavaScript errors: {crowd.errors}"
    assert not crowd.violations, f"Content-Security-Policy violations: {crowd.violations}"
