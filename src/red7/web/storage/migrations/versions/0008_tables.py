"""A table's name, and whether it is private (``tables.name``, ``tables.private``,
``tables.invite_hash``).

A private table is left out of the lobby and opened only by its invitation link, whose
secret the database keeps as its SHA-256 (as it keeps seat tokens). Tables written
before this migration are public and get an empty name (the pages then show their
settings, as they did).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMNs (SQLite too): a batch would copy the table, which the seats'
    # and games' foreign keys forbid
    op.add_column("tables", sa.Column("name", sa.String(80), nullable=False, server_default=""))
    op.add_column("tables", sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("tables", sa.Column("invite_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    for column in ("invite_hash", "private", "name"):
        op.drop_column("tables", column)
