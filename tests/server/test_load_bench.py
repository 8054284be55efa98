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


def test_think_time_mode_plays_turn_based_and_live_tables(tmp_path: Path) -> None:
    """--think: players pause before each move, so a short run makes few moves, all accepted;
    --live 0.5 gives one of the two tables a clock; --pin runs (pinned where two CPUs exist);
    --ramp 1 spreads the arrivals over the first second, and the timed pushes are reported by
    tenth of the run and after the ramp, beside the client's own loop lag."""
    out = tmp_path / "result.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "load_server.py"), "--db", "sqlite",
         "--games", "2", "--seconds", "4", "--think", "0.5", "--live", "0.5", "--pin",
         "--ramp", "1", "--json", str(out)],
        capture_output=True, text=True, timeout=300, env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    [result] = json.loads(out.read_text())
    assert 0 < result["moves"] <= 2 * 4 / (0.5 * 0.5) + 2  # no faster than the pauses allow
    assert result["rejected"] == {} and result["errors"] == []
    assert result["client_cpu"] > 0
    assert "4 players; offered about 4 moves/s" in done.stdout
    assert result["ramp"] == 1
    timed = sum(moves for _, moves, _, _ in result["windows"])
    assert 0 < timed <= result["moves"]  # each timed push is of an accepted move
    assert all(0 <= start < 4 and p50 <= p99 for start, _, p50, p99 in result["windows"])
    assert result["seated_ms"][0] <= result["seated_ms"][2]
    assert len(result["lag_ms"]) == 3 and 0 <= result["lag_ms"][0] <= result["lag_ms"][2]
    assert "once all had arrived (moves sent 1 s or more" in done.stdout
