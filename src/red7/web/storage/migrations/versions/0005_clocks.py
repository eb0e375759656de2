"""A table's clock and the rematch proposed at it (``tables.clock``, ``deadline``,
``agreed``, ``declined``).

``clock``: seconds a person has for each turn (0: no clock, what every table written
before this migration gets); ``deadline``: when the awaited person's time runs out
(seconds since the epoch; null: no clock running); ``agreed``: the seats that agreed to
a rematch, comma-separated (null: none proposed); ``declined``: the seat whose person
declined the last proposal.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("clock", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("deadline", sa.Float(), nullable=True))
        batch.add_column(sa.Column("agreed", sa.String(40), nullable=True))
        batch.add_column(sa.Column("declined", sa.Integer(), nullable=True))


def downgrade() -> None:
    # ALTER TABLE ... DROP COLUMN (SQLite 3.35 and later have it), not a batch: a batch
    # would copy ``tables`` and drop it, which the seats' foreign keys refuse
    for column in ("declined", "agreed", "deadline", "clock"):
        op.drop_column("tables", column)
