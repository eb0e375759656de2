"""Intents crossed by another process's write: two :class:`Tables` (two server processes)
on one SQLite database, with a bus that tells nothing, so each learns of the other's
changes only from the database. The crossing is made exactly where it hurts: the other
process writes between this one's reading of the table and its own write, which then
fails (compare and set on the version). The intent is decided again on the table read
back: refused in words if what it was decided against moved (the seat's sequence number,
the seat it wanted), applied otherwise; ``stale`` only for one crossed every time."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from red7.web.http.refusals import Refused
from red7.web.storage.store import Store
from red7.web.storage.stored import StoredTable, token_hash
from red7.web.table import hosting, play, seating
from red7.web.table.bots import Bots
from red7.web.table.tables import CONFLICT_TRIES, Tables
from tests.support.web_client import SilentBus

Crossing = Callable[[], Awaitable[Any]]


class Process:
    """One server process: its own store (connections) on the shared database and its
    tables; each of its :attr:`crossings` (another process's change) gets in just before
    one of its next writes."""

    def __init__(self, url: str) -> None:
        self.store = Store(url)
        self.tables = Tables(self.store, SilentBus(), seeds=iter(range(100, 200)).__next__)
        Bots(self.tables, delay=0)
        self.tables.load()
        self._write = self.store.write
        self.crossings: list[Crossing] = []
        self.store.write = self._crossed_write  # type: ignore[method-assign]

    async def _crossed_write(self, before: StoredTable, after: StoredTable) -> StoredTable | None:
        if self.crossings:
            await self.crossings.pop(0)()  # another process gets in first
        return await self._write(before, after)

    def conflicts(self) -> float | None:
        """The writes of this process another got in before (its ``red7_conflicts_total``)."""
        return self.tables.metrics.registry.get_sample_value("red7_conflicts_total")


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[Process, Process]]:
    url = f"sqlite:///{tmp_path}/db.sqlite3"
    first = Store(url)
    first.upgrade()
    first.close()
    a, b = Process(url), Process(url)
    yield a, b
    a.store.close()
    b.store.close()


async def two_people(a: Process, b: Process) -> tuple[str, str]:
    """A private 2-player table made through A, Bia seated through B, started through A:
    the table's id and Ana's token (the host's, seat 0)."""
    live, ana = await hosting.create(a.tables, 2, False, False, "en", "Ana", invite="secret-invitation-1")
    await seating.join(b.tables, live.id, 1, "Bia", invite="secret-invitation-1")
    await play.start(a.tables, live.id, ana)
    await b.tables.refresh(live.id)
    return live.id, ana


def mover_and_action(tables: Tables, table_id: str) -> tuple[int, int, str]:
    """The seat to move at ``table_id`` as ``tables`` sees it, its sequence number and a
    decision of it that ends its turn."""
    live = tables.live[table_id]
    table = live.table
    assert table is not None and table.current is not None
    seat = table.current
    action = next(o.action for o in table.options() if table.ends_turn(o.action))
    return seat, live.seq_for(seat), str(action)


def test_a_decision_crossed_by_the_hosts_new_invitation_is_applied(pair: tuple[Process, Process]) -> None:
    a, b = pair

    async def scene() -> None:
        table_id, ana = await two_people(a, b)
        seat, seq, action = mover_and_action(b.tables, table_id)
        renewed: list[str | None] = []

        async def new_invitation() -> None:  # Ana, through A, while B writes the decision
            renewed.append(await hosting.change_invite(a.tables, table_id, ana))

        b.crossings.append(new_invitation)
        await play.decide(b.tables, table_id, seat, seq, action)  # not refused: the invitation moved no seat's turn
        assert b.conflicts() == 1 and renewed[0] is not None
        stored = b.store.table(table_id)
        assert stored is not None and stored.game is not None
        assert [d for _, d in stored.game.decisions] == [action]
        assert renewed[0] is not None  # the new invitation stays: the decision was written on top of it
        assert stored.invite_hash == token_hash(renewed[0]) == b.tables.live[table_id].invite_hash
        await a.tables.refresh(table_id)
        assert a.tables.live[table_id].seq_for(seat) == seq + 1 == b.tables.live[table_id].seq_for(seat)

    asyncio.run(scene())


def test_a_decision_crossed_by_the_same_decision_is_refused_once_and_made_once(pair: tuple[Process, Process]) -> None:
    a, b = pair

    async def scene() -> None:
        table_id, ana = await two_people(a, b)
        seat, seq, action = mover_and_action(b.tables, table_id)

        async def twin() -> None:  # the same person, through A, with the same sequence number
            await play.decide(a.tables, table_id, seat, seq, action)

        b.crossings.append(twin)
        with pytest.raises(Refused) as refused:
            await play.decide(b.tables, table_id, seat, seq, action)
        assert refused.value.code in ("stale", "not-your-turn")
        stored = b.store.table(table_id)
        assert stored is not None and stored.game is not None
        assert [d for _, d in stored.game.decisions] == [action]  # once
        assert b.tables.live[table_id].version == stored.version  # B holds the table as written

    asyncio.run(scene())


def test_a_decision_naming_a_game_this_process_has_not_read_is_decided_on_the_table_read_back(
    pair: tuple[Process, Process],
) -> None:
    """Game 1 ends and game 2 starts through A; B knows game 1 only, at the same sequence
    number as game 2's mover has: a decision naming game 2 sent to B is B's cue to read
    the table back (neither stale nor "no game"), and is made."""
    a, b = pair

    async def scene() -> None:
        table_id, _ana = await two_people(a, b)
        seat, seq, _action = mover_and_action(a.tables, table_id)
        await play.decide(a.tables, table_id, seat, seq, "concede", game=1)
        await b.tables.refresh(table_id)  # B reads game 1's end...
        for person in (0, 1):
            await play.again(a.tables, table_id, person, 1)
        seat, seq, action = mover_and_action(a.tables, table_id)
        await play.decide(a.tables, table_id, seat, seq, action, game=2)
        seat, seq, action = mover_and_action(a.tables, table_id)
        old = b.tables.live[table_id]  # ...and nothing after it
        assert (old.game_number, old.status, old.seq_for(seat)) == (1, "over", seq)
        with pytest.raises(Refused) as refused:
            await play.decide(b.tables, table_id, seat, seq, action, game=1)
        assert refused.value.code == "no-game"  # (game 1 is over, as B knows)
        await play.decide(b.tables, table_id, seat, seq, action, game=2)
        stored = b.store.table(table_id)
        assert stored is not None and stored.game is not None and stored.game.number == 2
        assert len(stored.game.decisions) == 2

    asyncio.run(scene())


@pytest.mark.parametrize("asked", [1, 2])
def test_a_seat_taken_meanwhile_is_refused_as_taken_and_another_is_not(
    pair: tuple[Process, Process], asked: int
) -> None:
    """Cid takes seat 1 through A while Bia's taking seat ``asked`` through B is written."""
    a, b = pair

    async def scene() -> None:
        live, _ = await hosting.create(a.tables, 3, False, False, "en", "Ana")
        await b.tables.find(live.id)

        async def cid_sits() -> None:
            await seating.join(a.tables, live.id, 1, "Cid")

        b.crossings.append(cid_sits)
        if asked == 1:
            with pytest.raises(Refused) as refused:
                await seating.join(b.tables, live.id, 1, "Bia")
            assert refused.value.code == "seat-taken"  # said in words, not "stale"
            await seating.join(b.tables, live.id, 2, "Bia")  # (asked again, for the free seat)
        else:
            await seating.join(b.tables, live.id, 2, "Bia")  # crossed by Cid's, which took another seat
        assert b.conflicts() == 1
        stored = b.store.table(live.id)
        assert stored is not None and [s.name for s in stored.seats] == ["Ana", "Cid", "Bia"]

    asyncio.run(scene())


def test_an_intent_crossed_every_time_is_refused_as_stale_and_leaves_nothing(pair: tuple[Process, Process]) -> None:
    a, b = pair

    async def scene() -> None:
        table_id, ana = await two_people(a, b)
        seat, seq, action = mover_and_action(b.tables, table_id)

        async def new_invitation() -> None:
            await hosting.change_invite(a.tables, table_id, ana)

        b.crossings.extend([new_invitation] * CONFLICT_TRIES)
        with pytest.raises(Refused) as refused:
            await play.decide(b.tables, table_id, seat, seq, action)
        assert refused.value.code == "stale"
        assert b.conflicts() == CONFLICT_TRIES
        stored = b.store.table(table_id)
        assert stored is not None and stored.game is not None and stored.game.decisions == ()
        live = b.tables.live[table_id]
        assert live.version == stored.version and live.seq_for(seat) == seq  # read back: nothing of it stays
        await play.decide(b.tables, table_id, seat, seq, action)  # asked again: in
        assert b.tables.live[table_id].seq_for(seat) == seq + 1

    asyncio.run(scene())
