"""red7's test suite: the tests in folders by concern, and their shared machinery in
:mod:`tests.support`. A package, so that every module is imported by its full name
(``tests.web.test_web_tables``, ``tests.support.tiers``) from the project's folder, which
pytest puts on ``sys.path`` because ``pyproject.toml`` says so (``pythonpath``)."""
