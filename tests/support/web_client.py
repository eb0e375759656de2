"""Helpers for the web server's tests (``tests.support.web_client``): an app on a temporary
SQLite file, tables made over the REST
lobby (with a TestClient, or any httpx client of a real server), and :class:`Conn`, a
WebSocket client of FastAPI's TestClient that can wait for a frame with a timeout (the
TestClient's own ``receive`` blocks for ever), so one test thread can play several
seats at once. Every frame a :class:`Conn` receives, and every answer of the lobby's
helpers, is validated strictly against its model of the protocol (:mod:`red7.web.protocol`):
a frame that does not fails the test that received it.

Everything goes through HTTP and the WebSocket protocol; the only server-side object a
test reaches is the game's truth (``tables_of(app)``), and only to check frames
against it.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import anyio
import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient

from red7.web.http.limits import UNLIMITED
from red7.web.http.wire import Done
from red7.web.protocol import SERVER_FRAME, read
from red7.web.server import Settings, create_app
from red7.web.storage.bus import Bus
from red7.web.table.frames import Created, Seated
from red7.web.table.tables import Tables
from tests.support.web_live import read_frame

Frame = dict[str, Any]


class Clock:
    """The time a server's rate limits read (``Settings.clock``): ``time.monotonic``'s,
    until a test stops it; then it moves only when the test moves it, so that what the
    limits allow does not depend on how fast a busy machine runs the test. With ``base``
    ``time.time``, the time the tables' clocks read (``Settings.wall``)."""

    def __init__(self, base: Callable[[], float] = time.monotonic) -> None:
        self._base = base
        self._offset = 0.0
        self._stopped: float | None = None

    def __call__(self) -> float:
        return self._stopped if self._stopped is not None else self._base() + self._offset

    def stop(self) -> None:
        self._stopped = self()

    def advance(self, seconds: float) -> None:
        assert self._stopped is not None, "stop the clock first"
        self._stopped += seconds

    def run(self) -> None:
        """Run on from where it stands."""
        if self._stopped is not None:
            self._offset, self._stopped = self._stopped - self._base(), None


HEAD = "0019"
"""The newest migration of the server's database (tests that upgrade one check they reach it)."""


class SilentBus(Bus):
    """A bus of several processes, none of which says anything: what another process did
    is found in the database (in-process tests of :class:`~red7.web.table.tables.Tables`)."""

    @property
    def shared(self) -> bool:
        return True


def tables_of(app: Any) -> Tables:
    """The tables of a running ``app`` (the game's truth a test may check frames against)."""
    found: Tables = app.state.parts.get(Tables)
    return found


def make_app(folder: Path, **settings: Any) -> FastAPI:
    """An app on a fresh SQLite file in ``folder``: bots and the search pool (hints,
    reviews) in threads, no bot delay, a patience long enough that no substitute bot plays
    during a test, answering to the TestClient's host name (``testserver``), no limit on
    the tables and sockets of its one client (the limits have tests of their own:
    tests/web/test_web_edges.py)."""
    options: dict[str, Any] = {
        "workers": 0,
        "search_threads": True,
        "bot_delay": 0,
        "patience": 3600.0,
        "allowed_hosts": ("testserver",),
        "limits": UNLIMITED,
        **settings,
    }
    return create_app(Settings(database_url=f"sqlite:///{folder}/db.sqlite3", **options))


def new_table(
    client: httpx.Client,
    players: int = 2,
    advanced: bool = False,
    actions: bool = False,
    lang: str = "en",
    name: str = "Ana",
    clock: int = 0,
) -> tuple[str, str]:
    """A new table (its creator in seat 0): its id and the creator's token (``clock``:
    seconds per turn, 0: none, as the lobby's default)."""
    settings = {"players": players, "advanced": advanced, "actions": actions, "lang": lang, "name": name}
    if clock:
        settings["clock"] = clock
    r = client.post("/api/tables", json=settings)
    assert r.status_code == 200, r.text
    created = read(Created, r.text)  # the protocol's answer, exactly
    return created["id"], created["token"]


def join(client: httpx.Client, table_id: str, seat: int, name: str) -> str:
    r = client.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": name})
    assert r.status_code == 200, r.text
    return read(Seated, r.text)["token"]


def add_bot(client: httpx.Client, table_id: str, token: str, seat: int, level: str = "easy") -> None:
    r = client.post(f"/api/tables/{table_id}/bots", json={"token": token, "seat": seat, "level": level})
    assert r.status_code == 200, r.text
    read(Done, r.text)


def start(client: httpx.Client, table_id: str, token: str) -> None:
    r = client.post(f"/api/tables/{table_id}/start", json={"token": token})
    assert r.status_code == 200, r.text
    read(Done, r.text)


async def _receive_within(session: Any, seconds: float) -> dict[str, Any] | None:
    with anyio.move_on_after(seconds):
        message: dict[str, Any] = await session._send_rx.receive()
        return message
    return None


def _receive_now(session: Any) -> dict[str, Any] | None:
    try:
        message: dict[str, Any] = session._send_rx.receive_nowait()
    except anyio.WouldBlock:
        return None
    return message


def hello(token: str | None = None, **more: Any) -> str:
    """The first message of a WebSocket: who it is (``token``; None: a spectator)."""
    return json.dumps({"type": "hello", "token": token, **more})


class Conn:
    """One open WebSocket of a TestClient: every text it received (``raw``, in order),
    the last table frame, and receiving with a timeout (``recv``) or not at all
    (``poll``). ``seat`` is the seat the token opens (None: a spectator). The socket
    says its hello (the token) as it opens, unless ``greet`` is false."""

    def __init__(
        self,
        client: TestClient,
        table_id: str,
        token: str | None = None,
        seat: int | None = None,
        *,
        greet: bool = True,
        headers: dict[str, str] | None = None,
    ) -> None:
        self._context = client.websocket_connect(f"/ws/{table_id}", headers=dict(headers or {}))
        self.session = self._context.__enter__()
        if greet:
            self.session.send_text(hello(token))
        self.seat = seat
        self.raw: list[str] = []
        self.frames: list[Frame] = []
        """Every frame, as a page reads it (:func:`web_live.read_frame`: the whole log)."""
        self.log: list[str] = []
        self.errors: list[Frame] = []
        self.closed: int | None = None
        self.last: Frame | None = None
        self._open = True

    def close(self) -> None:
        """Close the socket (if the server has not) and end its session."""
        if self._open:
            self._open = False
            self._context.__exit__(None, None, None)
            self.closed = self.closed or 1000

    def __enter__(self) -> Conn:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _take(self, message: dict[str, Any] | None) -> Frame | None:
        if message is None:
            return None
        if message["type"] == "websocket.close":
            self.closed = message.get("code", 1000)
            return {"type": "closed", "code": self.closed}
        text = message["text"]
        SERVER_FRAME.validate_json(text, strict=True)  # every frame a test receives is the protocol's
        self.raw.append(text)
        frame, self.log = read_frame(text, self.log)
        self.frames.append(frame)
        if frame["type"] == "table":
            self.last = frame
        elif frame["type"] == "error":
            self.errors.append(frame)
        return frame

    def recv(self, timeout: float = 60.0) -> Frame:
        """The next frame (``{"type": "closed"}`` once the server closed the socket);
        AssertionError if none comes within ``timeout`` seconds."""
        assert self.closed is None, "the socket is closed"
        frame = self._take(self.session.portal.call(_receive_within, self.session, timeout))
        assert frame is not None, f"no frame within {timeout} s"
        return frame

    def poll(self) -> Frame | None:
        """The next frame if one is waiting, else None (never waits)."""
        if self.closed is not None:
            return None
        return self._take(self.session.portal.call(_receive_now, self.session))

    def drain(self, quiet: float = 0.05) -> list[Frame]:
        """Every frame that arrives until none has come for ``quiet`` seconds."""
        frames = []
        while self.closed is None:
            frame = self._take(self.session.portal.call(_receive_within, self.session, quiet))
            if frame is None:
                break
            frames.append(frame)
        return frames

    def until(self, predicate: Callable[[Frame], bool], timeout: float = 60.0) -> Frame:
        """Receive until a frame satisfies ``predicate``; that frame."""
        deadline = time.monotonic() + timeout
        while True:
            frame = self.recv(max(0.01, deadline - time.monotonic()))
            if predicate(frame):
                return frame

    def send(self, message: Any) -> None:
        self.session.send_text(message if isinstance(message, str) else json.dumps(message))

    def decide(self, action: str, seq: int | None = None) -> None:
        assert self.last is not None
        self.send({"type": "decide", "seq": self.last["seq"] if seq is None else seq, "action": action})

    def error(self, timeout: float = 60.0) -> Frame:
        """The next error frame (table frames before it are kept as usual)."""
        return self.until(lambda f: f["type"] in ("error", "closed"), timeout)


def my_turn(frame: Frame | None) -> bool:
    """Is this a table frame asking its receiver to decide?"""
    return bool(frame and frame["type"] == "table" and frame["game"] and frame["game"]["options"])


def careful(rng: random.Random) -> Callable[[Frame], str]:
    """A person who picks one of the safe decisions at random (never the concession
    unless nothing else is safe, R4.7)."""

    def choose(frame: Frame) -> str:
        options = frame["game"]["options"]
        safe = [o["action"] for o in options if o["safe"] and o["kind"] != "concede"]
        action: str = rng.choice(safe) if safe else "concede"
        return action

    return choose


def play_out(
    conns: Iterable[Conn],
    choose: Callable[[Frame], str],
    done: Callable[[Conn], bool] | None = None,
    timeout: float = 300.0,
    on_frame: Callable[[Conn, Frame], None] | None = None,
) -> int:
    """Play with every seat of ``conns`` (spectators just listen) until ``done`` holds for
    every connection (default: it saw the game over): each seat decides on the newest
    frame that asks it to, once per sequence number of its seat. The decisions made; an error frame
    fails the test."""
    conns = list(conns)
    done = done or (lambda c: bool(c.last and c.last["game"] and c.last["game"]["over"]))
    acted: set[tuple[int, int, int]] = set()
    decisions = 0
    deadline = time.monotonic() + timeout
    while not all(done(c) for c in conns):
        assert time.monotonic() < deadline, "the game did not finish in time"
        idle = True
        for conn in conns:
            while (frame := conn.poll()) is not None:
                idle = False
                assert frame["type"] != "error", f"seat {conn.seat}: refused {frame}"
                assert frame["type"] != "closed", f"seat {conn.seat}: closed {frame}"
                if on_frame is not None:
                    on_frame(conn, frame)
            newest = conn.last
            if conn.seat is None or not my_turn(newest) or done(conn):
                continue
            assert newest is not None
            key = (conn.seat, newest["table"]["game"], newest["seq"])  # a seq is its seat's own
            if key not in acted:
                acted.add(key)
                action = choose(newest)
                # choose may have taken in frames (a turn staged and taken back): decide on the newest
                newest = conn.last
                assert newest is not None
                acted.add((conn.seat, newest["table"]["game"], newest["seq"]))
                conn.send({"type": "decide", "seq": newest["seq"], "action": action})
                decisions += 1
        if idle:
            time.sleep(0.0005)
    return decisions
