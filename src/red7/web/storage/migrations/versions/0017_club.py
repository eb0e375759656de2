"""The database's random id (:mod:`red7.web.storage.identity`): ``club``, one row, made here
with a new id. With where the database lives, it names what the club's processes share on
Redis (the bus's channel, the limits' keys), so a second club or a restored copy on the same
Redis hears and counts only itself.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    club = op.create_table(
        "club",
        sa.Column("one", sa.Integer(), primary_key=True),
        sa.Column("made", sa.String(64), nullable=False),
    )
    op.bulk_insert(club, [{"one": 1, "made": secrets.token_hex(16)}])


def downgrade() -> None:
    op.drop_table("club")
