"""The ratings' rules against farming (:mod:`red7.web.ratings.eligibility`): what became of
each game claimed, and who each rated game rated.

``rated_games.verdict``: ``rated``, ``unplayed`` or ``repeated`` (every game claimed
before this migration was rated: ``rated``). ``rated_players``: one row per player a game
rated, keyed by the game and the player, looked up by the player: the rule on the same
people rated together counts the games two identities share. The games rated before this
migration have no such rows, so they do not count toward that rule (for a day at most).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rated_games", sa.Column("verdict", sa.String(12), nullable=False, server_default="rated"))
    op.create_table(
        "rated_players",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("rated_games.game_id"), primary_key=True),
        sa.Column("identity", sa.String(48), primary_key=True),
    )
    op.create_index("ix_rated_players_identity", "rated_players", ["identity"])


def downgrade() -> None:
    op.drop_index("ix_rated_players_identity", table_name="rated_players")
    op.drop_table("rated_players")
    with op.batch_alter_table("rated_games") as batch:
        batch.drop_column("verdict")
