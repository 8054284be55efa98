"""Persistence: SQLAlchemy 2 tables, the engine, and Alembic migrations run at start-up.

The database holds only what cannot be recomputed: each game's set-up (game id, players,
options, seed), its seats, and the accepted actions in order. A game's state is rebuilt by
replaying those actions from the seed (event sourcing), so an action is durable as soon as its
row is committed.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    create_engine,
    event,
    text,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase

MIGRATIONS = Path(__file__).parent / "migrations"


def now() -> datetime:
    return datetime.now(UTC)


def utc(moment: datetime) -> datetime:
    """SQLite returns naive datetimes; every time stored here is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    pass


def normalize_url(url: str) -> str:
    """Plain ``postgresql://`` means psycopg 3 here (psycopg2 is not a dependency)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str) -> Engine:
    url = normalize_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            # WAL: readers never block the writer. synchronous=FULL: a commit is on disk
            # (fsync) before it returns, so an acknowledged move survives even a power cut,
            # not only a killed process. foreign_keys: SQLite leaves them off unless asked.
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # No ping before each checkout: every query here is tiny, so a ping would double the
    # round trips. After a database restart the first statement on a stale connection fails
    # (one request answers 500) and SQLAlchemy then replaces the whole pool.
    return create_engine(url, pool_size=10, max_overflow=10, pool_recycle=1800)


def is_sqlite(url: str) -> bool:
    return make_url(normalize_url(url)).get_backend_name() == "sqlite"


# Any fixed number: every palio process on one PostgreSQL database takes this lock to migrate.
MIGRATION_LOCK = 0x70A110


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to the newest migration (Alembic, configured in code).

    On PostgreSQL several processes may start at once (``--workers``, several hosts): a
    transaction-level advisory lock lets one migrate while the others wait, then find the
    schema at its head. On SQLite, foreign keys are off while migrating: a migration that
    rebuilds a table (SQLite's only way to change a column) drops the old one, and with them
    on, the drop would cascade to every row that refers to it.
    """
    from alembic import command  # lazy: Alembic is needed once, at start-up
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:  # outside any transaction, where SQLite ignores this pragma
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        with connection.begin():
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                   {"key": MIGRATION_LOCK})
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()


def fresh_postgres_database(url: str, prefix: str = "palio") -> str:
    """Create a new, empty database on the PostgreSQL cluster at ``url``; its SQLAlchemy URL.

    For tests and benchmarks, so that runs never share rows.
    """
    import psycopg  # lazy: PostgreSQL's driver is an optional extra

    base = make_url(url)
    name = f"{prefix}_{secrets.token_hex(6)}"
    plain = base.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return base.set(database=name).render_as_string(hide_password=False)
