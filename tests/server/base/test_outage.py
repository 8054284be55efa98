"""A PostgreSQL restart under a running server (issue 22, section 6): requests meanwhile are
answered 503 with Retry-After and one log line each, never a 500 or a traceback, and the
server serves again as soon as the database is back. Runs on a throwaway cluster of its own
(scripts/postgres.sh), never the shared one of a test session."""

from __future__ import annotations

import glob
import os
import subprocess
import time
from pathlib import Path

import pytest

from palio.server.base.db import fresh_postgres_database
from tests.server.conftest import Server

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "postgres.sh"
pytestmark = pytest.mark.skipif(not glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                                reason="no PostgreSQL server binaries")
ENV = {k: v for k, v in os.environ.items() if k != "PALIO_PG_STATE"}
SG = "san-gimignano"


def script(*args: str) -> str:
    done = subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          env=ENV, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture
def cluster():
    url = script("start")
    yield url
    script("stop", url)


def test_a_database_restart_gives_503_then_service(cluster: str, tmp_path: Path) -> None:
    server = Server(fresh_postgres_database(cluster, "palio_test"), 0.0, tmp_path / "server.log")
    server.start()
    try:
        game_id = server.create(game=SG, players=2, seed=3)["id"]
        assert server.http.get(f"/api/games/{game_id}").status_code == 200
        script("down", cluster)
        for method, path, body in (("GET", f"/api/games/{game_id}", None),
                                   ("GET", "/api/games", None),
                                   ("POST", "/api/games", {"game": SG, "players": 2})):
            response = server.http.request(method, path, json=body)
            assert response.status_code == 503, (method, path, response.text)
            assert response.headers["retry-after"].isdigit()
            assert response.json()["error"]["code"] == "database_unavailable"
        script("up", cluster)
        # the first read after the restart meets the pool's dead connections: retried, not 500
        assert server.http.get(f"/api/games/{game_id}").status_code == 200
        assert server.http.get("/api/games").status_code == 200
        deadline = time.monotonic() + 30  # generous for a loaded machine
        while True:  # a change may meet a dead connection once more: 503, never 500
            response = server.http.post("/api/games", json={"game": SG, "players": 2})
            assert response.status_code in (201, 503), response.text
            if response.status_code == 201:
                break
            assert time.monotonic() < deadline
            time.sleep(0.2)
    finally:
        server.stop()
    log = server.log_path.read_text()
    assert "Traceback" not in log, log[-3000:]
    assert "database unavailable" in log


@pytest.mark.slow
def test_background_loops_log_one_line_per_outage(cluster: str, tmp_path: Path) -> None:
    """The deadline sweep, the review poller, the bots' sweep and the mail pass meet a
    PostgreSQL that is down for longer than each one's period: one line each, no traceback
    (issue 35: a restart wrote 22 tracebacks)."""
    from tests.server.smtp import LocalSmtp

    smtp = LocalSmtp()
    smtp.start()
    server = Server(fresh_postgres_database(cluster, "palio_test"), 0.0, tmp_path / "server.log",
                    "--smtp", smtp.url)
    server.start()
    try:
        server.create(game=SG, players=2, seed=3)
        script("down", cluster)
        time.sleep(12)  # a real outage: every loop (the bots' every 5 s) passes at least twice
        script("up", cluster)
        time.sleep(6)  # and works again
    finally:
        server.stop()
        smtp.stop()
    log = server.log_path.read_text()
    assert "Traceback" not in log, log[-3000:]
    for loop in ("the deadline sweep", "looking for reviews to run", "the bots",
                 "the mail pass"):
        assert log.count(f"database unavailable for {loop}:") == 1, (loop, log[-3000:])
