"""Rated tables, and the ratings their games move (:mod:`red7.web.ratings.ratings`).

``tables.rated`` (every table before it: not rated), ``ratings`` (one line per rated
person or bot level) and ``rated_games`` (the games already rated: its key lets a game
be rated once).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN: a batch copy of ``tables`` would trip its seats' foreign keys
    op.add_column("tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.create_table(
        "ratings",
        sa.Column("identity", sa.String(48), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rated_games")
    op.drop_table("ratings")
    op.drop_column("tables", "rated")
