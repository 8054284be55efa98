"""The tables' own tables: each game's set-up and state columns (``games``), its seats
(``seats``) and its accepted actions in order (``actions``). A game's state is rebuilt by
replaying its actions from the seed, so an action is durable once its row is committed."""

# No ``from __future__ import annotations`` here: SQLAlchemy then reads each ``Mapped[...]``
# as the object Python made, instead of evaluating its text again (issue 34: ~5 ms of CPU
# for the tables of all concerns, a sixth of their cost at import).

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from palio.server.accounts import tables as _accounts  # noqa: F401 - seats.account_id names accounts.id
from palio.server.base.db import Base


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
    # Timed tables, leaving and expiry (palio.server.play.timing; migration 0004). ``status`` may
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
    # the SHA-256 of the creator's token (palio/server/play/seating.py): it may give an empty seat
    # to a bot
    creator_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # whether spectators may write (and read) the table chat; chosen at creation (migration 0005)
    spectator_chat: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # a seat asked the bot for a hint at this (practice) table (migration 0008)
    hints_used: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


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
    # the seat's place once the game is over (1-based; None before, and for games finished
    # before migration 0011)
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
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
