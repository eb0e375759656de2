"""Shared test settings: hypothesis profiles (CI runs the same number of examples)."""

from hypothesis import settings

settings.register_profile("default", deadline=None)
settings.load_profile("default")
