"""Who said each chat line (``chat.who``), so that a page's mute follows the person, not
the seat (:attr:`red7.web.table.live.SeatState.who`). Lines kept before it say nobody (null):
they can no longer be muted.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN (and DROP COLUMN below): no batch copy of the table
    op.add_column("chat", sa.Column("who", sa.String(64), nullable=True))


def downgrade() -> None:
    op.drop_column("chat", "who")
