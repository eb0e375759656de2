"""Playing tournament games as Ray tasks (``red7 tournament --backend ray``).

For tournaments that outgrow one machine. Needs the optional extra: ``pip install
'red7[ray]'``. With a cluster address (``--ray-address`` or the ``RAY_ADDRESS``
environment variable) the games run on that cluster, whose nodes must have red7
installed; otherwise a local Ray instance with ``jobs`` CPUs is started for the
tournament and shut down after it. Each unit of work is one call of
:func:`red7.analysis.tournament.play_chunk`, so results are the same as with local processes.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tournament import GameTask

INSTALL_HINT = "pip install 'red7[ray]'"


class RayUnavailable(RuntimeError):
    """Ray is not installed."""


def require_ray() -> None:
    """Raise :class:`RayUnavailable` (naming the extra to install) unless Ray imports."""
    try:
        import ray  # noqa: F401
    except ImportError:
        raise RayUnavailable(f"the Ray backend needs Ray: {INSTALL_HINT}") from None


def run_ray(
    chunks: Sequence[Sequence[GameTask]],
    jobs: int,
    address: str | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """Yield the records of each chunk of games as its Ray task finishes."""
    require_ray()
    import ray

    from .tournament import play_chunk

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
        pending = [remote.remote(list(chunk)) for chunk in chunks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
