"""A table's frames are made once per view and change, and sent only when changed
(red7.web.table.cache.FrameCache through the Hub): counted, without a server."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from red7.core.model import Config
from red7.play.session import Session
from red7.play.table import Seat, Table
from red7.web.table import cache as frames_module
from red7.web.table.live import LiveTable, SeatState
from red7.web.table.presence import Client, Hub
from red7.web.table.views import table_frame

NAMES = ("Ana", "Bia", "Caio", "Davi")


def playing_table() -> LiveTable:
    config = Config(4)
    seats = [SeatState(name=n, token_hash=f"h{n}") for n in NAMES]
    session = Session(Table([Seat(n) for n in NAMES], config, seed=11))
    return LiveTable("t1", "en", config, seats, "playing", session=session)


class Counted:
    """Every view made and every text encoded by the frame cache, and every text sent."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.built: list[int | None] = []
        self.encoded = 0
        self.sent: dict[str, list[str]] = {}
        real_frame, real_encode = frames_module.table_frame, frames_module.encode

        def frame(live: LiveTable, seat: int | None, **kwargs: Any) -> dict[str, Any]:
            self.built.append(seat)
            return real_frame(live, seat, **kwargs)

        def encode(frame: dict[str, Any]) -> str:
            self.encoded += 1
            return real_encode(frame)

        monkeypatch.setattr(frames_module, "table_frame", frame)
        monkeypatch.setattr(frames_module, "encode", encode)

    def client(self, name: str, seat: int | None) -> Client:
        self.sent[name] = []

        async def send(text: str) -> None:
            self.sent[name].append(text)

        return Client("t1", seat, send)

    def take(self) -> dict[str, list[str]]:
        """The texts sent since the last take, by client (only those that got some)."""
        sent = {name: texts for name, texts in self.sent.items() if texts}
        self.sent = {name: [] for name in self.sent}
        return sent


def test_each_view_is_made_once_per_change_and_an_unchanged_one_is_not_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    counted = Counted(monkeypatch)
    live = playing_table()
    table = live.table
    assert table is not None and table.current is not None
    mover = table.current
    other = (mover + 1) % 4
    hub = Hub()
    for name, seat in [("watch1", None), ("watch2", None), ("watch3", None), ("m1", mover), ("m2", mover)]:
        hub.add(counted.client(name, seat))
    hub.add(counted.client("o", other))

    asyncio.run(hub.publish(live))
    assert sorted(counted.built, key=str) == sorted([None, mover, other], key=str)  # three views, not six
    assert counted.encoded == 3  # one first-frame text per view
    sent = counted.take()
    assert set(sent) == {"watch1", "watch2", "watch3", "m1", "m2", "o"}
    assert sent["watch1"] == sent["watch2"] == sent["watch3"] and sent["m1"] == sent["m2"]
    assert sent["watch1"][0] is sent["watch2"][0]  # the same bytes, encoded once
    assert json.loads(sent["m1"][0]) == table_frame(live, mover)  # what the view of that seat is

    asyncio.run(hub.publish(live))  # told again, nothing changed: nothing made, nothing sent
    assert len(counted.built) == 3 and counted.encoded == 3
    assert counted.take() == {}

    live.seats[other].here = 1  # someone came online: every view shows it, made once each
    asyncio.run(hub.publish(live))
    assert len(counted.built) == 6 and counted.encoded == 6
    assert set(counted.take()) == {"watch1", "watch2", "watch3", "m1", "m2", "o"}

    play = next(o.action for o in table.options() if o.safe and o.action.kind.value == "play")
    table.decide(play)  # staged: the mover's view changes, the others' frames are as they were
    asyncio.run(hub.publish(live))
    assert set(counted.take()) == {"m1", "m2"}
    assert counted.built[6:] == [mover]  # the others' views are not even made again (R9: they see nothing of it)

    made = len(counted.built)
    hub.add(counted.client("late", None))  # a new spectator: the view is made already
    asyncio.run(hub.publish(live))
    assert len(counted.built) == made
    assert list(counted.take()) == ["late"]
    encoded = counted.encoded
    hub.add(counted.client("later", None))  # and its first text is encoded already
    asyncio.run(hub.publish(live))
    assert counted.encoded == encoded and list(counted.take()) == ["later"]


def test_a_table_nobody_here_sees_keeps_no_views(monkeypatch: pytest.MonkeyPatch) -> None:
    counted = Counted(monkeypatch)
    live = playing_table()
    hub = Hub()
    client = counted.client("w", None)
    hub.add(client)
    asyncio.run(hub.publish(live))
    assert "t1" in hub.frames
    hub.remove(client)
    assert hub.of("t1") == [] and "t1" not in hub.frames
    hub.add(client)
    asyncio.run(hub.publish(live))
    assert counted.built == [None, None]  # made again: the first was dropped with its last client


def test_a_send_that_lets_the_table_change_never_sends_an_older_view_after_a_newer() -> None:
    """A send awaits, and the table may change meanwhile (another decision, and its own
    publish): the clients the first fan-out reaches after that get the table as it is
    then (or nothing, if they have it), never the view it had when the fan-out began."""
    live = playing_table()
    table = live.table
    assert table is not None
    hub = Hub()
    seqs: dict[int, list[int]] = {seat: [] for seat in range(4)}

    async def scenario() -> None:
        gate = asyncio.Event()
        slow: list[int] = []  # the seat whose first send waits on the gate

        def sender(seat: int) -> Any:
            async def send(text: str) -> None:
                seqs[seat].append(json.loads(text)["seq"])
                if not slow:
                    slow.append(seat)
                    await gate.wait()  # this send takes a while: the table changes meanwhile

            return send

        for seat in range(4):
            hub.add(Client(live.id, seat, sender(seat)))
        first = asyncio.create_task(hub.publish(live))
        while not slow:
            await asyncio.sleep(0)
        watcher = (table.current + 1) % 4 if table.current is not None else 0
        before = live.seq_for(watcher)
        while live.seq_for(watcher) == before:  # a whole turn, so every seat's view changes
            options = table.options()
            table.decide(next((o.action for o in options if o.safe), options[0].action))
        await hub.publish(live)
        gate.set()
        await first

    asyncio.run(scenario())
    for seat, got in seqs.items():
        assert got == sorted(got), f"an older view after a newer one: {got}"
        assert got[-1] == live.seq_for(seat)  # and the newest last
