"""What the web server keeps: tables, seats, games and each game's decisions (SQLAlchemy 2).

The schema is four tables, created and changed only by the Alembic migrations in
``red7/web/migrations`` (:func:`Store.upgrade` runs them when the server starts):

* ``tables``: a table's settings (players, basic or advanced, action cards, language)
  and whether it is open, playing or over;
* ``seats``: who sits in each seat: a person's display name and the SHA-256 of their
  seat token (never the token itself), or a bot's spec;
* ``games``: each game played at a table: its number there, config and seed, and its
  result once over;
* ``decisions``: the append-only log of each game's decisions, primary key (game,
  sequence): a decision is written once, in order, and a second write of the same
  sequence number fails. A game's state is never stored: it is rebuilt by replaying its
  decisions from its seed (:mod:`red7.core.record`), which is what makes a server killed
  mid-game come back exactly.

Only decisions that can no longer be taken back are written (a person's staged turn is
kept in memory until it ends); a server that dies mid-turn brings that person back to
the start of the turn, as ``red7 play --resume`` does.

The default database is a SQLite file in WAL mode in the user's data directory;
``--database-url`` chooses another (any SQLAlchemy URL; PostgreSQL is the next step).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    create_engine,
    event,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from ..core.game import Game
from ..core.model import Config

MIGRATIONS = Path(__file__).parent / "migrations"


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
    """``open`` (seats being taken), ``playing`` or ``over``."""


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), default="")
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(80), nullable=True)


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DecisionRow(Base):
    __tablename__ = "decisions"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(32))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class StoredSeat:
    name: str
    token_hash: str | None
    bot: str | None


@dataclass(frozen=True)
class StoredGame:
    id: int
    number: int
    config: dict[str, Any]
    seed: int
    result: dict[str, Any] | None
    decisions: list[str]


def replayed(stored: StoredGame) -> Game:
    """The game ``stored`` holds, rebuilt by replaying its decisions from its seed (the
    state itself is never stored)."""
    game = Game(config=Config.from_mapping(stored.config), seed=stored.seed)
    for action in stored.decisions:
        game.apply(action)
    return game


@dataclass(frozen=True)
class StoredTable:
    id: str
    players: int
    advanced: bool
    actions: bool
    lang: str
    status: str
    seats: list[StoredSeat]
    game: StoredGame | None
    """The table's latest game (None before the first starts)."""


class Store:
    """The database of one server (``url``: a SQLAlchemy URL; default :func:`default_url`).

    Every method is one short transaction; the server calls them from its event loop
    (a SQLite write in WAL mode takes well under a millisecond)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        self.engine: Engine = create_engine(self.url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)

    def upgrade(self) -> None:
        """Bring the schema to the newest migration (Alembic ``upgrade head``)."""
        from alembic import command
        from alembic.config import Config as AlembicConfig

        cfg = AlembicConfig()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as connection:
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "head")

    def close(self) -> None:
        self.engine.dispose()

    # --- writes -------------------------------------------------------------------

    def create_table(self, table_id: str, players: int, advanced: bool, actions: bool, lang: str) -> None:
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
                )
            )
            s.flush()  # the table before its seats (no ORM relationship orders them)
            for seat in range(players):
                s.add(SeatRow(table_id=table_id, seat=seat, name="", token_hash=None, bot=None))

    def set_seat(self, table_id: str, seat: int, name: str, token_hash: str | None, bot: str | None) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(name=name, token_hash=token_hash, bot=bot)
            )

    def set_status(self, table_id: str, status: str) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(update(TableRow).where(TableRow.id == table_id).values(status=status))

    def new_game(self, table_id: str, number: int, config: dict[str, Any], seed: int) -> int:
        """Record a new game at the table (and mark the table playing); its id."""
        with Session(self.engine) as s, s.begin():
            row = GameRow(table_id=table_id, number=number, config=config, seed=seed, result=None, created=now())
            s.add(row)
            s.execute(update(TableRow).where(TableRow.id == table_id).values(status="playing"))
            s.flush()
            return row.id

    def add_decisions(self, game_id: int, first_seq: int, decisions: list[tuple[int, str]]) -> None:
        """Append ``decisions`` ((seat, notation) each) as sequence numbers ``first_seq``
        on; a sequence number written before makes the whole write fail (IntegrityError)."""
        with Session(self.engine) as s, s.begin():
            at = now()
            s.add_all(
                DecisionRow(game_id=game_id, seq=first_seq + i, seat=seat, action=action, at=at)
                for i, (seat, action) in enumerate(decisions)
            )

    def finish_game(self, table_id: str, game_id: int, result: dict[str, Any]) -> None:
        with Session(self.engine) as s, s.begin():
            s.execute(update(GameRow).where(GameRow.id == game_id).values(result=result))
            s.execute(update(TableRow).where(TableRow.id == table_id).values(status="over"))

    # --- reads --------------------------------------------------------------------

    def tables(self, statuses: tuple[str, ...] = ("open", "playing", "over")) -> list[StoredTable]:
        """Every table whose status is one of ``statuses``, oldest first, with its seats
        and latest game (decisions included)."""
        with Session(self.engine) as s:
            rows = s.scalars(select(TableRow).where(TableRow.status.in_(statuses)).order_by(TableRow.created)).all()
            return [self._table(s, row) for row in rows]

    def table(self, table_id: str) -> StoredTable | None:
        with Session(self.engine) as s:
            row = s.get(TableRow, table_id)
            return None if row is None else self._table(s, row)

    def game(self, table_id: str, number: int) -> StoredGame | None:
        with Session(self.engine) as s:
            row = s.scalars(select(GameRow).where(GameRow.table_id == table_id, GameRow.number == number)).first()
            return None if row is None else self._game(s, row)

    def _table(self, s: Session, row: TableRow) -> StoredTable:
        seats = s.scalars(select(SeatRow).where(SeatRow.table_id == row.id).order_by(SeatRow.seat)).all()
        game = s.scalars(select(GameRow).where(GameRow.table_id == row.id).order_by(GameRow.number.desc())).first()
        return StoredTable(
            row.id,
            row.players,
            row.advanced,
            row.actions,
            row.lang,
            row.status,
            [StoredSeat(seat.name, seat.token_hash, seat.bot) for seat in seats],
            None if game is None else self._game(s, game),
        )

    @staticmethod
    def _game(s: Session, row: GameRow) -> StoredGame:
        decisions = s.scalars(select(DecisionRow.action).where(DecisionRow.game_id == row.id).order_by(DecisionRow.seq))
        config = row.config if isinstance(row.config, dict) else json.loads(row.config)
        return StoredGame(row.id, row.number, config, row.seed, row.result, list(decisions))


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
