"""The arena tournament (palio.server.tournaments): ``tournaments`` gains ``ends_at`` (an
arena's end; null for Swiss and round robin) and ``tournament_tables`` gains ``finished_at``
(when the table's game finished: an arena seats the longest-waiting first). Tables finished
before this revision keep none.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("tournament_tables",
                  sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_tables") as batch:
        batch.drop_column("finished_at")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("ends_at")
