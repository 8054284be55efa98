"""Load on the web server: concurrent games over REST + WebSocket, with slow clients and one or
two server processes; moves/s, click-to-push latency and the server's CPU per move.

The benchmark has three kinds of process: this one (the conductor: it starts a throwaway
PostgreSQL cluster or uses a SQLite file, starts the server processes, measures their CPU and
prints the figures), the server processes (uvicorn serving ``palio.server.app:app_from_env``,
the application ``palio serve`` runs), and the load client, which runs in a process of its own
(``--client``) so that its work never shares an interpreter with the conductor or a server.

For every configuration (``--games`` x ``--servers`` x ``--stuck``) it starts from a fresh
database. The client keeps that many games running at once (a finished game is replaced) for
``--seconds``; in each game every seat is a client: it holds its WebSocket and, when a pushed
view says it is to move, POSTs a random legal move with the view's move number. With two
servers, seat 0 of every game acts through server A and seat 1 through server B, so every move
is pushed across processes (LISTEN/NOTIFY). ``--stuck K`` adds K spectators per game that do
the WebSocket handshake and never read again.

``--accounts``: every seat of every game is a signed-in account instead of a guest. Before the
run (outside the timed part and the CPU measurement) the conductor signs up one account per
seat of each game slot (``POST /api/accounts``: an argon2 hash each, so it prints how long that
took); the client then joins each new game with the join endpoint, an empty body, the session
cookie and the server's own ``Origin`` (the CSRF rule of ``palio.server.accounts.store``), POSTs its
moves the same way, and holds its WebSocket with the cookie instead of a seat token (no auth
message). ``--timed`` gives every table a real-time clock; both flags combine.

Measured per move: the POST's round trip, and the time from sending the POST until the mover's
own WebSocket delivers a view with a higher move number ("click to own push"); ten times a
second, a plain ``GET .../view`` of a game nobody plays (what bots and load cost everyone
else); how late the client's own event loop wakes from a 0.1 s sleep (a busy client inflates
every latency it measures). Per run: moves,
moves/s, the server processes' CPU seconds (user + system, from /proc) and so CPU per move,
the client's CPU, the stuck clients the servers dropped, and the machine's load average.

Each server listens on a socket made here with an 8 KiB send buffer, which accepted sockets
inherit (and the kernel then does not grow): a client that stops reading is stuck after a few
views, as on a slow link, instead of after the ~4 MB a loopback connection absorbs otherwise.
The server runs as ``palio serve`` would, through ``palio.server.base.process.fd_serve_command``
(not uvicorn's ``--fd``, whose connections lack TCP_NODELAY: ~40 ms more per response).

``--think S`` is the realistic mode beside that stress test: each player pauses 0.5 to 1.5 times
S before each move (a person looking at the board), players arrive over the first S seconds
(``--ramp R``: over R seconds instead; the click-to-push figures of moves sent after the ramp are
printed apart, and those of each tenth of the run, so a slow start tells itself apart from a slow
steady state), and the offered rate is about games / S moves a second (each player a move every players x S
seconds); ``--live SHARE`` gives that share of the tables a real-time clock, the others are
turn-based. ``--pin`` runs the client on a CPU of its own and the servers on the others (as
``taskset`` would). A server's start is polled with a progress line every 5 s (a start on a
busy host can take minutes), up to ``--start-timeout``. ``--profile DIR`` samples every server
process with py-spy during the run (``benchmarks/profile_summary.py`` reads the samples).

``--lobby N`` measures the lobby instead: N games are written to a fresh database, then a
client times pages of ``GET /api/games`` (the newest 50, and the last page of ``before=``).

Usage (from the repository root; needs scripts/postgres.sh for PostgreSQL):
  PYTHONPATH=src python benchmarks/load_server.py --games 8 32 100 --servers 1 2 --stuck 0 3
  PYTHONPATH=src python benchmarks/load_server.py --db sqlite --games 8 --seconds 20
  PYTHONPATH=src python benchmarks/load_server.py --bots --games 8 --servers 1
  PYTHONPATH=src python benchmarks/load_server.py --lobby 2007
  PYTHONPATH=src python benchmarks/load_server.py --db sqlite --games 8 --timed   # clocks on
  PYTHONPATH=src python benchmarks/load_server.py --db sqlite --games 8 --accounts  # signed in
  PYTHONPATH=src python benchmarks/load_server.py --db sqlite --games 100 --think 5 --live 0.5 --pin --seconds 60
  PYTHONPATH=src python benchmarks/load_server.py --db sqlite --games 500 --think 5 --live 0.5 --pin --seconds 120 --ramp 30
  PYTHONPATH=src python benchmarks/load_server.py --db sqlite --games 8 --profile /tmp/prof

This is a benchmark, not a test: it asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import itertools
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
SEND_BUFFER = 8192
SESSION_COOKIE = "palio_session"  # palio.server.accounts.store.SESSION_COOKIE
PASSWORD = "load-bench-password"


# ===================================================================== the load client ====
@dataclass
class Stats:
    post_rtt: list[float] = field(default_factory=list)  # seconds
    push_latency: list[float] = field(default_factory=list)  # seconds, POST sent -> own push
    push_at: list[float] = field(default_factory=list)  # seconds since the run began, each send
    loop_lag: list[float] = field(default_factory=list)  # seconds a 0.1 s sleep overran
    probe: list[float] = field(default_factory=list)  # seconds, a plain GET of a view
    moves: int = 0
    games_finished: int = 0
    rejected: dict[str, int] = field(default_factory=dict)  # HTTP status -> count
    errors: list[str] = field(default_factory=list)


class Budget:
    """Stop submitting at the deadline."""

    def __init__(self, seconds: float) -> None:
        self.deadline = time.monotonic() + seconds
        self.started = time.perf_counter()

    @property
    def spent(self) -> bool:
        return time.monotonic() >= self.deadline


class SeatClient:
    """One seat: a reader task timestamps every pushed view, the actor moves when to move.
    ``auth``: the headers that make a request this seat's (a seat token, or a session cookie
    with the server's Origin)."""

    def __init__(self, seat: int, game_id: str, auth: dict[str, str], http: Any, stats: Stats,
                 budget: Budget, rng: random.Random, think: float = 0.0) -> None:
        self.seat, self.game_id, self.auth, self.http = seat, game_id, auth, http
        self.stats, self.budget, self.rng, self.think = stats, budget, rng, think
        self.latest: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.pending: tuple[int, float] | None = None  # (move number sent, perf_counter at send)
        self.closed = False

    async def read(self, ws: Any) -> None:
        import websockets

        try:
            async for raw in ws:
                arrived = time.perf_counter()
                message = json.loads(raw)
                if message.get("type") != "view":
                    self.stats.errors.append(f"seat {self.seat}: {str(message)[:200]}")
                    break
                view = message["view"]
                if view["seat"] != self.seat:
                    continue  # the spectator view before the auth message's answer
                if self.pending is not None and view["move_number"] > self.pending[0]:
                    self.stats.push_latency.append(arrived - self.pending[1])
                    self.stats.push_at.append(self.pending[1] - self.budget.started)
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
            except TimeoutError:
                if self.budget.spent:
                    return
                continue
            self.changed.clear()
            view = self.latest
            if self.closed or view is None or view["is_over"] or self.budget.spent:
                return
            number = view["move_number"]
            if view["to_move"] != self.seat or not view["legal"] or number <= last_sent:
                continue
            if self.pending is not None:  # our previous move's push has not come yet
                continue
            last_sent = number
            if self.think > 0:  # a person looks at the board first (0.5x to 1.5x the mean)
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
                if self.budget.spent or self.closed:
                    return
            await self.submit(self.rng.choice(view["legal"])["notation"], number)

    async def submit(self, notation: str, number: int) -> None:
        sent = time.perf_counter()
        self.pending = (number, sent)
        response = await self.http.post(
            f"/api/games/{self.game_id}/actions", json={"action": notation, "move_number": number},
            headers=self.auth)
        self.stats.post_rtt.append(time.perf_counter() - sent)
        if response.status_code == 200:
            self.stats.moves += 1
        else:
            self.pending = None
            key = str(response.status_code)
            self.stats.rejected[key] = self.stats.rejected.get(key, 0) + 1
            self.changed.set()


async def stuck_client(base: str, game_id: str) -> asyncio.StreamWriter:
    """A spectator that does the WebSocket handshake and never reads again."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
    _, writer = await asyncio.open_connection(sock=sock)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET /ws/games/{game_id} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    await writer.drain()
    return writer


async def lag(stats: Stats, budget: Budget) -> None:
    """The client's own event loop: how late a 0.1 s sleep wakes (a busy client inflates every
    latency it measures)."""
    while not budget.spent:
        asked = time.perf_counter()
        await asyncio.sleep(0.1)
        stats.loop_lag.append(time.perf_counter() - asked - 0.1)


async def probe(http: Any, stats: Stats, budget: Budget) -> None:
    """Ten times a second, time a plain view request of a game nobody plays."""
    response = await http.post("/api/games", json={"game": "san-gimignano", "players": 2})
    response.raise_for_status()
    path = f"/api/games/{response.json()['id']}/view"
    while not budget.spent:
        sent = time.perf_counter()
        (await http.get(path)).raise_for_status()
        stats.probe.append(time.perf_counter() - sent)
        await asyncio.sleep(0.1)


class Client:
    def __init__(self, config: dict[str, Any]) -> None:
        import httpx

        self.config = config
        self.bases: list[str] = config["bases"]
        self.stats = Stats()
        self.budget = Budget(config["seconds"])
        limits = httpx.Limits(max_connections=config["games"] * 2 + 16)
        self.http = [httpx.AsyncClient(base_url=base, timeout=60, limits=limits)
                     for base in self.bases]

    def server_of(self, index: int) -> int:
        return index % len(self.bases)

    def cookie_auth(self, slot: int, seat: int) -> dict[str, str]:
        """A signed-in seat's headers on its server: the session cookie, and that server's own
        Origin (without it the server refuses a cookie write: CSRF)."""
        session = self.config["sessions"][slot][seat]
        return {"Cookie": f"{SESSION_COOKIE}={session}", "Origin": self.bases[self.server_of(seat)]}

    async def new_game(self, seed: int, slot: int) -> tuple[str, list[dict[str, str]]]:
        """A new table, every seat joined; each seat's auth headers (a token or a cookie)."""
        config = self.config
        players = config["players"]
        body = {"game": config["game"], "players": players, "seed": seed}
        # a real-time clock (palio.server.play.timing) on every table (--timed), or on the
        # first --live share of the game slots (live tables beside turn-based ones)
        if config.get("timed") or slot < round(config["live"] * config["games"]):
            body["timing"] = {"kind": "realtime", "base_s": 3600, "increment_s": 20}
        response = await self.http[0].post("/api/games", json=body)
        response.raise_for_status()
        game_id = response.json()["id"]
        auths = []
        for seat in range(players):
            path = f"/api/games/{game_id}/seats/{seat}/join"
            http = self.http[self.server_of(seat)]
            if config["accounts"]:  # signed in: no guest name, no body; the cookie is the seat
                auth = self.cookie_auth(slot, seat)
                joined = await http.post(path, headers=auth)
            else:
                joined = await http.post(path, json={"name": f"L{seat}"})
            joined.raise_for_status()
            if not config["accounts"]:
                auth = {"Authorization": f"Bearer {joined.json()['token']}"}
            auths.append(auth)
        return game_id, auths

    async def play_one_game(self, rng: random.Random, slot: int) -> None:
        import websockets

        game_id, auths = await self.new_game(rng.getrandbits(32), slot)
        stuck = [await stuck_client(self.bases[self.server_of(k)], game_id)
                 for k in range(self.config["stuck"])]
        seats = [SeatClient(seat, game_id, auth, self.http[self.server_of(seat)], self.stats,
                            self.budget, random.Random(rng.random()), self.config["think"])
                 for seat, auth in enumerate(auths)]
        sockets = []
        for seat, auth in enumerate(auths):
            ws_base = self.bases[self.server_of(seat)].replace("http://", "ws://")
            url = f"{ws_base}/ws/games/{game_id}"
            if self.config["accounts"]:  # the cookie (and Origin) open the seat at once
                ws = await websockets.connect(url, max_size=None, origin=auth["Origin"],
                                              additional_headers={"Cookie": auth["Cookie"]})
            else:
                ws = await websockets.connect(url, max_size=None)
                await ws.send(json.dumps({"type": "auth",
                                          "token": auth["Authorization"].split()[1]}))
            sockets.append(ws)
        readers = [asyncio.create_task(seat.read(ws)) for seat, ws in zip(seats, sockets, strict=True)]
        try:
            await asyncio.gather(*(seat.act() for seat in seats))
        finally:
            for ws in sockets:
                await ws.close()
            await asyncio.gather(*readers, return_exceptions=True)
            for writer in stuck:
                writer.transport.abort()
        if any(seat.latest is not None and seat.latest["is_over"] for seat in seats):
            self.stats.games_finished += 1

    async def slot(self, rng: random.Random, slot: int) -> None:
        import httpx
        import websockets

        if self.config["ramp"] > 0:  # people arrive over the ramp, not all at once
            await asyncio.sleep(rng.uniform(0, self.config["ramp"]))
        while not self.budget.spent:
            try:
                await self.play_one_game(rng, slot)
            except (httpx.HTTPError, websockets.WebSocketException, OSError) as exc:
                # counted, and the slot goes on with a new game (as a person would reload)
                self.stats.errors.append(f"{type(exc).__name__}: {str(exc)[:200]}")

    async def run(self) -> dict[str, Any]:
        rng = random.Random(self.config["seed"])
        started = time.perf_counter()
        cpu = time.process_time()
        await asyncio.gather(probe(self.http[0], self.stats, self.budget),
                             lag(self.stats, self.budget),
                             *(self.slot(random.Random(rng.random()), slot)
                               for slot in range(self.config["games"])))
        elapsed = time.perf_counter() - started
        for http in self.http:
            await http.aclose()
        return {**asdict(self.stats), "elapsed": elapsed, "client_cpu": time.process_time() - cpu}


class BotWatcher:
    """``--bots``: server bots play every seat; one spectator per game counts the moves."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.stats = Stats()
        self.budget = Budget(config["seconds"])

    async def watch(self, http: Any, ws_base: str, seed: int) -> None:
        import websockets

        config = self.config
        response = await http.post("/api/games", json={
            "game": config["game"], "players": config["players"], "seed": seed,
            "seats": [{"kind": "bot", "level": config["bot_level"]}] * config["players"]})
        response.raise_for_status()
        game_id = response.json()["id"]
        seen = 0
        async with websockets.connect(f"{ws_base}/ws/games/{game_id}", max_size=None) as ws:
            while not self.budget.spent:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.01, self.budget.deadline - time.monotonic()))
                except TimeoutError:
                    return
                view = json.loads(raw)["view"]
                if view["move_number"] > seen:
                    self.stats.moves += view["move_number"] - seen
                    seen = view["move_number"]
                if view["is_over"]:
                    self.stats.games_finished += 1
                    return

    async def run(self) -> dict[str, Any]:
        import httpx

        rng = random.Random(self.config["seed"])
        base = self.config["bases"][0]
        started, cpu = time.perf_counter(), time.process_time()
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            async def slot() -> None:
                while not self.budget.spent:
                    await self.watch(http, base.replace("http://", "ws://"), rng.getrandbits(32))
            await asyncio.gather(probe(http, self.stats, self.budget),
                                 *(slot() for _ in range(self.config["games"])))
        return {**asdict(self.stats), "elapsed": time.perf_counter() - started,
                "client_cpu": time.process_time() - cpu}


def client_main(config_json: str) -> None:
    config = json.loads(config_json)
    runner = BotWatcher(config) if config["bots"] else Client(config)
    print(json.dumps(asyncio.run(runner.run())), flush=True)


# ======================================================================== the conductor ====
class ServerProcess:
    """uvicorn serving the app on a listening socket made here (small send buffer)."""

    def __init__(self, db_url: str, log_path: Path, bot_delay: float,
                 push_timeout: float = 10.0, cpus: set[int] | None = None,
                 start_timeout: float = 900.0) -> None:
        from palio.server.base.process import fd_serve_command

        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        self.listener.bind((HOST, 0))
        self.listener.listen(1024)
        self.port = self.listener.getsockname()[1]
        self.base = f"http://{HOST}:{self.port}"
        self.log_path = log_path
        env = {**os.environ, "PALIO_DB": db_url, "PALIO_BOT_DELAY": str(bot_delay),
               "PALIO_GAMES_PER_MINUTE": "0", "PALIO_SIGN_UPS_PER_HOUR": "0",
               "PALIO_PUSH_TIMEOUT": str(push_timeout)}
        fd = self.listener.fileno()
        self.log = open(log_path, "ab")  # noqa: SIM115 - the process writes it until stop()
        # (keep-alive 120 s, longer than the client leaves a connection idle: a server closing
        # a kept-alive connection just as the client reuses it would count as an error)
        # info: palio's own lines (a dropped stuck client), without uvicorn's line per request
        self.process = subprocess.Popen(fd_serve_command(fd, "info", access_log=False),
                                        stdout=self.log, stderr=subprocess.STDOUT, env=env,
                                        pass_fds=(fd,))
        if cpus:  # --pin: before it imports anything, so its threads and bot processes inherit
            os.sched_setaffinity(self.process.pid, cpus)
        self.wait_ready(start_timeout)

    def wait_ready(self, limit: float) -> None:
        """Poll until the server answers, with a progress line every 5 s (a start on a busy
        host can take minutes); give up only if it exits, or after ``limit`` seconds."""
        import httpx

        started = time.monotonic()
        next_line = started + 5
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.base}/api/languages", timeout=2).status_code == 200:
                    waited = time.monotonic() - started
                    if waited >= 5:
                        print(f"  server on port {self.port} answers after {waited:.0f} s",
                              flush=True)
                    return
            except httpx.HTTPError:
                pass
            now = time.monotonic()
            if now - started > limit:
                raise RuntimeError(f"server did not answer in {limit:g} s (--start-timeout): "
                                   f"{self.log_path.read_text()[-3000:]}")
            if now >= next_line:
                print(f"  waiting for the server on port {self.port}: {now - started:.0f} s, "
                      f"its CPU {self.cpu_seconds():.1f} s, load {os.getloadavg()[0]:.1f}",
                      flush=True)
                next_line += 5
            time.sleep(0.2)

    def cpu_seconds(self) -> float:
        """User + system CPU of the server and its live children (bot processes)."""
        total = 0.0
        for pid in [self.process.pid, *children(self.process.pid)]:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total

    def dropped(self) -> int:
        return self.log_path.read_text(errors="replace").count("dropped a WebSocket client")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.log.close()
        self.listener.close()


async def sign_up_all(bases: list[str], games: int, players: int) -> list[list[str]]:
    """``--accounts``: one account per seat of each game slot, signed up before the run (as a
    browser would: with the server's own Origin); their session tokens, ``[slot][seat]``. A
    seat signs up on the server it will play through; four sign-ups at a time."""
    import httpx

    limit = asyncio.Semaphore(4)
    clients = [httpx.AsyncClient(base_url=base, timeout=120) for base in bases]

    async def one(slot: int, seat: int) -> str:
        base = bases[seat % len(bases)]
        async with limit:
            response = await clients[seat % len(bases)].post(
                "/api/accounts", json={"name": f"load{slot}-{seat}", "password": PASSWORD},
                headers={"Origin": base})
        response.raise_for_status()
        return response.cookies[SESSION_COOKIE]

    try:
        tokens = await asyncio.gather(*(one(slot, seat) for slot in range(games)
                                        for seat in range(players)))
    finally:
        for client in clients:
            await client.aclose()
    return [tokens[slot * players:(slot + 1) * players] for slot in range(games)]


def profile_server(server: ServerProcess, path: Path, seconds: float) -> subprocess.Popen[bytes]:
    """``--profile``: py-spy samples the server process (every thread; idle ones left out)
    from outside, without pausing it, for the run's length, only while it holds the GIL (so
    Python's CPU, not its waits; C code that releases the GIL, such as SQLite's own work, is
    left out); collapsed stacks to ``path``
    (read them with ``benchmarks/profile_summary.py``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    spy = Path(sys.executable).with_name("py-spy")
    return subprocess.Popen([str(spy), "record", "--pid", str(server.process.pid), "--format",
                             "raw", "--rate", "250", "--nonblocking", "--gil", "--duration",
                             str(max(1, int(seconds))), "--output", str(path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def cpu_sets(pin: bool) -> tuple[set[int] | None, set[int] | None]:
    """``--pin``: the client on the last CPU this process may use, the servers on the others
    (as ``taskset`` would); nothing pinned with fewer than two CPUs, or without --pin."""
    cpus = sorted(os.sched_getaffinity(0))
    if not pin or len(cpus) < 2:
        return None, None
    return set(cpus[:-1]), {cpus[-1]}


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if parent == pid:
                out.append(int(entry.name))
    return out


def cluster_env(workdir: Path) -> dict[str, str]:
    """postgres.sh remembers its cluster in a state file; a private one per run means stopping
    never touches a cluster someone else started."""
    return {**os.environ, "PALIO_PG_STATE": str(workdir / "postgres.current")}


def start_cluster(workdir: Path) -> str:
    done = subprocess.run(["bash", str(ROOT / "scripts" / "postgres.sh"), "start"],
                          capture_output=True, text=True, check=False, env=cluster_env(workdir))
    if done.returncode != 0:
        raise RuntimeError(f"scripts/postgres.sh start failed: {done.stderr.strip()}")
    return done.stdout.strip().splitlines()[-1]


def stop_cluster(workdir: Path) -> None:
    # no argument: the cluster named in our private PALIO_PG_STATE file; both the older script
    # (``stop [DIR]``) and the newer one (``stop URL|DIR``) read it, and neither then needs
    # the URL (which the older one would take for a missing dir, leaving the cluster running)
    subprocess.run(["bash", str(ROOT / "scripts" / "postgres.sh"), "stop"], check=False,
                   capture_output=True, env=cluster_env(workdir))


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (``share`` in 0..1); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(share * len(ordered) + 0.5)))
    return ordered[rank - 1]


def busiest_others(own: set[int], count: int = 4) -> list[str]:
    """The processes using the most CPU right now that are not this benchmark's."""
    done = subprocess.run(["ps", "-eo", "pid,pcpu,args", "--sort=-pcpu"], capture_output=True,
                          text=True, check=False)
    out = []
    for line in done.stdout.splitlines()[1:]:
        pid, cpu, args = line.split(None, 2)
        if int(pid) not in own and float(cpu) > 5:
            out.append(f"{cpu}% {args[:70]}")
        if len(out) == count:
            break
    return out


def run_one(args: argparse.Namespace, db_url: str, servers: int, games: int, stuck: int,
            workdir: Path, label: str) -> dict[str, Any]:
    procs = []
    try:
        server_cpus, client_cpus = cpu_sets(args.pin)
        for index in range(servers):
            procs.append(ServerProcess(db_url, workdir / f"{label}-server{index}.log",
                                       0.0 if args.bots else 0.3, args.push_timeout,
                                       server_cpus, args.start_timeout))
        bases = [p.base for p in procs]
        sessions, sign_up_s = None, 0.0
        if args.accounts:  # before the run and its CPU figures
            started = time.perf_counter()
            sessions = asyncio.run(sign_up_all(bases, games, args.players))
            sign_up_s = time.perf_counter() - started
        config = {"bases": bases, "games": games, "stuck": stuck,
                  "seconds": args.seconds, "seed": args.seed, "game": args.game,
                  "players": args.players, "bots": args.bots, "bot_level": args.bot_level,
                  "timed": args.timed, "accounts": args.accounts, "sessions": sessions,
                  "think": args.think, "live": args.live,
                  "ramp": args.think if args.ramp is None else args.ramp}
        load_before = os.getloadavg()
        cpu_before = [p.cpu_seconds() for p in procs]
        client = subprocess.Popen([sys.executable, __file__, "--client", json.dumps(config)],
                                  stdout=subprocess.PIPE, text=True)
        if client_cpus:
            os.sched_setaffinity(client.pid, client_cpus)
        others = busiest_others({os.getpid(), client.pid, *(p.process.pid for p in procs)})
        profilers = [profile_server(p, args.profile / f"{label}-server{i}.txt", args.seconds)
                     for i, p in enumerate(procs)] if args.profile else []
        out, _ = client.communicate(timeout=args.seconds + args.think + 600)
        for profiler in profilers:
            profiler.wait(60)
        cpu_after = [p.cpu_seconds() for p in procs]
        load_after = os.getloadavg()
        result = json.loads(out.strip().splitlines()[-1])
        dropped = sum(p.dropped() for p in procs)
    finally:
        for p in procs:
            p.stop()
    server_cpu = sum(after - before for before, after in zip(cpu_before, cpu_after, strict=True))
    moves = result["moves"]
    return {"servers": servers, "games": games, "stuck": stuck, "moves": moves,
            "elapsed": result["elapsed"], "moves_per_s": moves / result["elapsed"],
            "push_ms": [1000 * percentile(result["push_latency"], q)
                        for q in (0.5, 0.9, 0.95, 0.99)],
            "post_ms": [1000 * percentile(result["post_rtt"], q) for q in (0.5, 0.99)],
            "windows": windows(result["push_at"], result["push_latency"], args.seconds),
            "seated_ms": [1000 * percentile([v for t, v in zip(result["push_at"],
                                                                 result["push_latency"],
                                                                 strict=True)
                                             if t >= config["ramp"]] or [0.0], q)
                          for q in (0.5, 0.9, 0.99)],
            "ramp": config["ramp"],
            "lag_ms": [1000 * percentile(result["loop_lag"], q) for q in (0.5, 0.99, 1.0)],
            "probe_ms": [1000 * percentile(result["probe"], q) for q in (0.5, 0.99)],
            "server_cpu": server_cpu, "cpu_ms_per_move": 1000 * server_cpu / max(1, moves),
            "client_cpu": result["client_cpu"], "dropped": dropped,
            "games_finished": result["games_finished"], "rejected": result["rejected"],
            "errors": result["errors"][:5], "load": [load_before[0], load_after[0]],
            "others": others, "sign_up_s": sign_up_s}


def windows(at: list[float], latency: list[float], seconds: float) -> list[list[float]]:
    """Click to own push by the tenth of the run a move was sent in: [start s, moves, p50 ms,
    p99 ms] each, so a slow start tells itself apart from a slow steady state."""
    width = seconds / 10
    rows = []
    for k in range(10):
        inside = [v for t, v in zip(at, latency, strict=True) if k * width <= t < (k + 1) * width]
        if inside:
            rows.append([k * width, len(inside), 1000 * percentile(inside, 0.5),
                         1000 * percentile(inside, 0.99)])
    return rows


def lobby(db_url: str, count: int, workdir: Path) -> dict[str, Any]:
    """Time lobby pages over ``count`` games (written straight to the database)."""
    import httpx

    from palio.server.play.service import GameService

    service = GameService(db_url)
    for index in range(count):
        service.create({"game": "tiletum" if index % 2 else "san-gimignano", "players": 2,
                        "seed": index})
    service.close()
    server = ServerProcess(db_url, workdir / "lobby-server.log", 0.3)
    timings: dict[str, list[float]] = {"first page": [], "a later page": []}
    sizes = {}
    try:
        with httpx.Client(base_url=server.base, timeout=60) as http:
            middle = http.get(f"/api/games?limit=200&before="
                              f"{http.get('/api/games?limit=1').json()[0]['id']}").json()[-1]["id"]
            paths = {"first page": "/api/games", "a later page": f"/api/games?before={middle}"}
            for _ in range(50):
                for name, path in paths.items():
                    sent = time.perf_counter()
                    response = http.get(path)
                    timings[name].append(time.perf_counter() - sent)
                    sizes[name] = len(response.content)
    finally:
        server.stop()
    return {name: {"p50_ms": 1000 * percentile(values, 0.5),
                   "p99_ms": 1000 * percentile(values, 0.99), "bytes": sizes[name]}
            for name, values in timings.items()}


def row(r: dict[str, Any]) -> str:
    push = " / ".join(f"{v:.0f}" for v in r["push_ms"])
    text = (f"| {r['servers']} | {r['games']} | {r['stuck']} | {r['moves']} | "
            f"{r['moves_per_s']:.0f} | {push} | {r['post_ms'][0]:.0f} / {r['post_ms'][1]:.0f} | "
            f"{r['probe_ms'][0]:.0f} / {r['probe_ms'][1]:.0f} | "
            f"{r['server_cpu']:.1f} s = {r['cpu_ms_per_move']:.1f} ms | {r['client_cpu']:.1f} s | "
            f"{r['dropped']} | {r['load'][0]:.1f} -> {r['load'][1]:.1f} |")
    if r["rejected"] or r["errors"]:
        text += f" rejected {r['rejected']} errors {r['errors']}"
    return text


HEADER = ("| Servers | Games | Stuck/game | Moves | Moves/s | Click to own push p50 / p90 / p95 / p99 (ms) "
          "| POST p50 / p99 (ms) | Plain view p50 / p99 (ms) | Server CPU (per move) | Client CPU "
          "| Stuck dropped | Load 1-min |\n"
          "|---:|---:|---:|---:|---:|---|---|---|---|---:|---:|---|")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[8],
                        help="games played at once; several values: one run each")
    parser.add_argument("--servers", type=int, nargs="+", default=[1],
                        help="server processes (PostgreSQL for more than one)")
    parser.add_argument("--stuck", type=int, nargs="+", default=[0],
                        help="spectators per game that never read")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each run")
    parser.add_argument("--db", default="postgres",
                        help="postgres (a throwaway cluster), sqlite, or a PostgreSQL URL")
    parser.add_argument("--game", default="san-gimignano", help="game id (default san-gimignano)")
    parser.add_argument("--players", type=int, default=2, help="seats per game (default 2)")
    parser.add_argument("--bots", action="store_true",
                        help="server bots play every seat (bot delay 0); a spectator counts")
    parser.add_argument("--bot-level", default="random", help="bot level in --bots mode")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random clients")
    parser.add_argument("--push-timeout", type=float, default=10.0,
                        help="the servers' --push-timeout (default 10, as palio serve's)")
    parser.add_argument("--timed", action="store_true",
                        help="every table has a real-time clock (60 min + 20 s a decision)")
    parser.add_argument("--accounts", action="store_true",
                        help="every seat is a signed-in account (signed up before the run; "
                             "joins, moves and its WebSocket by session cookie and Origin)")
    parser.add_argument("--ramp", type=float, metavar="SECONDS",
                        help="players arrive spread over this many seconds from the start "
                             "(default: one think time); the figures after it are printed apart")
    parser.add_argument("--think", type=float, default=0.0, metavar="SECONDS",
                        help="realistic load: each player pauses 0.5x-1.5x this long before each "
                             "move (a 2-player table then moves every SECONDS, each player every "
                             "2 x SECONDS); players arrive over the first think time; 0 (the "
                             "default): the stress test, every move at once")
    parser.add_argument("--live", type=float, default=0.0, metavar="SHARE",
                        help="this share of the tables (0-1) have a real-time clock, the rest "
                             "are turn-based (--timed: all)")
    parser.add_argument("--pin", action="store_true",
                        help="the client on its own CPU, the servers on the others (taskset)")
    parser.add_argument("--start-timeout", type=float, default=900.0, metavar="SECONDS",
                        help="give up on a server that has not answered in this long (its "
                             "start is polled with a progress line; default 900)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--profile", type=Path, metavar="DIR",
                        help="sample each server process with py-spy during the run; collapsed "
                             "stacks to DIR/runN-serverK.txt (benchmarks/profile_summary.py)")
    parser.add_argument("--lobby", type=int, metavar="N",
                        help="time lobby pages over N games instead of playing")
    args = parser.parse_args(argv)
    if min(args.games) < 1 or min(args.servers) < 1 or min(args.stuck) < 0 or args.seconds <= 0:
        parser.error("--games, --servers and --seconds must be positive, --stuck 0 or more")
    if args.accounts and args.bots:
        parser.error("--accounts plays seats as clients: not with --bots")
    if args.think < 0 or not 0 <= args.live <= 1:
        parser.error("--think must be 0 or more, --live between 0 and 1")
    if args.db == "sqlite" and max(args.servers) > 1:
        parser.error("SQLite serves one process: --servers 1")
    return args


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--client"]:
        client_main(argv[1])
        return
    args = parse_args(argv)
    sys.path.insert(0, str(ROOT / "src"))
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="palio-load-") as tmp:
        workdir = Path(tmp)
        started_cluster = False
        try:
            cluster = None
            if args.db == "postgres":
                cluster = start_cluster(workdir)
                started_cluster = True
            elif args.db != "sqlite":
                cluster = args.db
            if args.lobby:
                results.append(measure_lobby(args, cluster, workdir))
            else:
                play_all(args, cluster, workdir, results)
        finally:
            if started_cluster:
                stop_cluster(workdir)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


def database(cluster: str | None, workdir: Path, label: str) -> str:
    """A fresh database: a SQLite file, or a new database on the PostgreSQL cluster."""
    from palio.server.base.db import fresh_postgres_database

    if cluster is None:
        return f"sqlite:///{workdir / (label + '.db')}"
    return fresh_postgres_database(cluster, "palio_load")


def measure_lobby(args: argparse.Namespace, cluster: str | None, workdir: Path) -> dict[str, Any]:
    result = lobby(database(cluster, workdir, "lobby"), args.lobby, workdir)
    print(f"lobby over {args.lobby} games ({'SQLite' if cluster is None else 'PostgreSQL'}; "
          f"load {os.getloadavg()[0]:.1f}): {json.dumps(result)}", flush=True)
    return result


def play_all(args: argparse.Namespace, cluster: str | None, workdir: Path,
             results: list[dict[str, Any]]) -> None:
    """Every configuration, one after another, each on a fresh database."""
    print(f"load_server: {args.game} ({args.players} players), {args.seconds:g} s a run, "
          f"{'server bots' if args.bots else 'REST + WebSocket clients'}"
          f"{', timed tables' if args.timed else ''}"
          f"{f', {args.live:.0%} live tables' if args.live and not args.timed else ''}"
          f"{f', think {args.think:g} s a move' if args.think else ''}"
          f"{', client and servers on separate CPUs' if cpu_sets(args.pin)[0] else ''}"
          f"{', signed-in accounts' if args.accounts else ''}, "
          f"{'SQLite' if cluster is None else 'PostgreSQL'}; {os.cpu_count()} CPUs; "
          f"Python {sys.version.split()[0]}", flush=True)
    print(HEADER, flush=True)
    for n, (servers, games, stuck) in enumerate(
            itertools.product(args.servers, args.games, args.stuck)):
        label = f"run{n}"
        result = run_one(args, database(cluster, workdir, label), servers, games, stuck,
                         workdir, label)
        results.append(result)
        print(row(result), flush=True)
        if args.think:
            print(f"  {games * args.players} players; offered about "
                  f"{games / args.think:.0f} moves/s (each player a move every "
                  f"{args.players * args.think:g} s)", flush=True)
        if args.accounts:
            print(f"  signed up {games * args.players} accounts before the run in "
                  f"{result['sign_up_s']:.1f} s", flush=True)
        print("  click to own push by the tenth of the run a move was sent in (start s: moves, "
              "p50 / p99 ms): " + "; ".join(f"{t:.0f}: {n}, {a:.0f} / {b:.0f}"
                                           for t, n, a, b in result["windows"]), flush=True)
        print(f"  click to own push once all had arrived (moves sent {result['ramp']:g} s or more "
              "after the start), p50 / p90 / p99: "
              + " / ".join(f"{v:.0f}" for v in result["seated_ms"]) + " ms", flush=True)
        print("  the client's own loop, a 0.1 s sleep late by p50 / p99 / max: "
              + " / ".join(f"{v:.0f}" for v in result["lag_ms"]) + " ms", flush=True)
        if result["others"]:
            print(f"  also running: {'; '.join(result['others'])}", flush=True)


if __name__ == "__main__":
    main()
