"""Server-side bots against a real server process: they think in processes of their own."""

from __future__ import annotations

import asyncio
import os
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest

import palio
from palio.server.play.botplay import BotRunner
from palio.server.play.service import fallback_move
from tests.server.conftest import Server

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def stat(pid: int) -> list[str]:
    """Fields of /proc/PID/stat after the command name (field 3 is index 0)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pid: int) -> float:
    fields = stat(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bot_processes(server_pid: int) -> list[int]:
    """The server's children that run the bot pool (multiprocessing's spawned workers)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int(stat(int(entry.name))[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError):
            continue
        if parent == server_pid and b"spawn_main" in command:
            out.append(int(entry.name))
    return out


def test_bots_think_in_their_own_lower_priority_processes(make_server: Any) -> None:
    """Two MCTS bots (1,500 iterations a move, about a third of a second of CPU) play with no
    delay. The search runs in the one bot process allowed (--bot-processes 1), at a lower
    priority, while the server process itself stays nearly idle and answers every request; the
    bot process ends with the server. (At 200 iterations a move the bots' CPU was once no more
    than the server's own in a slow CI run, so each move now thinks long enough to tell.)"""
    server: Server = make_server(None, 0.0, "--bot-processes", "1")
    server.start()
    game_id = server.create(game="san-gimignano", players=2, seed=2,
                            seats=[{"kind": "bot", "level": "mcts:iterations=1500"}] * 2)["id"]
    deadline = time.monotonic() + 60
    while server.http.get(f"/api/games/{game_id}").json()["move_number"] < 1:
        assert time.monotonic() < deadline, "the bots did not move"
        time.sleep(0.1)
    first = server.http.get(f"/api/games/{game_id}").json()["move_number"]
    workers = bot_processes(server.process.pid)
    assert len(workers) == 1
    worker = workers[0]
    niceness = int(stat(server.process.pid)[16])
    assert int(stat(worker)[16]) == min(19, niceness + 10)
    server_cpu, worker_cpu = cpu_seconds(server.process.pid), cpu_seconds(worker)
    deadline = time.monotonic() + 120  # a busy machine starves a low-priority process
    while server.http.get(f"/api/games/{game_id}").json()["move_number"] < first + 4:
        assert time.monotonic() < deadline, "the bots stopped moving"
        time.sleep(0.2)  # requests keep being answered meanwhile
    thought = cpu_seconds(worker) - worker_cpu
    served = cpu_seconds(server.process.pid) - server_cpu
    assert thought > served, f"bot process {thought:.2f} s of CPU, server {served:.2f} s"
    assert bot_processes(server.process.pid) == [worker]  # never more than the bound

    # and they end with the server, kill -9 included (they would keep thinking otherwise)
    server.kill()
    deadline = time.monotonic() + 20
    while Path(f"/proc/{worker}").exists() and stat(worker)[0] != "Z":
        assert time.monotonic() < deadline, "the bot process outlived its server"
        time.sleep(0.1)


def test_a_dead_bot_process_means_a_random_move_then_a_new_pool() -> None:
    """A bot process that died breaks its pool (``BrokenProcessPool``, caught as
    concurrent.futures' ``BrokenExecutor`` since the pool's module is imported at the first bot
    move, issue 34): the random fallback move is played and the next move makes a new pool."""

    class DeadPool:
        def submit(self, *_args: Any, **_kwargs: Any) -> Any:
            raise BrokenProcessPool("a child process terminated abruptly")

    state = palio.new_game("san-gimignano", players=2, seed=1)
    runner = BotRunner(None, None, processes=1, delay=0.0, max_seconds=1.0,  # type: ignore[arg-type]
                       on_move=None)
    runner.pool = DeadPool()  # type: ignore[assignment]
    move = asyncio.run(runner._think("g1", "random", state, state.to_move, 7))
    assert move == fallback_move(state, 7)
    assert runner.pool is None  # another failure would have kept the broken pool
