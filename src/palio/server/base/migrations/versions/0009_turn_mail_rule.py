"""Turn mails that are never silently lost.

``outbox`` gains ``kind`` ("turn" or "reminder") and ``answered_at`` (when the player moved
at the table after the mail was sent: palio.server.mail.turns).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("outbox", sa.Column("kind", sa.String(16), nullable=True))
    op.add_column("outbox", sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("answered_at")
        batch.drop_column("kind")
