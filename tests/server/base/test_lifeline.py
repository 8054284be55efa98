"""``kill -9`` of the ``palio serve --workers N`` supervisor: its workers stop with it, the
port is free within seconds and a new server starts on it (issue 22, section 6)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from palio.server.base.process import HOST, free_port, serve_command, wait_until_ready
from tests.server.base.test_cluster import children
from tests.server.conftest import POSTGRES_URL, database_url

needs_postgres = pytest.mark.skipif(not POSTGRES_URL, reason="PALIO_TEST_POSTGRES_URL is not set")


def port_is_free(port: int) -> bool:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            sock.bind((HOST, port))
        except OSError:
            return False
        return True


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@needs_postgres
def test_workers_die_with_a_killed_supervisor(tmp_path: Path) -> None:
    db = database_url("postgres", tmp_path)
    port = free_port()
    command = serve_command(db, port, 0.0, "--workers", "2", "--bot-processes", "1")
    log = tmp_path / "first.log"
    with open(log, "ab") as out:
        first = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    second = None
    workers: list[int] = []
    try:
        wait_until_ready(first, port, log, timeout=60)
        deadline = time.monotonic() + 60
        while len(workers := children(first.pid)) < 2:
            assert time.monotonic() < deadline, "uvicorn did not start two workers"
            time.sleep(0.2)
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        deadline = time.monotonic() + 30  # generous for a loaded machine
        while any(alive(pid) for pid in workers) or not port_is_free(port):
            assert time.monotonic() < deadline, (
                f"workers {[p for p in workers if alive(p)]} outlived their supervisor: "
                f"{log.read_text()[-2000:]}")
            time.sleep(0.1)
        log2 = tmp_path / "second.log"
        with open(log2, "ab") as out:
            second = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        wait_until_ready(second, port, log2, timeout=60)
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    process.kill()
        for pid in workers:  # only if the test failed: leave no orphan on the port
            if alive(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
