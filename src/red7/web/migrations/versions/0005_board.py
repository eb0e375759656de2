"""Whether a table's people may ask for a hint (``tables.hints``, a table option).

Every table made before this migration allowed hints (the option did not exist), so
its rows get true.

Revision ID: 0005_board
Revises: 0004
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_board"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN (SQLite has it): a batch copy of ``tables`` would trip the
    # foreign keys of its seats and games
    op.add_column("tables", sa.Column("hints", sa.Boolean(), nullable=False, server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("hints")
