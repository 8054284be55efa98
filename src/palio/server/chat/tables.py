"""The chat's table: one row per message of a table's chat."""

# No ``from __future__ import annotations`` here: SQLAlchemy then reads each ``Mapped[...]``
# as the object Python made, instead of evaluating its text again (issue 34: ~5 ms of CPU
# for the tables of all concerns, a sixth of their cost at import).

from datetime import datetime

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from palio.server.base.db import Base
from palio.server.play import tables as _play  # noqa: F401 - chat.game_id names games.id


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
