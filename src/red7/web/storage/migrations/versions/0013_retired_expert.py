"""The level ``expert`` left the levels offered (docs/bots.md, "Tried and removed"): the
seats stored with it play as ``hard`` (:data:`red7.bots.RETIRED_LEVELS`).

Data only, no schema change. Every stored seat whose bot is ``expert`` becomes ``hard``:
a table in play goes on with ``hard`` in that seat, and the records of the games those
tables played name ``hard`` from then on (the seats table is where a record reads its
bots). The ratings' line ``bot:expert`` is left as it is: the history of the rated games
that level played, which no new game moves.

The downgrade changes nothing back: which ``hard`` seats were ``expert`` is not kept, and
a server of the previous release plays ``hard`` seats as well.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    seats = sa.table("seats", sa.column("bot", sa.String(80)))
    op.execute(seats.update().where(seats.c.bot == "expert").values(bot="hard"))


def downgrade() -> None:
    pass  # nothing to undo (module docstring)
