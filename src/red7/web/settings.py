"""How a web server runs (:class:`Settings`): ``red7 serve``'s options, each declared once
on the field it sets (:mod:`red7.web.http.options`: its flag, environment variable, default,
meaning and check), and what tests give a server of their own (its clocks, seeds,
password cost, login throttle and rules, hello timeout and a search pool of threads:
settable from Python only).

``python -m red7.web.settings --markdown [FILE]`` prints the table of every option that
docs/deploying.md holds, or writes it into FILE between its two markers.
"""

from __future__ import annotations

import argparse
import ipaddress
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

from ..core.model import N_
from ..core.seeds import fresh_seed
from .accounts.login_limits import LoginRules
from .http.limits import Limits
from .http.options import Check, Kind, between, build, check, markdown_table, option, seconds_between
from .http.origins import parse_origin, split_host

if TYPE_CHECKING:
    from .accounts.throttle import ThrottleRules


def _address(text: str) -> bool:
    """Whether ``text`` is an address to listen on: an IP address, or ``localhost``."""
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return text == "localhost"
    return True


def _network(text: str) -> bool:
    """Whether ``text`` names trusted proxies: an IP address or network, or ``*`` (any)."""
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return text == "*"
    return True


def _throttle() -> ThrottleRules:
    # Imported here: the accounts need the web extra, and every red7 command reads the
    # options declared below to build its parsers (``red7 play`` runs without the extra).
    from .accounts.throttle import ThrottleRules

    return ThrottleRules()


LOG_FORMATS: Final = ("text", "json")


@dataclass
class Settings:
    """How a server runs. A value an option does not take is an
    :class:`~red7.web.http.options.OptionError` (a ``ValueError``) naming the option, however
    the settings are made."""

    listening: str = option(
        "host",
        "127.0.0.1",
        N_("the address to listen on: 127.0.0.1 for this machine only, 0.0.0.0 for all its addresses"),
        Kind.TEXT,
        Check(_address, N_("{option} must be an IP address (or localhost), not {value!r}")),
    )
    """(Every IP address is a host name it answers to when it is ``0.0.0.0``.)"""
    port: int = option("port", 8000, N_("the port"), Kind.WHOLE, between(1, 65535))
    database_url: str | None = option(
        "database-url",
        None,
        N_("a SQLAlchemy database URL, e.g. postgresql://red7@db/red7"),
        Kind.TEXT,
        words=N_("a SQLite file in the user's data directory"),
        metavar="URL",
    )
    redis_url: str | None = option(
        "redis-url",
        None,
        N_(
            "the Redis that several server processes sharing the database talk through and count each client's limits "
            "in, e.g. redis://127.0.0.1:6379/0"
        ),
        Kind.TEXT,
        words=N_("PostgreSQL's LISTEN/NOTIFY on a PostgreSQL database, else this process alone"),
        metavar="URL",
    )
    workers: int = option(
        "workers",
        2,
        N_("processes the bots think in, or 0: threads of the server's own process"),
        Kind.WHOLE,
        between(0, 64),
    )
    search_workers: int = option(
        "search-workers",
        0,
        N_(
            "processes that work out people's hints and reviews, apart from the threads that serve "
            "accounts, probes and the database; 0: one a core"
        ),
        Kind.WHOLE,
        between(0, 64),
    )
    """(:mod:`red7.web.reviews.pool`.)"""
    bot_delay: float = option(
        "bot-delay", 0.8, N_("least seconds a bot's move takes"), Kind.NUMBER, seconds_between(0, 10)
    )
    patience: float = option(
        "away",
        60.0,
        N_("seconds a player may be away on their turn before a bot plays for them"),
        Kind.NUMBER,
        Check(lambda s: s > 0, N_("{option} must be a positive number of seconds, not {value}")),
        metavar="SECONDS",
    )
    rate_look: float = option(
        "rate-look",
        30.0,
        N_(
            "seconds between two looks for finished rated games left unrated by a process that died: "
            "how long such a game may wait for its rating"
        ),
        Kind.NUMBER,
        seconds_between(1, 86400),
        metavar="SECONDS",
    )
    allowed_origins: tuple[str, ...] = option(
        "allow-origin",
        (),
        N_("another origin whose pages may use the server, e.g. https://red7.example.org"),
        Kind.LIST,
        Check(
            lambda text: parse_origin(text) is not None,
            N_("{option} must be an origin such as https://red7.example.org, not {value!r}"),
        ),
        words=N_("none but the server's own"),
        metavar="ORIGIN",
    )
    allowed_hosts: tuple[str, ...] = option(
        "allowed-host",
        (),
        N_(
            "a host name the server answers to, as people's browsers write it, e.g. red7.example.org, "
            "*.example.org for a domain's names, * to leave the check to a proxy"
        ),
        Kind.LIST,
        Check(
            lambda text: text == "*" or split_host(text.removeprefix("*.")) is not None,
            N_("{option} must be a host name such as red7.example.org, not {value!r}"),
        ),
        words=N_("the --host address and localhost"),
        metavar="HOST",
    )
    """(:class:`~red7.web.http.origins.Hosts`.)"""
    trusted_proxies: tuple[str, ...] = option(
        "trusted-proxy",
        ("127.0.0.1", "::1"),
        N_("the address of a reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are believed"),
        Kind.LIST,
        Check(_network, N_("{option} must be an IP address or network, not {value!r}")),
        metavar="ADDRESS",
    )
    limits: Limits = Limits()
    """What each client may take of the server, and when open tables expire."""
    access_log: bool = option(
        "access-log",
        False,
        N_("log every request: its method, address and status; a secret put in an address (a token...) is hidden"),
        Kind.SWITCH,
        words=N_("off"),
    )
    log_format: str = option(
        "log-format",
        "text",
        N_("text lines, or json: one JSON object a line, for a log collector"),
        Kind.TEXT,
        Check(LOG_FORMATS.__contains__, N_("{option} must be text or json, not {value!r}"), choices=LOG_FORMATS),
    )

    # What tests give a server of their own: no option sets these.
    clock: Callable[[], float] = time.monotonic
    """What the rate limits read the time from (tests give one they move themselves)."""
    hello_timeout: float = 10.0
    """Seconds a new WebSocket has to send its hello before it is closed."""
    seeds: Callable[[], int] = fresh_seed
    """Where each new game's seed comes from (tests give a stream of their own)."""
    wall: Callable[[], float] = time.time
    """The time the tables' clocks read, in seconds since the epoch: a turn's deadline
    is stored, so it outlives a restart and is the same in every process (tests give
    one they move themselves); login sessions and the waits of failed logins end by it too."""
    password_cost: tuple[int, int, int] = (3, 65536, 4)
    """argon2id's cost for the accounts' passwords: passes, memory (KiB), lanes
    (argon2-cffi's defaults, RFC 9106's second choice; tests give a cheap one)."""
    throttle: ThrottleRules = field(default_factory=_throttle)
    """How failed logins slow their address down, in every process."""
    login_rules: LoginRules = LoginRules()
    """How fast each client may try logins and registrations, in each process."""
    search_threads: bool = False
    """Whether the search pool's workers are threads of the server's own process (tests:
    they hold its work on an event, or replace the search, in their own process)."""

    def __post_init__(self) -> None:
        check(self)

    @classmethod
    def from_options(cls, given: Mapping[str, object], environ: Mapping[str, str]) -> Settings:
        """The settings ``red7 serve`` runs with: each option the command line's
        (``given``, by field name; None: not given), else its environment variable's, else
        its default. :class:`~red7.web.http.options.OptionError` for a value it does not take."""
        return build(cls, given, environ)


START: Final = (
    "<!-- The options of red7 serve: `python -m red7.web.settings --markdown docs/deploying.md` writes them. -->"
)
END: Final = "<!-- End of the options. -->"


def with_table(text: str) -> str:
    """``text`` (docs/deploying.md) with the table of every option between :data:`START`
    and :data:`END` made anew; ValueError if it has no such place."""
    before, start, rest = text.partition(START)
    _old, end, after = rest.partition(END)
    if not start or not end:
        raise ValueError(f"no place for the table of the options: {START} ... {END}")
    return f"{before}{START}\n\n{markdown_table(Settings)}\n{END}{after}"


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m red7.web.settings --markdown [FILE]``: print the table of every option,
    or write it into FILE (docs/deploying.md) between :data:`START` and :data:`END`."""
    parser = argparse.ArgumentParser(prog="python -m red7.web.settings", description="The options of red7 serve.")
    parser.add_argument(
        "--markdown", metavar="FILE", nargs="?", const="", required=True, help="print the table, or write it into FILE"
    )
    path = parser.parse_args(argv).markdown
    if path:
        Path(path).write_text(with_table(Path(path).read_text(encoding="utf-8")), encoding="utf-8")
    else:
        print(markdown_table(Settings), end="")


if __name__ == "__main__":
    main()
