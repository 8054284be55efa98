"""The sign-up limit (palio.server.accounts.store, ``--sign-ups-per-hour``): one client address may
start only so many sign-ups an hour, refused before the password is hashed, counted in the
database by the server's one clock. In-process (TestClient, a ManualClock the tests move) on
SQLite and PostgreSQL (``PALIO_TEST_POSTGRES_URL``).
"""

from __future__ import annotations

import warnings
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from palio.server.accounts import store as accounts
from palio.server.accounts.tables import AccountRow
from palio.server.app import create_app
from palio.server.base.clock import ManualClock
from palio.server.base.db import make_engine
from palio.server.base.settings import Settings
from tests.server.clients import browser_of
from tests.server.conftest import Server, database_url

with warnings.catch_warnings():  # newer Starlette asks for "httpx2"; httpx is what we have
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

ORIGIN = {"Origin": "http://testserver"}
PASSWORD = "correct horse battery"
LIMIT = 3


class Site:
    def __init__(self, main: TestClient, clock: ManualClock) -> None:
        self.main, self.app, self.clock = main, main.app, clock

    def client(self, address: str) -> TestClient:
        """A browser at this client address (what the server counts sign-ups by)."""
        return browser_of(self.main, client=(address, 50000))

    def sign_up(self, client: TestClient, name: str) -> httpx.Response:
        return client.post("/api/accounts", json={"name": name, "password": PASSWORD},
                           headers=ORIGIN)

    def names(self) -> list[str]:
        service = self.app.state.service
        with service.sessions() as session:
            return sorted(session.scalars(select(AccountRow.name)))

    def account_count(self) -> int:
        with self.app.state.service.sessions() as session:
            return session.scalar(select(func.count()).select_from(AccountRow)) or 0


@pytest.fixture(params=["sqlite", "postgres"])
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    clock = ManualClock(datetime(2026, 6, 1, 12, 0, tzinfo=UTC))
    settings = Settings(db=database_url(request.param, tmp_path), bot_delay=0.0,
                        games_per_minute=0, sign_ups_per_hour=LIMIT)
    app = create_app(settings, clock=clock)
    with TestClient(app, raise_server_exceptions=False) as main:  # starts the application
        yield Site(main, clock)


def assert_refused(reply: httpx.Response, retry_after: int) -> None:
    assert reply.status_code == 429, reply.text
    assert reply.json()["error"]["code"] == "too_many_sign_ups"
    assert int(reply.headers["Retry-After"]) == retry_after
    assert "set-cookie" not in reply.headers
    assert PASSWORD not in reply.text


def test_the_limit_refuses_the_next_sign_up_until_the_hour_passes(site: Site) -> None:
    home = site.client("203.0.113.7")
    for n in range(LIMIT):
        assert site.sign_up(home, f"user{n}").status_code == 201
        site.clock.advance(60)  # sign-ups at 12:00, 12:01, 12:02; now 12:03
    refused = site.sign_up(home, "one-too-many")
    # the first sign-up (3 minutes ago) leaves the hour in 57 minutes
    assert_refused(refused, 57 * 60)
    assert "one-too-many" not in site.names() and site.account_count() == LIMIT
    site.clock.advance(57 * 60 - 1)
    assert_refused(site.sign_up(home, "one-too-many"), 1)
    site.clock.advance(1)
    assert site.sign_up(home, "one-too-many").status_code == 201  # a later hour
    assert_refused(site.sign_up(home, "yet-another"), 60)  # the second one frees next
    assert site.account_count() == LIMIT + 1


def test_another_address_is_not_limited_by_the_first(site: Site) -> None:
    first, second = site.client("203.0.113.7"), site.client("198.51.100.2")
    for n in range(LIMIT):
        assert site.sign_up(first, f"first{n}").status_code == 201
    assert site.sign_up(first, "refused").status_code == 429
    for n in range(LIMIT):
        assert site.sign_up(second, f"second{n}").status_code == 201
    assert site.sign_up(second, "refused").status_code == 429
    assert site.account_count() == 2 * LIMIT and "refused" not in site.names()


def test_a_refused_sign_up_hashes_no_password(site: Site, monkeypatch: Any) -> None:
    hashed: list[str] = []
    real = accounts.HASHER

    class Counting:
        def hash(self, password: str) -> str:
            hashed.append(password)
            return real.hash(password)

        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

    monkeypatch.setattr(accounts, "HASHER", Counting())
    home = site.client("203.0.113.7")
    for n in range(LIMIT):
        assert site.sign_up(home, f"user{n}").status_code == 201
    assert len(hashed) == LIMIT
    assert site.sign_up(home, "refused").status_code == 429
    assert len(hashed) == LIMIT  # refused before the costly hash


def test_every_attempt_counts_a_taken_name_too(site: Site) -> None:
    """Each attempt costs a hash, so a refused name counts towards the limit as well."""
    home = site.client("203.0.113.7")
    assert site.sign_up(home, "Ada").status_code == 201
    for _ in range(LIMIT - 1):
        assert site.sign_up(home, "ADA").status_code == 409
    assert site.sign_up(home, "Bea").status_code == 429
    assert site.names() == ["Ada"]


def test_zero_means_no_limit(tmp_path: Path) -> None:
    clock = ManualClock(datetime(2026, 6, 1, 12, 0, tzinfo=UTC))
    settings = Settings(db=database_url("sqlite", tmp_path), bot_delay=0.0,
                        sign_ups_per_hour=0)
    app = create_app(settings, clock=clock)
    with TestClient(app, raise_server_exceptions=False) as client:
        for n in range(12):  # above the default of 10
            reply = client.post("/api/accounts", json={"name": f"u{n}", "password": PASSWORD},
                                headers=ORIGIN)
            assert reply.status_code == 201, reply.text


def test_the_setting_comes_from_the_environment_and_refuses_a_negative() -> None:
    assert Settings().sign_ups_per_hour == 10
    assert Settings.from_env({"PALIO_SIGN_UPS_PER_HOUR": "4"}).sign_ups_per_hour == 4
    with pytest.raises(ValueError, match="--sign-ups-per-hour"):
        Settings(sign_ups_per_hour=-1)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_parallel_sign_ups_to_real_servers_share_one_count(make_server: Any, tmp_path: Path,
                                                          backend: str) -> None:
    """Real ``palio serve`` processes reading ``PALIO_SIGN_UPS_PER_HOUR``; on PostgreSQL two
    processes over one database: sign-ups sent at once from one address are checked and
    counted under one lock, so exactly the limit gets through."""
    url = database_url(backend, tmp_path)
    env = {"PALIO_SIGN_UPS_PER_HOUR": str(LIMIT)}
    servers: list[Server] = [make_server(url, env=env)]
    if backend == "postgres":
        servers.append(make_server(url, env=env))
    for server in servers:
        server.start()

    def sign_up(n: int) -> int:
        base = servers[n % len(servers)].base
        return httpx.post(f"{base}/api/accounts", headers={"Origin": base}, timeout=120,
                          json={"name": f"user{n}", "password": PASSWORD}).status_code

    with ThreadPoolExecutor(12) as pool:
        codes = list(pool.map(sign_up, range(12)))
    assert codes.count(201) == LIMIT and codes.count(429) == 12 - LIMIT, codes
    made = sorted(f"user{n}" for n in range(12) if codes[n] == 201)
    engine = make_engine(url)
    try:  # exactly the accepted ones exist
        with engine.connect() as connection:
            assert sorted(connection.scalars(select(AccountRow.name))) == made
    finally:
        engine.dispose()
