"""``palio serve --db`` with a URL whose driver is missing (issue 35): the one-line refusal
docs/server.md promises, exit status 2, before anything starts, and never the URL's password."""

from __future__ import annotations

import os
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


def palio(*args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LANG": lang, "LC_ALL": "", "LC_MESSAGES": ""}
    return subprocess.run([sys.executable, "-m", "palio", *args], capture_output=True, text=True,
                          timeout=120, env=env)


def one_line_refusal(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr[-2000:]
    assert "s3cret" not in done.stderr + done.stdout and "Traceback" not in done.stderr
    return lines[0]


def test_the_refusal_reads_in_the_terminals_language() -> None:
    line = one_line_refusal(palio("serve", "--db", "mysql://palio:s3cret@127.0.0.1/games",
                                  "--port", "9", lang="ja_JP.UTF-8"))
    assert "インストールされていません" in line and "'MySQLdb'" in line


@pytest.mark.parametrize(("url", "says"), [
    ("mysql://palio:s3cret@127.0.0.1/games", "no module 'MySQLdb'"),
    ("postgresql+psycopg://palio:s3cret@127.0.0.1:9/none", "cannot open the database"),
])
def test_palio_users_checks_the_database_as_serve_does(url: str, says: str) -> None:
    """``palio users`` takes the same ``--db``: a missing driver or a database it cannot reach
    is the same one line, never a traceback nor the password."""
    assert says in one_line_refusal(palio("users", "list", "--db", url))
