"""Game reviews and hints (palio.server.review.review).

``games`` gains ``hints_used`` (a seat asked for a hint at this practice table); a new table
``reviews`` keeps one review per finished game: its status, progress, the process that claimed
it, and the result once done.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"  # after creator token (0007), in merge order
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN with a default: SQLite rebuilds no table for it
    op.add_column("games", sa.Column("hints_used", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    op.create_table(
        "reviews",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("iterations", sa.Integer, nullable=False),
        sa.Column("progress", sa.Integer, nullable=False, server_default="0"),
        sa.Column("total", sa.Integer, nullable=False, server_default="0"),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("result", sa.JSON, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
    )
    op.create_index("ix_reviews_status", "reviews", ["status"])


def downgrade() -> None:
    op.drop_index("ix_reviews_status", table_name="reviews")
    op.drop_table("reviews")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("hints_used")
