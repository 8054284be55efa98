"""The mail's tables: the outbox, and when a table's page was last open for a seat."""

# No ``from __future__ import annotations`` here: SQLAlchemy then reads each ``Mapped[...]``
# as the object Python made, instead of evaluating its text again (issue 34: ~5 ms of CPU
# for the tables of all concerns, a sixth of their cost at import).

from datetime import datetime

from sqlalchemy import (
    DateTime,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from palio.server.base.db import Base


class OutboxRow(Base):
    """A mail to send (palio.server.mail.turns): written in the transaction that makes it due, sent
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
    kind: Mapped[str | None] = mapped_column(String(16), nullable=True)  # "turn", "reminder"
    # when the player moved at the table after this mail was sent (it was answered)
    answered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PageSeenRow(Base):
    """When a page of a table was last open for a seat, in any process (the mailer sends no
    turn mail to a player who has the table open)."""

    __tablename__ = "page_seen"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
