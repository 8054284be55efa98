"""Turn mails: "it is your turn" by e-mail at turn-based tables, through an outbox.

A mail is a row of the ``outbox`` table, written in the same transaction as the move that
makes it due, so a move never waits for a mail server and no acknowledged move loses its mail.
Every server process runs a :class:`Mailer`; it claims due rows one at a time with a
conditional UPDATE (the claim expires after ``LEASE_S``, for a process that died mid-send),
sends through SMTP, and marks the row sent. A mail server that is down only delays mail: a
failed send is tried again later, further apart each time. A unique ``key`` per turn stops two
processes from queueing the same mail twice.

What a player receives: at most one mail per table per ``spacing`` (a few hours), only when it
became their turn, they gave an address and did not turn such mails off, and no page of that
table was open for them (each process records the seats its pages watch in ``page_seen``; a
turn mail waits ``GRACE_S`` before it is sent, and is dropped if the page was open meanwhile
or the turn has passed). Each mail links to the table (a plain link: it signs nobody in) and to
a page that stops such mails (a random token per mail, stored as a hash).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import smtplib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import formatdate

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from sqlalchemy import and_, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from palio.core.i18n import Translator
from palio.core.words import msg
from palio.server.accounts.store import mail_target, stop_turn_mails
from palio.server.base.clock import Clock
from palio.server.base.db import utc
from palio.server.base.pages import page_language, say, shell
from palio.server.base.smtp import SmtpTarget
from palio.server.mail.tables import OutboxRow, PageSeenRow
from palio.server.play.service import GameService

log = logging.getLogger("palio.server.mail.turns")

GRACE_S = 60  # a turn mail waits this long; a page opened meanwhile makes it needless
SEEN_EVERY_S = 15  # how often each process records the pages it serves (page_seen)
LEASE_S = 120  # a claim older than this belongs to a process that died while sending
BATCH = 20  # mails one pass sends at most, so a long queue never starves the loop
MAX_BACKOFF_S = 3600


def hash_stop(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_stop_token() -> tuple[str, str]:
    """A token for one mail's "stop these mails" link, and the hash the outbox keeps."""
    token = secrets.token_urlsafe(24)
    return token, hash_stop(token)


def queue(session: Session, *, key: str, to_address: str, subject: str, body: str,
          now: datetime, send_after: datetime | None = None, game_id: str | None = None,
          seat: int | None = None, move_number: int | None = None,
          account_id: int | None = None, stop_hash: str | None = None) -> bool:
    """Add a mail to the outbox in the caller's transaction; False when ``key`` is queued
    already (another process, or an earlier try, got there first)."""
    try:
        with session.begin_nested():  # a savepoint: a duplicate key undoes only this insert
            session.add(OutboxRow(key=key, to_address=to_address, subject=subject, body=body,
                                  created_at=now, send_after=send_after or now,
                                  game_id=game_id, seat=seat, move_number=move_number,
                                  account_id=account_id, stop_hash=stop_hash, attempts=0))
    except IntegrityError:
        return False
    return True


def mailed_since(session: Session, game_id: str, account_id: int, since: datetime) -> bool:
    """Whether this account was sent (or is about to be sent) a mail of this table since."""
    found = session.scalar(select(OutboxRow.id).where(
        OutboxRow.game_id == game_id, OutboxRow.account_id == account_id,
        OutboxRow.created_at >= since, OutboxRow.dropped.is_(None)).limit(1))
    return found is not None


def mark_seen(session: Session, seats: Iterable[tuple[str, int]], now: datetime) -> None:
    """Record that pages of these (game, seat) pairs are open now."""
    for game_id, seat in set(seats):
        changed = session.execute(update(PageSeenRow).where(
            PageSeenRow.game_id == game_id, PageSeenRow.seat == seat).values(seen_at=now))
        if changed.rowcount == 0:
            try:
                with session.begin_nested():
                    session.add(PageSeenRow(game_id=game_id, seat=seat, seen_at=now))
            except IntegrityError:  # another process inserted it meanwhile: its time will do
                pass


def seen_since(session: Session, game_id: str, seat: int, since: datetime) -> bool:
    seen = session.scalar(select(PageSeenRow.seen_at).where(
        PageSeenRow.game_id == game_id, PageSeenRow.seat == seat))
    return seen is not None and utc(seen) >= utc(since)


# (session, row) -> None to send it, or a short reason to drop it
StillDue = Callable[[Session, OutboxRow], str | None]


class Mailer:
    """Sends due mails from the outbox; one in every server process."""

    def __init__(self, sessions: sessionmaker[Session], clock: Clock, target: SmtpTarget,
                 sender: str, still_due: StillDue | None = None) -> None:
        self.sessions = sessions
        self.clock = clock
        self.target = target
        self.sender = sender
        self.still_due = still_due

    def send_due(self, limit: int = BATCH) -> int:
        """One pass: claim, check and send up to ``limit`` due mails; how many were sent."""
        now = self.clock.now()
        lease_cut = now - timedelta(seconds=LEASE_S)
        claimable = and_(OutboxRow.sent_at.is_(None), OutboxRow.dropped.is_(None),
                         or_(OutboxRow.claimed_at.is_(None), OutboxRow.claimed_at < lease_cut))
        with self.sessions() as session:
            ids = session.scalars(select(OutboxRow.id).where(
                claimable, OutboxRow.send_after <= now)
                .order_by(OutboxRow.send_after, OutboxRow.id).limit(limit)).all()
        sent = 0
        for mail_id in ids:
            with self.sessions.begin() as session:  # the claim: one process wins each row
                won = session.execute(update(OutboxRow).where(OutboxRow.id == mail_id, claimable)
                                      .values(claimed_at=now)).rowcount == 1
            if won and self._deliver(mail_id, now):
                sent += 1
        return sent

    def _deliver(self, mail_id: int, now: datetime) -> bool:
        with self.sessions() as session:
            row = session.get(OutboxRow, mail_id)
            if row is None:
                return False
            reason = self.still_due(session, row) if self.still_due else None
            message = None if reason else self.message(row)
        if reason:
            self._finish(mail_id, dropped=reason, claimed_at=None)
            return False
        try:
            self.target.send(message)
        except (OSError, smtplib.SMTPException) as exc:
            with self.sessions.begin() as session:
                row = session.get(OutboxRow, mail_id)
                attempts = row.attempts + 1
                backoff = min(MAX_BACKOFF_S, 30 * 2 ** min(attempts, 10))
                row.attempts, row.claimed_at = attempts, None
                row.send_after = now + timedelta(seconds=backoff)
                row.last_error = f"{type(exc).__name__}: {exc}"[:500]
            log.warning("mail %s to the outbox's row %s not sent (try %s): %s; next try in "
                        "%s s", self.target, mail_id, attempts, type(exc).__name__, backoff)
            return False
        self._finish(mail_id, sent_at=now, claimed_at=None)
        return True

    def _finish(self, mail_id: int, **values: object) -> None:
        with self.sessions.begin() as session:
            session.execute(update(OutboxRow).where(OutboxRow.id == mail_id).values(**values))

    def message(self, row: OutboxRow) -> EmailMessage:
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = row.to_address
        message["Subject"] = row.subject
        message["Date"] = formatdate(localtime=False)
        # the same id on a repeated send (a process died after sending): clients show one
        domain = self.sender.rpartition("@")[2] or "palio.invalid"
        message["Message-ID"] = f"<palio-{hashlib.sha256(row.key.encode()).hexdigest()[:24]}@{domain}>"
        message.set_content(row.body)
        return message

    async def run(self, period: float, seen: Callable[[], Iterable[tuple[str, int]]]) -> None:
        """Each ``period`` seconds: record the pages this process serves (a page opened since
        the last pass at once, all of them every ``SEEN_EVERY_S``), send what is due."""
        last_all, recorded = -1e9, set[tuple[str, int]]()
        loop = asyncio.get_running_loop()
        while True:
            try:
                pairs = set(seen())
                if loop.time() - last_all >= SEEN_EVERY_S:
                    fresh, last_all = pairs, loop.time()
                else:
                    fresh = pairs - recorded
                if fresh:
                    await run_in_threadpool(self.record_seen, fresh)
                recorded = pairs
                await run_in_threadpool(self.send_due)
            except asyncio.CancelledError:
                raise
            except Exception:  # a database hiccup: try again next period
                log.exception("the mail pass failed; trying again in %s s", period)
            await asyncio.sleep(period)

    def record_seen(self, pairs: Iterable[tuple[str, int]]) -> None:
        with self.sessions.begin() as session:
            mark_seen(session, pairs, self.clock.now())


# -- turn mails --------------------------------------------------------------------------------
@dataclass(frozen=True)
class TurnMails:
    """Queues "your turn" mails when moves are accepted (``GameService.move_hooks``) and
    decides, when one is due, whether it is still wanted (``Mailer.still_due``)."""

    clock: Clock
    public_url: str
    spacing_hours: float = 3.0

    def after_move(self, session: Session, game_id: str, game: str, mover: int | None,
                   to_move: int | None, move_number: int) -> bool:
        """In the move's transaction: queue a mail to the seat now to move, if the turn has
        just become theirs and they want one."""
        if to_move is None or to_move == mover:  # a decision of several steps goes on
            return False
        row, seat_rows = GameService.rows(session, game_id)
        if row is None or row.status != "running" or (row.timing or {}).get("kind") != "turn":
            return False
        seat_row = seat_rows[to_move] if to_move < len(seat_rows) else None
        if seat_row is None or seat_row.kind != "human" or seat_row.account_id is None:
            return False
        account = mail_target(session, seat_row.account_id)
        if account is None:
            return False
        now = self.clock.now()
        if mailed_since(session, game_id, account.id, now - timedelta(hours=self.spacing_hours)):
            return False
        token, stop_hash = new_stop_token()
        tr = Translator(account.lang or "en")
        title = tr(msg("ui.game_name." + game.replace("-", "_")))
        base = self.public_url.rstrip("/")
        body = tr(msg("mail.turn.body", name=account.name, game=title,
                      link=f"{base}/games/{game_id}", stop=f"{base}/mail/stop/{token}"))
        return queue(session, key=f"turn:{game_id}:{to_move}:{move_number}",
                     to_address=account.email, subject=tr(msg("mail.turn.subject", game=title)),
                     body=body, now=now, send_after=now + timedelta(seconds=GRACE_S),
                     game_id=game_id, seat=to_move, move_number=move_number,
                     account_id=account.id, stop_hash=stop_hash)

    def still_due(self, session: Session, row: OutboxRow) -> str | None:
        """Why a due turn mail should not go now (``None``: send it)."""
        if row.game_id is None:
            return None  # not a turn mail
        game, _ = GameService.rows(session, row.game_id)
        if game is None or game.status != "running":
            return "game_over"
        if game.to_move != row.seat or game.move_number != row.move_number:
            return "turn_passed"
        if row.account_id is None or mail_target(session, row.account_id) is None:
            return "mail_off"
        # a page of the table open since shortly before the turn began: the player knows
        since = utc(row.created_at) - timedelta(seconds=2 * SEEN_EVERY_S)
        if seen_since(session, row.game_id, row.seat, since):
            return "page_open"
        return None


def turn_mails_off(session: Session, token: str) -> bool:
    """The "stop these mails" link: turn the account's turn mails off; False for a token no
    mail carried."""
    row = session.scalars(select(OutboxRow).where(OutboxRow.stop_hash == hash_stop(token))
                          .limit(1)).first()
    return bool(row and row.account_id) and stop_turn_mails(session, row.account_id)


# -- the "stop these mails" page ---------------------------------------------------------------
router = APIRouter()


def stop_page(lang: str, body: str) -> HTMLResponse:
    return HTMLResponse(shell(lang, say(lang, "mail.stop.title"), body))


@router.get("/mail/stop/{token}")
async def ask_to_stop(token: str, request: Request) -> HTMLResponse:
    """A page with one button: a mail client that opens links by itself changes nothing."""
    lang = page_language(request)
    return stop_page(lang, f'<form method="post" class="panel"><p>{say(lang, "mail.stop.ask")}'
                     f'</p><button class="button primary" type="submit">'
                     f'{say(lang, "mail.stop.button")}</button></form>')


@router.post("/mail/stop/{token}")
async def stop(token: str, request: Request) -> HTMLResponse:
    service = request.app.state.service

    def turn_off() -> bool:
        with service.sessions.begin() as session:
            return turn_mails_off(session, token)

    done = len(token) <= 100 and await run_in_threadpool(turn_off)
    lang = page_language(request)
    key = "mail.stop.done" if done else "mail.stop.unknown"
    return stop_page(lang, f'<p class="panel">{say(lang, key)}</p>')
