"""Turn mails: "it is your turn" by e-mail at turn-based tables, through an outbox.

A mail is a row of the ``outbox`` table, written in the same transaction as the move that
makes it due, so a move never waits for a mail server and no acknowledged move loses its mail.
Every server process runs a :class:`Mailer`; it claims due rows one at a time with a
conditional UPDATE (the claim expires after ``LEASE_S``, for a process that died mid-send),
sends through SMTP, and marks the row sent. A mail server that is down only delays mail: a
failed send is tried again later, further apart each time. A unique ``key`` per turn stops two
processes from queueing the same mail twice.

What a player receives (:class:`TurnMails`): for each turn at a turn-based table, once no page
of the table has been open for them for ``GRACE_S`` (each process records the seats its pages
watch in ``page_seen``), a mail, unless one already sent since they last opened the table is
unanswered or was sent less than ``spacing`` ago; and a reminder when a quarter of the turn's
time remains. Its words are written when it is sent: the time left, the last move as the
player's view tells it, unread chat. Each mail links to the table (a plain link: it signs
nobody in) and to a page that stops such mails (a random token per mail, stored as a hash).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import secrets
import smtplib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import formatdate
from typing import TYPE_CHECKING

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from sqlalchemy import and_, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from palio.core.i18n import Translator
from palio.core.words import msg
from palio.server.accounts.store import Account, mail_target, stop_turn_mails
from palio.server.base.clock import Clock
from palio.server.base.db import utc
from palio.server.base.outage import LoopOutage
from palio.server.base.pages import page_language, say, shell
from palio.server.base.smtp import SmtpTarget
from palio.server.chat.chat import unread_since
from palio.server.mail.tables import OutboxRow, PageSeenRow
from palio.server.play.service import GameService

if TYPE_CHECKING:  # the rows come through GameService.rows; mail reads no table of play's
    from palio.server.play.tables import GameRow

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
          account_id: int | None = None, stop_hash: str | None = None,
          kind: str | None = None) -> bool:
    """Add a mail to the outbox in the caller's transaction; False when ``key`` is queued
    already (another process, or an earlier try, got there first)."""
    try:
        with session.begin_nested():  # a savepoint: a duplicate key undoes only this insert
            session.add(OutboxRow(key=key, to_address=to_address, subject=subject, body=body,
                                  created_at=now, send_after=send_after or now,
                                  game_id=game_id, seat=seat, move_number=move_number,
                                  account_id=account_id, stop_hash=stop_hash, attempts=0,
                                  kind=kind))
    except IntegrityError:
        return False
    return True


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


def last_seen(session: Session, game_id: str, seat: int) -> datetime | None:
    """When a page of the table was last open for the seat (``None``: never)."""
    seen = session.scalar(select(PageSeenRow.seen_at).where(
        PageSeenRow.game_id == game_id, PageSeenRow.seat == seat))
    return None if seen is None else utc(seen)


def seen_since(session: Session, game_id: str, seat: int, since: datetime) -> bool:
    seen = last_seen(session, game_id, seat)
    return seen is not None and seen >= utc(since)


@dataclass(frozen=True)
class Verdict:
    """What to do with a due mail: drop it (``drop``: why), try again at ``later``, or send
    it, with these words if given (and the hash of the stop link's token they carry)."""

    drop: str | None = None
    later: datetime | None = None
    subject: str | None = None
    body: str | None = None
    stop_hash: str | None = None


# (session, row) -> what to do with the due mail
StillDue = Callable[[Session, OutboxRow], Verdict]


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
            verdict = self.still_due(session, row) if self.still_due else Verdict()
            message = self.message(row, verdict.subject, verdict.body)
        if verdict.drop:
            self._finish(mail_id, dropped=verdict.drop, claimed_at=None)
            return False
        if verdict.later is not None:  # not yet: back in the queue, unclaimed
            self._finish(mail_id, send_after=verdict.later, claimed_at=None)
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
        written = ({} if verdict.subject is None else
                   {"subject": verdict.subject, "body": verdict.body or "",
                    "stop_hash": verdict.stop_hash})
        self._finish(mail_id, sent_at=now, claimed_at=None, **written)
        return True

    def _finish(self, mail_id: int, **values: object) -> None:
        with self.sessions.begin() as session:
            session.execute(update(OutboxRow).where(OutboxRow.id == mail_id).values(**values))

    def message(self, row: OutboxRow, subject: str | None = None,
                body: str | None = None) -> EmailMessage:
        """The mail of an outbox row; ``subject`` and ``body``: words written when it is sent
        (a turn mail's, which say how things stand then)."""
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = row.to_address
        message["Subject"] = row.subject if subject is None else subject
        message["Date"] = formatdate(localtime=False)
        # the same id on a repeated send (a process died after sending): clients show one
        domain = self.sender.rpartition("@")[2] or "palio.invalid"
        message["Message-ID"] = f"<palio-{hashlib.sha256(row.key.encode()).hexdigest()[:24]}@{domain}>"
        message.set_content(row.body if body is None else body)
        return message

    async def run(self, period: float, seen: Callable[[], Iterable[tuple[str, int]]]) -> None:
        """Each ``period`` seconds: record the pages this process serves (a page opened since
        the last pass at once, all of them every ``SEEN_EVERY_S``), send what is due."""
        last_all, recorded = -1e9, set[tuple[str, int]]()
        failures = LoopOutage("the mail pass", log)
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
                failures.worked()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a database outage: one line (base/outage.py)
                failures.failed(exc)
            await asyncio.sleep(period)

    def record_seen(self, pairs: Iterable[tuple[str, int]]) -> None:
        with self.sessions.begin() as session:
            mark_seen(session, pairs, self.clock.now())


# -- turn mails --------------------------------------------------------------------------------
@dataclass(frozen=True)
class TurnMails:
    """Queues "your turn" mails and their reminders when moves are accepted
    (``GameService.move_hooks``) and decides, when one is due, whether it goes now, later or
    not at all, and what it says (``Mailer.still_due``).

    The rule: during each turn, once no page of the table has been open for the player for
    ``GRACE_S``, they are mailed for that turn, whatever happened to earlier mails, unless a
    mail actually sent for this table since they last opened it is still unanswered (they
    have not moved at the table since). A page seen before the turn began never cancels the
    mail; a page open meanwhile only delays it until the page has been closed ``GRACE_S``.
    Spacing (``spacing_hours``) counts only mails actually sent since the player last opened
    the table: such a mail sent less than ``spacing_hours`` ago delays this one. A reminder
    goes when a quarter of the time the turn began with remains, at most one per turn,
    whatever the spacing."""

    clock: Clock
    public_url: str
    spacing_hours: float = 3.0
    service: GameService | None = None  # for the last move in the player's words

    def after_move(self, session: Session, game_id: str, game: str, mover: int | None,
                   to_move: int | None, move_number: int) -> bool:
        """In the move's transaction: the mover answered the mails that told them of their
        turns; queue a mail (and its reminder) to the seat now to move, if the turn has just
        become theirs and they want mails. Whether it goes is decided when it is due."""
        now = self.clock.now()
        if mover is not None:
            session.execute(update(OutboxRow).where(
                OutboxRow.game_id == game_id, OutboxRow.seat == mover,
                OutboxRow.sent_at.is_not(None), OutboxRow.answered_at.is_(None))
                .values(answered_at=now))
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
        common = {"to_address": account.email, "now": now, "game_id": game_id, "seat": to_move,
                  "move_number": move_number, "account_id": account.id,
                  "subject": "", "body": ""}  # written when sent (mail.turns.TurnMails.compose)
        queued = queue(session, key=f"turn:{game_id}:{to_move}:{move_number}", kind="turn",
                       send_after=now + timedelta(seconds=GRACE_S), **common)
        deadline = utc(row.deadline_at) if row.deadline_at is not None else None
        if deadline is not None and deadline > now:
            remind_at = deadline - (deadline - now) / 4  # a quarter of the time left remains
            queue(session, key=f"remind:{game_id}:{to_move}:{move_number}", kind="reminder",
                  send_after=max(remind_at, now + timedelta(seconds=GRACE_S)), **common)
        return queued

    def still_due(self, session: Session, row: OutboxRow) -> Verdict:
        """Whether a due turn mail goes now (with its words), later, or not at all."""
        if row.game_id is None:
            return Verdict()  # not a turn mail: sent as queued
        game, _ = GameService.rows(session, row.game_id)
        if game is None or game.status != "running":
            return Verdict(drop="game_over")
        if game.to_move != row.seat or game.move_number != row.move_number:
            return Verdict(drop="turn_passed")
        account = mail_target(session, row.account_id) if row.account_id is not None else None
        if account is None:
            return Verdict(drop="mail_off")
        now = self.clock.now()
        seen = last_seen(session, row.game_id, row.seat)
        if seen is not None and now - seen < timedelta(seconds=GRACE_S):
            # a page is (or was just) open: wait until it has been closed a minute
            return Verdict(later=seen + timedelta(seconds=GRACE_S))
        if row.kind != "reminder":
            query = select(OutboxRow.sent_at, OutboxRow.answered_at).where(
                OutboxRow.game_id == row.game_id, OutboxRow.account_id == account.id,
                OutboxRow.sent_at.is_not(None), OutboxRow.id != row.id)
            if seen is not None:  # only mails sent since the player last opened the table
                query = query.where(OutboxRow.sent_at > seen)
            earlier = session.execute(query).all()
            if any(answered is None for _sent, answered in earlier):
                return Verdict(drop="unanswered")
            if earlier:
                next_at = max(utc(sent) for sent, _ in earlier) + timedelta(
                    hours=self.spacing_hours)
                if next_at > now:
                    return Verdict(later=next_at)
        return self.compose(session, row, game, account, seen, now)

    def compose(self, session: Session, row: OutboxRow, game: GameRow, account: Account,
                seen: datetime | None, now: datetime) -> Verdict:
        """The mail's words, in the player's language: the game, the time left, the last move
        as the player's own view tells it, unread chat, the links."""
        tr = Translator(account.lang or "en")
        title = tr(msg("ui.game_name." + game.game.replace("-", "_")))
        lines = []
        deadline = utc(game.deadline_at) if game.deadline_at is not None else None
        left = time_words(tr, deadline - now) if deadline is not None else None
        if left is not None:
            lines.append(tr(msg("mail.turn.left", time=left)))
        last = self.last_move(row, tr.lang)
        if last:
            lines.append(tr(msg("mail.turn.last", move=last)))
        unread = unread_since(session, row.game_id, row.seat, seen)
        lines.append(tr(msg("mail.turn.chat", n=unread)) if unread
                     else tr(msg("mail.turn.no_chat")))
        token, stop_hash = new_stop_token()
        base = self.public_url.rstrip("/")
        body = tr(msg("mail.turn.body", name=account.name, game=title, news="\n".join(lines),
                      # ?seat=: a page opened signed out says "this is your seat: sign in"
                      link=f"{base}/games/{row.game_id}?seat={row.seat}",
                      stop=f"{base}/mail/stop/{token}"))
        if row.kind == "reminder" and left is not None:
            subject = tr(msg("mail.remind.subject", time=left, game=title))
        else:
            subject = tr(msg("mail.turn.subject", game=title))
        return Verdict(subject=subject, body=body, stop_hash=stop_hash)

    def last_move(self, row: OutboxRow, lang: str) -> str | None:
        """The latest line of the table's log by another seat, from the mailed seat's own
        view (``observe`` and ``events_for`` of that seat: nothing hidden from it)."""
        if self.service is None or row.seat is None:
            return None
        live = self.service.get(row.game_id)
        if live.move_number != row.move_number:
            return None  # this process's copy is behind or ahead: say nothing rather than wrong
        log_lines = live.view(row.seat, lang)["log"]
        for line in reversed(log_lines):
            if line.get("seat") is not None and line["seat"] != row.seat:
                return line["text"]
        return None


def time_words(tr: Translator, left: timedelta) -> str:
    """"12 hours", "40 minutes": how long is left, rounded as a person would say it."""
    seconds = max(0.0, left.total_seconds())
    if seconds >= 2 * 3600:
        return tr(msg("mail.time.hours", n=round(seconds / 3600)))
    return tr(msg("mail.time.minutes", n=max(1, math.ceil(seconds / 60))))


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
