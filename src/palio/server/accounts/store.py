"""Accounts: optional sign-up, sign-in sessions, and the seats an account holds.

Playing as a guest with a seat token stays as it is. A person may also sign up with a name and
a password (hashed with argon2-cffi's ``PasswordHasher``); signing in sets a session cookie
holding a random token (HttpOnly, SameSite=Lax, Secure when the request came over HTTPS), and
the database keeps only a hash of that token (``sessions``), with its expiry read from the
server's one clock. A signed-in browser joins a seat without a guest name and is then that
seat wherever a seat token would be asked for (views, actions, undo, the WebSocket), from any
device.

Defences:

* CSRF: a write carrying the session cookie must come with the server's own ``Origin``
  (:class:`OriginCheck`); with SameSite cookies this needs no token in the page. Sign-up and
  sign-in refuse a foreign ``Origin`` too (no signing a victim into someone else's account).
* Guessing: after ``FAILURE_LIMIT`` refused sign-ins for one name or from one address within
  ``FAILURE_WINDOW``, sign-in answers 429 with ``Retry-After``. Failures are rows, so every
  server process counts the same ones.
* Sign-up cost: each sign-up hashes a password (argon2: CPU time and 64 MiB), so one client
  address may start at most ``sign_ups_per_hour`` sign-ups an hour (``--sign-ups-per-hour``;
  0: no limit), counted in the failures table under their own key before the hash is made.
* Enumeration: an unknown name and a wrong password give the same answer after the same work
  (an unknown name is checked against a dummy hash). Sign-up must say that a name is taken.
* Secrets: passwords and session tokens are never logged (``logs.py`` redacts the cookie) nor
  put in a URL or an error message.
"""

from __future__ import annotations

import hashlib
import math
import secrets
import threading
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Annotated, Any, Literal

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from email_validator import EmailNotValidError, validate_email
from fastapi.responses import JSONResponse
from pydantic import AfterValidator, Field
from sqlalchemy import delete, func, or_, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from palio.core.i18n import LANGUAGES
from palio.server.accounts.tables import AccountRow, SessionRow, SignInFailureRow
from palio.server.base import models
from palio.server.base.clock import Clock
from palio.server.base.cluster import CHANNEL
from palio.server.base.db import utc
from palio.server.base.errors import ApiError
from palio.server.base.names import skeleton

SESSION_COOKIE = "palio_session"
SESSION_LIFETIME = timedelta(days=30)  # from the last use: a session in use does not end
TOUCH_EVERY = timedelta(hours=1)  # how often a used session's row is written
FAILURE_LIMIT = 5  # refused sign-ins for one name, or from one address...
FAILURE_WINDOW = timedelta(minutes=15)  # ...within this long, then 429
SIGN_UP_WINDOW = timedelta(hours=1)  # sign-ups from one address are counted over this long
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
SIGN_IN_PATHS = {"/api/session", "/api/accounts"}
MAX_PASSWORD = 1024  # characters: argon2 takes any length, a limit keeps requests cheap
MIN_PASSWORD = 8
SIGN_IN_LOCK = 0x50616C696F  # PostgreSQL's advisory lock of the sign-in limit ("Palio")
# replies that depend on who asks (a seat's view, an account's settings): no cache keeps them,
# neither a proxy's nor the browser's on a shared computer
PRIVATE = {"Cache-Control": "private, no-store"}
MAX_CLAIMS = 50  # the browser keeps at most 50 seats (common.js)

HASHER = PasswordHasher()


@dataclass(frozen=True)
class Account:
    """A signed-in person as the rest of the server sees them (never the password hash)."""

    id: int
    name: str
    email: str | None
    lang: str
    mail_turns: bool

    @classmethod
    def of(cls, row: AccountRow) -> Account:
        return cls(row.id, row.name, row.email, row.lang, row.mail_turns)

    def public(self) -> dict[str, Any]:
        return {"name": self.name, "email": self.email, "lang": self.lang,
                "mail_turns": self.mail_turns}


# -- request bodies ------------------------------------------------------------------------
def _account_name(value: str) -> str:
    if value != value.strip() or not value.isprintable() or "/" in value:
        raise ValueError("must be printable, without '/' or spaces at either end")
    return value


def _email(value: str) -> str:
    """One address, checked by email-validator (syntax only, no network): a list
    ("a@x.org,b@y.net"), a second "@", a quoted local part or a display name is refused, so a
    turn mail can only ever go to the one address given."""
    if value == "":
        return value  # "": no address
    try:
        checked = validate_email(value, check_deliverability=False, allow_quoted_local=False,
                                 allow_domain_literal=False, allow_display_name=False)
    except EmailNotValidError:
        raise ValueError("must be one e-mail address such as ada@example.org") from None
    return checked.normalized


def _password(value: str) -> str:
    if len(value) < MIN_PASSWORD:
        raise ValueError(f"must be at least {MIN_PASSWORD} characters")
    return value


AccountName = Annotated[str, Field(min_length=1, max_length=32), AfterValidator(_account_name)]
Password = Annotated[str, Field(min_length=1, max_length=MAX_PASSWORD),
                     AfterValidator(_password)]
Email = Annotated[str, Field(max_length=254), AfterValidator(_email)]
Language = Literal[tuple(LANGUAGES)]  # type: ignore[valid-type]


class Claim(models.Body):
    """A guest seat held in this browser: its game, seat and token."""

    game: Annotated[str, Field(min_length=1, max_length=32)]
    seat: Annotated[int, Field(ge=0, le=models.MAX_PLAYERS)]
    token: Annotated[str, Field(min_length=1, max_length=200)]


Claims = Annotated[list[Claim], Field(max_length=MAX_CLAIMS)]


class SignUp(models.Body):
    name: AccountName
    password: Password
    email: Email | None = None
    lang: Language | None = None
    claim: Claims | None = None


class SignIn(models.Body):
    # any text: a refusal must not tell a malformed name from an unknown one
    name: Annotated[str, Field(min_length=1, max_length=64)]
    password: Annotated[str, Field(min_length=1, max_length=MAX_PASSWORD)]
    claim: Claims | None = None


class ChangeSettings(models.Body):
    email: Email | None = None  # "": remove the address
    lang: Language | None = None
    mail_turns: bool | None = None
    password: Password | None = None  # a new password, with...
    current_password: Annotated[str, Field(min_length=1, max_length=MAX_PASSWORD)] | None = None


# -- helpers ---------------------------------------------------------------------------------
def name_key(name: str) -> str:
    """The form names are compared in: "Ada", "ADA" and a full-width "Ａda" are one name."""
    return unicodedata.normalize("NFKC", name).casefold()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def limit_key(kind: str, value: str) -> str:
    """What the failures table keeps of a name or an address: a hash."""
    return hashlib.sha256(f"palio-sign-in:{kind}:{value}".encode()).hexdigest()


@cache
def dummy_hash() -> str:
    """A hash no password matches: an unknown name is verified against it, so that it costs
    the same time as a known one."""
    return HASHER.hash(secrets.token_urlsafe(32))


def password_matches(stored: str, password: str) -> bool:
    try:
        return HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def bad_credentials() -> ApiError:
    # one answer for an unknown name and a wrong password
    return ApiError(401, "bad_credentials", "the name or the password is wrong")


class TooManyAttempts(ApiError):
    def __init__(self, retry_after: int) -> None:
        super().__init__(429, "too_many_attempts",
                         f"too many refused sign-ins; try again in {retry_after} seconds")
        self.retry_after = retry_after


class TooManySignUps(TooManyAttempts):
    def __init__(self, limit: int, retry_after: int) -> None:
        super().__init__(retry_after)
        self.code = "too_many_sign_ups"
        self.message = (f"one address may sign up {limit} accounts an hour; "
                        f"try again in {retry_after} seconds")


def lock_sign_ins(session: Session) -> None:
    """On PostgreSQL, one transaction of every process at a time checks the sign-in limit and
    counts its attempt (held to the commit); the caller's lock does it within one process."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SIGN_IN_LOCK})


def too_many(exc: TooManyAttempts) -> JSONResponse:
    return JSONResponse({"error": {"code": exc.code, "message": exc.message}},
                        status_code=429, headers={"Retry-After": str(exc.retry_after)})


# -- the store -------------------------------------------------------------------------------
class AccountStore:
    """Accounts and sessions in the database. Thread-safe; every method is blocking."""

    def __init__(self, sessions: sessionmaker[Session], clock: Clock,
                 sign_ups_per_hour: int = 0) -> None:
        self.sessions = sessions
        self.clock = clock
        self.sign_ups_per_hour = sign_ups_per_hour  # per client address; 0: no limit
        self.limit_lock = threading.Lock()  # checking the sign-in limit and counting at once

    # accounts
    def create(self, name: str, password: str, email: str | None = None,
               lang: str | None = None, address: str | None = None) -> Account:
        """A new account; 409 when the name (in any case) is taken; 429 when ``address`` (a
        client's, None: no limit, as for the command line) signed up too often."""
        if address is not None and self.sign_ups_per_hour > 0:
            self._count_sign_up(address)  # before the costly hash
        digest = HASHER.hash(password)
        row = AccountRow(name=name, name_key=name_key(name), name_skeleton=skeleton(name),
                         password_hash=digest,
                         email=email or None, lang=lang or "en", mail_turns=True,
                         disabled=False, created_at=self.clock.now())
        taken = ApiError(409, "name_taken",
                         "this name is taken, or looks like one that is; choose another")
        try:
            with self.sessions.begin() as session:
                if (self.row_by_name(session, name) is not None
                        or account_named_like(session, name) is not None):
                    raise taken  # the same name, or one that looks like it
                session.add(row)
                session.flush()
                return Account.of(row)
        except IntegrityError:  # taken meanwhile by another request
            raise taken from None

    def row_by_name(self, session: Session, name: str) -> AccountRow | None:
        return session.scalar(select(AccountRow).where(AccountRow.name_key == name_key(name)))

    def by_name(self, name: str) -> Account | None:
        """An account that is not disabled, by its name in any case."""
        with self.sessions() as session:
            row = self.row_by_name(session, name)
            return Account.of(row) if row is not None and not row.disabled else None

    def exists(self, name: str) -> bool:
        """Is there an account of this name (disabled or not)?"""
        with self.sessions() as session:
            return self.row_by_name(session, name) is not None

    def list_accounts(self) -> list[dict[str, Any]]:
        with self.sessions() as session:
            rows = session.scalars(select(AccountRow).order_by(AccountRow.name_key)).all()
            return [{"name": r.name, "email": r.email, "lang": r.lang,
                     "disabled": r.disabled, "created_at": r.created_at} for r in rows]

    def set_disabled(self, name: str, disabled: bool = True) -> bool:
        """Disable (or enable) an account; its sessions end. False if there is no such name."""
        with self.sessions.begin() as session:
            row = self.row_by_name(session, name)
            if row is None:
                return False
            row.disabled = disabled
            end_sessions(session, SessionRow.account_id == row.id)
        return True

    def set_password(self, name: str, password: str) -> bool:
        """A new password (its sessions end: whoever knew the old one is signed out)."""
        digest = HASHER.hash(password)
        with self.sessions.begin() as session:
            row = self.row_by_name(session, name)
            if row is None:
                return False
            row.password_hash = digest
            end_sessions(session, SessionRow.account_id == row.id)
        return True

    def change(self, account: Account, body: ChangeSettings,
               current_session: str | None = None) -> tuple[Account, list[str]]:
        """New settings; a new password ends every session but ``current_session`` (the
        token of the browser that changed it). The account, and the hashes of the sessions
        that ended."""
        ended: list[str] = []
        if body.password is not None:
            self.check_current_password(account, body.current_password)
        with self.sessions.begin() as session:
            row = session.get(AccountRow, account.id)
            if row is None or row.disabled:
                raise ApiError(401, "not_signed_in", "sign in first")
            if body.password is not None:
                row.password_hash = HASHER.hash(body.password)
                # whoever else knew the old password, or holds a stolen cookie, is signed out
                ended = end_sessions(session, SessionRow.account_id == row.id,
                                     SessionRow.token_hash != token_hash(current_session or ""))
            elif body.current_password is not None:
                raise ApiError(400, "bad_body", "current_password: is given only with password")
            if body.email is not None:
                row.email = body.email or None
            if body.lang is not None:
                row.lang = body.lang
            if body.mail_turns is not None:
                row.mail_turns = body.mail_turns
            return Account.of(row), ended

    def check_current_password(self, account: Account, given: str | None) -> None:
        """403 unless ``given`` is the account's password. Counted as sign-ins are, under the
        same limit per name: a stolen session is no way to guess the password."""
        refused = ApiError(403, "bad_password",
                           "a new password needs the current one, given correctly")
        if given is None:
            raise refused
        now = self.clock.now()
        keys = [limit_key("name", name_key(account.name))]
        with self.limit_lock, self.sessions.begin() as session:
            lock_sign_ins(session)
            self._check_failures(session, keys, now)
            attempt = self._record_failure(session, keys, now)
            row = session.get(AccountRow, account.id)
            stored = row.password_hash if row is not None else dummy_hash()
        if not password_matches(stored, given):
            raise refused
        with self.sessions.begin() as session:  # right: this attempt was no refusal
            session.execute(delete(SignInFailureRow).where(SignInFailureRow.id.in_(attempt)))

    # signing in
    def sign_in(self, name: str, password: str, address: str) -> Account:
        """The account if the password is right; 401 the same way for an unknown name and a
        wrong password; 429 after too many refusals for the name or the address."""
        now = self.clock.now()
        keys = [limit_key("name", name_key(name)), limit_key("address", address)]
        # the attempt counts as a refusal from the moment it passes the limit, before the slow
        # password check: parallel guesses cannot all pass the check before any is counted
        with self.limit_lock, self.sessions.begin() as session:
            lock_sign_ins(session)
            self._check_failures(session, keys, now)
            attempt = self._record_failure(session, keys, now)
            row = self.row_by_name(session, name)
            stored = row.password_hash if row is not None else dummy_hash()
        if not password_matches(stored, password) or row is None:
            raise bad_credentials()
        with self.sessions.begin() as session:  # right: this attempt was no refusal
            session.execute(delete(SignInFailureRow).where(or_(
                SignInFailureRow.key == keys[0], SignInFailureRow.id.in_(attempt))))
        if row.disabled:
            raise ApiError(403, "account_disabled", "this account is disabled")
        with self.sessions.begin() as session:
            if HASHER.check_needs_rehash(row.password_hash):  # the hasher's settings grew
                session.execute(update(AccountRow).where(AccountRow.id == row.id)
                                .values(password_hash=HASHER.hash(password)))
        return Account.of(row)

    def _check_failures(self, session: Session, keys: list[str], now: datetime) -> None:
        since = now - FAILURE_WINDOW
        for key in keys:
            times = sorted(session.scalars(select(SignInFailureRow.at).where(
                SignInFailureRow.key == key, SignInFailureRow.at > since)))
            if len(times) >= FAILURE_LIMIT:
                # the count falls below the limit when this one leaves the window
                frees = utc(times[len(times) - FAILURE_LIMIT]) + FAILURE_WINDOW
                raise TooManyAttempts(max(1, math.ceil((frees - now).total_seconds())))

    @staticmethod
    def _record_failure(session: Session, keys: list[str], now: datetime) -> list[int]:
        """A refusal for each key (older ones out of the window go); the new rows' ids."""
        session.execute(delete(SignInFailureRow).where(
            SignInFailureRow.key.in_(keys), SignInFailureRow.at <= now - FAILURE_WINDOW))
        rows = [SignInFailureRow(key=key, at=now) for key in keys]
        session.add_all(rows)
        session.flush()
        return [row.id for row in rows]

    def _count_sign_up(self, address: str) -> None:
        """Refuse (429) an address that started ``sign_ups_per_hour`` sign-ups within the last
        hour, else count this one. Every attempt that gets past here counts, a taken name too:
        each costs a password hash."""
        now = self.clock.now()
        key = limit_key("sign-up", address)
        limit = self.sign_ups_per_hour
        with self.limit_lock, self.sessions.begin() as session:
            lock_sign_ins(session)
            session.execute(delete(SignInFailureRow).where(
                SignInFailureRow.key == key, SignInFailureRow.at <= now - SIGN_UP_WINDOW))
            times = sorted(session.scalars(select(SignInFailureRow.at).where(
                SignInFailureRow.key == key)))
            if len(times) >= limit:
                # the count falls below the limit when this one leaves the window
                frees = utc(times[len(times) - limit]) + SIGN_UP_WINDOW
                raise TooManySignUps(limit, max(1, math.ceil((frees - now).total_seconds())))
            session.add(SignInFailureRow(key=key, at=now))

    # sessions
    def start_session(self, account: Account) -> str:
        """A new random session token (a new one at every sign-in: no session fixation)."""
        token = secrets.token_urlsafe(32)
        now = self.clock.now()
        with self.sessions.begin() as session:
            session.execute(delete(SessionRow).where(SessionRow.account_id == account.id,
                                                     SessionRow.expires_at <= now))
            session.add(SessionRow(token_hash=token_hash(token), account_id=account.id,
                                   created_at=now, last_used_at=now,
                                   expires_at=now + SESSION_LIFETIME))
        return token

    def end_session(self, token: str) -> None:
        """Sign a browser out (see :func:`end_sessions`)."""
        with self.sessions.begin() as session:
            end_sessions(session, SessionRow.token_hash == token_hash(token))

    def account_for_token(self, token: str) -> Account | None:
        """The account a session token signs in, or None (unknown, expired, disabled)."""
        if not token or len(token) > 200:
            return None
        now = self.clock.now()
        digest = token_hash(token)
        with self.sessions() as session:
            found = session.execute(
                select(SessionRow, AccountRow).join(AccountRow,
                                                    AccountRow.id == SessionRow.account_id)
                .where(SessionRow.token_hash == digest)).first()
            if found is None:
                return None
            row, account = found
            if utc(row.expires_at) <= now or account.disabled:
                return None
            result = Account.of(account)
            last_used = utc(row.last_used_at)
        if now - last_used >= TOUCH_EVERY:
            with self.sessions.begin() as session:
                session.execute(update(SessionRow).where(SessionRow.token_hash == digest)
                                .values(last_used_at=now, expires_at=now + SESSION_LIFETIME))
        return result

    def count(self) -> int:
        with self.sessions() as session:
            return int(session.scalar(select(func.count()).select_from(AccountRow)) or 0)


def account_names(session: Session, account_ids: list[int]) -> dict[int, str]:
    """The names of those of these accounts that are not disabled, in the caller's
    transaction (the ratings' leaderboard names its players with it)."""
    if not account_ids:
        return {}
    rows = session.execute(select(AccountRow.id, AccountRow.name).where(
        AccountRow.id.in_(account_ids), AccountRow.disabled.is_(False)))
    return {account_id: name for account_id, name in rows}


def end_sessions(session: Session, *where: Any) -> list[str]:
    """End the sessions that match, in the caller's transaction; their token hashes. On
    PostgreSQL every server process hears of each (``"<hash> signout"`` on the change
    channel, delivered at commit) and closes the WebSocket connections it opened, even when
    ``palio users`` ended them from another process."""
    ended = list(session.scalars(select(SessionRow.token_hash).where(*where)))
    if ended:
        session.execute(delete(SessionRow).where(SessionRow.token_hash.in_(ended)))
        if session.get_bind().dialect.name == "postgresql":
            for digest in ended:
                session.execute(text("SELECT pg_notify(:channel, :payload)"),
                                {"channel": CHANNEL, "payload": f"{digest} signout"})
    return ended


def account_named_like(session: Session, name: str) -> str | None:
    """The name of an account whose name looks like ``name`` (or is it), in the caller's
    transaction: a guest may not take a name that passes for an account's."""
    key = skeleton(name)
    # (an old look-alike left NULL by migration 0010 shares the skeleton of the one kept)
    return session.scalar(select(AccountRow.name).where(AccountRow.name_skeleton == key))


def mail_target(session: Session, account_id: int) -> Account | None:
    """The account, if it may be mailed about its turns now: not disabled, with an address,
    turn mails on (read in the caller's transaction, as the mail concern needs it)."""
    row = session.get(AccountRow, account_id)
    if row is None or row.disabled or not row.email or not row.mail_turns:
        return None
    return Account.of(row)


def stop_turn_mails(session: Session, account_id: int) -> bool:
    """Turn the account's turn mails off (the "stop these mails" link); False: no account."""
    row = session.get(AccountRow, account_id)
    if row is None:
        return False
    row.mail_turns = False
    return True
