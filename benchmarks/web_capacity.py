"""What limits ``red7 serve`` on more hosts: the parts of a decision's cost measured apart.

``benchmarks/web_load.py`` measures whole servers under load on one machine; this script
measures, in one process and without the network, the two costs that grow with the
number of tables a cluster serves and not with the clients of one process:

* ``follow``: every process keeps a copy of every table and applies every change any
  process makes (the bus has one channel). A writer (:class:`red7.web.table.tables.Tables`)
  plays ``--tables`` 4-player games on a throwaway PostgreSQL and keeps the messages it
  would send the other processes; a follower that has no client at any of these tables
  then takes those messages as the bus would hand them over. Its CPU per message is
  what one process pays for each decision made anywhere in the cluster.
* ``database``: the write of a decision (:meth:`red7.web.storage.store.Store.write`, the one
  ``APPEND`` statement) from ``--writers`` concurrent writers (each a table of its own
  and a connection of its own, as the writers of several server processes would be,
  as fast as PostgreSQL commits), for ``--seconds``: decisions a second and the CPU of
  PostgreSQL's processes (fsync on, as a real server runs), so PostgreSQL's CPU per
  decision and its ceiling on this machine.

    python -m benchmarks.web_capacity [--tables 200] [--writers 32] [--seconds 20] [--json]

Both run on the machine the script runs on: give medians of several runs, and say
what machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from red7.web.storage.bus import Bus
from red7.web.storage.store import Store
from red7.web.storage.stored import StoredGame, StoredSeat, StoredTable
from red7.web.table import hosting, play, seating
from red7.web.table.bots import Bots
from red7.web.table.cluster import Cluster
from red7.web.table.presence import Presence
from red7.web.table.tables import Tables
from red7.web.table.watch import Watch
from tests.support import local_services as services

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class Recorder(Bus):
    """A bus that keeps what it is told to send (the writer's messages to the others)."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[dict[str, Any]] = []

    @property
    def shared(self) -> bool:
        return True  # as in a cluster: the copies are checked against the database

    def publish(self, message: dict[str, Any]) -> None:
        self.sent.append({"p": self.process, **message})


class Replayer(Recorder):
    """A follower's bus: :meth:`hand_over` gives its process a message another process
    sent, through the listeners its rooms added (:meth:`Bus.listen`), as a shared bus does."""

    async def hand_over(self, message: dict[str, Any]) -> None:
        for receive in self._receivers:
            await receive(message)


def postgres_cpu(data: Path) -> float:
    """CPU seconds of the PostgreSQL cluster whose data folder is ``data``: the postmaster
    and every process under it, with the children they reaped."""
    postmaster = int((data / "postmaster.pid").read_text().splitlines()[0])
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                text = Path(entry.path, "stat").read_text()
            except OSError:
                continue
            rest = text[text.rindex(")") + 2 :].split()
            parents[int(entry.name)] = int(rest[1])
            cpu[int(entry.name)] = sum(int(t) for t in rest[11:15]) / CLOCK_TICKS
    total, todo = 0.0, [postmaster]
    while todo:
        pid = todo.pop()
        total += cpu.get(pid, 0.0)
        todo += [child for child, parent in parents.items() if parent == pid]
    return total


async def follow(url: str, tables: int, rounds: int) -> dict[str, Any]:
    writer_bus = Recorder()
    store = Store(url)
    store.upgrade()
    writer = Tables(store, writer_bus, patience=3600)
    Presence(writer)  # (the writer's clients: none)
    await writer.store.open()
    ids = []
    for t in range(tables):
        live, token = await hosting.create(writer, 4, False, False, "pt-BR" if t % 2 else "en", "Ana")
        for seat in range(1, 4):
            await seating.join(writer, live.id, seat, f"P{seat}")
        await play.start(writer, live.id, token)
        ids.append(live.id)
    follower_bus = Replayer()
    follower = Tables(Store(url), follower_bus, patience=3600)
    presence = Presence(follower)  # as a server is made: the listeners of its bus and of its tables
    bots = Bots(follower, delay=0)
    rooms = (presence, Cluster(follower), Watch(follower, bots, presence))
    follower.load()  # every table, as a process started now has them
    for room in rooms:  # as a server starts: its watch once a second, its looks
        await room.start()
    writer_bus.sent.clear()
    rng = random.Random(1)
    for _ in range(rounds):  # one decision at every table, again and again
        for table_id in ids:
            live = writer.live[table_id]
            table = live.table
            assert table is not None
            if table.is_over:
                await play.again(writer, table_id, 0)
                continue
            options = [o for o in table.options() if o.safe] or table.options()
            assert table.current is not None
            await play.decide(writer, table_id, table.current, live.seq, str(rng.choice(options).action))
    messages = list(writer_bus.sent)
    applied = sum(1 for m in messages if "add" in m)
    started = time.process_time()
    for message in messages:
        await follower_bus.hand_over(message)
    cpu = time.process_time() - started
    for room in rooms:
        await room.stop()
    behind = [t for t in ids if follower.live[t].version != writer.live[t].version]
    assert not behind, f"the follower's copies of {len(behind)} tables are behind"
    await writer.store.aclose()
    return {
        "tables": tables,
        "messages": len(messages),
        "applied_from_the_message": applied,
        "read_from_the_database": len(messages) - applied,
        "follower_cpu_us_per_message": round(cpu / len(messages) * 1e6, 1),
    }


async def database(url: str, data: Path, writers: int, seconds: float) -> dict[str, Any]:
    store = Store(url, writers=writers)  # as many connections as writers: as many processes' would be
    store.upgrade()
    await store.open()
    tables: list[StoredTable] = []
    for w in range(writers):
        made = store.create_table(f"w{w}", 2, False, False, "en")
        seats = (StoredSeat("Ana", "a" * 64), StoredSeat("Bia", "b" * 64))
        seated = store.commit(made, replace(made, seats=seats))
        assert seated is not None
        playing = store.commit(
            seated, replace(seated, status="playing", game=StoredGame(None, 1, {"players": 2}, 1, None, (), 0))
        )
        assert playing is not None
        tables.append(playing)
    latencies: list[float] = []
    stop = time.monotonic() + seconds

    async def write(table: StoredTable) -> int:
        count = 0
        while time.monotonic() < stop:
            game = table.game
            assert game is not None
            moves = (*game.decisions, (count % 2, "play R7"))
            began = time.perf_counter()
            written = await store.write(
                table, replace(table, game=replace(game, decisions=moves, committed=len(moves)))
            )
            latencies.append(time.perf_counter() - began)
            assert written is not None
            table, count = written, count + 1
        return count

    cpu0, own0, began = postgres_cpu(data), time.process_time(), time.monotonic()
    counts = await asyncio.gather(*(write(t) for t in tables))
    elapsed, cpu = time.monotonic() - began, postgres_cpu(data) - cpu0
    own = time.process_time() - own0
    await store.aclose()
    store.close()
    decided = sum(counts)
    ordered = sorted(latencies)
    return {
        "writers": writers,
        "seconds": round(elapsed, 1),
        "decisions_per_second": round(decided / elapsed),
        "write_p50_ms": round(statistics.median(ordered) * 1e3, 2),
        "write_p99_ms": round(ordered[int(len(ordered) * 0.99)] * 1e3, 2),
        "postgres_cpu_share": round(cpu / elapsed, 2),
        "postgres_cpu_us_per_decision": round(cpu / decided * 1e6),
        "writer_cpu_share": round(own / elapsed, 2),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables the follower follows (default 200)")
    parser.add_argument("--rounds", type=int, default=30, help="decisions made at each of them (default 30)")
    parser.add_argument("--writers", type=int, default=32, help="concurrent writers to PostgreSQL (default 32)")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of writing (default 20)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    if not services.Postgres.available():
        parser.error("needs Debian's PostgreSQL server (postgresql-NN, and the postgres user when run as root)")
    with services.Postgres(durable=True) as postgres:
        result = {
            "follow": asyncio.run(follow(postgres.create_database("follow"), args.tables, args.rounds)),
            "database": asyncio.run(
                database(postgres.create_database("db"), postgres.data, args.writers, args.seconds)
            ),
        }
    if args.json:
        print(json.dumps(result, indent=2))
        return
    f, d = result["follow"], result["database"]
    print(
        f"follow: {f['messages']} changes of {f['tables']} tables taken by a process with no client there: "
        f"{f['follower_cpu_us_per_message']} µs of CPU each ({f['applied_from_the_message']} applied from the "
        f"message, {f['read_from_the_database']} read from the database)"
    )
    print(
        f"database: {d['writers']} writers, {d['decisions_per_second']} decisions/s for {d['seconds']} s "
        f"(write p50 {d['write_p50_ms']} ms, p99 {d['write_p99_ms']} ms); PostgreSQL used "
        f"{d['postgres_cpu_share']:.0%} of a core, {d['postgres_cpu_us_per_decision']} µs per decision; "
        f"the writers (this process) {d['writer_cpu_share']:.0%}"
    )


if __name__ == "__main__":
    main()
