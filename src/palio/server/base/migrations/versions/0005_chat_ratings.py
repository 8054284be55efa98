"""Table chat and ratings.

``games`` gains ``spectator_chat`` (may spectators write in the table chat; a plain ADD
COLUMN, so SQLite rebuilds nothing). ``chat`` holds each table's messages, numbered from 1 per
game. ``ratings`` holds an account's OpenSkill rating (mu, sigma) per game type and
``rating_changes`` how each rated game moved each account's displayed rating.

``account_id`` has no foreign key: a rating outlives nothing it needs (an account is disabled,
never deleted), and the revision was written beside the accounts one.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"  # chained after accounts (0003) and timing (0004)
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("spectator_chat", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    op.create_table(
        "chat",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("author", sa.String(80), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_author", "chat", ["game_id", "author", "created_at"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_game", "ratings", ["game", "mu"])
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_game", "ratings")
    op.drop_table("ratings")
    op.drop_index("ix_chat_author", "chat")
    op.drop_table("chat")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("spectator_chat")
