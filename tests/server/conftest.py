"""A real ``palio serve`` process on a free loopback port, on SQLite and (when
``PALIO_TEST_POSTGRES_URL`` is set) on PostgreSQL, each run in a fresh database."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect
from sqlalchemy.engine import Engine

from palio.server.base.db import MIGRATIONS, fresh_postgres_database, make_engine, upgrade
from palio.server.base.process import free_port, serve_command, wait_until_ready

# Long repeats of a check that the default run already makes elsewhere, kept for `pytest -m
# slow` so the whole default suite stays well under CI's 20 minutes (each about 10-35 s):
# the crash test on PostgreSQL (test_cluster kills a PostgreSQL-backed process too), the Troyes
# whole-game click-through in Japanese (played in English here; the Troyes page in Japanese is
# still checked by the phone test),
# and the push-leak test of four games on PostgreSQL (all six on SQLite, two on PostgreSQL).
SLOW_REPEATS = {
    "test_crash.py::test_kill_and_restart_loses_no_acknowledged_move[postgres]",
    "test_browser_troyes.py::test_a_person_plays_a_whole_troyes_game_against_a_bot_by_clicking[ja]",
    "test_leak.py::test_pushes_show_each_seat_only_its_own_view[postgres-tiletum-2-0]",
    "test_leak.py::test_pushes_show_each_seat_only_its_own_view[postgres-signorie-2-0]",
    "test_leak.py::test_pushes_show_each_seat_only_its_own_view[postgres-troyes-2-0]",
    "test_leak.py::test_pushes_show_each_seat_only_its_own_view[postgres-aquileia-3-1]",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.split("/")[-1] in SLOW_REPEATS:
            item.add_marker(pytest.mark.slow)

POSTGRES_URL = os.environ.get("PALIO_TEST_POSTGRES_URL")


class Server:
    """One server process; ``kill()`` is kill -9, ``start()`` starts it again on the same DB."""

    def __init__(self, db_url: str, bot_delay: float, log_path: Path, *options: str,
                 log_level: str = "warning", env: dict[str, str] | None = None) -> None:
        self.db_url = db_url
        self.bot_delay = bot_delay
        self.log_path = log_path
        self.options = options
        self.log_level = log_level
        # tests create many games and accounts from one address: no limits unless asked for
        self.env = {**os.environ, "PALIO_GAMES_PER_MINUTE": "0",
                    "PALIO_SIGN_UPS_PER_HOUR": "0", **(env or {})}
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0
        self._http: httpx.Client | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.port = free_port()
        log = open(self.log_path, "ab")  # noqa: SIM115 - the process keeps it
        command = serve_command(self.db_url, self.port, self.bot_delay, *self.options,
                                log_level=self.log_level)
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                        env=self.env)
        wait_until_ready(self.process, self.port, self.log_path, timeout=30)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self._http is not None:
            self._http.close()
            self._http = None
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.base, headers=headers, timeout=30)

    @property
    def http(self) -> httpx.Client:
        """One kept-alive client for the helpers (a new httpx client costs tens of ms)."""
        if self._http is None or str(self._http.base_url).rstrip("/") != self.base:
            self._http = self.client()
        return self._http

    # -- small helpers the tests share --------------------------------------------------
    def create(self, **body: Any) -> dict[str, Any]:
        response = self.http.post("/api/games", json=body)
        assert response.status_code == 201, response.text
        return response.json()

    def join(self, game_id: str, seat: int, name: str = "Ada") -> str:
        response = self.http.post(f"/api/games/{game_id}/seats/{seat}/join", json={"name": name})
        assert response.status_code == 200, response.text
        return response.json()["token"]

    def view(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.http.get(f"/api/games/{game_id}/view", headers=headers)
        assert response.status_code == 200, response.text
        return response.json()

    def wait_over(self, game_id: str, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            summary = self.http.get(f"/api/games/{game_id}").json()
            if summary["status"] == "finished":
                return summary
            time.sleep(0.05)
        raise AssertionError(f"game {game_id} did not finish in {timeout} s")


def database_url(kind: str, tmp_path: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'palio.db'}"
    if not POSTGRES_URL:
        pytest.skip("PALIO_TEST_POSTGRES_URL is not set (scripts/postgres.sh start)")
    return fresh_postgres_database(POSTGRES_URL, "palio_test")


def downgraded(url: str, revision: str) -> Engine:
    """The database at ``url`` taken down to migration ``revision`` (a migration's down-and-up
    test); its engine, for the test to inspect, upgrade and dispose of."""
    engine = make_engine(url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
        connection.commit()
    return engine


def down_and_up(url: str, revision: str, table: str, columns: set[str]) -> None:
    """A migration's down-and-up test: the database at ``url`` taken down to ``revision``,
    where ``table`` has none of ``columns`` (what the migration after it adds), then up to the
    newest again."""
    engine = downgraded(url, revision)
    found = {c["name"] for c in inspect(engine).get_columns(table)}
    assert not columns & found, (table, columns & found)
    upgrade(engine)
    engine.dispose()


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("server")
    running = Server(database_url(request.param, tmp), 0.0, tmp / "server.log")
    running.start()
    yield running
    running.stop()


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Any]:
    """Servers a test starts itself (crash and restart tests), stopped at the end."""
    started: list[Server] = []

    def make(db_url: str | None = None, bot_delay: float = 0.0, *options: str,
             log_level: str = "warning", env: dict[str, str] | None = None) -> Server:
        one = Server(db_url or f"sqlite:///{tmp_path / 'palio.db'}", bot_delay,
                     tmp_path / f"server{len(started)}.log", *options, log_level=log_level,
                     env=env)
        started.append(one)
        return one

    yield make
    for one in started:
        one.stop()


# -- browser tests (test_browser*.py): Debian's Chromium driven by Playwright, never
# `playwright install`; each module gets its own server and browser
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
WAIT_MS = 15_000
BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason=f"{CHROMIUM} is not installed"),
]


@pytest.fixture(scope="module")
def web(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server on SQLite for one module's browser tests."""
    tmp = tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])
    server = Server(f"sqlite:///{tmp / 'palio.db'}", 0.0, tmp / "server.log")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()
