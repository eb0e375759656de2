"""A finished review kept in every language the server speaks (:mod:`red7.web.reviews.reviews`):
``reviews`` becomes one row per game *and language* (its key), so that each reader is served
the review in their own. The rows kept before stay, each in its table's language.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

COLUMNS = "game_id, lang, decisions, text, at"


def _reviews(name: str, *key: str) -> None:
    op.create_table(
        name,
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("decisions", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint(*key, name=f"pk_{name}_{'_'.join(key)}"),
    )


def upgrade() -> None:
    op.rename_table("reviews", "reviews_0017")
    _reviews("reviews", "game_id", "lang")
    op.execute(f"INSERT INTO reviews ({COLUMNS}) SELECT {COLUMNS} FROM reviews_0017")
    op.drop_table("reviews_0017")


def downgrade() -> None:
    # one review a game again: the one in its table's language (that of the game's table)
    op.rename_table("reviews", "reviews_0018")
    _reviews("reviews", "game_id")
    op.execute(
        f"INSERT INTO reviews ({COLUMNS}) SELECT {COLUMNS} FROM reviews_0018 r"
        " WHERE r.lang = (SELECT t.lang FROM games g JOIN tables t ON t.id = g.table_id WHERE g.id = r.game_id)"
    )
    op.drop_table("reviews_0018")
