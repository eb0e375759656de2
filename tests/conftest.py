"""Shared test settings: hypothesis profiles (CI runs the same number of examples) and
the interface language."""

from collections.abc import Iterator

import pytest
from hypothesis import settings

from red7.ui.i18n import set_language

settings.register_profile("default", deadline=None)
settings.load_profile("default")


@pytest.fixture(autouse=True)
def _english_between_tests() -> Iterator[None]:
    """The interface language is process-wide: every test starts and ends in English."""
    set_language("en")
    yield
    set_language("en")
