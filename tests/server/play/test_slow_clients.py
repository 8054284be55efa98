"""Slow and stuck WebSocket clients hurt only themselves.

The real test runs uvicorn on a listening socket whose send buffer is small (accepted sockets
inherit it, and the kernel then does not grow it), so a client that never reads is stuck
after a few pushes instead of after the megabytes loopback would otherwise absorb. Three
such clients, raw TCP sockets that did the WebSocket handshake and never read again, watch a
game; the people playing it and a healthy spectator must get every position while the stuck
clients are still connected, and the server must then drop the stuck ones.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from palio.server.base.process import HOST, fd_serve_command, wait_until_ready
from palio.server.play.push import Viewer

PUSH_TIMEOUT = 8.0  # seconds a stuck client keeps its connection


class FdServer:
    """uvicorn serving the app on a socket made here (small buffers), like ``palio serve``."""

    def __init__(self, tmp: Path) -> None:
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 8192)
        self.listener.bind((HOST, 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.log_path = tmp / "server.log"
        env = {**os.environ, "PALIO_DB": f"sqlite:///{tmp / 'palio.db'}", "PALIO_BOT_DELAY": "0",
               "PALIO_PUSH_TIMEOUT": str(PUSH_TIMEOUT), "PALIO_GAMES_PER_MINUTE": "0"}
        fd = self.listener.fileno()
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(fd_serve_command(fd, "info"), stdout=log,
                                            stderr=subprocess.STDOUT, env=env, pass_fds=(fd,))
        wait_until_ready(self.process, self.port, self.log_path, timeout=30)
        self.http = httpx.Client(base_url=f"http://{HOST}:{self.port}", timeout=30)

    def stop(self) -> None:
        self.http.close()
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        self.listener.close()


@pytest.fixture
def fd_server(tmp_path: Path) -> Iterator[FdServer]:
    server = FdServer(tmp_path)
    yield server
    server.stop()


def stuck_client(port: int, path: str) -> socket.socket:
    """A WebSocket client that says hello and never reads a byte again."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((HOST, port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    return sock


def closed_by_server(sock: socket.socket, wait: float) -> bool:
    """Read what the server sent until it ends the connection (True) or ``wait`` passes."""
    sock.settimeout(wait)
    try:
        while sock.recv(1 << 20):
            pass
    except ConnectionResetError:  # aborted with data unread: a reset
        return True
    except TimeoutError:
        return False
    return True


def test_stuck_clients_hurt_only_themselves(fd_server: FdServer) -> None:
    http = fd_server.http
    game_id = http.post("/api/games", json={"game": "tiletum", "players": 2, "seed": 4}).json()["id"]
    tokens = [http.post(f"/api/games/{game_id}/seats/{seat}/join", json={}).json()["token"]
              for seat in (0, 1)]
    path = f"/ws/games/{game_id}"
    stuck = [stuck_client(fd_server.port, path) for _ in range(3)]
    ws_base = f"ws://{HOST}:{fd_server.port}"
    with connect(f"{ws_base}{path}") as spectator, \
            connect(f"{ws_base}{path}", additional_headers={"Authorization": f"Bearer {tokens[0]}"}) as ada:
        for ws in (spectator, ada):
            json.loads(ws.recv(timeout=10))
        # each position must reach the healthy clients before the next move is made: were the
        # pushes to wait for the stuck clients, the first would take PUSH_TIMEOUT per stuck one
        for number in range(60):
            seat = http.get(f"/api/games/{game_id}").json()["to_move"]
            headers = {"Authorization": f"Bearer {tokens[seat]}"}
            view = http.get(f"/api/games/{game_id}/view", headers=headers).json()
            move = view["legal"][number % len(view["legal"])]["notation"]
            answer = http.post(f"/api/games/{game_id}/actions", headers=headers,
                               json={"action": move, "move_number": number})
            assert answer.status_code == 200, answer.text
            for ws in (spectator, ada):
                while json.loads(ws.recv(timeout=PUSH_TIMEOUT - 2))["view"]["move_number"] <= number:
                    pass
        assert "dropped a WebSocket client" not in fd_server.log_path.read_text(), (
            "the healthy clients were served only after the stuck ones were dropped")
        # the stuck clients are dropped once they have taken nothing for PUSH_TIMEOUT
        deadline = time.monotonic() + PUSH_TIMEOUT + 30
        while fd_server.log_path.read_text().count("dropped a WebSocket client") < 3:
            assert time.monotonic() < deadline, fd_server.log_path.read_text()[-2000:]
            time.sleep(0.2)
        assert all(closed_by_server(sock, 10) for sock in stuck)
        # the healthy ones are still served
        seat = http.get(f"/api/games/{game_id}").json()["to_move"]
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        view = http.get(f"/api/games/{game_id}/view", headers=headers).json()
        http.post(f"/api/games/{game_id}/actions", headers=headers,
                  json={"action": view["legal"][0]["notation"], "move_number": 60})
        while json.loads(spectator.recv(timeout=10))["view"]["move_number"] < 61:
            pass
    for sock in stuck:
        sock.close()
    assert "Traceback" not in fd_server.log_path.read_text()


class SlowSocket:
    """A WebSocket stand-in whose sends wait until the test lets them through."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.gate = asyncio.Event()

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        self.sent.append(text)


def test_a_mailbox_keeps_only_the_newest_view() -> None:
    """While a send is under way, newer views replace each other in the mailbox: the client
    gets the one it is waiting on, then the newest, never an older one after a newer."""

    async def scenario() -> list[str]:
        socket_ = SlowSocket()
        gone: list[Any] = []
        viewer = Viewer(socket_, "g", None, "en", timeout=5, on_gone=gone.append)
        viewer.start()
        viewer.offer(1, "view 1")
        await asyncio.sleep(0.05)  # the sender now waits in send_text("view 1")
        for revision in (2, 3, 4):
            viewer.offer(revision, f"view {revision}")
        viewer.offer(3, "view 3 again")  # older than what is queued: ignored
        socket_.gate.set()
        await asyncio.sleep(0.05)
        await viewer.close()
        assert gone == [viewer]
        return socket_.sent

    assert asyncio.run(scenario()) == ["view 1", "view 4"]


def test_a_client_that_takes_nothing_is_let_go() -> None:
    async def scenario() -> tuple[bool, list[Any]]:
        socket_ = SlowSocket()  # never opens its gate
        gone: list[Any] = []
        viewer = Viewer(socket_, "g", 0, "en", timeout=0.2, on_gone=gone.append)
        viewer.start()
        viewer.offer(1, "view 1")
        await asyncio.sleep(0.5)
        return viewer.gone, gone

    gone, removed = asyncio.run(scenario())
    assert gone and len(removed) == 1
