"""PostgreSQL restarted mid-game under two ``red7 serve`` processes sharing it and Redis
(issue 46, defects 9 and 10): people and bots play six tables spread over both
processes; PostgreSQL is stopped as an operator restarting it does (every session
ended: ``AdminShutdown``) for longer than a bot's turn may wait before the other process
takes it over, then started again.

What must hold: every table moves again once the database is back, nobody reconnecting
(waited on with a generous deadline; the longest stall of any table is measured and
printed); no WebSocket is closed by it: a decision or a rematch's answer sent while the
database is away is refused in words (``db-unavailable``), and the person sends it again;
no decision is lost or doubled (each person's decisions, as the frames accepted them,
against the stored games, every game replaying); and neither process's log has a
traceback, each saying the outage in one warning line.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from red7.web.storage.outage import Unavailable
from red7.web.storage.store import Store
from red7.web.storage.stored import replayed
from tests.support import local_services as services
from tests.support.web_live import Client, Frame, Game_, new_game, position
from tests.support.web_server import WebServer
from tests.web.test_web_store import CHANGES

pytestmark = pytest.mark.services

UNAVAILABLE = "db-unavailable"
"""The refusal of a change the server could not write: the database is away."""
DOWN = 12.0
"""Seconds PostgreSQL stays stopped: longer than a bot's turn may wait before another
process asks it (``red7.web.table.tables.TAKEOVER``), as in the issue's freeze."""
AGAIN = 0.5
"""Seconds a person waits before sending a refused message again."""
MOVES_AFTER = 8
"""Changes every table must make once the database is back."""


@dataclass
class Sent:
    """A person's message awaiting its answer."""

    message: dict[str, Any]
    game: int
    seq: int
    retry_at: float | None = None
    tries: int = 1


@dataclass
class Person:
    """A seat's connection, played by the test: its decisions accepted, game by game."""

    client: Client
    pending: Sent | None = None
    seen_errors: int = 0
    accepted: dict[int, list[str]] = field(default_factory=dict)
    refusals: list[str] = field(default_factory=list)
    unexpected: list[Frame] = field(default_factory=list)
    last_retried: bool = False


@dataclass
class Table_:
    game: Game_
    people: list[Person]
    moves: list[float] = field(default_factory=list)
    """When (``time.monotonic``) the table's position moved, as its clients saw it."""
    at: tuple[int, int] = (0, 0)


class Crowd:
    """The people of every table, played in one loop: each decides at random on its turn
    (a safe decision), agrees to play again after a game, and sends a message refused
    with :data:`UNAVAILABLE` again after :data:`AGAIN` seconds."""

    def __init__(self, tables: list[Table_], rng: random.Random) -> None:
        self.tables, self.rng = tables, rng

    def step(self, acting: bool) -> None:
        now = time.monotonic()
        for table in self.tables:
            for client in table.game.clients:
                try:
                    while client.recv(0.001) is not None:
                        pass
                except ConnectionClosed as closed:
                    raise AssertionError(f"a socket of table {table.game.id} was closed: {closed}") from None
            seen = [c.last for c in table.game.clients if c.last is not None]
            at = max((position(f) for f in seen), default=(0, 0))
            if at > table.at:
                table.at = at
                table.moves.append(now)
            for person in table.people:
                self._answered(person, now)
                if person.pending is not None:
                    if person.pending.retry_at is not None and now >= person.pending.retry_at:
                        person.pending.retry_at, person.pending.tries = None, person.pending.tries + 1
                        person.client.send(person.pending.message)
                elif acting:
                    self._act(person, table.at)

    @staticmethod
    def _answered(person: Person, now: float) -> None:
        """Take in the answers to ``person``'s message: a refusal (one told
        :data:`UNAVAILABLE` is sent again), or a frame showing it done."""
        client, sent = person.client, person.pending
        for error in client.errors[person.seen_errors :]:
            person.seen_errors += 1
            code = error.get("code")
            if sent is not None and code == UNAVAILABLE:
                person.refusals.append(code)
                sent.retry_at = now + AGAIN
            elif sent is None and code == "stale" and person.last_retried:
                # a change told unwritten that was written after all (its answer lost with the
                # connection): sent again, it was refused as stale after the frame showing it
                person.last_retried = False
            else:
                person.unexpected.append(error)
                person.pending = sent = None
        frame = client.last
        if sent is None or frame is None or sent.retry_at is not None:
            return
        done = frame["table"]["game"] > sent.game
        if sent.message["type"] == "decide":
            done = done or (frame["table"]["game"] == sent.game and frame["seq"] > sent.seq)
            if done:
                person.accepted.setdefault(sent.game, []).append(sent.message["action"])
        else:
            rematch = frame.get("rematch") or {}
            done = done or client.seat in rematch.get("agreed", [])
        if done:
            person.pending, person.last_retried = None, sent.tries > 1

    def _act(self, person: Person, at: tuple[int, int]) -> None:
        frame = person.client.last
        if frame is None or frame["game"] is None or position(frame) != at:
            return  # (this connection has not seen the newest change yet)
        game = frame["table"]["game"]
        if frame["game"]["over"]:
            rematch = frame.get("rematch") or {}
            if person.client.seat not in rematch.get("agreed", []):
                self._send(person, {"type": "again", "game": game}, game, frame["seq"])
            return
        options = frame["game"]["options"]
        if options:
            safe = [o["action"] for o in options if o["safe"] and o["kind"] != "concede"]
            action = self.rng.choice(safe) if safe else "concede"
            self._send(person, {"type": "decide", "seq": frame["seq"], "action": action}, game, frame["seq"])

    @staticmethod
    def _send(person: Person, message: dict[str, Any], game: int, seq: int) -> None:
        person.pending = Sent(message, game, seq)
        person.client.send(message)

    def quiet(self, table: Table_) -> bool:
        """Whether ``table`` waits for its people (nothing of theirs unanswered)."""
        if any(p.pending is not None for p in table.people):
            return False
        newest = [c.last for c in table.game.clients if c.last is not None and position(c.last) == table.at]
        return any(f["game"] is not None and (f["game"]["over"] or f["game"]["options"]) for f in newest)


def drive(crowd: Crowd, done: Any, timeout: float, what: str, acting: bool = True) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, what
        crowd.step(acting)


@pytest.fixture
def cluster(redis_url: str, tmp_path: Path) -> Iterator[tuple[services.Postgres, str, WebServer, WebServer]]:
    """A PostgreSQL cluster of this test's own (it restarts it), two server processes on
    it and the session's Redis."""
    with services.Postgres() as postgres:
        database = postgres.create_database()
        with (
            WebServer(tmp_path / "a", bot_delay=0.3, database_url=database, redis_url=redis_url) as a,
            WebServer(tmp_path / "b", bot_delay=0.3, database_url=database, redis_url=redis_url) as b,
        ):
            yield postgres, database, a, b


def test_a_postgresql_restart_mid_game_stalls_no_table_and_loses_nothing(
    cluster: tuple[services.Postgres, str, WebServer, WebServer],
) -> None:
    postgres, database, a, b = cluster
    # (players, people, where each seat connects: A or B; None: the spectator)
    layouts: list[tuple[int, int, dict[int | None, WebServer]]] = [
        (2, 2, {0: a, 1: b, None: a}),
        (2, 1, {0: a, None: b}),
        (3, 1, {0: b, None: a}),
        (4, 2, {0: a, 1: b, None: b}),
        (3, 1, {0: a, None: b}),
        (2, 1, {0: b, None: b}),
    ]
    tables: list[Table_] = []
    for players, people, where in layouts:
        game = new_game(where.__getitem__, players, False, True, people=people, level="easy")
        tables.append(Table_(game, [Person(c) for c in game.clients if c.seat is not None]))
    crowd = Crowd(tables, random.Random(46))
    drive(crowd, lambda: all(t.at >= (1, 4) for t in tables), 180, "the games did not start in time")

    # PostgreSQL restarted while the games go on
    timeline: dict[str, float] = {}

    def restart() -> None:
        timeline["down"] = time.monotonic()
        postgres.stop_server()
        time.sleep(DOWN)
        postgres.start_server()
        timeline["up"] = time.monotonic()

    restarting = threading.Thread(target=restart)
    restarting.start()
    try:
        drive(crowd, lambda: not restarting.is_alive(), 120, "PostgreSQL did not restart in time")
    finally:
        restarting.join()  # (a failing test's teardown stops the cluster: started again first)
    up = timeline["up"]

    def moved_again() -> bool:
        return all(sum(1 for t in table.moves if t > up) >= MOVES_AFTER for table in tables)

    try:
        drive(crowd, moved_again, 180, "a table did not move again once the database was back")
    finally:
        stalls = []  # (a table that never moved again stalls until now)
        for table in tables:
            times = [t for t in table.moves if t <= timeline["down"]][-1:] + [
                t for t in table.moves if t > timeline["down"]
            ]
            times.append(time.monotonic())
            stalls.append(max((later - earlier for earlier, later in zip(times, times[1:], strict=False)), default=0))
        print(
            f"\nPostgreSQL down {up - timeline['down']:.1f} s; each table's longest stall (s): "
            + ", ".join(f"{s:.1f}" for s in stalls)
            + f"; longest {max(stalls):.1f} s"
        )
    drive(crowd, lambda: all(crowd.quiet(t) for t in tables), 180, "the tables did not settle", acting=False)

    # no socket closed, nothing refused but for the database's absence
    for table in tables:
        for client in table.game.clients:
            assert client.ws.protocol.state is State.OPEN
        for person in table.people:
            assert person.unexpected == [], person.unexpected
    assert any(person.refusals for table in tables for person in table.people), "no change met the outage"
    # no decision lost or doubled: each person's, as the frames accepted them, are the stored ones
    store = Store(database)
    try:
        for table in tables:
            for number in range(1, table.at[0] + 1):
                stored = store.game(table.game.id, number)
                assert stored is not None
                replayed(stored)  # every decision legal where it stands
                for person in table.people:
                    mine = [action for seat, action in stored.decisions if seat == person.client.seat]
                    assert mine == person.accepted.get(number, []), (table.game.id, number, person.client.seat)
    finally:
        store.close()
    # the logs: no traceback; each process says the outage in one warning line, and its end
    # (were a call to go through between two failures, that would be two outages, each said so)
    for server in (a, b):
        log = server.log()
        assert "Traceback" not in log, log[-4000:]
        warnings = [line for line in log.splitlines() if re.search(r"\b(WARNING|ERROR|CRITICAL)\b", line)]
        assert warnings and all("the database is away" in line for line in warnings), warnings
        assert len(warnings) == log.count("the database is back after"), log[-4000:]


def test_the_store_writes_through_a_postgresql_restart_and_refuses_while_it_is_down(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The store alone: after each restart (every pooled connection ended) a change goes in,
    whichever way it is written (the one statement on an asynchronous connection, or a
    transaction in a thread), and the tables read back; while PostgreSQL is stopped a
    change and a read are :class:`Unavailable` (the asynchronous pool waiting
    ``WAIT`` seconds at most for a connection), and once it is back the next change goes
    in. One warning line in all."""

    async def run(postgres: services.Postgres, url: str) -> None:
        store = Store(url)
        store.upgrade()
        await store.open()
        try:
            saved = store.create_table("t1", 2, False, False, "en")
            for what, _appends, change in CHANGES[:5]:
                postgres.stop_server()
                postgres.start_server()
                written = await store.write(saved, change(saved))
                assert written is not None and written.version == saved.version + 1, what
                assert store.table("t1") == written, what
                saved = written
            postgres.stop_server()
            for _what, _appends, change in CHANGES[5:7]:  # (staged: one statement; taken back: a transaction)
                with pytest.raises(Unavailable):
                    await store.write(saved, change(saved))
            with pytest.raises(Unavailable):
                await store.run(store.table, "t1")
            postgres.start_server()
            assert await store.run(store.table, "t1") == saved  # nothing went in meanwhile
            for what, _appends, change in CHANGES[5:]:
                written = await store.write(saved, change(saved))
                assert written is not None and store.table("t1") == written, what
                saved = written
        finally:
            await store.aclose()
            store.close()

    with services.Postgres() as postgres, caplog.at_level(logging.INFO, logger="red7.web"):
        asyncio.run(run(postgres, postgres.create_database()))
    ours = [r for r in caplog.records if r.name.startswith("red7")]  # (the server's log holds psycopg's errors only)
    warnings = [r.getMessage() for r in ours if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "database is away" in warnings[0], warnings
    assert all(r.exc_info is None for r in ours)
