"""benchmarks/load_server.py --accounts really plays as signed-in accounts: a short run against
a real server process on SQLite (the benchmark's own conductor, server and client processes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_accounts_and_clocks_play_by_cookie(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "load_server.py"), "--db", "sqlite",
         "--games", "2", "--seconds", "3", "--accounts", "--timed", "--json", str(out)],
        capture_output=True, text=True, timeout=300, env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    [result] = json.loads(out.read_text())
    # the seats hold no seat token: every accepted move was a session cookie's (a write with
    # a cookie and no Origin, or a cookie the server did not know, would be 403 or 401)
    assert result["moves"] > 0
    assert result["rejected"] == {} and result["errors"] == []
    assert result["sign_up_s"] > 0
    assert "signed up 4 accounts" in done.stdout


def test_accounts_flag_is_described() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "load_server.py"), "--help"],
                          capture_output=True, text=True, timeout=60, check=True)
    assert "--accounts" in done.stdout and "session" in done.stdout
