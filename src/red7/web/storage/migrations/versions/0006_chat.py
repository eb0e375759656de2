"""Chat at a table: its messages, and who may write in it.

* ``chat``: every line said at a table, in order (``id``): the seat that said it (null:
  a spectator), the name it was said under, its channel (``players``: read by everyone
  at the table; ``spectators``: read by spectators only), a canned reaction's code or
  free text (already cleaned: :mod:`red7.web.chat.chat`), and when.
* ``tables.spectator_chat``: the host's choice at creation, ``separate`` (spectators
  talk among themselves) or ``off`` (they only read the players). Tables made before
  this migration get ``separate``.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("spectator_chat", sa.String(12), nullable=False, server_default="separate"))
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("reaction", sa.String(16), nullable=True),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("chat_by_table", "chat", ["table_id", "id"])


def downgrade() -> None:
    op.drop_index("chat_by_table", table_name="chat")
    op.drop_table("chat")
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35 and later have it), not a batch: a batch
    # would copy ``tables`` and drop it, which the seats' foreign keys refuse
    op.drop_column("tables", "spectator_chat")
