"""The tournaments' tables. A round's row, its tables' rows, its games and its byes are
written in one transaction, and ``(tournament_id, number)`` is unique, so each round is
created exactly once however many processes try (the loser's transaction rolls back whole).
An arena has no rounds: each batch of tables it seats together is written as one numbered
``tournament_rounds`` row all the same (so the same rule makes each batch once)."""

# No ``from __future__ import annotations`` here: SQLAlchemy then reads each ``Mapped[...]``
# as the object Python made, instead of evaluating its text again (issue 34: ~5 ms of CPU
# for the tables of all concerns, a sixth of their cost at import).

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from palio.server.base.db import Base
from palio.server.play import tables as _play  # noqa: F401 - tournament_tables.game_id names games.id


class TournamentRow(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(64))
    seats: Mapped[int] = mapped_column(Integer)  # players per table
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    timing: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    on_timeout: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    format: Mapped[str] = mapped_column(String(16))  # swiss | roundrobin | arena
    scoring: Mapped[str] = mapped_column(String(16))  # a preset of palio.tournament.PRESETS
    rounds: Mapped[int] = mapped_column(Integer)  # 0 for an arena (it runs until ends_at)
    bots: Mapped[bool] = mapped_column(Boolean, default=False)  # may bots fill a table
    # the level (or spec) of those bots (migration 0014; "medium" for the tournaments before)
    bot_level: Mapped[str] = mapped_column(String(100), default="medium",
                                           server_default="medium")
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    # no foreign key to accounts (as ratings): accounts are disabled, never deleted
    organiser_id: Mapped[int] = mapped_column(Integer)
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    # an arena's end (migration 0013): no table is seated after it; null for the others
    ends_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # the longest a round (an arena's table) may run: the next round is then paired without
    # those still at its unfinished tables (they sit it out; the tables count when finished)
    round_days: Mapped[int] = mapped_column(Integer, default=7)
    status: Mapped[str] = mapped_column(String(16), index=True)  # planned | running | finished
    seed: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class EntrantRow(Base):
    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))  # the account's name when it registered
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    timeouts: Mapped[int] = mapped_column(Integer, default=0)  # tables it timed out of
    registered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RoundRow(Base):
    __tablename__ = "tournament_rounds"
    __table_args__ = (UniqueConstraint("tournament_id", "number",
                                       name="uq_tournament_rounds_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)  # 1-based
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deadline_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class TableRow(Base):
    __tablename__ = "tournament_tables"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    round_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournament_rounds.id", ondelete="CASCADE"), index=True)
    # account ids in seat order, None for a bot's seat
    seats: Mapped[list[int | None]] = mapped_column(JSON)
    # each seat's place once the game finished (None before)
    places: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    # when the game finished (migration 0013; an arena seats the longest-waiting first)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # each seat's final game score, in seat order (written by the finish hook since issue 38;
    # the column is from migration 0012; None: unfinished, or finished before)
    scores: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)


class ByeRow(Base):
    __tablename__ = "tournament_byes"

    round_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tournament_rounds.id", ondelete="CASCADE"), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # sat the round out while still at an unfinished table of an earlier round (migration
    # 0015): no points; false for a bye (the pairing's, scored as docs/tournaments.md says)
    playing: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
