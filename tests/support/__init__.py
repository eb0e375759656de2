"""What several test folders share: the tiers (:mod:`~tests.support.tiers`), drivers of the
terminal game, the web server and the browser, the golden playthroughs and recorded games,
the two engines in lock-step, and the throwaway PostgreSQL, Redis and nginx
(:mod:`~tests.support.local_services`) the tests and ``benchmarks/`` run on.

Imported by full name, e.g. ``from tests.support import tiers``. The scripts among them run
from the project's folder as modules: ``python -m tests.support.playthroughs --write``."""
