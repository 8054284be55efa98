"""The ratings' tables: each account's rating per game, and each rated game's changes."""

# No ``from __future__ import annotations`` here: SQLAlchemy then reads each ``Mapped[...]``
# as the object Python made, instead of evaluating its text again (issue 34: ~5 ms of CPU
# for the tables of all concerns, a sixth of their cost at import).

from datetime import datetime

from sqlalchemy import (
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from palio.server.base.db import Base
from palio.server.play import tables as _play  # noqa: F401 - rating_changes.game_id names games.id


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
