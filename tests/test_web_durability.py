"""A server killed mid-game comes back exactly: ``red7 serve`` in a subprocess on a
temporary SQLite file plays three games partway over WebSockets, is killed with SIGKILL
(no shutdown code runs), and is started again on the same file; every seat's token opens
the same seat, every table shows the same frame as before the kill (but for who is
connected), and the games are played on to their end without a single refusal.

A person's staged decisions are not written until their turn ends (they may still take
them back): a server killed mid-turn brings that person back to the start of the turn.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from red7.core.game import Game
from red7.core.model import Config
from red7.web.service import Tables
from red7.web.store import Store
from web_server import WebServer

Frame = dict[str, Any]
PACE = 0.06
"""Seconds between two messages of one client (the server allows 20 a second)."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[WebServer]:
    with WebServer(tmp_path, bot_delay=0) as server:
        yield server


def post(server: WebServer, path: str, body: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(f"{server.url}{path}", json=body, timeout=10, trust_env=False)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


@dataclass
class Client:
    """One WebSocket of a seat (None: a spectator) of a real server."""

    server: WebServer
    table: str
    token: str | None
    seat: int | None
    ws: ClientConnection = field(init=False)
    last: Frame | None = None
    errors: list[Frame] = field(default_factory=list)
    sent: float = 0.0

    def __post_init__(self) -> None:
        query = f"?token={self.token}" if self.token else ""
        self.ws = connect(
            f"ws://127.0.0.1:{self.server.port}/ws/{self.table}{query}", proxy=None, open_timeout=10, legacy=True
        )

    def recv(self, timeout: float | None) -> Frame | None:
        try:
            frame: Frame = json.loads(self.ws.recv(timeout=timeout))
        except TimeoutError:
            return None
        if frame["type"] == "table":
            self.last = frame
        else:
            self.errors.append(frame)
        return frame

    def first(self) -> Frame:
        """The first frame (a client gets the table's frame as it connects)."""
        frame = self.recv(10)
        assert frame is not None and frame["type"] == "table", frame
        return frame

    def send(self, message: dict[str, Any]) -> None:
        time.sleep(max(0.0, self.sent + PACE - time.monotonic()))
        self.ws.send(json.dumps(message))
        self.sent = time.monotonic()

    def close(self) -> None:
        self.ws.close()


def position(frame: Frame) -> tuple[int, int]:
    """Where a frame is: the game's number at the table, and its seq."""
    return frame["table"]["game"], frame["seq"]


def newest(clients: list[Client]) -> Frame:
    return max((c.last for c in clients if c.last), key=position)


def waiting_for(clients: list[Client]) -> Client | None:
    """The client whose seat is asked to decide (by its newest frame), if any."""
    for c in clients:
        if c.last and c.last["game"] and c.last["game"]["options"] and position(c.last) == position(newest(clients)):
            return c
    return None


def play(clients: list[Client], rng: random.Random, until: int | None = None, timeout: float = 60) -> None:
    """Play the seats of ``clients`` (safe decisions at random) until the game is over,
    or, with ``until``, until at least that many decisions were made and a person of
    ``clients`` is to start a turn (nothing staged). No error frame may come."""
    deadline = time.monotonic() + timeout
    acted: set[tuple[int, int]] = set()
    while True:
        assert time.monotonic() < deadline, "the game did not get there in time"
        for c in clients:
            while c.recv(0.002) is not None:
                pass
            assert c.errors == [], c.errors
        if newest(clients)["game"]["over"]:
            return
        mover = waiting_for(clients)
        if mover is None or mover.last is None:
            continue
        frame = mover.last
        if until is not None and frame["seq"] >= until and frame["game"]["staged"] == []:
            return
        if position(frame) in acted:
            continue
        acted.add(position(frame))
        options = frame["game"]["options"]
        safe = [o["action"] for o in options if o["safe"] and o["kind"] != "concede"]
        mover.send({"type": "decide", "seq": frame["seq"], "action": rng.choice(safe) if safe else "concede"})


def settle(clients: list[Client]) -> None:
    """Take in every frame that is on its way."""
    for c in clients:
        while c.recv(0.2) is not None:
            pass


def comparable(frame: Frame) -> Frame:
    """A frame but for who is connected."""
    frame = json.loads(json.dumps(frame))
    for seat in frame["seats"]:
        del seat["online"]
    return frame


@dataclass
class Game_:
    """A table of the test: its id, the people's tokens, and its clients."""

    id: str
    tokens: dict[int, str]
    clients: list[Client] = field(default_factory=list)

    def connect(self, server: WebServer) -> None:
        self.clients = [Client(server, self.id, token, seat) for seat, token in self.tokens.items()]
        self.clients.append(Client(server, self.id, None, None))
        for c in self.clients:
            c.first()

    def close(self) -> None:
        for c in self.clients:
            c.close()


def new_game(server: WebServer, players: int, advanced: bool, actions: bool, people: int, level: str) -> Game_:
    created = post(server, "/api/tables", {"players": players, "advanced": advanced, "actions": actions, "name": "Ana"})
    table, tokens = created["id"], {0: created["token"]}
    for seat in range(1, players):
        if seat < people:
            tokens[seat] = post(server, f"/api/tables/{table}/seats/{seat}", {"name": f"P{seat}"})["token"]
        else:
            post(server, f"/api/tables/{table}/bots", {"token": tokens[0], "seat": seat, "level": level})
    game = Game_(table, tokens)
    game.connect(server)
    post(server, f"/api/tables/{table}/start", {"token": tokens[0]})
    return game


def test_a_killed_server_comes_back_where_every_game_was(server: WebServer) -> None:
    rng = random.Random(11)
    games = [
        new_game(server, 2, False, False, people=2, level="easy"),
        new_game(server, 3, True, True, people=1, level="medium"),
        new_game(server, 4, False, True, people=2, level="easy"),
    ]
    for game, decisions in zip(games, (4, 30, 10), strict=True):
        play(game.clients, rng, until=decisions)
        settle(game.clients)
    first = games[0]
    while (mover := waiting_for(first.clients)) is None:  # the game ended already (a concession): the next one
        assert newest(first.clients)["game"]["over"]
        first.clients[0].send({"type": "again"})
        settle(first.clients)
        play(first.clients, rng, until=2)
        settle(first.clients)
    before = {game.id: {c.seat: comparable(c.last) for c in game.clients if c.last} for game in games}
    # at the first table, the person to move stages a play: it is not written (a turn
    # may be taken back), so the restarted server has that turn start again
    assert mover.last is not None
    seq = mover.last["seq"]
    play_card = next(o["action"] for o in mover.last["game"]["options"] if o["kind"] == "play" and not o["ends_turn"])
    mover.send({"type": "decide", "seq": seq, "action": play_card})
    settle(first.clients)
    assert all(c.last is not None and c.last["seq"] == seq + 1 for c in first.clients)
    assert mover.last["game"]["staged"] == [play_card]

    server.kill()
    for game in games:
        game.close()
    server.start()

    for game in games:
        game.connect(server)
        after = {c.seat: comparable(c.last) for c in game.clients if c.last}
        assert after == before[game.id], f"table {game.id}"
    for game in games:
        play(game.clients, rng)
        settle(game.clients)
        for c in game.clients:
            assert c.errors == [] and c.last is not None and c.last["game"]["over"], c.last
        number = newest(game.clients)["table"]["game"]
        record = httpx.get(f"{server.url}/api/tables/{game.id}/games/{number}/record", trust_env=False).json()
        assert record["result"] is not None
        game.close()


def test_a_game_finished_just_before_a_crash_is_over_after_it(tmp_path: Path) -> None:
    """The last decision of a game and the game's result are two writes: a crash between
    them leaves a finished game with no result, which the restarted server completes."""
    store = Store(f"sqlite:///{tmp_path}/db.sqlite3")
    store.upgrade()
    config = Config(2)
    game = Game(config=config, seed=5)
    rng = random.Random(5)
    while not game.is_over:
        options = [o.action for o in game.options() if o.safe] or ["concede"]
        game.apply(rng.choice(options))
    store.create_table("t1", 2, False, False, "en")
    store.set_seat("t1", 0, "Ana", "0" * 64, None)
    store.set_seat("t1", 1, "", None, "easy")
    game_id = store.new_game("t1", 1, config.as_dict(), 5)
    store.add_decisions(game_id, 0, [(seat, str(action)) for seat, action in game.history])
    # the crash: finish_game never ran
    tables = Tables(store)
    tables.load()
    live = tables.live["t1"]
    assert live.table is not None and live.table.is_over
    assert live.status == "over"
    assert tables.record("t1", 1)["result"] == game.result.as_dict()  # type: ignore[union-attr]
    assert [t.id for t in tables.listed()] == []
    assert store.table("t1").status == "over"  # type: ignore[union-attr]
    store.close()
