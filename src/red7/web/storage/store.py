"""What the web server keeps: tables, seats, games and each game's decisions (SQLAlchemy 2).

The schema (:mod:`red7.web.storage.rows`, and each room's own tables) is created and
changed only by the Alembic migrations in ``red7/web/storage/migrations``
(:func:`Store.upgrade` runs them when the server starts). A table is read and written
as a :class:`~red7.web.storage.stored.StoredTable`.

A person's staged decisions are written too (``games.committed`` says how many are
final), so a player connected to another process sees them, and a take-back deletes
them. Every change of a table is one transaction that bumps ``tables.version`` from the
version it was made against (:meth:`Store.commit`): of two processes changing one table
at once, the second finds the version moved and writes nothing. That, not a lock held
by a process, is what serializes a table's decisions across processes.

The default database is a SQLite file in WAL mode in the user's data directory;
``--database-url`` chooses another: PostgreSQL (``postgresql://...``, driven by psycopg 3)
for several server processes.

**PostgreSQL restarting** ends every connection the store holds. Those of its threads are
checked before each use (SQLAlchemy's pre-ping); what the server awaits (:meth:`Store.write`,
:meth:`Store.run`) survives it as :mod:`red7.web.storage.writes` says.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import bindparam, create_engine, delete, event, func, insert, select, text, update
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.orm import Session

from .rows import DecisionRow, GameRow, SeatRow, TableRow, now
from .stored import (
    ACCOUNT_REVOKED,
    StoredGame,
    StoredSeat,
    StoredTable,
    agreed_seats,
    invite_changed,
    kept_of,
    new_token,
    token_hash,
)
from .writes import Writes

log = logging.getLogger("red7.web")
T = TypeVar("T")

MIGRATIONS = Path(__file__).parent / "migrations"
WRITERS = 4
"""Writes a server makes at once on PostgreSQL: the asynchronous connections of
:meth:`Store.open`, and the threads of the other calls (each with its connection)."""


def default_url() -> str:
    """The SQLite file in the user's data directory (made if missing)."""
    from platformdirs import user_data_path

    folder = user_data_path("red7")
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'red7-web.sqlite3'}"


MOVE_TABLE = (
    update(TableRow)
    .where(TableRow.id == bindparam("table"), TableRow.version == bindparam("base"))
    .values(
        version=bindparam("version"),
        status=bindparam("status"),
        deadline=bindparam("deadline"),
        agreed=bindparam("agreed"),
        declined=bindparam("declined"),
    )
)
"""The compare and set of a change: the table moves from version ``base`` to ``version``."""
UPDATE_GAME = (
    update(GameRow)
    .where(GameRow.id == bindparam("game"))
    .values(result=bindparam("result"), committed=bindparam("committed"))
)
DROP_DECISIONS = delete(DecisionRow).where(
    DecisionRow.game_id == bindparam("game"), DecisionRow.seq >= bindparam("keep")
)
ADD_DECISIONS = insert(DecisionRow)


class Store:
    """The database of one server or of several sharing it (``url``: a SQLAlchemy URL;
    default :func:`default_url`; ``postgresql://`` means psycopg 3).

    Every method is one short transaction. The server writes through :meth:`write`,
    awaited on its event loop (PostgreSQL waits for its disk at every commit: the loop
    serves the other tables meanwhile), and reads in the store's threads
    (:attr:`executor`)."""

    def __init__(self, url: str | None = None, writers: int = WRITERS) -> None:
        self.url = driver_url(url or default_url())
        sqlite = self.url.startswith("sqlite")
        self.writers = 1 if sqlite else writers
        """How many writes may run at once: one on SQLite (a file has one writer: a
        second would wait in SQLite's busy loop), ``writers`` on a server, whose
        commits then share their disk flushes."""
        # a connection per writer and some for reads, always open (opening one per write
        # would cost more than the write)
        # (a connection PostgreSQL ended, restarting, is found before use and replaced: pre-ping)
        pool = {} if sqlite else {"pool_size": self.writers + 4, "max_overflow": 8, "pool_pre_ping": True}
        self.engine: Engine = create_engine(self.url, **pool)
        self.executor = ThreadPoolExecutor(self.writers, thread_name_prefix="red7-db")
        """The threads the server runs its database calls in, off its event loop."""
        self.writes = Writes(self, None if sqlite else libpq_address(self.url))
        """The writes and calls awaited on the event loop, and whether the database is away."""
        if sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def upgrade(self) -> None:
        """Bring the schema to the newest migration (Alembic ``upgrade head``). Several
        processes may start at once: on PostgreSQL an advisory lock lets one migrate
        while the others wait."""
        from alembic import command

        with self.engine.begin() as connection:
            if self.dialect == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(7007)"))
            cfg = alembic_config(connection)
            command.upgrade(cfg, "head")

    def revision(self) -> str | None:
        """The schema's migration (None: an empty database)."""
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()

    def ping(self) -> None:
        """Raise if the database cannot be reached."""
        with self.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    def close(self) -> None:
        self.executor.shutdown()
        self.engine.dispose()

    # --- writes -------------------------------------------------------------------

    def create_table(
        self,
        table_id: str,
        players: int,
        advanced: bool,
        actions: bool,
        lang: str,
        clock: int = 0,
        spectator_chat: str = "separate",
        name: str = "",
        invite_hash: str | None = None,
        hints: bool = True,
        rated: bool = False,
    ) -> StoredTable:
        """A new table with empty seats, at version 0 (``clock``: seconds per turn, 0: none;
        ``spectator_chat``: :mod:`red7.web.chat.chat`); private if it has an ``invite_hash``
        (the hash of its invitation secret); ``hints``: whether its people may ask for a
        hint; ``rated``: whether its games move its players' ratings."""
        with Session(self.engine) as s, s.begin():
            s.add(
                TableRow(
                    id=table_id,
                    created=now(),
                    players=players,
                    advanced=advanced,
                    actions=actions,
                    lang=lang,
                    status="open",
                    version=0,
                    clock=clock,
                    spectator_chat=spectator_chat,
                    name=name,
                    private=invite_hash is not None,
                    invite_hash=invite_hash,
                    hints=hints,
                    rated=rated,
                )
            )
            s.flush()  # the table before its seats (no ORM relationship orders them)
            for seat in range(players):
                s.add(SeatRow(table_id=table_id, seat=seat, name="", token_hash=None, bot=None, undone=0))
        seats = (StoredSeat(),) * players
        return StoredTable(
            table_id,
            players,
            advanced,
            actions,
            lang,
            "open",
            seats,
            None,
            0,
            clock=clock,
            spectator_chat=spectator_chat,
            name=name,
            private=invite_hash is not None,
            invite_hash=invite_hash,
            hints=hints,
            rated=rated,
        )

    def commit(self, before: StoredTable, after: StoredTable) -> StoredTable | None:
        """Write the change of a table from ``before`` (what the database held at
        ``before.version``) to ``after``, as version ``before.version + 1``; None, and
        nothing written, if the table has changed since ``before`` (another process
        changed it first: compare and set on the version). Returns ``after`` as
        written: its new version, and its new game's id.

        One transaction of SQLAlchemy Core statements built once (:data:`MOVE_TABLE`...),
        in the calling thread; the server writes through :meth:`write`."""
        version = before.version + 1
        with self.engine.begin() as connection:
            moved = connection.execute(
                MOVE_TABLE,
                {
                    "table": before.id,
                    "base": before.version,
                    "version": version,
                    "status": after.status,
                    **after.rematch_columns(),
                },
            )
            if moved.rowcount != 1:
                connection.rollback()
                return None
            if invite_changed(before, after):  # (its host renewed or revoked it: rare, its own statement)
                connection.execute(
                    update(TableRow).where(TableRow.id == before.id).values(invite_hash=after.invite_hash)
                )
            if before.removed != after.removed:  # (the host removed someone: rare, its own statement)
                connection.execute(
                    update(TableRow).where(TableRow.id == before.id).values(removed="\n".join(after.removed))
                )
            for number, (old, new) in enumerate(zip(before.seats, after.seats, strict=True)):
                if old != new:
                    connection.execute(
                        update(SeatRow)
                        .where(SeatRow.table_id == before.id, SeatRow.seat == number)
                        .values(
                            name=new.name,
                            token_hash=new.token_hash,
                            bot=new.bot,
                            substitute=new.substitute,
                            undone=new.undone,
                            account_id=new.account,
                            revoked=new.revoked,
                        )
                    )
            game = after.game
            if game is not None:
                game = self._write_game(connection, before.id, before.game, game)
        return replace(after, version=version, game=game)

    def revoke_account_seats(self, account_id: int) -> dict[str, int]:
        """Revoke the token of every seat the account ``account_id`` took, at every table
        not expired, in one transaction (``red7 admin ban`` does, with no server): each
        seat keeps its person, opens to no token any more and says why
        (:data:`~red7.web.storage.stored.ACCOUNT_REVOKED`), and each table moves to its
        next version, so every server reads it back at its next look at the versions
        (:mod:`red7.web.table.cluster`) and ends the connections of those tokens. A server
        revokes them through the table's own changes instead
        (:func:`red7.web.table.hosting.revoke_account`), then calls this for any seat it
        did not know of. The tables changed, with their new versions."""
        with Session(self.engine) as s, s.begin():
            seats = s.execute(
                select(SeatRow.table_id, SeatRow.seat)
                .join(TableRow, TableRow.id == SeatRow.table_id)
                .where(
                    SeatRow.account_id == account_id,
                    SeatRow.token_hash.is_not(None),
                    SeatRow.revoked.is_distinct_from(ACCOUNT_REVOKED),
                    TableRow.status != "expired",
                )
            ).all()
            for table_id, seat in seats:
                s.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(token_hash=token_hash(new_token()), revoked=ACCOUNT_REVOKED)  # a token nobody holds
                )
            changed = sorted({table_id for table_id, _seat in seats})
            if not changed:
                return {}
            s.execute(update(TableRow).where(TableRow.id.in_(changed)).values(version=TableRow.version + 1))
            moved = s.execute(select(TableRow.id, TableRow.version).where(TableRow.id.in_(changed)))
            return {table_id: version for table_id, version in moved}

    async def open(self) -> None:
        """Open what :meth:`write` needs on the running event loop (:meth:`Writes.open`)."""
        await self.writes.open()

    async def aclose(self) -> None:
        """Close what :meth:`open` opened."""
        await self.writes.aclose()

    async def run(self, call: Callable[..., T], *args: Any) -> T:
        """``call(*args)`` in one of the store's threads, off the event loop (:meth:`Writes.run`)."""
        return await self.writes.run(call, *args)

    async def write(self, before: StoredTable, after: StoredTable) -> StoredTable | None:
        """:meth:`commit`, awaited on the server's event loop, which serves the other
        tables meanwhile; made once more if PostgreSQL ended its connection (:meth:`Writes.write`)."""
        return await self.writes.write(before, after)

    @staticmethod
    def _write_game(connection: Connection, table_id: str, old: StoredGame | None, new: StoredGame) -> StoredGame:
        if new.id is None:  # a new game: its row, then its decisions from the first
            inserted = connection.execute(
                insert(GameRow)
                .values(
                    table_id=table_id,
                    number=new.number,
                    config=new.config,
                    seed=new.seed,
                    deal=new.deal,
                    result=new.result,
                    created=now(),
                    committed=new.committed,
                )
                .returning(GameRow.id)
            )
            new, old = replace(new, id=inserted.scalar_one()), None
        else:
            assert old is not None and old.id == new.id, "a game is written after the one before it"
            if (old.result, old.committed) != (new.result, new.committed):
                connection.execute(UPDATE_GAME, {"game": new.id, "result": new.result, "committed": new.committed})
        kept = 0
        if old is not None:
            kept = kept_of(old, new)
            if kept < len(old.decisions):  # a staged turn taken back
                connection.execute(DROP_DECISIONS, {"game": new.id, "keep": kept})
        if kept < len(new.decisions):
            at = now()
            connection.execute(
                ADD_DECISIONS,
                [
                    {"game_id": new.id, "seq": seq, "seat": seat, "action": action, "at": at}
                    for seq, (seat, action) in enumerate(new.decisions[kept:], kept)
                ],
            )
        return new

    # --- reads --------------------------------------------------------------------

    def tables(self, statuses: tuple[str, ...] = ("open", "playing", "over", "closed")) -> list[StoredTable]:
        """Every table whose status is one of ``statuses``, oldest first, with its seats
        and latest game (decisions included)."""
        with Session(self.engine) as s:
            rows = s.scalars(select(TableRow).where(TableRow.status.in_(statuses)).order_by(TableRow.created)).all()
            # four queries in all, not three a table: a server with thousands of tables
            # starts in seconds
            wanted = select(TableRow.id).where(TableRow.status.in_(statuses))
            seats: dict[str, list[SeatRow]] = {}
            for seat in s.scalars(
                select(SeatRow).where(SeatRow.table_id.in_(wanted)).order_by(SeatRow.table_id, SeatRow.seat)
            ):
                seats.setdefault(seat.table_id, []).append(seat)
            newest = (
                select(GameRow.table_id, func.max(GameRow.number).label("number"))
                .where(GameRow.table_id.in_(wanted))
                .group_by(GameRow.table_id)
                .subquery()
            )
            latest = (GameRow.table_id == newest.c.table_id) & (GameRow.number == newest.c.number)
            games = {game.table_id: game for game in s.scalars(select(GameRow).join(newest, latest))}
            moves: dict[int, list[tuple[int, str]]] = {}
            for game_id, seat_number, action in s.execute(
                select(DecisionRow.game_id, DecisionRow.seat, DecisionRow.action)
                .where(DecisionRow.game_id.in_(select(GameRow.id).join(newest, latest)))
                .order_by(DecisionRow.game_id, DecisionRow.seq)
            ):
                moves.setdefault(game_id, []).append((seat_number, action))
            return [
                self._stored(
                    row,
                    seats.get(row.id, []),
                    None if (game := games.get(row.id)) is None else self._game_of(game, moves.get(game.id, [])),
                )
                for row in rows
            ]

    def versions(self) -> dict[str, int]:
        """Every table's id and version (to find the tables changed elsewhere), but for
        expired ones (gone for good: nothing to find)."""
        with Session(self.engine) as s:
            rows = s.execute(select(TableRow.id, TableRow.version).where(TableRow.status != "expired"))
            return {table_id: version for table_id, version in rows}

    def table(self, table_id: str, newer_than: int | None = None) -> StoredTable | None:
        """The table ``table_id`` (None: no such table, or not newer than version
        ``newer_than``)."""
        with Session(self.engine) as s:
            row = s.get(TableRow, table_id)
            if row is None or (newer_than is not None and row.version <= newer_than):
                return None
            return self._table(s, row)

    def game(self, table_id: str, number: int) -> StoredGame | None:
        with Session(self.engine) as s:
            row = s.scalars(select(GameRow).where(GameRow.table_id == table_id, GameRow.number == number)).first()
            return None if row is None else self._game(s, row)

    def _table(self, s: Session, row: TableRow) -> StoredTable:
        seats = s.scalars(select(SeatRow).where(SeatRow.table_id == row.id).order_by(SeatRow.seat)).all()
        game = s.scalars(select(GameRow).where(GameRow.table_id == row.id).order_by(GameRow.number.desc())).first()
        return self._stored(row, seats, None if game is None else self._game(s, game))

    @staticmethod
    def _stored(row: TableRow, seats: Sequence[SeatRow], game: StoredGame | None) -> StoredTable:
        return StoredTable(
            row.id,
            row.players,
            row.advanced,
            row.actions,
            row.lang,
            row.status,
            tuple(
                StoredSeat(
                    seat.name, seat.token_hash, seat.bot, seat.substitute, seat.undone, seat.account_id, seat.revoked
                )
                for seat in seats
            ),
            game,
            row.version,
            clock=row.clock,
            deadline=row.deadline,
            agreed=agreed_seats(row.agreed),
            declined=row.declined,
            spectator_chat=row.spectator_chat,
            name=row.name,
            private=row.private,
            invite_hash=row.invite_hash,
            hints=row.hints,
            rated=row.rated,
            removed=tuple(who for who in row.removed.split("\n") if who),
        )

    @classmethod
    def _game(cls, s: Session, row: GameRow) -> StoredGame:
        decisions = s.execute(
            select(DecisionRow.seat, DecisionRow.action).where(DecisionRow.game_id == row.id).order_by(DecisionRow.seq)
        )
        return cls._game_of(row, [(seat, action) for seat, action in decisions])

    @staticmethod
    def _game_of(row: GameRow, decisions: Sequence[tuple[int, str]]) -> StoredGame:
        config = row.config if isinstance(row.config, dict) else json.loads(row.config)
        moves = tuple(decisions)
        return StoredGame(row.id, row.number, config, row.seed, row.result, moves, row.committed, row.deal)


def libpq_address(url: str) -> str:
    """A PostgreSQL database's SQLAlchemy ``url`` as libpq (psycopg's own connections) reads it."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def driver_url(url: str) -> str:
    """``url`` with psycopg 3 as the PostgreSQL driver when it names none
    (SQLAlchemy's default for ``postgresql://`` is psycopg2)."""
    for scheme in ("postgresql://", "postgres://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url[len(scheme) :]
    return url


def alembic_config(connection: Any) -> Any:
    """Alembic's configuration for the migrations in ``red7/web/storage/migrations``, on ``connection``."""
    from alembic.config import Config as AlembicConfig

    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """SQLite for a server: WAL (readers never wait for the writer), NORMAL sync (a
    commit survives a killed process; only a power cut may lose the last ones),
    foreign keys on, and a wait instead of an error when the file is busy."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
