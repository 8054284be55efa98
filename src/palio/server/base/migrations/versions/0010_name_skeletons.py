"""Names that cannot pass for another (palio.server.base.names).

``accounts`` gains ``name_skeleton``, the UTS #39 confusable skeleton of the name, with a
unique index, so that two processes cannot both create names that look alike. Existing
accounts get theirs; of existing accounts whose names already look alike, the oldest keeps
its skeleton and the others keep NULL (they go on working; a new look-alike is refused).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

from palio.server.base.names import skeleton

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("accounts", sa.Column("name_skeleton", sa.String(256), nullable=True))
    bind = op.get_bind()
    accounts = sa.table("accounts", sa.column("id", sa.Integer), sa.column("name", sa.String),
                        sa.column("name_skeleton", sa.String))
    taken: set[str] = set()
    for account_id, name in bind.execute(sa.select(accounts.c.id, accounts.c.name)
                                         .order_by(accounts.c.id)).all():
        key = skeleton(name)
        if key in taken:
            continue
        taken.add(key)
        bind.execute(accounts.update().where(accounts.c.id == account_id)
                     .values(name_skeleton=key))
    op.create_index("ix_accounts_name_skeleton", "accounts", ["name_skeleton"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_accounts_name_skeleton", table_name="accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("name_skeleton")
