"""Clients of a real ``red7 serve`` (tests/support/web_server.py) over HTTP and WebSockets, for the
tests of killed, restarted and several server processes (``tests.support.web_live``): a
seat's WebSocket, tables made over the REST
lobby, and careful people playing the seats of a table.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx
from websockets.sync.client import ClientConnection, connect


class Endpoint(Protocol):
    """Where a client goes: a server (:class:`web_server.WebServer`), or a reverse proxy in front of some."""

    @property
    def port(self) -> int: ...

    @property
    def url(self) -> str: ...


Frame = dict[str, Any]
PACE = 0.06
"""Seconds between two messages of one client (the server allows 20 a second)."""


def read_frame(text: str, log: list[str]) -> tuple[Frame, list[str]]:
    """A frame as a page reads it, and the move log it keeps after it: a table frame's
    ``log`` holds the lines after the first ``log_from`` ones of the log the client has
    (``log``); the frame returned has the whole log, as the page shows it."""
    frame: Frame = json.loads(text)
    if frame["type"] != "table":
        return frame, log
    game = frame["game"]
    if game is None:
        return frame, []
    assert game["log_from"] <= len(log), f"the frame keeps {game['log_from']} lines of {len(log)}"
    log = log[: game["log_from"]] + game["log"]
    game["log"] = log
    return frame, log


def post(server: Endpoint, path: str, body: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(f"{server.url}{path}", json=body, timeout=60, trust_env=False)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


@dataclass
class Client:
    """One WebSocket of a seat (None: a spectator) of a real server."""

    server: Endpoint
    table: str
    token: str | None
    seat: int | None
    ws: ClientConnection = field(init=False)
    last: Frame | None = None
    errors: list[Frame] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    """Every text the server sent, in order."""
    frames: list[Frame] = field(default_factory=list)
    """Every frame, in order, as a page reads it (:func:`read_frame`: the whole log)."""
    log: list[str] = field(default_factory=list)
    sent: float = 0.0
    invite: str | None = None
    """A private table's invitation, said in the hello (None: none said)."""

    def __post_init__(self) -> None:
        self.ws = connect(
            f"ws://127.0.0.1:{self.server.port}/ws/{self.table}", proxy=None, open_timeout=60, legacy=True
        )
        hello: dict[str, Any] = {"type": "hello", "token": self.token}  # who this is: never in the address
        if self.invite is not None:
            hello["invite"] = self.invite
        self.ws.send(json.dumps(hello))

    def recv(self, timeout: float | None) -> Frame | None:
        try:
            text = str(self.ws.recv(timeout=timeout))
        except TimeoutError:
            return None
        self.raw.append(text)
        frame, self.log = read_frame(text, self.log)
        self.frames.append(frame)
        if frame["type"] == "table":
            self.last = frame
        else:
            self.errors.append(frame)
        return frame

    def until(self, done: Callable[[Client], bool], timeout: float = 60) -> None:
        """Take in frames until ``done(self)`` (AssertionError after ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while not done(self):
            assert time.monotonic() < deadline, "the frame awaited did not come in time"
            self.recv(0.1)

    def first(self) -> Frame:
        """The first frame (a client gets the table's frame as it connects)."""
        frame = self.recv(60)
        assert frame is not None and frame["type"] == "table", frame
        return frame

    def send(self, message: dict[str, Any]) -> None:
        time.sleep(max(0.0, self.sent + PACE - time.monotonic()))
        self.ws.send(json.dumps(message))
        self.sent = time.monotonic()

    def close(self) -> None:
        self.ws.close()


def until(condition: Callable[[], bool], timeout: float = 60) -> None:
    """Wait for ``condition()`` to hold, looking again every 0.1 s (AssertionError after
    ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition awaited did not come in time"
        time.sleep(0.1)


def position(frame: Frame) -> tuple[int, int]:
    """Where a frame is, as every client of the table sees it: the game's number at the
    table, and its final decisions (a frame's seq is its receiver's alone: the mover's
    counts its staged and taken-back decisions too)."""
    return frame["table"]["game"], frame["game"]["final"] if frame["game"] else 0


def newest(clients: list[Client]) -> Frame:
    return max((c.last for c in clients if c.last), key=position)


def waiting_for(clients: list[Client]) -> Client | None:
    """The client whose seat is asked to decide (by its newest frame), if any."""
    for c in clients:
        if c.last and c.last["game"] and c.last["game"]["options"] and position(c.last) == position(newest(clients)):
            return c
    return None


def play(
    clients: list[Client],
    rng: random.Random,
    until: int | None = None,
    timeout: float = 600,
    choose: Callable[[Client, Frame], str | None] | None = None,
) -> None:
    """Play the seats of ``clients`` (safe decisions at random) until the game is over,
    or, with ``until``, until at least that many decisions were made and a person of
    ``clients`` is to start a turn (nothing staged). No error frame may come.
    ``choose(mover, frame)``: the decision of the mover's seat where it is not None."""
    deadline = time.monotonic() + timeout
    acted: set[tuple[int | None, int, int]] = set()
    while True:
        assert time.monotonic() < deadline, "the game did not get there in time"
        for c in clients:
            while c.recv(0.002) is not None:
                pass
            assert c.errors == [], c.errors
        game = newest(clients)["game"]
        if game is None:
            continue  # the game was started: its first frame is on its way
        if game["over"]:
            return
        mover = waiting_for(clients)
        if mover is None or mover.last is None:
            continue
        frame = mover.last
        if until is not None and frame["game"]["final"] >= until and frame["game"]["staged"] == []:
            return
        key = (mover.seat, frame["table"]["game"], frame["seq"])  # a seq is its seat's own (staged, taken back)
        if key in acted:
            continue
        acted.add(key)
        options = frame["game"]["options"]
        safe = [o["action"] for o in options if o["safe"] and o["kind"] != "concede"]
        chosen = None if choose is None else choose(mover, frame)
        action = chosen if chosen is not None else rng.choice(safe) if safe else "concede"
        mover.send({"type": "decide", "seq": frame["seq"], "action": action})


def settle(clients: list[Client], timeout: float = 120) -> None:
    """Take in frames until every client (of one table) has the newest frame any of them
    has, and none comes for a moment more. Where the game waits for a person, or is over,
    that is every frame on its way; where a bot is to move, its move may come later: wait
    for what it changes (:meth:`Client.until`) instead."""
    deadline = time.monotonic() + timeout
    while True:
        for c in clients:
            while c.recv(0.2) is not None:
                pass
        newest_position = position(newest(clients))
        if all(c.last is not None and position(c.last) == newest_position for c in clients):
            return
        assert time.monotonic() < deadline, "the clients did not all get the newest frame in time"


def comparable(frame: Frame) -> Frame:
    """A frame (as :func:`read_frame` gives it) but for who is connected, the words of
    the page's controls and how much of the log came before (what only a connection's
    first frame has whole)."""
    frame = json.loads(json.dumps(frame))
    frame.pop("ui", None)
    if frame["game"] is not None:
        del frame["game"]["log_from"]
    for seat in frame["seats"]:
        del seat["online"]
    if frame.get("clock") and frame["clock"]["kind"] == "away":
        frame["clock"] = None  # the patience with an absent person: who is connected, as "online"
    return frame


@dataclass
class Game_:
    """A table of the test: its id, the people's tokens, and its clients."""

    id: str
    tokens: dict[int, str]
    clients: list[Client] = field(default_factory=list)

    def connect(self, server: Endpoint | Callable[[int | None], Endpoint]) -> None:
        """A client for each person's seat and a spectator's, on ``server`` (or on the
        server ``server(seat)`` names, a spectator's seat being None)."""
        where = server if callable(server) else (lambda _seat: server)
        self.clients = [Client(where(seat), self.id, token, seat) for seat, token in self.tokens.items()]
        self.clients.append(Client(where(None), self.id, None, None))
        for c in self.clients:
            c.first()

    def close(self) -> None:
        for c in self.clients:
            c.close()


Where = Endpoint | Callable[[int | None], Endpoint]
"""A server, or which server each seat (None: a spectator) goes through."""


def new_game(server: Where, players: int, advanced: bool, actions: bool, people: int, level: str) -> Game_:
    """A started table: seats 0 to ``people`` - 1 are people (Ana, P1, ...), each taking
    the seat through its own server, the others bots of ``level``; every person and a
    spectator connected, and the host starts the game through the last person's server."""
    where = server if callable(server) else (lambda _seat: server)
    settings = {"players": players, "advanced": advanced, "actions": actions, "name": "Ana"}
    created = post(where(0), "/api/tables", settings)
    table, tokens = created["id"], {0: created["token"]}
    for seat in range(1, players):
        if seat < people:
            tokens[seat] = post(where(seat), f"/api/tables/{table}/seats/{seat}", {"name": f"P{seat}"})["token"]
        else:
            post(where(0), f"/api/tables/{table}/bots", {"token": tokens[0], "seat": seat, "level": level})
    game = Game_(table, tokens)
    game.connect(where)
    post(where(max(tokens)), f"/api/tables/{table}/start", {"token": tokens[0]})
    return game
