"""Tables shared by several server processes: a version per table, staged decisions
kept, and the substitute bot of an absent player.

* ``tables.version``: bumped by every change of the table; a change is written only
  against the version it was made from (compare and set), which serializes a table's
  changes across processes.
* ``games.committed``: how many of the game's decisions are final; the decisions after
  them are a person's staged turn (they may still be taken back). Games written by the
  previous release kept only final decisions, so theirs is their count.
* ``seats.substitute``: the bot playing for a person away on their turn.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("version", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("substitute", sa.String(80), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("committed", sa.Integer, nullable=False, server_default="0"))
    op.execute("UPDATE games SET committed = (SELECT COUNT(*) FROM decisions WHERE decisions.game_id = games.id)")


def downgrade() -> None:
    # staged decisions were never kept before: drop them, so every decision left is final
    op.execute("DELETE FROM decisions WHERE seq >= (SELECT committed FROM games WHERE games.id = decisions.game_id)")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("committed")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("substitute")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("version")
