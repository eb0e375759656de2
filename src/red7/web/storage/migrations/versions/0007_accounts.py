"""Accounts (optional: guests play as before), their login sessions, the failed logins
that lock a name out for a while, and the account a seat was taken by.

* ``accounts``: a registered person: username as typed, its case-folded key (unique),
  the argon2 hash of the password, role (``member`` or ``admin``), banned or not;
* ``logins``: a login session, kept as the SHA-256 of its random id (the cookie holds
  the id itself), its account and when it expires;
* ``login_failures``: failed logins by username key, whether the account exists or not
  (so a lockout tells nothing of which names are registered);
* ``seats.account_id``: the account of the person who took the seat while logged in
  (null: a guest, a bot, an empty seat, or a seat taken before this migration).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(20), nullable=False),
        sa.Column("key", sa.String(20), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("role", sa.String(8), nullable=False, server_default="member"),
        sa.Column("banned", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "logins",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True
        ),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "login_failures",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("first", sa.Float, nullable=False),
        sa.Column("locked_until", sa.Float, nullable=True),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer, nullable=True))
        batch.create_index("ix_seats_account_id", ["account_id"])


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_account_id")
        batch.drop_column("account_id")
    op.drop_table("login_failures")
    op.drop_table("logins")
    op.drop_table("accounts")
