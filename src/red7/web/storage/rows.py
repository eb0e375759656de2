"""The web server's own tables in the database, as SQLAlchemy 2 models (the rooms' tables,
the chat's, the accounts', the ratings' and the reviews', are declared in their rooms on the
same :class:`Base`). Their schema is made only by the migrations (:mod:`red7.web.storage.migrations`).

* ``tables``: a table's settings (players, basic or advanced, action cards, language,
  clock, spectators' chat), its name, whether it is private (and the SHA-256 of its
  invitation secret, never the secret) and whether it is open, playing or over;
* ``seats``: who sits in each seat: a person's display name and the SHA-256 of their
  seat token (never the token itself), or a bot's spec; how many staged decisions the
  person took back; the account they sat as, and why their token was revoked;
* ``games``: each game played at a table: its number there, config, seed and generator (``deal``), and its
  result once over;
* ``decisions``: the append-only log of each game's decisions, primary key (game,
  sequence): a decision is written once, in order, and a second write of the same
  sequence number fails. A game's state is never stored: it is rebuilt by replaying its
  decisions from its seed (:mod:`red7.core.record`), which is what makes a server killed
  mid-game come back exactly.
"""

from __future__ import annotations

from datetime import UTC, datetime
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
    Text,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from ...core.seeds import LEGACY_DEAL


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
    unused: :data:`red7.web.table.tables.EXPIRED`) or ``closed`` (by an admin:
    :data:`red7.web.table.tables.CLOSED`)."""
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
    """The host's choice: ``separate`` or ``off`` (:mod:`red7.web.chat.chat`; migration 0006)."""
    name: Mapped[str] = mapped_column(String(80), server_default="")
    """The table's name, chosen by its creator (empty: a table of before migration 0008)."""
    private: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """A private table is not in the lobby; only its invitation link opens it."""
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The SHA-256 of a private table's invitation secret (never the secret itself)."""
    hints: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """Whether the people at the table may ask for a hint (set when it is created)."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether its games move the ratings of its players (:mod:`red7.web.ratings.ratings`;
    migration 0010)."""
    removed: Mapped[str] = mapped_column(Text, default="", server_default="")
    """Who the host removed from a seat, one per line (a seat's ``who``: ``u:`` and a
    username, or ``g:`` and a guest's folded name): they may not sit at the table again
    (migration 0019)."""


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
    all: their sequence numbers count them (:meth:`red7.web.table.live.LiveTable.seq_for`)."""
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    """The account of the person who took the seat logged in (None: a guest, a bot,
    nobody; migration 0007): a profile lists its games (:mod:`red7.web.accounts.accounts`)."""
    revoked: Mapped[str | None] = mapped_column(String(8), nullable=True)
    """Why the token was revoked, until its person is seated again: ``admin`` (that seat's),
    ``account`` (its account banned or removed); null: it was not (migration 0016)."""


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
