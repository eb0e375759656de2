"""How many staged decisions each seat's person took back (``seats.undone``).

A person's sequence numbers count them (:meth:`red7.web.table.live.LiveTable.seq_for`), so that
a message sent before a take-back is never applied again after it, by this process or
another, before a restart or after. Seats written by the previous release took nothing
back that anyone still remembers: theirs is 0.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("undone", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("undone")
