"""Alembic environment: the server passes its open connection in ``config.attributes``."""

from alembic import context

from palio.server.base.db import Base

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # pragma: no cover - the server always passes one
    raise RuntimeError("run migrations through palio.server.base.db.upgrade(engine)")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
