"""``palio serve --db`` with a URL whose driver is missing (issue 35): the one-line refusal
docs/server.md promises, exit status 2, before anything starts, and never the URL's password."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(("url", "says"), [
    ("postgresql+asyncpg://palio:s3cret@127.0.0.1/games", "asyncio driver"),
    ("mysql://palio:s3cret@127.0.0.1/games", "no module 'MySQLdb'"),
    ("mssql+pyodbc://palio:s3cret@127.0.0.1/games", "no module 'pyodbc'"),
])
def test_a_missing_database_driver_is_one_line_and_exit_2(url: str, says: str) -> None:
    done = subprocess.run([sys.executable, "-m", "palio", "serve", "--db", url, "--port", "9"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr[-2000:]
    assert says in lines[0] and "postgresql+psycopg://" in lines[0]
    assert "s3cret" not in done.stderr + done.stdout and "Traceback" not in done.stderr
