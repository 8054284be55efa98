"""The server's one clock: every moment the server stores or compares is read here.

Deadlines, expiry, rate limits, mail spacing and session lifetimes all ask ``clock.now()``
(an aware UTC datetime), never ``datetime.now`` themselves, so a test moves time instead of
sleeping. Three clocks:

* :class:`SystemClock`, the real one;
* :class:`ManualClock`, for tests that build a service in their own process;
* :class:`OffsetFileClock`, for tests that drive real ``palio serve`` processes: the system's
  time plus a number of seconds read from a file the test writes (``PALIO_CLOCK_FILE``). Every
  process of a server reads the same file, so they all agree. Never set it in production.

>>> clock = ManualClock(datetime(2026, 1, 1, tzinfo=UTC))
>>> clock.advance(90)
>>> clock.now().isoformat()
'2026-01-01T00:01:30+00:00'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path


class Clock:
    def now(self) -> datetime:
        raise NotImplementedError


class SystemClock(Clock):
    def now(self) -> datetime:
        return datetime.now(UTC)


class ManualClock(Clock):
    """Stands still until a test moves it."""

    def __init__(self, start: datetime | None = None) -> None:
        self.moment = start or datetime.now(UTC)

    def now(self) -> datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)

    def set(self, moment: datetime) -> None:
        self.moment = moment


class OffsetFileClock(Clock):
    """The system's time plus the seconds written in ``path`` (0 while it is missing or
    unreadable), so several processes move together when a test rewrites the file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def offset(self) -> float:
        try:
            return float(self.path.read_text().strip() or 0)
        except (OSError, ValueError):
            return 0.0

    def now(self) -> datetime:
        return datetime.now(UTC) + timedelta(seconds=self.offset())

    def advance(self, seconds: float) -> None:
        """Move every process reading this file (a test's helper)."""
        self.path.write_text(str(self.offset() + seconds))


def clock_from_env(environ: Mapping[str, str] | None = None) -> Clock:
    """The system clock, unless ``PALIO_CLOCK_FILE`` names a test's offset file."""
    environ = os.environ if environ is None else environ
    path = environ.get("PALIO_CLOCK_FILE")
    return OffsetFileClock(path) if path else SystemClock()
