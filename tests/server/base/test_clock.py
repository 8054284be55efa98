"""The server's one clock (palio.server.base.clock): tests move it, and real processes share it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from palio.server.base.clock import ManualClock, OffsetFileClock, SystemClock, clock_from_env


def test_a_manual_clock_moves_only_when_told():
    start = datetime(2026, 1, 1, tzinfo=UTC)
    clock = ManualClock(start)
    assert clock.now() == start
    clock.advance(3600)
    assert clock.now() == start + timedelta(hours=1)


def test_an_offset_file_moves_every_reader(tmp_path):
    path = tmp_path / "offset"
    one, two = OffsetFileClock(path), OffsetFileClock(path)
    assert abs((one.now() - datetime.now(UTC)).total_seconds()) < 5  # no file: no offset
    one.advance(86400)
    assert two.offset() == 86400
    assert (two.now() - datetime.now(UTC)).total_seconds() > 86000


def test_the_environment_chooses_the_clock(tmp_path):
    assert isinstance(clock_from_env({}), SystemClock)
    assert isinstance(clock_from_env({"PALIO_CLOCK_FILE": str(tmp_path / "o")}), OffsetFileClock)
