"""Playing tournament games as Ray tasks (``red7 tournament --backend ray``).

For tournaments that outgrow one machine. Needs the optional extra: ``pip install
'red7[ray]'``. With a cluster address (``--ray-address`` or the ``RAY_ADDRESS``
environment variable) the games run on that cluster, whose nodes must have red7
installed; otherwise a local Ray instance with ``jobs`` CPUs is started for the
tournament and shut down after it. Each unit of work is one call of
:func:`red7.analysis.runner.play_chunk` on a chunk of :func:`red7.analysis.runner.chunked`,
so results are the same as with local processes. :func:`run_ray` is a
:data:`red7.analysis.runner.Backend` once its address is fixed
(``functools.partial(run_ray, address=...)``).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Sequence
from typing import Any

from ..core.model import N_, Explained
from .runner import GameRecord, GameTask, chunked, play_chunk

INSTALL_HINT = "pip install 'red7[ray]'"


class RayUnavailable(Explained, RuntimeError):
    """Ray is not installed (its sentence a template the interfaces translate)."""


def require_ray() -> None:
    """Raise :class:`RayUnavailable` (naming the extra to install) unless Ray imports."""
    try:
        import ray  # noqa: F401
    except ImportError:
        raise RayUnavailable(N_("the Ray backend needs Ray: {install}"), install=INSTALL_HINT) from None


def run_ray(tasks: Sequence[GameTask], jobs: int, address: str | None = None) -> Iterator[list[GameRecord]]:
    """Play the games as Ray tasks and yield the records of each chunk as it finishes.

    ``address``: a Ray cluster's, else ``$RAY_ADDRESS``, else a local instance started
    (with ``jobs`` CPUs) and shut down here. Raises RayUnavailable without Ray."""
    require_ray()
    import ray

    address = address or os.environ.get("RAY_ADDRESS") or None
    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
        else:
            ray.init(
                address="local",
                num_cpus=jobs,
                include_dashboard=False,
                logging_level=logging.WARNING,
                log_to_driver=False,
            )
        started = True
    pending: list[Any] = []
    try:
        remote = ray.remote(num_cpus=1)(play_chunk)
        pending = [remote.remote(chunk) for chunk in chunked(tasks, jobs)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
