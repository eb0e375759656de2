"""How a web server runs (:class:`Settings`): what ``red7 serve``'s options and
environment set, and what tests give a server of their own."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..core.seeds import fresh_seed
from .accounts.accounts import Lockout
from .accounts.login_limits import LoginRules
from .http.limits import Limits


@dataclass
class Settings:
    """How a server runs: its database (None: the SQLite file in the user's data
    directory), bot workers (0: threads in this process), the least seconds a bot's
    move takes, the seconds a person may be away on their turn before a bot plays for
    them, the origins whose pages may use it besides the server's own (e.g.
    ``https://red7.example.org``), and the Redis that several processes sharing the
    database talk through (None: PostgreSQL's LISTEN/NOTIFY on a PostgreSQL database,
    else this process alone)."""

    database_url: str | None = None
    workers: int = 2
    bot_delay: float = 0.8
    patience: float = 60.0
    allowed_origins: tuple[str, ...] = ()
    redis_url: str | None = None
    clock: Callable[[], float] = time.monotonic
    """What the rate limits read the time from (tests give one they move themselves)."""
    allowed_hosts: tuple[str, ...] = ()
    """The host names the server answers to besides ``localhost`` and ``listening``
    (:class:`~red7.web.http.origins.Hosts`)."""
    listening: str | None = "127.0.0.1"
    """The address the server listens on (``0.0.0.0``: every IP address is a host it answers to)."""
    limits: Limits = Limits()
    """What each client may take of the server, and when open tables expire."""
    hello_timeout: float = 10.0
    """Seconds a new WebSocket has to send its hello before it is closed."""
    seeds: Callable[[], int] = fresh_seed
    """Where each new game's seed comes from (tests give a stream of their own)."""
    wall: Callable[[], float] = time.time
    """The time the tables' clocks read, in seconds since the epoch: a turn's deadline
    is stored, so it outlives a restart and is the same in every process (tests give
    one they move themselves); login sessions and lockouts end by it too."""
    password_cost: tuple[int, int, int] = (3, 65536, 4)
    """argon2id's cost for the accounts' passwords: passes, memory (KiB), lanes
    (argon2-cffi's defaults, RFC 9106's second choice; tests give a cheap one)."""
    lockout: Lockout = Lockout()
    """When failed logins lock a username out, for every process."""
    login_rules: LoginRules = LoginRules()
    """What each client may try of logins and registrations, in each process."""
    rate_look: float = 30.0
    """Seconds between two looks of this process for finished games of rated tables
    left unrated (their rater died mid-rating): how long such a game may wait for its
    rating. Each look is one query; ``red7 serve --rate-look``."""
