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


# uvicorn's own --fd takes any inherited socket for a Unix one, so TCP_NODELAY is never set on
# its connections and every response waits ~40 ms for a delayed ACK; socket(fileno=...) asks
# the kernel what the socket is.
SERVE_ON_FD = (
    "import socket, sys, uvicorn; "
    "sock = socket.socket(fileno=int(sys.argv[1])); "
    "config = uvicorn.Config('palio.server.app:app_from_env', factory=True, log_level=sys.argv[2], "
    "access_log=sys.argv[3] == 'yes', ws_max_size=65536, timeout_keep_alive=120); "
    "uvicorn.Server(config).run(sockets=[sock])"
)


def fd_serve_command(fd: int, log_level: str = "warning", access_log: bool = True) -> list[str]:
    """The application (settings from ``PALIO_*`` variables) on an inherited listening
    socket: a caller can then set socket options ``palio serve`` has no flag for (tests and
    the load benchmark give it a small send buffer). Pass the fd with ``pass_fds``."""
    return [sys.executable, "-c", SERVE_ON_FD, str(fd), log_level, "yes" if access_log else "no"]


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
