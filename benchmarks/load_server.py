"""Load on the web server: concurrent games played over REST + WebSocket, latency and moves/s.

Starts a real ``palio serve`` on a free loopback port with a fresh database, then keeps
``--games`` games running at once until ``--moves`` moves were submitted or ``--seconds``
passed (a finished game is replaced by a new one). Two modes:

* clients (default): every seat is a client of this script. Each seat holds the WebSocket
  ``/ws/games/{id}?token=...``; when its pushed view says it is to move, it POSTs a random
  move from ``view.legal`` with the view's ``move_number``. Measured per move: the POST's
  round trip, and the time from sending the POST until the acting seat's socket delivers a
  view with a higher move number (the full "click to screen" loop).
* ``--bots``: every seat is a server-side bot (``--bot-delay 0``); one spectator socket per
  game counts the moves from the pushes.

Usage (from the repository root):
  PYTHONPATH=src python benchmarks/load_server.py --games 8 --seconds 30
  PYTHONPATH=src python benchmarks/load_server.py --postgres      # SQLite, then PostgreSQL
  PYTHONPATH=src python benchmarks/load_server.py --bots --games 4 --seconds 20
  PYTHONPATH=src python benchmarks/load_server.py --db postgresql+psycopg://u@127.0.0.1/db

Loopback only; the server is killed at the end, and so is a cluster started by ``--postgres``.
This is a benchmark, not a test: it asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from palio.server.db import fresh_postgres_database
from palio.server.process import HOST, free_port, serve_command, wait_until_ready

ROOT = Path(__file__).resolve().parent.parent


# -- the server process ----------------------------------------------------------------------
class ServerProcess:
    """``palio serve`` on loopback; ``stop()`` terminates it (kill -9 if it lingers)."""

    def __init__(self, db_url: str, log_path: Path) -> None:
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.ws_base = f"ws://{HOST}:{self.port}"
        self.log_path = log_path
        self.log = open(log_path, "ab")  # noqa: SIM115 - the process writes it until stop()
        self.process = subprocess.Popen(serve_command(db_url, self.port), stdout=self.log,
                                        stderr=subprocess.STDOUT)

    def wait_ready(self, timeout: float = 60) -> None:
        wait_until_ready(self.process, self.port, self.log_path, timeout)

    def cpu_seconds(self) -> float | None:
        """User + system CPU time of the server so far (Linux /proc), None elsewhere."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.log.close()


# -- PostgreSQL --------------------------------------------------------------------------------
def cluster_env(workdir: Path) -> dict[str, str]:
    """postgres.sh remembers its cluster in a state file; a private one per run means stopping
    never touches a cluster someone else started."""
    return {**os.environ, "PALIO_PG_STATE": str(workdir / "postgres.current")}


def start_cluster(workdir: Path) -> str:
    """A throwaway cluster from scripts/postgres.sh; its URL."""
    done = subprocess.run(["bash", str(ROOT / "scripts" / "postgres.sh"), "start"],
                          capture_output=True, text=True, check=False, env=cluster_env(workdir))
    if done.returncode != 0:
        raise RuntimeError(f"scripts/postgres.sh start failed: {done.stderr.strip()}")
    return done.stdout.strip().splitlines()[-1]


def stop_cluster(workdir: Path) -> None:
    subprocess.run(["bash", str(ROOT / "scripts" / "postgres.sh"), "stop"], check=False,
                   capture_output=True, env=cluster_env(workdir))


# -- measuring -------------------------------------------------------------------------------
def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (``share`` in 0..1); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(share * len(ordered) + 0.5)))
    return ordered[rank - 1]


@dataclass
class Budget:
    """The shared bound: stop submitting after ``moves`` moves or at ``deadline``."""

    moves: int
    deadline: float
    submitted: int = 0

    def take(self) -> bool:
        if self.submitted >= self.moves or time.monotonic() >= self.deadline:
            return False
        self.submitted += 1
        return True

    @property
    def spent(self) -> bool:
        return self.submitted >= self.moves or time.monotonic() >= self.deadline


@dataclass
class Stats:
    post_rtt: list[float] = field(default_factory=list)  # seconds
    push_latency: list[float] = field(default_factory=list)  # seconds, POST sent -> view pushed
    moves: int = 0
    games_finished: int = 0
    rejected: dict[int, int] = field(default_factory=dict)  # HTTP status -> count
    errors: list[str] = field(default_factory=list)


# -- client mode: every seat plays over REST + WebSocket -------------------------------------------
class SeatClient:
    """One seat: a reader task timestamps every pushed view, the actor moves when to move."""

    def __init__(self, seat: int, game_id: str, token: str, http: httpx.AsyncClient,
                 stats: Stats, budget: Budget, rng: random.Random) -> None:
        self.seat = seat
        self.game_id = game_id
        self.token = token
        self.http = http
        self.stats = stats
        self.budget = budget
        self.rng = rng
        self.latest: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.pending: tuple[int, float] | None = None  # (move number sent, perf_counter at send)
        self.closed = False

    async def read(self, ws: Any) -> None:
        try:
            async for raw in ws:
                arrived = time.perf_counter()
                message = json.loads(raw)
                if message.get("type") != "view":
                    self.stats.errors.append(f"seat {self.seat}: {message}")
                    break
                view = message["view"]
                if self.pending is not None and view["move_number"] > self.pending[0]:
                    self.stats.push_latency.append(arrived - self.pending[1])
                    self.pending = None
                self.latest = view
                self.changed.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            self.changed.set()

    async def act(self) -> None:
        last_sent = -1
        while True:
            try:
                await asyncio.wait_for(self.changed.wait(), 0.5)
            except TimeoutError:  # a waiting seat stops once the budget is spent elsewhere
                if self.budget.spent:
                    return
                continue
            self.changed.clear()
            view = self.latest
            if self.closed or view is None or view["is_over"]:
                return
            number = view["move_number"]
            if view["to_move"] != self.seat or not view["legal"] or number <= last_sent:
                continue
            if self.pending is not None:  # our previous move's push has not come yet
                continue
            if not self.budget.take():
                return
            last_sent = number
            await self.submit(self.rng.choice(view["legal"])["notation"], number)

    async def submit(self, notation: str, number: int) -> None:
        sent = time.perf_counter()
        self.pending = (number, sent)
        response = await self.http.post(
            f"/api/games/{self.game_id}/actions",
            json={"action": notation, "move_number": number},
            headers={"Authorization": f"Bearer {self.token}"})
        self.stats.post_rtt.append(time.perf_counter() - sent)
        if response.status_code == 200:
            self.stats.moves += 1
        else:
            self.pending = None
            self.stats.rejected[response.status_code] = self.stats.rejected.get(
                response.status_code, 0) + 1
            self.changed.set()


async def new_human_game(http: httpx.AsyncClient, game: str, players: int,
                         seed: int) -> tuple[str, list[str]]:
    response = await http.post("/api/games", json={
        "game": game, "players": players, "seed": seed, "seats": [{"kind": "human"}] * players})
    response.raise_for_status()
    game_id = response.json()["id"]
    tokens = []
    for seat in range(players):
        joined = await http.post(f"/api/games/{game_id}/seats/{seat}/join", json={"name": f"L{seat}"})
        joined.raise_for_status()
        tokens.append(joined.json()["token"])
    return game_id, tokens


async def play_one_game(server: ServerProcess, http: httpx.AsyncClient, args: argparse.Namespace,
                        stats: Stats, budget: Budget, rng: random.Random) -> None:
    game_id, tokens = await new_human_game(http, args.game, args.players, rng.getrandbits(32))
    seats = [SeatClient(seat, game_id, token, http, stats, budget, random.Random(rng.random()))
             for seat, token in enumerate(tokens)]
    sockets = [await websockets.connect(f"{server.ws_base}/ws/games/{game_id}?token={token}",
                                        max_size=None)
               for token in tokens]
    readers = [asyncio.create_task(seat.read(ws)) for seat, ws in zip(seats, sockets, strict=True)]
    try:
        await asyncio.gather(*(seat.act() for seat in seats))
    finally:
        for ws in sockets:
            await ws.close()
        await asyncio.gather(*readers, return_exceptions=True)
    if any(seat.latest is not None and seat.latest["is_over"] for seat in seats):
        stats.games_finished += 1


async def client_slot(server: ServerProcess, http: httpx.AsyncClient, args: argparse.Namespace,
                      stats: Stats, budget: Budget, rng: random.Random) -> None:
    """One of the concurrent games: play games one after another until the budget is spent."""
    while not budget.spent:
        try:
            await play_one_game(server, http, args, stats, budget, rng)
        except (httpx.HTTPError, websockets.WebSocketException, OSError) as exc:
            stats.errors.append(f"{type(exc).__name__}: {exc}")
            return


# -- bot mode: the server's bots play, a spectator counts the pushes ----------------------------
async def watch_bot_game(server: ServerProcess, http: httpx.AsyncClient, args: argparse.Namespace,
                         stats: Stats, budget: Budget, seed: int) -> None:
    seats = [{"kind": "bot", "level": args.bot_level}] * args.players
    response = await http.post("/api/games", json={"game": args.game, "players": args.players,
                                                    "seed": seed, "seats": seats})
    response.raise_for_status()
    game_id = response.json()["id"]
    seen = 0
    async with websockets.connect(f"{server.ws_base}/ws/games/{game_id}", max_size=None) as ws:
        while not budget.spent:
            remaining = budget.deadline - time.monotonic()
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, remaining))
            except TimeoutError:
                break
            view = json.loads(raw)["view"]
            advanced = view["move_number"] - seen
            if advanced > 0:
                seen = view["move_number"]
                stats.moves += advanced
                budget.submitted += advanced
            if view["is_over"]:
                stats.games_finished += 1
                return


async def bot_slot(server: ServerProcess, http: httpx.AsyncClient, args: argparse.Namespace,
                   stats: Stats, budget: Budget, rng: random.Random) -> None:
    while not budget.spent:
        try:
            await watch_bot_game(server, http, args, stats, budget, rng.getrandbits(32))
        except (httpx.HTTPError, websockets.WebSocketException, OSError) as exc:
            stats.errors.append(f"{type(exc).__name__}: {exc}")
            return


# -- one run ------------------------------------------------------------------------------------
async def drive(server: ServerProcess, args: argparse.Namespace) -> tuple[Stats, float]:
    stats = Stats()
    budget = Budget(args.moves, time.monotonic() + args.seconds)
    rng = random.Random(args.seed)
    slot = bot_slot if args.bots else client_slot
    limits = httpx.Limits(max_connections=args.games * args.players + 8)
    async with httpx.AsyncClient(base_url=server.base, timeout=30, limits=limits) as http:
        started = time.perf_counter()
        await asyncio.gather(*(slot(server, http, args, stats, budget, random.Random(rng.random()))
                               for _ in range(args.games)))
        elapsed = time.perf_counter() - started
    return stats, elapsed


def run_backend(label: str, db_url: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    server = ServerProcess(db_url, workdir / f"server-{label}.log")
    try:
        server.wait_ready()
        cpu_before = server.cpu_seconds()
        client_before = time.process_time()
        stats, elapsed = asyncio.run(drive(server, args))
        cpu_after = server.cpu_seconds()
        client_cpu = time.process_time() - client_before
    finally:
        server.stop()
    server_cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    return {"backend": label, "mode": "bots" if args.bots else "clients", "games": args.games,
            "stats": stats, "elapsed": elapsed, "server_cpu": server_cpu, "client_cpu": client_cpu}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def report(result: dict[str, Any]) -> str:
    stats: Stats = result["stats"]
    elapsed = result["elapsed"]
    lines = [f"{result['backend']} ({result['mode']}, {result['games']} concurrent games): "
             f"{stats.moves} moves in {elapsed:.1f} s = {stats.moves / elapsed:.1f} moves/s, "
             f"{stats.games_finished} games finished"]
    if stats.push_latency or stats.post_rtt:
        lines.append(
            "  POST -> own push (ms): p50 {} p90 {} p99 {} max {}".format(
                *(ms(percentile(stats.push_latency, q)) for q in (0.5, 0.9, 0.99, 1.0))))
        lines.append(
            "  POST round trip  (ms): p50 {} p90 {} p99 {} max {}".format(
                *(ms(percentile(stats.post_rtt, q)) for q in (0.5, 0.9, 0.99, 1.0))))
    if result["server_cpu"] is not None:
        lines.append(f"  CPU: server {result['server_cpu']:.1f} s, this client "
                     f"{result['client_cpu']:.1f} s over {elapsed:.1f} s wall")
    if stats.rejected:
        lines.append(f"  rejected moves by status: {stats.rejected}")
    for error in stats.errors[:5]:
        lines.append(f"  error: {error}")
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="games played at once (default 8)")
    parser.add_argument("--game", default="san-gimignano", help="game id (default san-gimignano)")
    parser.add_argument("--players", type=int, default=2, help="seats per game (default 2)")
    parser.add_argument("--moves", type=int, default=5000, help="stop after this many moves")
    parser.add_argument("--seconds", type=float, default=30.0, help="stop after this long")
    parser.add_argument("--db", help="database URL instead of a fresh SQLite file (its games stay)")
    parser.add_argument("--postgres", action="store_true",
                        help="also run on a throwaway cluster from scripts/postgres.sh")
    parser.add_argument("--bots", action="store_true",
                        help="server-side bots play every seat (--bot-delay 0)")
    parser.add_argument("--bot-level", default="random", help="bot level in --bots mode")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random clients")
    args = parser.parse_args(argv)
    if args.games < 1 or args.moves < 1 or args.seconds <= 0:
        parser.error("--games, --moves and --seconds must be positive")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="palio-load-") as tmp:
        workdir = Path(tmp)
        backends = [("custom" if args.db else "sqlite", args.db or f"sqlite:///{workdir / 'load.db'}")]
        started_cluster = False
        try:
            if args.postgres and not args.db:
                url = start_cluster(workdir)
                started_cluster = True
                backends.append(("postgresql", fresh_postgres_database(url, "palio_load")))
            print(f"load_server: {args.games} games of {args.game} ({args.players} players), "
                  f"at most {args.moves} moves or {args.seconds:g} s per backend, "
                  f"{'server bots' if args.bots else 'REST + WebSocket clients'}, "
                  f"{os.cpu_count()} CPUs", flush=True)
            for label, url in backends:
                print(report(run_backend(label, url, args, workdir)), flush=True)
        finally:
            if started_cluster:
                stop_cluster(workdir)


if __name__ == "__main__":
    main()
