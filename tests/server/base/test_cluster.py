"""Several server processes on one PostgreSQL database, with real parts: separate ``palio
serve`` processes (as on several hosts) and ``palio serve --workers 2``, a throwaway cluster
(``PALIO_TEST_POSTGRES_URL``, from scripts/postgres.sh), and ``kill -9``.

And SQLite's side of it: one process only, refused clearly otherwise.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import palio
from palio.core.record import GameRecord
from palio.server.base.process import HOST, free_port, serve_command
from tests.server.conftest import POSTGRES_URL, Server, database_url

SG = "san-gimignano"
needs_postgres = pytest.mark.skipif(not POSTGRES_URL,
                                    reason="PALIO_TEST_POSTGRES_URL is not set (scripts/postgres.sh)")


def states_of(record: dict[str, Any]) -> list[Any]:
    game = palio.get_game(record["game"])
    state = game.setup(record["players"], record["seed"], record["options"])
    states = [state.copy()]
    for notation in record["actions"]:
        state.apply(notation)
        states.append(state.copy())
    return states


class Person:
    """A seat (or a spectator: seat None) that acts only on the views pushed to it, through
    the first of its servers that is alive; when one dies under it, it goes on through the
    next, as a browser would after a reconnect."""

    def __init__(self, game_id: str, seat: int | None, token: str | None,
                 servers: list[Server], seed: int) -> None:
        self.game_id, self.seat, self.token, self.servers = game_id, seat, token, servers
        self.rng = random.Random(seed)
        self.views: list[dict[str, Any]] = []
        self.acked: dict[int, str] = {}  # move number -> notation, for 200 answers only
        self.switched = 0
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        try:
            for server in self.servers:
                if self.follow(server):
                    return
                self.switched += 1
            raise AssertionError(f"seat {self.seat}: every server died")
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.error = exc

    def follow(self, server: Server) -> bool:
        """True once the game is over; False when this server went away."""
        try:
            with connect(f"{server.ws_base}/ws/games/{self.game_id}") as ws, \
                    server.client(self.token) as http:
                if self.token:
                    ws.send(json.dumps({"type": "auth", "token": self.token}))
                deadline = time.monotonic() + 180
                while time.monotonic() < deadline:
                    view = json.loads(ws.recv(timeout=60))["view"]
                    if view["seat"] != self.seat:
                        continue  # the spectator view before the seat's own
                    self.views.append(view)
                    if view["is_over"]:
                        return True
                    if view["to_move"] == self.seat and view["legal"]:
                        move = self.rng.choice(view["legal"])["notation"]
                        answer = http.post(f"/api/games/{self.game_id}/actions", json={
                            "action": move, "move_number": view["move_number"]})
                        if answer.status_code == 200:
                            self.acked[view["move_number"] + 1] = move
                        else:
                            assert answer.status_code == 409, answer.text
                raise AssertionError("the game did not end")
        except (ConnectionClosed, httpx.HTTPError, OSError):
            return False


def check_views(views: list[dict[str, Any]], seat: int | None, states: list[Any]) -> None:
    """Each view is exactly what this seat may see at its move number."""
    for view in views:
        state = states[view["move_number"]]
        assert view["seat"] == seat
        assert view["observation"] == state.observe(seat)
        expected = [str(a) for a in state.legal_actions()] if state.to_move == seat else []
        if view["is_over"]:
            expected = []
        assert [m["notation"] for m in view["legal"]] == expected


@needs_postgres
def test_two_processes_play_one_game_through_a_kill(make_server: Any, tmp_path: Path) -> None:
    """Ada plays through process A, Bo through B, a spectator watches on a third connection
    (to A). Each acts only on pushed views, so every move made on one process must reach the
    other's clients (LISTEN/NOTIFY). A is killed mid-game; Ada and the spectator go on through
    B, no acknowledged move is lost, and a bot game A was playing is taken over by B."""
    url = database_url("postgres", tmp_path)
    a, b = make_server(url, 0.0), make_server(url, 0.0)
    a.start()
    b.start()
    game_id = a.create(game=SG, players=2, seed=31)["id"]
    ada, bo = a.join(game_id, 0, "Ada"), b.join(game_id, 1, "Bo")
    bots = a.create(game=SG, players=2, seed=32, seats=[
        {"kind": "bot", "level": "mcts:iterations=30"}] * 2)["id"]
    people = [Person(game_id, 0, ada, [a, b], seed=1), Person(game_id, 1, bo, [b], seed=2),
              Person(game_id, None, None, [a, b], seed=3)]
    for person in people:
        person.thread.start()
    deadline = time.monotonic() + 120
    while not (len(people[0].acked) >= 4 and len(people[1].acked) >= 4):
        assert time.monotonic() < deadline and not any(p.error for p in people)
        time.sleep(0.01)
    assert a.http.get(f"/api/games/{bots}").json()["status"] != "finished", \
        "the bot game should still be running when A dies"
    a.kill()
    for person in people:
        person.thread.join(180)
        assert person.error is None, person.error
    assert people[0].switched == 1 and people[2].switched == 1  # they did go on through B
    record = b.http.get(f"/api/games/{game_id}/record").json()
    states = states_of(record)
    assert states[-1].is_over
    GameRecord(**record).replay(palio.get_game(SG))
    for person in people[:2]:
        for n, notation in person.acked.items():
            assert record["actions"][n - 1] == notation, f"acknowledged move {n} lost"
    for person in people:
        assert person.views[-1]["is_over"]
        check_views(person.views, person.seat, states)
    # the bot game A was playing goes on through B (its sweep finds the waiting bot)
    b.wait_over(bots, timeout=120)
    GameRecord(**b.http.get(f"/api/games/{bots}/record").json()).replay(palio.get_game(SG))


@needs_postgres
def test_processes_starting_together_play_each_bot_move_once(make_server: Any,
                                                             tmp_path: Path) -> None:
    """Every process resumes the games with a bot to move when it starts, so two starting
    together contend for the same moves: the advisory lock lets one think for each move."""
    url = database_url("postgres", tmp_path)
    first = make_server(url, 120.0)  # its bots wait two minutes: nothing moves yet
    first.start()
    games = [first.create(game=SG, players=2, seed=40 + i, seats=[
        {"kind": "bot", "level": "random"}] * 2)["id"] for i in range(2)]
    first.kill()
    # a bot delay long enough that both are up while the games go on
    b, c = make_server(url, 0.1, log_level="debug"), make_server(url, 0.1, log_level="debug")
    starters = [threading.Thread(target=s.start) for s in (b, c)]
    for thread in starters:
        thread.start()
    for thread in starters:
        thread.join(60)
    def far_enough(game_id: str) -> bool:
        summary = b.http.get(f"/api/games/{game_id}").json()
        return summary["move_number"] >= 20 or summary["status"] == "finished"

    deadline = time.monotonic() + 120
    while not all(far_enough(g) for g in games):
        assert time.monotonic() < deadline, "the bots did not play"
        time.sleep(0.1)
    b.stop()
    c.stop()
    from palio.server.play.service import GameService

    rows = GameService(url)
    played = {g["id"]: g["move_number"] for g in rows.list_games({"status": "all"})[0]}
    rows.close()
    logs = [s.log_path.read_text() for s in (b, c)]
    thinking = re.compile(r"bot thinks: game (\w+) move (\d+)")
    decisions = [(m.groups(), who) for who, text in enumerate(logs)
                 for m in thinking.finditer(text)]
    for game_id in games:
        moves = sorted(int(n) for (g, n), _ in decisions if g == game_id)
        # every move played was one bot decision, and none was thought twice (a decision
        # under way when the servers stopped may have been thought without being played)
        assert moves[:played[game_id]] == list(range(played[game_id])), game_id
        assert len(moves) == len(set(moves)), game_id
    # and the two did contend: a claim was refused, or both played moves of one game
    refused = sum(text.count("is being played by another process") for text in logs)
    shared = any(len({who for (g, _), who in decisions if g == game_id}) == 2
                 for game_id in games)
    assert refused or shared


@needs_postgres
def test_postgres_claims_exclude_each_other_and_end_with_their_connection(
        tmp_path: Path) -> None:
    from palio.server.base.cluster import PostgresClaims

    url = database_url("postgres", tmp_path)

    async def scenario() -> None:
        one, two = PostgresClaims(url), PostgresClaims(url)
        async with one.claim("g1") as mine:
            assert mine
            async with two.claim("g1") as theirs:
                assert not theirs  # the move is being played elsewhere
            async with two.claim("g2") as other_game:
                assert other_game
        async with two.claim("g1") as theirs:
            assert theirs  # released
        # a holder whose connection ends (its process killed) holds nothing any more
        async with one.claim("g3") as mine:
            assert mine
            cursor = await one.connection.execute("SELECT pg_backend_pid()")
            (pid,) = await cursor.fetchone()
            await one.connection.close()
            # the server ends the closed connection's backend a moment later (longer under
            # load); its locks go when it has ended
            watch = await two._connection()
            for _ in range(400):
                cursor = await watch.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE pid = %s", (pid,))
                if (await cursor.fetchone())[0] == 0:
                    break
                await asyncio.sleep(0.025)
            async with two.claim("g3") as theirs:
                assert theirs
        await one.close()
        await two.close()

    asyncio.run(scenario())


@needs_postgres
def test_workers_share_one_port(make_server: Any, tmp_path: Path) -> None:
    """``palio serve --workers 2``: two uvicorn processes on one port; people whose
    connections land on either play a game to the end on pushes alone."""
    server: Server = make_server(database_url("postgres", tmp_path), 0.0, "--workers", "2",
                                 "--bot-processes", "1")
    server.start()
    deadline = time.monotonic() + 60
    while len(children(server.process.pid)) < 2:
        assert time.monotonic() < deadline, "uvicorn did not start two workers"
        time.sleep(0.2)
    game_id = server.create(game=SG, players=2, seed=51)["id"]
    tokens = [server.join(game_id, seat) for seat in (0, 1)]
    # several connections each, so that both workers serve some
    people = [Person(game_id, seat, tokens[seat], [server], seed=seat) for seat in (0, 1)]
    watchers = [Person(game_id, None, None, [server], seed=9) for _ in range(3)]
    for person in people + watchers:
        person.thread.start()
    for person in people + watchers:
        person.thread.join(180)
        assert person.error is None, person.error
    states = states_of(server.http.get(f"/api/games/{game_id}/record").json())
    for person in people + watchers:
        assert person.views[-1]["is_over"]
        check_views(person.views, person.seat, states)
    bots = server.create(game=SG, players=2, seats=[{"kind": "bot", "level": "random"}] * 2)
    server.wait_over(bots["id"], timeout=120)


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(fields[1]) == pid and b"spawn_main" in command:
                out.append(int(entry.name))
    return out


def test_sqlite_serves_one_process(tmp_path: Path) -> None:
    """``--workers 2`` on SQLite is refused before anything starts, and so is a second
    ``palio serve`` on a SQLite file another one is serving."""
    db = f"sqlite:///{tmp_path / 'palio.db'}"
    refused = subprocess.run(serve_command(db, free_port(), 0.0, "--workers", "2"),
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2
    assert "needs PostgreSQL" in refused.stderr + refused.stdout
    first = Server(db, 0.0, tmp_path / "first.log")
    first.start()
    try:
        second = subprocess.run(serve_command(db, free_port(), 0.0), capture_output=True,
                                text=True, timeout=60)
        assert second.returncode != 0
        assert "another palio serve is using" in second.stderr + second.stdout
        assert first.http.get("/api/bots").status_code == 200  # the first one serves on
    finally:
        first.stop()


def test_settings_come_from_the_environment_too(tmp_path: Path) -> None:
    from palio.server.base.settings import Settings

    settings = Settings.from_env({"PALIO_DB": "postgresql://u@h/d", "PALIO_WORKERS": "3",
                                  "PALIO_BOT_PROCESSES": "2", "PALIO_GAMES_PER_MINUTE": "0",
                                  "PALIO_PUSH_TIMEOUT": "2.5"})
    assert (settings.workers, settings.bot_processes, settings.games_per_minute,
            settings.push_timeout) == (3, 2, 0, 2.5)
    assert Settings.from_env(settings.to_env()) == settings
    with pytest.raises(ValueError, match="needs PostgreSQL"):
        Settings.from_env({"PALIO_WORKERS": "2"})
    with pytest.raises(ValueError, match="PALIO_BOT_DELAY"):
        Settings.from_env({"PALIO_BOT_DELAY": "soon"})
    assert HOST and sys.executable  # the helpers this module uses exist


@needs_postgres
def test_signing_out_on_one_process_closes_the_seats_websocket_on_another(
        make_server: Any, tmp_path: Path) -> None:
    """Ada signs out through process A; her seat's WebSocket, open on process B with the same
    session cookie, gets an error and close code 4401 (NOTIFY "<hash> signout")."""
    url = database_url("postgres", tmp_path)
    a, b = make_server(url, 0.0), make_server(url, 0.0)
    a.start()
    b.start()
    with httpx.Client(base_url=a.base, timeout=30) as ada:
        signed = ada.post("/api/accounts", json={"name": "Ada", "password": "a long password"},
                          headers={"Origin": a.base})
        assert signed.status_code == 201, signed.text
        game_id = a.create(game=SG, players=2, seed=5)["id"]
        assert ada.post(f"/api/games/{game_id}/seats/0/join", json={},
                        headers={"Origin": a.base}).status_code == 200
        cookie = f"palio_session={ada.cookies['palio_session']}"
        with connect(f"{b.ws_base}/ws/games/{game_id}",
                     additional_headers={"Cookie": cookie, "Origin": b.base},
                     open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["view"]["seat"] == 0
            assert ada.delete("/api/session", headers={"Origin": a.base}).status_code == 204
            message = json.loads(ws.recv(timeout=10))
            assert message["type"] == "error" and message["error"]["code"] == "signed_out"
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd.code == 4401
