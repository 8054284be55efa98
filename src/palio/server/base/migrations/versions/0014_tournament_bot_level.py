"""The bots' level of a tournament (palio.server.tournaments): ``tournaments`` gains
``bot_level``, the level of the bots that fill its short tables. The tournaments before this
revision keep the level they always had: ``medium``.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("bot_level", sa.String(100), nullable=False,
                                           server_default="medium"))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("bot_level")
