"""Why a seat's token was revoked (``seats.revoked``): ``admin`` (an admin revoked that
seat's), ``account`` (its account was banned or removed: every seat of it at every table,
:func:`red7.web.table.hosting.revoke_account`); null until then, and again once the host
seats its person anew. A connection whose token was revoked is told which.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("revoked", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("revoked")
