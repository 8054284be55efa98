"""Each seat's place in a finished game (palio.server.play.service), for the profile's list of
finished games: ``seats`` gains ``place`` (1-based, ties share one; a seat that forfeited at a
table ranked "last" is last). Games finished before this revision keep none (the profile shows
no place for them: working it out would replay every old game).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("place", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("place")
