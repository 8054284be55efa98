"""The creator's token of a game.

``games.creator_token`` holds the SHA-256 of a secret handed only to whoever created the game
(in the reply to ``POST /api/games``): with it, and only with it, a still-empty seat may be
given to a bot later (``POST /api/games/{id}/seats/{seat}/bot``). Games created before have
none, so nobody can do that for them.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN of a nullable column: SQLite rebuilds no table for it
    op.add_column("games", sa.Column("creator_token", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("creator_token")
