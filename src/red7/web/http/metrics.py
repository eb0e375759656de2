"""What a server process counts, for Prometheus (``GET /metrics``; prometheus-client).

Each process has its own registry and counts only what it did: a Prometheus server
scrapes every process and sums them (``sum(rate(red7_decisions_total[1m]))``)."""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

ROUND_TRIP_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """The counters of one process."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.decisions = Counter(
            "red7_decisions",
            "Decisions written by this process, by people and by bots.",
            ["by"],
            registry=self.registry,
        )
        self.round_trip = Histogram(
            "red7_round_trip_seconds",
            "From a player's message arriving to the frames of its change sent to this process's clients.",
            buckets=ROUND_TRIP_BUCKETS,
            registry=self.registry,
        )
        self.conflicts = Counter(
            "red7_conflicts",
            "Changes refused because another process changed the table first.",
            registry=self.registry,
        )
        self.unsaved = Counter(
            "red7_unsaved_changes",
            "Changes refused because the database could not be reached (restarting, away): told to try again.",
            registry=self.registry,
        )
        self.heard = Counter(
            "red7_changes_heard",
            "Changes of tables by other processes, heard over the bus (Redis or PostgreSQL).",
            registry=self.registry,
        )
        self.rated = Counter(
            "red7_games_rated",
            "Games of rated tables whose ratings this process wrote (each game is rated by one process only).",
            registry=self.registry,
        )
        self.unrated = Counter(
            "red7_games_unrated",
            "Games of rated tables this process judged and left unrated, by reason (unplayed: fewer than two "
            "players finished a turn; repeated: two of its people were rated together too often that day).",
            ["reason"],
            registry=self.registry,
        )
        self.reviews = Counter(
            "red7_reviews_worked_out",
            "Reviews of finished games this process worked out (one another process kept is served, not worked out).",
            registry=self.registry,
        )
        self.clients = Gauge(
            "red7_connected_clients", "WebSocket clients connected to this process.", registry=self.registry
        )
        self.tables = Gauge("red7_open_tables", "Tables open or being played.", registry=self.registry)
        self.bus = Gauge(
            "red7_bus_connected",
            "1 while the bus to the other server processes (kind: redis, postgres, none) is connected; "
            "0 while this process serves without it, degraded (it finds changes by looking at the database).",
            ["kind"],
            registry=self.registry,
        )
        self.limits_shared = Gauge(
            "red7_limits_shared",
            "1 while each client's limits are counted in Redis for every process of the club; 0 while this "
            "process counts its own clients (no --redis-url, or Redis away: a client may then get N times its limits "
            "from N processes).",
            registry=self.registry,
        )
        self.refused = Counter(
            "red7_refused",
            "Requests and WebSockets refused to protect the server, by reason "
            "(host, origin, not-json, tables, open-tables, joins, sockets, logins, login-wait; "
            "a WebSocket message past a limit: its code).",
            ["reason"],
            registry=self.registry,
        )
        self.login_failures = Counter(
            "red7_login_failures",
            "Failed logins this process checked (a wrong password or an unknown name).",
            registry=self.registry,
        )
        self.login_floods = Counter(
            "red7_login_floods",
            "Floods of failed logins this process saw start (each told once, by one process): of one name from any "
            "addresses (kind=name), or from one address on any names (kind=address).",
            ["kind"],
            registry=self.registry,
        )

    def count_tables(self, count: Callable[[], int]) -> None:
        """Have the open-tables gauge ask ``count`` at each scrape."""
        self.tables.set_function(count)

    def watch_bus(self, kind: str, connected: Callable[[], bool]) -> None:
        """Have the bus gauge ask ``connected`` at each scrape."""
        self.bus.labels(kind=kind).set_function(lambda: float(connected()))

    def watch_limits(self, shared: Callable[[], bool]) -> None:
        """Have the shared-limits gauge ask ``shared`` at each scrape."""
        self.limits_shared.set_function(lambda: float(shared()))

    def exposition(self) -> bytes:
        """The text format Prometheus scrapes."""
        return bytes(generate_latest(self.registry))
