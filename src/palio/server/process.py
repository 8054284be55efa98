"""A ``palio serve`` child process on a free loopback port, for tests and benchmarks.

Both start a real server the way a user does (``python -m palio serve``) and need the same
three things: a free port, the command line, and a wait until the API answers.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def serve_command(db_url: str, port: int, bot_delay: float = 0.0, *options: str,
                  log_level: str = "warning") -> list[str]:
    """``python -m palio serve`` on loopback; ``options`` are further ``palio serve``
    options (``"--workers", "2"``)."""
    return [sys.executable, "-m", "palio", "serve", "--host", HOST, "--port", str(port),
            "--db", db_url, "--bot-delay", str(bot_delay), "--log-level", log_level, *options]


def wait_until_ready(process: subprocess.Popen[bytes], port: int, log_path: Path,
                     timeout: float = 60) -> None:
    """Return once the server answers; RuntimeError with its log's tail if it dies or hangs."""
    url = f"http://{HOST}:{port}/api/bots"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {log_path.read_text()[-3000:]}")
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"server did not start in {timeout:g} s: {log_path.read_text()[-3000:]}")
