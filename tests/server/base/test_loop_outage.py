"""Background loops during a database outage (issue 35): one log line per outage, not a
traceback on every pass; a failure that is not an outage keeps its traceback."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

from sqlalchemy.exc import OperationalError

from palio.server.base.clock import ManualClock
from palio.server.base.outage import LoopOutage, is_outage
from palio.server.base.smtp import SmtpTarget
from palio.server.mail.turns import Mailer

DOWN = OperationalError("SELECT 1", {}, ConnectionRefusedError(
    "connection to server at 127.0.0.1 port 5432 failed: Connection refused\nIs the server "
    "running on that host?"))


def test_an_outage_is_one_line_until_the_loop_works_again(caplog) -> None:
    caplog.set_level(logging.INFO, logger="palio")
    failures = LoopOutage("the deadline sweep", logging.getLogger("palio.server"))
    for _ in range(5):
        failures.failed(DOWN)
    assert [r.getMessage() for r in caplog.records] == [
        "database unavailable for the deadline sweep: ConnectionRefusedError: connection to "
        "server at 127.0.0.1 port 5432 failed: Connection refused; it tries again"]
    assert all(r.exc_info is None for r in caplog.records)
    failures.worked()
    failures.worked()
    failures.failed(DOWN)  # a second outage: a line again
    assert len(caplog.records) == 3 and "back" in caplog.records[1].getMessage()
    failures.failed(ValueError("a bug"))  # not an outage: its traceback, every time
    assert caplog.records[-1].exc_info is not None
    assert is_outage(ConnectionResetError()) and not is_outage(ValueError())


def test_the_mail_pass_logs_an_outage_once(caplog) -> None:
    calls = []

    def sessions():
        calls.append(1)
        raise DOWN

    mailer = Mailer(sessions, ManualClock(datetime(2026, 11, 28, tzinfo=UTC)),  # type: ignore[arg-type]
                    SmtpTarget.parse("smtp://127.0.0.1:1"), "palio@example.org")

    async def run() -> None:
        task = asyncio.get_running_loop().create_task(mailer.run(0.001, lambda: []))
        while len(calls) < 5:
            await asyncio.sleep(0.001)
        task.cancel()

    asyncio.run(run())
    lines = [r for r in caplog.records if r.name.startswith("palio")]
    assert len(lines) == 1 and lines[0].exc_info is None
    assert lines[0].getMessage().startswith("database unavailable for the mail pass")
    assert "Traceback" not in caplog.text
