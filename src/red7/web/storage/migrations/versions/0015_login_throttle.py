"""Failed logins slow their address down instead of locking a name out
(:mod:`red7.web.accounts.throttle`): ``login_failures`` (failures by name, and the name's
lock) gives way to ``login_throttle``: the failures of an address on a name, of an
address, and of a name, each under the SHA-256 of what it counts, with when the count
began, its last failure and when the address may try again.

The counts of ``login_failures`` are not carried over (they are hashes of names alone:
no address to slow down); a name locked when the server is upgraded is unlocked.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_table("login_failures")
    op.create_table(
        "login_throttle",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("first", sa.Float, nullable=False),
        sa.Column("last", sa.Float, nullable=False, index=True),
        sa.Column("until", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("login_throttle")
    op.create_table(
        "login_failures",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("first", sa.Float, nullable=False),
        sa.Column("locked_until", sa.Float, nullable=True),
    )
