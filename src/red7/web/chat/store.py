"""What the database keeps of a table's chat (the ``chat`` table, migration 0006).

Lines are only ever added: a line is one short transaction, and a table's recent
history is one indexed read (``chat_by_table``: table, then id). Both are called in the
store's threads (:meth:`red7.web.table.tables.Tables.db`), never on the event loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String, insert, select
from sqlalchemy.orm import Mapped, mapped_column

from ..storage.rows import Base, now
from ..storage.store import Store


class ChatRow(Base):
    __tablename__ = "chat"
    __table_args__ = (Index("chat_by_table", "table_id", "id"),)  # a table's recent lines

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    channel: Mapped[str] = mapped_column(String(12))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    who: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """Who said it (:attr:`red7.web.table.live.SeatState.who`; null: a spectator, or a line
    kept before migration 0011)."""
    reaction: Mapped[str | None] = mapped_column(String(16), nullable=True)
    text: Mapped[str] = mapped_column(String(400))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class StoredLine:
    """A line as the database holds it: a reaction's code (its words are the table's
    language's, made when it is shown) or free text, already cleaned."""

    id: int
    table_id: str
    channel: str
    seat: int | None
    name: str
    reaction: str | None
    text: str
    at: datetime
    who: str | None = None
    """Who said it, whichever seat (:attr:`red7.web.table.live.SeatState.who`; None: a spectator)."""


def add_line(
    store: Store,
    table_id: str,
    channel: str,
    seat: int | None,
    name: str,
    reaction: str | None,
    text: str,
    who: str | None = None,
) -> StoredLine:
    """Write a new line of ``table_id``'s chat (``who``: who said it); the line with its id and time."""
    at = now()
    with store.engine.begin() as connection:
        inserted = connection.execute(
            insert(ChatRow)
            .values(
                table_id=table_id, channel=channel, seat=seat, name=name, reaction=reaction, text=text, at=at, who=who
            )
            .returning(ChatRow.id)
        )
        line_id = inserted.scalar_one()
    return StoredLine(line_id, table_id, channel, seat, name, reaction, text, at, who)


def recent_lines(store: Store, table_id: str, channels: tuple[str, ...], limit: int) -> list[StoredLine]:
    """The last ``limit`` lines of ``table_id``'s chat in ``channels``, oldest first."""
    query = (
        select(ChatRow)
        .where(ChatRow.table_id == table_id, ChatRow.channel.in_(channels))
        .order_by(ChatRow.id.desc())
        .limit(limit)
    )
    with store.engine.connect() as connection:
        rows = connection.execute(query).all()
    return [
        StoredLine(row.id, row.table_id, row.channel, row.seat, row.name, row.reaction, row.text, _utc(row.at), row.who)
        for row in reversed(rows)
    ]


def _utc(at: datetime) -> datetime:
    """``at`` in UTC (SQLite gives back a time without its zone: it was written in UTC)."""
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)
