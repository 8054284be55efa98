"""Still playing at a round's deadline (palio.server.tournaments): ``tournament_byes`` gains
``playing``. A round paired at its predecessor's deadline seats nobody still at an unfinished
table; each such entrant sits the round out, recorded as a row with ``playing`` true, which
scores no points (a bye scores as before). The rows before this revision are byes.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournament_byes", sa.Column("playing", sa.Boolean(), nullable=False,
                                               server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("tournament_byes") as batch:
        batch.drop_column("playing")
