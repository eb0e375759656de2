"""Shared test settings: hypothesis profiles (CI runs the same number of examples)."""

from hypothesis import settings

settings.register_profile("default", deadline=None)
settings.load_profile("default")


import pytest  # noqa: E402

from red7.ui.i18n import set_language  # noqa: E402


@pytest.fixture(autouse=True)
def _english_between_tests() -> object:
    """The interface language is process-wide: every test starts and ends in English."""
    set_language("en")
    yield
    set_language("en")
