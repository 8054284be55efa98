"""The mail outbox (palio.server.mail.turns): sent once across processes, delayed (never lost) while
the mail server is down, and never a password in a log."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import sessionmaker

from palio.server.base.clock import ManualClock
from palio.server.base.db import fresh_postgres_database, make_engine, upgrade
from palio.server.mail.tables import OutboxRow
from palio.server.mail.turns import (
    GRACE_S,
    Mailer,
    SmtpTarget,
    Verdict,
    mark_seen,
    queue,
    seen_since,
)
from tests.server.conftest import POSTGRES_URL
from tests.server.smtp import LocalSmtp

START = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgresql"])
def sessions(request, tmp_path):
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'palio.db'}"
    else:
        if not POSTGRES_URL:
            pytest.skip("PALIO_TEST_POSTGRES_URL is not set (scripts/postgres.sh start)")
        url = fresh_postgres_database(POSTGRES_URL, "palio_test")
    engine = make_engine(url)
    upgrade(engine)
    yield sessionmaker(engine, expire_on_commit=False)
    engine.dispose()


@pytest.fixture
def smtp():
    server = LocalSmtp()
    server.start()
    yield server
    server.stop()


def add_mail(sessions, key: str, now: datetime, **extra) -> bool:
    with sessions.begin() as session:
        return queue(session, key=key, to_address="anna@example.org", subject="Your turn",
                     body="It is your turn.", now=now, **extra)


def test_a_queued_mail_is_sent_once_even_by_two_processes(sessions, smtp):
    clock = ManualClock(START)
    assert add_mail(sessions, "turn:g1:0:5", START)
    assert not add_mail(sessions, "turn:g1:0:5", START)  # the same turn again: not queued
    mailers = [Mailer(sessions, clock, SmtpTarget.parse(smtp.url), "palio@example.org")
               for _ in range(2)]
    barrier = threading.Barrier(2)
    sent = []

    def run(mailer):
        barrier.wait()
        sent.append(mailer.send_due())

    threads = [threading.Thread(target=run, args=(m,)) for m in mailers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(sent) == [0, 1]
    messages = smtp.inbox.wait_for(1)
    assert len(messages) == 1
    assert messages[0]["Subject"] == "Your turn"
    assert messages[0]["To"] == "anna@example.org"
    assert mailers[0].send_due() == 0  # sent is sent: later passes find nothing
    with sessions() as session:
        row = session.scalars(select(OutboxRow)).one()
        assert row.sent_at is not None and row.attempts == 0


def test_a_mail_server_that_is_down_delays_mail_and_loses_none(sessions, caplog):
    clock = ManualClock(START)
    down = LocalSmtp()  # not started: nothing listens on its port
    target = SmtpTarget.parse(f"smtp://palio:s3cret-pass@127.0.0.1:{down.port}")
    mailer = Mailer(sessions, clock, target, "palio@example.org")
    add_mail(sessions, "turn:g1:1:7", START)
    assert mailer.send_due() == 0
    with sessions() as session:
        row = session.scalars(select(OutboxRow)).one()
        assert row.sent_at is None and row.attempts == 1 and row.claimed_at is None
        retry_at = row.send_after
    assert "s3cret-pass" not in caplog.text  # the password never reaches a log
    assert mailer.send_due() == 0  # not due again before its back-off
    down.start()
    try:
        clock.set(retry_at.replace(tzinfo=UTC) if retry_at.tzinfo is None else retry_at)
        # the test server takes mail without signing in
        mailer.target = SmtpTarget.parse(down.url)
        assert mailer.send_due() == 1
        assert len(down.inbox.wait_for(1)) == 1
    finally:
        down.stop()


def test_a_claim_of_a_process_that_died_expires(sessions, smtp):
    clock = ManualClock(START)
    add_mail(sessions, "turn:g2:0:1", START)
    with sessions.begin() as session:  # a process claimed it, then died before sending
        session.scalars(select(OutboxRow)).one().claimed_at = START
    mailer = Mailer(sessions, clock, SmtpTarget.parse(smtp.url), "palio@example.org")
    assert mailer.send_due() == 0
    clock.advance(600)
    assert mailer.send_due() == 1


def test_a_mail_no_longer_due_is_dropped_not_sent(sessions, smtp):
    clock = ManualClock(START)
    add_mail(sessions, "turn:g3:0:1", START, game_id="g3", seat=0, move_number=1)
    later = START + timedelta(seconds=GRACE_S)
    with sessions.begin() as session:
        mark_seen(session, [("g3", 0)], later)
        mark_seen(session, [("g3", 0)], later)  # again: updates, never a second row

    def still_due(session, row):
        return Verdict(drop="page_open" if seen_since(session, row.game_id, row.seat,
                                                      row.created_at) else None)

    mailer = Mailer(sessions, clock, SmtpTarget.parse(smtp.url), "palio@example.org",
                    still_due=still_due)
    assert mailer.send_due() == 0
    with sessions() as session:
        assert session.scalars(select(OutboxRow.dropped)).one() == "page_open"
    assert smtp.inbox.messages == []


@pytest.mark.parametrize("url", ["http://host", "smtp://", "smtp://host:99999", "host:25"])
def test_a_bad_smtp_url_is_explained(url):
    with pytest.raises(ValueError, match="--smtp"):
        SmtpTarget.parse(url)


def test_an_smtp_target_prints_without_its_password():
    target = SmtpTarget.parse("smtps://mailer:p%40ss@mail.example.org")
    assert (target.port, target.tls, target.password) == (465, "ssl", "p@ss")
    assert "p@ss" not in str(target) and "mail.example.org:465" in str(target)


# -- turn mails at a turn-based table ----------------------------------------------------------
class Table:
    """A turn-based San Gimignano table between two accounts, with the mail parts of a server
    process wired as ``palio serve --smtp`` wires them."""

    def __init__(self, url: str, smtp: LocalSmtp, langs=("en", "ja")) -> None:
        from palio.server.accounts.store import AccountStore
        from palio.server.mail.turns import TurnMails
        from palio.server.play.service import GameService

        self.clock = ManualClock(START)
        self.service = GameService(url, clock=self.clock)
        self.turns = TurnMails(self.clock, "https://palio.example.org", spacing_hours=3,
                                service=self.service)
        self.service.move_hooks.append(self.turns.after_move)
        self.mailer = Mailer(self.service.sessions, self.clock, SmtpTarget.parse(smtp.url),
                             "palio@example.org", still_due=self.turns.still_due)
        store = AccountStore(self.service.sessions, self.clock)
        self.accounts = [store.create(name, "correct horse battery", f"{name.lower()}@example.org",
                                      lang) for name, lang in zip(("Anna", "Bruno"), langs, strict=True)]
        live = self.service.create({"game": "san-gimignano", "players": 2,
                                    "seats": [{"kind": "human"}, {"kind": "human"}],
                                    "timing": {"kind": "turn", "per_move_s": 86400}})
        self.id = live.id
        for seat, account in enumerate(self.accounts):
            self.service.join(self.id, seat, {}, account=account)

    def move(self) -> int:
        """The player to move plays until the turn passes (a turn may take several steps)."""
        seat = self.service.get(self.id).state.to_move
        while (live := self.service.get(self.id)).state.to_move == seat:
            self.service.act(self.id, seat, {"action": str(live.state.legal_actions()[0]),
                                             "move_number": live.move_number})
        return seat

    def send(self) -> int:
        self.clock.advance(GRACE_S)
        return self.mailer.send_due()


@pytest.fixture
def mail_table(sessions, smtp):
    url = sessions.kw["bind"].url.render_as_string(hide_password=False)
    table = Table(url, smtp)
    yield table
    table.service.close()


def test_the_player_to_move_gets_one_mail_in_their_language(mail_table, smtp):
    assert mail_table.send() == 1  # the table filled: Anna (Player 1) moves first
    [first] = smtp.inbox.wait_for(1)
    assert first["To"] == "anna@example.org"
    body = first.get_content()
    seat = mail_table.service.get(mail_table.id).state.to_move
    # the seat in the link: opened signed out, the page says "this is your seat: sign in"
    assert f"https://palio.example.org/games/{mail_table.id}?seat={seat}" in body
    assert "https://palio.example.org/mail/stop/" in body
    assert "session" not in body.lower() and "token=" not in body  # the link signs nobody in
    mail_table.move()  # Anna moves: Bruno's turn, and Bruno reads Japanese
    assert mail_table.send() == 1
    second = smtp.inbox.wait_for(2)[1]
    assert second["To"] == "bruno@example.org"
    assert "あなたの番" in str(second["Subject"])
    assert mail_table.send() == 0  # nothing more is due


def seen(table: Table, seat: int) -> None:
    """A page of the table is open for the seat now (what the mail pass records)."""
    with table.service.sessions.begin() as session:
        mark_seen(session, [(table.id, seat)], table.clock.now())


def outcomes(table: Table) -> list[tuple[str, str | None, bool]]:
    with table.service.sessions() as session:
        return [(r.key.split(":")[0], r.dropped, r.sent_at is not None)
                for r in session.scalars(select(OutboxRow).order_by(OutboxRow.id))]


def test_an_open_page_delays_the_mail_until_it_closes(mail_table, smtp):
    seen(mail_table, 0)  # Anna has the table open as her turn begins
    mail_table.clock.advance(45)
    seen(mail_table, 0)  # still open (the page is recorded every 15 s)
    mail_table.clock.advance(GRACE_S - 45)
    assert mail_table.mailer.send_due() == 0  # a minute after the turn began: still open
    mail_table.clock.advance(30)  # closed 45 s ago: not yet
    assert mail_table.mailer.send_due() == 0
    mail_table.clock.advance(20)  # closed more than a minute ago: she is mailed
    assert mail_table.mailer.send_due() == 1
    assert [m["To"] for m in smtp.inbox.wait_for(1)] == ["anna@example.org"]
    mail_table.move()  # Bruno's turn; he moves before his mail's minute is up
    mail_table.clock.advance(5)
    mail_table.move()
    assert mail_table.send() == 0  # Anna's new turn: within the spacing of her first mail
    assert [o for o in outcomes(mail_table) if o[1]] == [("turn", "turn_passed", False)]


def test_a_quick_reply_after_the_tab_closed_still_mails_the_player(mail_table, smtp):
    """Anna plays on her page and closes it; Bruno answers within seconds: Anna's page was
    seen before her turn began, which never cancels her mail (real SMTP, aiosmtpd)."""
    assert mail_table.send() == 1
    seen(mail_table, 0)
    mail_table.move()  # Anna moves on her page, then closes the tab
    mail_table.clock.advance(10)
    seen(mail_table, 1)
    mail_table.move()  # Bruno, at his page, answers ten seconds later
    assert mail_table.send() == 1
    mails = smtp.inbox.wait_for(2)
    assert [m["To"] for m in mails] == ["anna@example.org", "anna@example.org"]


def test_a_turn_arriving_while_a_mail_is_pending_is_not_lost(mail_table, smtp):
    mail_table.move()  # Anna moves before her first mail's minute is up (no page: the API)
    mail_table.clock.advance(5)
    mail_table.move()  # Bruno too: Anna's turn again, her first mail still waiting
    assert mail_table.send() == 1  # the waiting ones are dropped, the new turn's goes
    assert [m["To"] for m in smtp.inbox.wait_for(1)] == ["anna@example.org"]
    assert outcomes(mail_table) == [("turn", "turn_passed", False), ("remind", None, False),
                                    ("turn", "turn_passed", False), ("remind", None, False),
                                    ("turn", None, True), ("remind", None, False)]


def test_spacing_counts_only_mails_sent_since_the_table_was_opened(mail_table, smtp):
    assert mail_table.send() == 1  # Anna is mailed
    mail_table.clock.advance(600)
    seen(mail_table, 0)  # she opens the table and moves
    mail_table.move()
    mail_table.move()  # Bruno answers at once: Anna is mailed again, spacing or not
    assert mail_table.send() == 1
    mail_table.move()  # Anna moves without opening the table (the mail is answered)
    mail_table.move()
    assert mail_table.send() == 0  # a mail sent since she last opened it: 3 hours apart
    mail_table.clock.set(mail_table.clock.now() + timedelta(hours=3))
    assert mail_table.mailer.send_due() == 1  # delayed, never dropped
    assert [m["To"] for m in smtp.inbox.wait_for(3)] == ["anna@example.org"] * 3


def test_a_reminder_when_a_quarter_of_the_time_remains(mail_table, smtp):
    from palio.server.play.tables import GameRow

    assert mail_table.send() == 1
    with mail_table.service.sessions() as session:
        deadline = session.get(GameRow, mail_table.id).deadline_at.replace(tzinfo=UTC)
    left = (deadline - START) / 4
    mail_table.clock.set(deadline - left - timedelta(minutes=1))
    assert mail_table.mailer.send_due() == 0
    mail_table.clock.set(deadline - left)
    assert mail_table.mailer.send_due() == 1
    reminder = smtp.inbox.wait_for(2)[1]
    hours = round(left.total_seconds() / 3600)
    assert reminder["Subject"] == f"{hours} hours left at San Gimignano"
    assert f"Time left for this move: {hours} hours." in reminder.get_content()
    mail_table.clock.advance(3600)
    assert mail_table.mailer.send_due() == 0  # one reminder per turn
    mail_table.move()  # Bruno's turn; he reads Japanese
    mail_table.clock.advance(3600 * 40)
    assert mail_table.mailer.send_due() == 2  # his turn mail, then his reminder
    japanese = smtp.inbox.wait_for(4)[3]
    assert str(japanese["Subject"]).startswith("サン・ジミニャーノの残り時間は")


def test_the_mail_says_time_left_last_move_and_unread_chat(mail_table, smtp):
    from palio.server.chat.tables import ChatRow

    assert mail_table.send() == 1
    first = smtp.inbox.wait_for(1)[0].get_content()
    assert "No new chat messages." in first and "Last move" not in first
    seen(mail_table, 1)  # Bruno looked at the table, then left
    mail_table.clock.advance(120)
    with mail_table.service.sessions.begin() as session:  # Anna writes to him, then moves
        session.add(ChatRow(game_id=mail_table.id, n=1, author="seat:0", seat=0, name=None,
                            text="your move!", created_at=mail_table.clock.now()))
    mail_table.move()
    assert mail_table.send() == 1
    body = smtp.inbox.wait_for(2)[1].get_content()
    live = mail_table.service.get(mail_table.id)
    last = [line["text"] for line in live.view(1, "ja")["log"] if line["seat"] == 0][-1]
    assert f"直前の手：{last}" in body  # Bruno's own view's words: nothing hidden from him
    assert "まだ読んでいないチャットが1件あります。" in body
    assert "この手番の残り時間：" in body and "your move!" not in body


def test_at_most_one_mail_per_table_in_a_few_hours(mail_table, smtp):
    assert mail_table.send() == 1  # Anna's first turn
    mail_table.move()
    assert mail_table.send() == 1  # Bruno's
    mail_table.move()  # Anna's turn again, minutes after her mail: none this time
    assert mail_table.send() == 0
    mail_table.clock.advance(3 * 3600)
    mail_table.move()
    assert mail_table.send() == 1  # hours later, Bruno's turn: a mail again
    mail_table.move()
    assert mail_table.send() == 1  # and Anna's
    assert [m["To"] for m in smtp.inbox.wait_for(4)] == [
        "anna@example.org", "bruno@example.org", "bruno@example.org", "anna@example.org"]


def test_the_stop_link_turns_turn_mails_off(mail_table, smtp):
    from fastapi.testclient import TestClient

    from palio.server.accounts.tables import AccountRow
    from palio.server.app import create_app

    mail_table.send()
    body = smtp.inbox.wait_for(1)[0].get_content()
    path = "/mail/stop/" + body.split("/mail/stop/")[1].split()[0]
    url = mail_table.service.engine.url.render_as_string(hide_password=False)
    with TestClient(create_app(url, bot_delay=0)) as http:
        page = http.get(path)
        assert page.status_code == 200 and "<form" in page.text
        with mail_table.service.sessions() as session:  # opening the link changes nothing
            assert session.get(AccountRow, mail_table.accounts[0].id).mail_turns
        done = http.post(path)
        assert done.status_code == 200
        assert "no more turn mails" in done.text
        assert "not valid" in http.post("/mail/stop/not-a-token").text
    with mail_table.service.sessions() as session:
        assert not session.get(AccountRow, mail_table.accounts[0].id).mail_turns
        assert session.get(AccountRow, mail_table.accounts[1].id).mail_turns
    mail_table.clock.advance(4 * 3600)
    mail_table.move()
    mail_table.move()  # Anna's turn again, hours later: she turned mails off
    with mail_table.service.sessions() as session:
        to = [r.to_address for r in session.scalars(select(OutboxRow)) if r.kind == "turn"]
    assert to == ["anna@example.org", "bruno@example.org"]


def test_the_stop_token_never_reaches_the_access_log(make_server):
    """A real ``palio serve`` with its access log on: the path /mail/stop/TOKEN is logged
    with the token redacted, like every secret (base/logs.py)."""
    server = make_server(log_level="info")
    server.start()
    token = "Zq3-secret_stop_token_of_a_mail"
    assert server.http.get(f"/mail/stop/{token}").status_code == 200
    assert server.http.post(f"/mail/stop/{token}?x=1").status_code == 200
    server.stop()
    text = server.log_path.read_text()
    assert "/mail/stop/[redacted]" in text
    assert token not in text and token[:8] not in text
