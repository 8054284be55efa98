"""The tournaments' tests' fixtures: a tables' service with a ManualClock on SQLite and (with
``PALIO_TEST_POSTGRES_URL``) PostgreSQL, and its tournaments with their finish hook."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from palio.server.base.clock import ManualClock
from palio.server.play.service import GameService
from palio.server.tournaments.service import Tournaments
from tests.server.conftest import database_url

MOMENT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgres"])
def service(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameService]:
    one = GameService(database_url(request.param, tmp_path), clock=ManualClock(MOMENT))
    yield one
    one.close()


@pytest.fixture
def tournaments(service: GameService) -> Tournaments:
    made = Tournaments(service)
    service.finish_hooks.append(made.game_finished)
    return made
