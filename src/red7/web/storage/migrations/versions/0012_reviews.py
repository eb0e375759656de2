"""The finished reviews of games (:mod:`red7.web.reviews.reviews`), kept for every process.

``reviews``: one row per game reviewed (its key, the game's id, lets the first finished
review in and no other), the review's language, how many decisions it marked, and its
text.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("reviews")
