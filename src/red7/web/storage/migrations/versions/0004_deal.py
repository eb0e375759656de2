"""Which generator dealt each game (``games.deal``, :data:`red7.core.seeds.DEALS`).

Games are dealt from SplitMix64 since record format version 2; every game written
before this migration was dealt by CPython's ``random.Random`` (``mt19937``), which is
what its rows get, so that a game in progress then resumes with the same cards.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("deal", sa.String(16), nullable=False, server_default="mt19937"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("deal")
