"""Benchmark scripts, each run as a module from the project's folder, e.g.
``python -m benchmarks.web_load --games 250 --seconds 60``: so the web benchmarks import
the tests' throwaway services (:mod:`tests.support.local_services`) by name, as the tests do."""
