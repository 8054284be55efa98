"""The accounts' tables: accounts, sign-in sessions and refused sign-ins."""

# No ``from __future__ import annotations`` here: SQLAlchemy then reads each ``Mapped[...]``
# as the object Python made, instead of evaluating its text again (issue 34: ~5 ms of CPU
# for the tables of all concerns, a sixth of their cost at import).

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from palio.server.base.db import Base


class AccountRow(Base):
    """A person who signed up. ``name_key`` is the name folded to lower case: names are unique
    regardless of case ("Ada" and "ada" are one account)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    # the name's confusable skeleton (base/names.py): unique, so that no two accounts, made by
    # any processes, have names that look alike (NULL only for old look-alikes, see 0010)
    name_skeleton: Mapped[str | None] = mapped_column(String(256), unique=True, nullable=True)
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
