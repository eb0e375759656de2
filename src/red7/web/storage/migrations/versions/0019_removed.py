"""Who the host removed from a seat (``tables.removed``: one seat's ``who`` a line, empty
by default): a person removed may not sit at that table again (:mod:`red7.web.table.seating`).

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN: a batch copy of ``tables`` would trip its seats' foreign keys
    op.add_column("tables", sa.Column("removed", sa.Text(), nullable=False, server_default=""))


def downgrade() -> None:
    op.drop_column("tables", "removed")
