"""``palio serve --workers 2`` starts on a host whose CPUs are saturated: every worker comes
up and answers, and the supervisor kills none of them (issue 35 §4: uvicorn's 5 s worker
health check killed workers that were still importing the application on a busy host, over
and over, and no request was answered). No timing is asserted beyond a generous deadline."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from palio.server.base.process import free_port, serve_command, wait_until_ready
from tests.server.base.test_cluster import children
from tests.server.conftest import POSTGRES_URL, database_url

needs_postgres = pytest.mark.skipif(not POSTGRES_URL, reason="PALIO_TEST_POSTGRES_URL is not set")

DEADLINE = 600.0  # seconds for the whole start on a saturated host: generous, not a target
BUSY = "while True: pass"


def palio_command(*args: str) -> list[str]:
    """The ``palio`` console script as a person runs it (its spawned workers then import the
    script again, as they do in use), or ``python -m palio`` where there is none."""
    script = Path(sys.executable).with_name("palio")
    return [str(script), *args] if script.is_file() else [sys.executable, "-m", "palio", *args]


@pytest.mark.slow
@needs_postgres
def test_workers_start_on_a_saturated_host_and_none_is_killed(tmp_path: Path) -> None:
    db = database_url("postgres", tmp_path)
    port = free_port()
    log = tmp_path / "serve.log"
    # two busy loops per CPU, at the server's own priority, from before the start until
    # every worker has answered
    busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(2 * (os.cpu_count() or 1))]
    server = None
    try:
        command = palio_command(*serve_command(db, port, 0.0, "--workers", "2",
                                               "--bot-processes", "1", log_level="info")[3:])
        with open(log, "ab") as out:
            server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        started = time.monotonic()
        wait_until_ready(server, port, log, timeout=DEADLINE)
        # both workers finished their start (each says so once) ...
        while log.read_text(errors="replace").count("Application startup complete") < 2:
            assert time.monotonic() - started < DEADLINE, log.read_text()[-3000:]
            assert server.poll() is None, log.read_text()[-3000:]
            time.sleep(0.5)
        # ... and answer: new connections land on either, so ask on many
        for _ in range(20):
            with httpx.Client(timeout=60) as http:
                assert http.get(f"http://127.0.0.1:{port}/api/games").status_code == 200
        text = log.read_text(errors="replace")
        started_pids = {int(pid) for pid in re.findall(r"Started server process \[(\d+)\]", text)}
        assert "died" not in text and "was not ready" not in text, text[-3000:]
        assert len(started_pids) == 2, text[-3000:]  # no worker was replaced
        assert set(children(server.pid)) == started_pids  # the two that started still serve
    finally:
        for process in busy:
            process.kill()
            process.wait(10)
        if server is not None and server.poll() is None:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(10)
