"""Whether a table's people may ask for a hint (``tables.hints``, a table option).

Every table made before this migration allowed hints (the option did not exist), so
its rows get true.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN (SQLite has it): a batch copy of ``tables`` would trip the
    # foreign keys of its seats and games
    op.add_column("tables", sa.Column("hints", sa.Boolean(), nullable=False, server_default=sa.true()))


def downgrade() -> None:
    op.drop_column("tables", "hints")  # in place, as it was added (no batch copy of ``tables``)
