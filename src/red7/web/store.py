"""What the web server keeps: tables, seats, games and each game's decisions (SQLAlchemy 2).

The schema is these four tables and the chat's (``chat``: :mod:`red7.web.chat_store`),
created and changed only by the Alembic migrations in ``red7/web/migrations``
(:func:`Store.upgrade` runs them when the server starts):

* ``tables``: a table's settings (players, basic or advanced, action cards, language,
  clock, spectators' chat), its name, whether it is private (and the SHA-256 of its
  invitation secret, never the secret) and whether it is open, playing or over;
* ``seats``: who sits in each seat: a person's display name and the SHA-256 of their
  seat token (never the token itself), or a bot's spec; how many staged decisions the
  person took back;
* ``games``: each game played at a table: its number there, config, seed and generator (``deal``), and its
  result once over;
* ``decisions``: the append-only log of each game's decisions, primary key (game,
  sequence): a decision is written once, in order, and a second write of the same
  sequence number fails. A game's state is never stored: it is rebuilt by replaying its
  decisions from its seed (:mod:`red7.core.record`), which is what makes a server killed
  mid-game come back exactly.

A person's staged decisions are written too (``games.committed`` says how many are
final), so a player connected to another process sees them, and a take-back deletes
them. Every change of a table is one transaction that bumps ``tables.version`` from the
version it was made against (:meth:`Store.commit`): of two processes changing one table
at once, the second finds the version moved and writes nothing. That, not a lock held
by a process, is what serializes a table's decisions across processes.

The default database is a SQLite file in WAL mode in the user's data directory;
``--database-url`` chooses another: PostgreSQL (``postgresql://...``, driven by psycopg 3)
for several server processes.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    bindparam,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    select,
    text,
    true,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from ..core.game import Game
from ..core.model import Config
from ..core.seeds import DEAL, LEGACY_DEAL

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


def new_token() -> str:
    """An unguessable seat token (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    players: Mapped[int] = mapped_column(Integer)
    advanced: Mapped[bool] = mapped_column(Boolean)
    actions: Mapped[bool] = mapped_column(Boolean)
    lang: Mapped[str] = mapped_column(String(8))
    status: Mapped[str] = mapped_column(String(8))
    """``open`` (seats being taken), ``playing``, ``over``, ``expired`` (left open and
    unused: :data:`red7.web.service.EXPIRED`) or ``closed`` (by an admin:
    :data:`red7.web.service.CLOSED`)."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    """Bumped by every change of the table (:meth:`Store.commit`)."""
    clock: Mapped[int] = mapped_column(Integer, server_default="0")
    """Seconds a person has for each turn (0: no clock; migration 0005)."""
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When (seconds since the epoch) the awaited person's time runs out (null: none runs)."""
    agreed: Mapped[str | None] = mapped_column(String(40), nullable=True)
    """The seats that agreed to a rematch, comma-separated (null: none proposed)."""
    declined: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat whose person declined the last rematch proposed (null: none)."""
    spectator_chat: Mapped[str] = mapped_column(String(12), server_default="separate")
    """The host's choice: ``separate`` or ``off`` (:mod:`red7.web.chat`; migration 0006)."""
    name: Mapped[str] = mapped_column(String(80), server_default="")
    """The table's name, chosen by its creator (empty: a table of before migration 0008)."""
    private: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """A private table is not in the lobby; only its invitation link opens it."""
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The SHA-256 of a private table's invitation secret (never the secret itself)."""
    hints: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """Whether the people at the table may ask for a hint (set when it is created)."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether its games move the ratings of its players (:mod:`red7.web.ratings`;
    migration 0010)."""


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), default="")
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(80), nullable=True)
    substitute: Mapped[str | None] = mapped_column(String(80), nullable=True)
    undone: Mapped[int] = mapped_column(Integer, default=0)
    """How many staged decisions of this seat's person were taken back at this table, in
    all: their sequence numbers count them (:meth:`red7.web.live.LiveTable.seq_for`)."""
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    """The account of the person who took the seat logged in (None: a guest, a bot,
    nobody; migration 0007): a profile lists its games (:mod:`red7.web.accounts`)."""


class GameRow(Base):
    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    committed: Mapped[int] = mapped_column(Integer, default=0)
    """How many of the game's decisions are final (the rest: a person's staged turn)."""
    deal: Mapped[str] = mapped_column(String(16), server_default=LEGACY_DEAL)
    """The generator that deals the game (:data:`red7.core.seeds.DEALS`): every game
    written before the column existed (migration 0004) was dealt by ``mt19937``."""


class DecisionRow(Base):
    __tablename__ = "decisions"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(32))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


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
APPEND = """
WITH moved AS (
    UPDATE tables SET version = %(version)s, status = %(status)s,
        deadline = %(deadline)s, agreed = %(agreed)s, declined = %(declined)s
    WHERE id = %(table)s AND version = %(base)s
    RETURNING id
), game AS (
    UPDATE games SET result = %(result)s, committed = %(committed)s
    WHERE id = %(game)s AND %(game_changed)s AND EXISTS (SELECT FROM moved)
), added AS (
    INSERT INTO decisions (game_id, seq, seat, action, at)
    SELECT %(game)s, %(keep)s + d.n - 1, d.seat, d.action, %(at)s
    FROM unnest(%(seats)s::integer[], %(actions)s::text[]) WITH ORDINALITY AS d(seat, action, n)
    WHERE EXISTS (SELECT FROM moved)
)
SELECT count(*) FROM moved
"""
"""PostgreSQL's one statement for a change that adds decisions to a game (psycopg's
parameters): the compare and set of the table's version and, only if it moved, the
game's result and final count and the new decisions, numbered from ``keep``. Every
part runs, in the statement's one transaction (PostgreSQL runs a data-modifying ``WITH``
part whether the query reads it or not); the count of tables moved (0 or 1) says
whether the change went in."""


@dataclass(frozen=True)
class StoredSeat:
    name: str = ""
    token_hash: str | None = None
    bot: str | None = None
    substitute: str | None = None
    undone: int = 0
    account: int | None = None
    """The id of the account the seat was taken by (None: a guest, a bot, nobody)."""


@dataclass(frozen=True)
class StoredGame:
    id: int | None
    """None: a game not written yet (:meth:`Store.commit` gives it its id)."""
    number: int
    config: dict[str, Any]
    seed: int
    result: dict[str, Any] | None
    decisions: tuple[tuple[int, str], ...]
    """Every decision, (seat, notation) each, in order: the final ones, then the staged ones."""
    committed: int
    """How many of :attr:`decisions` are final."""
    deal: str = DEAL
    """The generator that deals the game (:data:`red7.core.seeds.DEALS`)."""


def replayed(stored: StoredGame) -> Game:
    """The game ``stored`` holds, rebuilt by replaying its final decisions from its seed
    (the state itself is never stored)."""
    game = Game(config=Config.from_mapping(stored.config), seed=stored.seed, deal=stored.deal)
    for _seat, action in stored.decisions[: stored.committed]:
        game.apply(action)
    return game


@dataclass(frozen=True)
class StoredTable:
    """A table as the database holds it at one :attr:`version`."""

    id: str
    players: int
    advanced: bool
    actions: bool
    lang: str
    status: str
    seats: tuple[StoredSeat, ...]
    game: StoredGame | None
    """The table's latest game (None before the first starts)."""
    version: int = 0
    clock: int = 0
    """Seconds a person has for each turn (0: no clock)."""
    deadline: float | None = None
    """When (seconds since the epoch) the awaited person's time runs out (None: none runs)."""
    agreed: tuple[int, ...] | None = None
    """The seats that agreed to a rematch (None: none proposed)."""
    declined: int | None = None
    """The seat whose person declined the last rematch proposed."""
    spectator_chat: str = "separate"
    """Whether spectators talk among themselves (``separate``) or not (``off``): :mod:`red7.web.chat`."""
    name: str = ""
    """The table's name (set when it is made, never changed)."""
    private: bool = False
    invite_hash: str | None = None
    """A private table's invitation secret, hashed (:func:`token_hash`)."""
    hints: bool = True
    """The people may ask for a hint (a table option, set when it is created)."""
    rated: bool = False
    """Its games move its players' ratings (:mod:`red7.web.ratings`; set when it is created)."""

    def rematch_columns(self) -> dict[str, Any]:
        """The values of the columns that change with the clock and the rematch, by the
        names :data:`MOVE_TABLE` and :data:`APPEND` bind them to."""
        agreed = None if self.agreed is None else ",".join(str(seat) for seat in self.agreed)
        return {"deadline": self.deadline, "agreed": agreed, "declined": self.declined}


def agreed_seats(column: str | None) -> tuple[int, ...] | None:
    """The seats a ``tables.agreed`` value names (None: no proposal)."""
    if column is None:
        return None
    return tuple(int(seat) for seat in column.split(",") if seat)


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
        pool = {} if sqlite else {"pool_size": self.writers + 4, "max_overflow": 8}
        self.engine: Engine = create_engine(self.url, **pool)
        self.executor = ThreadPoolExecutor(self.writers, thread_name_prefix="red7-db")
        """The threads the server runs its database calls in, off its event loop."""
        self._appenders: Any = None
        """:meth:`open`'s asynchronous connections (a psycopg_pool.AsyncConnectionPool)."""
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
        ``spectator_chat``: :mod:`red7.web.chat`); private if it has an ``invite_hash``
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
                        )
                    )
            game = after.game
            if game is not None:
                game = self._write_game(connection, before.id, before.game, game)
        return replace(after, version=version, game=game)

    async def open(self) -> None:
        """Open what :meth:`write` needs on the running event loop: on PostgreSQL, a pool
        of :attr:`writers` asynchronous psycopg connections (autocommit)."""
        if self.dialect == "postgresql" and self._appenders is None:
            from psycopg_pool import AsyncConnectionPool

            self._appenders = AsyncConnectionPool(
                libpq_address(self.url),
                min_size=self.writers,
                max_size=self.writers,
                kwargs={"autocommit": True},
                open=False,
            )
            await self._appenders.open(wait=True, timeout=30)

    async def aclose(self) -> None:
        """Close what :meth:`open` opened."""
        if self._appenders is not None:
            await self._appenders.close()
            self._appenders = None

    async def write(self, before: StoredTable, after: StoredTable) -> StoredTable | None:
        """:meth:`commit`, awaited on the server's event loop, which serves the other
        tables meanwhile.

        On PostgreSQL (once :meth:`open`), a change that only adds decisions to the game,
        the one made at every decision, is the one statement :data:`APPEND` on an
        asynchronous connection: one round trip, its own transaction, no thread. Any
        other change, and every change on SQLite, is :meth:`commit` in one of the store's
        threads (:attr:`executor`). (A write in a thread cost the server a tenth more CPU
        and held up its frames while the thread held the interpreter.)"""
        kept = _appends(before, after) if self._appenders is not None else None
        if kept is None:
            return await asyncio.get_running_loop().run_in_executor(self.executor, self.commit, before, after)
        from psycopg.types.json import Json

        assert self._appenders is not None and before.game is not None and after.game is not None
        old, new = before.game, after.game
        added = new.decisions[kept:]
        params = {
            "table": before.id,
            "base": before.version,
            "version": before.version + 1,
            "status": after.status,
            **after.rematch_columns(),
            "game": new.id,
            "game_changed": (old.result, old.committed) != (new.result, new.committed),
            "result": None if new.result is None else Json(new.result),
            "committed": new.committed,
            "keep": kept,
            "seats": [seat for seat, _action in added],
            "actions": [action for _seat, action in added],
            "at": now(),
        }
        async with self._appenders.connection() as connection:
            row = await (await connection.execute(APPEND, params)).fetchone()
        if row is None or row[0] != 1:
            return None  # the table had moved: nothing was written
        return replace(after, version=before.version + 1)

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
            kept = _kept(old, new)
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
                StoredSeat(seat.name, seat.token_hash, seat.bot, seat.substitute, seat.undone, seat.account_id)
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


def invite_changed(before: StoredTable, after: StoredTable) -> bool:
    """Whether a change gives the table another invitation (renewed or revoked by its host):
    written apart, and told to the other processes as a version to read (never the hash)."""
    return before.invite_hash != after.invite_hash


def change_message(before: StoredTable, after: StoredTable) -> dict[str, Any]:
    """What other processes are told of a change from ``before`` to ``after`` (written
    as ``after.version``): the version, and when the seats and the game are the same,
    the change itself (the decisions kept and added, how many are final, the status and
    result), which :func:`changed_table` applies without reading the database. Seats
    and the invitation never travel (their hashes stay in the database)."""
    message: dict[str, Any] = {"t": after.id, "v": after.version}
    old, new = before.game, after.game
    if before.seats != after.seats or invite_changed(before, after) or new is None or old is None or old.id != new.id:
        return message  # read it from the database
    keep = _kept(old, new)
    message.update(
        base=before.version,
        status=after.status,
        keep=keep,
        add=new.decisions[keep:],
        committed=new.committed,
        result=new.result,
        **after.rematch_columns(),
    )
    return message


def changed_table(saved: StoredTable, message: dict[str, Any]) -> StoredTable | None:
    """``saved`` with the change a :func:`change_message` tells, if it was made from
    ``saved``'s version (None: read the table from the database)."""
    game = saved.game
    if message.get("base") != saved.version or game is None:
        return None
    try:
        added = tuple((int(seat), str(action)) for seat, action in message["add"])
        decisions = game.decisions[: int(message["keep"])] + added
        changed = replace(game, decisions=decisions, committed=int(message["committed"]), result=message["result"])
        deadline, declined = message["deadline"], message["declined"]
        return replace(
            saved,
            version=int(message["v"]),
            status=str(message["status"]),
            game=changed,
            deadline=None if deadline is None else float(deadline),
            agreed=agreed_seats(message["agreed"]),
            declined=None if declined is None else int(declined),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _appends(before: StoredTable, after: StoredTable) -> int | None:
    """How many decisions of ``before``'s game ``after`` keeps, if the change only adds
    decisions to the same game (and perhaps commits them, ends it, changes the table's
    status): all of them. None for any other change (seats, a new game, a take-back)."""
    old, new = before.game, after.game
    if (
        before.seats != after.seats
        or invite_changed(before, after)
        or old is None
        or new is None
        or old.id is None
        or old.id != new.id
    ):
        return None
    kept = _kept(old, new)
    return kept if kept == len(old.decisions) else None


def _kept(old: StoredGame, new: StoredGame) -> int:
    """How many of ``old``'s decisions ``new`` keeps: its final ones (never changed), and
    of its staged ones those ``new`` still starts with."""
    kept = old.committed
    for before, after in zip(old.decisions[kept:], new.decisions[kept:], strict=False):
        if before != after:
            break
        kept += 1
    return kept


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
    """Alembic's configuration for the migrations in ``red7/web/migrations``, on ``connection``."""
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
