"""Persistence: SQLAlchemy 2 tables, the engine, and Alembic migrations run at start-up.

The database holds only what cannot be recomputed: each game's set-up (game id, players,
options, seed), its seats, and the accepted actions in order. A game's state is rebuilt by
replaying those actions from the seed (event sourcing), so an action is durable as soon as its
row is committed.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    create_engine,
    event,
    false,
    text,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

MIGRATIONS = Path(__file__).parent / "migrations"


def now() -> datetime:
    return datetime.now(UTC)


def utc(moment: datetime) -> datetime:
    """SQLite returns naive datetimes; every time stored here is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    version: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)  # open | running | finished
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Written with every change, in the same transaction: ``revision`` counts changes (create,
    # join, move, undo), so a process whose cached copy has another revision reloads it; the
    # lobby lists games from these columns without replaying them.
    revision: Mapped[int] = mapped_column(Integer, default=0)
    move_number: Mapped[int] = mapped_column(Integer, default=0)
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    updated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # who created the game (a hash of the client's address), for the per-minute limit
    creator: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # Timed tables, leaving and expiry (palio.server.timing; migration 0004). ``status`` may
    # also be "expired": an open table nobody joined in time.
    timing: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # {"kind": ...}
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    practice: Mapped[bool] = mapped_column(Boolean, default=False)
    on_timeout: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # {"remaining": [seconds per seat at "started"], "started": ISO time the turn began}
    clocks: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # when the seat to move runs out (or an open table expires, or an idle one is handled);
    # None while a bot is to move and once the game has ended
    deadline_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True,
                                                         index=True)
    # [{"seat", "reason": "timeout" | "left", "move", "rule": "bot" | "last", "level"}]
    forfeits: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    # the SHA-256 of the creator's token (palio/server/seating.py): it may give an empty seat
    # to a bot
    creator_token: Mapped[str | None] = mapped_column(String(64), nullable=True)


Index("ix_games_created", GameRow.created_at, GameRow.id)
Index("ix_games_game_created", GameRow.game, GameRow.created_at)
Index("ix_games_creator_created", GameRow.creator, GameRow.created_at)


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # human | bot
    level: Mapped[str | None] = mapped_column(String(100), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # the account holding this seat (NULL: a guest's seat, held by its token alone, or a bot's)
    account_id: Mapped[int | None] = mapped_column(Integer, ForeignKey("accounts.id"),
                                                   nullable=True, index=True)


class ActionRow(Base):
    __tablename__ = "actions"

    # (game_id, n) is the primary key, so one move number is accepted once at most
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    n: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1-based move number
    seat: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# -- table chat and ratings (chat.py, ratings.py; migration 0005) ------------------------------
# whether spectators may write (and read) the table chat; chosen at creation
GameRow.spectator_chat = mapped_column(Boolean, default=False, server_default=false())


class ChatRow(Base):
    """One message of a table's chat; ``n`` counts a game's messages from 1 (a reconnecting
    page asks for those after the last it has)."""

    __tablename__ = "chat"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    # who wrote it, for muting and the rate limit: "seat:2", "account:17" or "guest:<hash>"
    author: Mapped[str] = mapped_column(String(80))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


Index("ix_chat_author", ChatRow.game_id, ChatRow.author, ChatRow.created_at)


class RatingRow(Base):
    """An account's OpenSkill rating at one game type (ratings.py)."""

    __tablename__ = "ratings"

    # no foreign key to accounts (see migration 0005): accounts are disabled, never deleted
    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


Index("ix_ratings_game", RatingRow.game, RatingRow.mu)


class RatingChangeRow(Base):
    """How one finished game changed one account's displayed rating."""

    __tablename__ = "rating_changes"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)


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
    from alembic import command
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
    import secrets

    import psycopg

    base = make_url(url)
    name = f"{prefix}_{secrets.token_hex(6)}"
    plain = base.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return base.set(database=name).render_as_string(hide_password=False)


class OutboxRow(Base):
    """A mail to send (palio.server.mail): written in the transaction that makes it due, sent
    by whichever process claims it first, marked sent once; a mail server that is down only
    delays it."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    # one mail per reason at most ("turn:<game>:<seat>:<move>"): a second process queueing
    # the same turn's mail hits this unique key instead of sending twice
    key: Mapped[str] = mapped_column(String(128), unique=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    move_number: Mapped[int | None] = mapped_column(Integer, nullable=True)
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    to_address: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(Text)
    body: Mapped[str] = mapped_column(Text)
    stop_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    send_after: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    dropped: Mapped[str | None] = mapped_column(String(32), nullable=True)  # why not sent
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)


class PageSeenRow(Base):
    """When a page of a table was last open for a seat, in any process (the mailer sends no
    turn mail to a player who has the table open)."""

    __tablename__ = "page_seen"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
# -- accounts (palio.server.accounts) ----------------------------------------------------------
class AccountRow(Base):
    """A person who signed up. ``name_key`` is the name folded to lower case: names are unique
    regardless of case ("Ada" and "ada" are one account)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    lang: Mapped[str] = mapped_column(String(8), default="en")
    mail_turns: Mapped[bool] = mapped_column(Boolean, default=True)  # mail when it is my turn
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SessionRow(Base):
    """A signed-in browser. Only a hash of the cookie's token is stored, so a copy of the
    database opens no session."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_used_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SignInFailureRow(Base):
    """A refused sign-in, kept a while to limit guessing: ``key`` is a hash of the name or of
    the client's address (a database table, so every server process counts the same)."""

    __tablename__ = "sign_in_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


Index("ix_sign_in_failures_key_at", SignInFailureRow.key, SignInFailureRow.at)


# -- reviews and hints (palio.server.review; migration 0008) -----------------------------------
# a seat asked the bot for a hint at this (practice) table
GameRow.hints_used = mapped_column(Boolean, default=False, server_default=false())


class ReviewRow(Base):
    """A finished game's review (palio.server.review): requested once, claimed by one
    process (``status`` queued -> running, ``claimed_by``), computed in a review process that
    writes its progress and heartbeat here, stored once done (``result``, language-free)."""

    __tablename__ = "reviews"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    status: Mapped[str] = mapped_column(String(16), index=True)  # queued|running|done|failed|cancelled
    seed: Mapped[int] = mapped_column(BigInteger)
    iterations: Mapped[int] = mapped_column(Integer)
    progress: Mapped[int] = mapped_column(Integer, default=0)  # decisions reviewed so far
    total: Mapped[int] = mapped_column(Integer, default=0)
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    heartbeat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
