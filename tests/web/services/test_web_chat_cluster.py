"""The chat across two ``red7 serve`` processes sharing one PostgreSQL database (and one
Redis, or PostgreSQL's LISTEN/NOTIFY): a line said through one process reaches the
table's people connected to the other, by the rule of who reads what, and a page
reconnecting through either gets the same history from the database."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from tests.support import local_services as services
from tests.support.web_live import post
from tests.support.web_server import WebServer

pytestmark = pytest.mark.services


@pytest.fixture(params=["redis", "postgres"])
def pair(
    request: pytest.FixtureRequest, postgres: services.Postgres, tmp_path: Path
) -> Iterator[tuple[WebServer, WebServer]]:
    """Two server processes on a fresh PostgreSQL database, talking through Redis or LISTEN/NOTIFY."""
    database = postgres.create_database()
    redis = {"redis_url": request.getfixturevalue("redis_url")} if request.param == "redis" else {}
    with (
        WebServer(tmp_path / "a", bot_delay=0, database_url=database, **redis) as a,
        WebServer(tmp_path / "b", bot_delay=0, database_url=database, **redis) as b,
    ):
        yield a, b


class Chatter:
    """A WebSocket that shows the chat (its hello says so, as the page's does)."""

    def __init__(self, server: WebServer, table: str, token: str | None) -> None:
        self.ws: ClientConnection = connect(
            f"ws://127.0.0.1:{server.port}/ws/{table}", proxy=None, open_timeout=60, legacy=True
        )
        self.ws.send(json.dumps({"type": "hello", "token": token, "chat": True}))
        self.lines: list[dict[str, Any]] = []
        self.history = self.next_chat()["lines"]

    def next_chat(self, timeout: float = 60) -> dict[str, Any]:
        """The next chat frame (table frames are passed over)."""
        while True:
            frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
            assert frame["type"] != "error", frame
            if frame["type"] == "chat":
                if not frame["history"]:
                    self.lines += frame["lines"]
                return frame

    def line(self) -> dict[str, Any]:
        frame = self.next_chat()
        assert not frame["history"] and len(frame["lines"]) == 1
        result: dict[str, Any] = frame["lines"][0]
        return result

    def say(self, text: str) -> None:
        self.ws.send(json.dumps({"type": "chat", "text": text}))

    def nothing_more(self) -> bool:
        """Whether no chat line comes within a second (after the lines awaited: a line
        that should not come would have come before the next one awaited)."""
        try:
            while True:
                frame = json.loads(self.ws.recv(timeout=1.0))
                if frame["type"] == "chat":
                    return False
        except TimeoutError:
            return True

    def close(self) -> None:
        self.ws.close()


def test_lines_said_through_one_process_reach_the_other(pair: tuple[WebServer, WebServer]) -> None:
    a, b = pair
    created = post(a, "/api/tables", {"players": 2, "name": "Ana", "spectator_chat": "separate"})
    table, ana_token = created["id"], created["token"]
    bia_token = post(b, f"/api/tables/{table}/seats/1", {"name": "Bia"})["token"]
    ana, watcher_a = Chatter(a, table, ana_token), Chatter(a, table, None)
    bia, watcher_b = Chatter(b, table, bia_token), Chatter(b, table, None)

    ana.say("hello from A")
    for chatter in (ana, watcher_a, bia, watcher_b):
        got = chatter.line()
        assert (got["seat"], got["name"], got["text"], got["channel"]) == (0, "Ana", "hello from A", "players")
        assert got["who"] == "g:ana"  # who said it (what a page mutes), told over the bus too
    watcher_b.say("spectator on B")
    for chatter in (watcher_b, watcher_a):
        assert chatter.line()["text"] == "spectator on B"
    bia.say("hi Ana, from B")
    for chatter in (ana, watcher_a, bia, watcher_b):
        assert chatter.line()["text"] == "hi Ana, from B"
    assert [x["text"] for x in ana.lines] == ["hello from A", "hi Ana, from B"]  # the spectator's never came
    assert [x["text"] for x in bia.lines] == ["hello from A", "hi Ana, from B"]
    assert ana.nothing_more() and bia.nothing_more()

    # a reconnection through either process gets the history from the database
    for server, token in ((a, bia_token), (b, ana_token)):
        again = Chatter(server, table, token)
        assert [x["text"] for x in again.history] == ["hello from A", "hi Ana, from B"]
        again.close()
    spectator = Chatter(a, table, None)
    assert [x["text"] for x in spectator.history] == ["hello from A", "spectator on B", "hi Ana, from B"]
    for chatter in (ana, watcher_a, bia, watcher_b, spectator):
        chatter.close()
