"""Timed tables, leaving and expiry (palio.server.play.timing).

``games`` gains ``timing``, ``rated``, ``practice``, ``on_timeout``, ``clocks``, ``forfeits``
(JSON and booleans) and ``deadline_at`` (indexed: the deadline sweep reads due games by it).
Existing games get no clock and no deadline (the sweep leaves them alone until their next
change sets one); ``status`` may now also be "expired".

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

COLUMNS = ("timing", "rated", "practice", "on_timeout", "clocks", "deadline_at", "forfeits")


def upgrade() -> None:
    # plain ADD COLUMNs: SQLite rebuilds no table for them
    op.add_column("games", sa.Column("timing", sa.JSON, nullable=True))
    op.add_column("games", sa.Column("rated", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    op.add_column("games", sa.Column("practice", sa.Boolean, nullable=False,
                                     server_default=sa.false()))
    op.add_column("games", sa.Column("on_timeout", sa.JSON, nullable=True))
    op.add_column("games", sa.Column("clocks", sa.JSON, nullable=True))
    op.add_column("games", sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("games", sa.Column("forfeits", sa.JSON, nullable=True))
    op.create_index("ix_games_deadline_at", "games", ["deadline_at"])


def downgrade() -> None:
    """Run through ``palio.server.base.db.upgrade(engine, "0002")`` (SQLite's foreign keys off:
    dropping columns rebuilds the table there)."""
    op.drop_index("ix_games_deadline_at", "games")
    with op.batch_alter_table("games") as batch:
        for name in reversed(COLUMNS):
            batch.drop_column(name)
