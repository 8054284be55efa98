"""Two processes (as ``palio serve --workers 2`` on PostgreSQL, or two hosts) sweep the same
due tournaments at the same moment: each round is created once, with its games, and nothing
half-written is left by the loser. Real processes and a throwaway cluster
(``PALIO_TEST_POSTGRES_URL``, scripts/postgres.sh)."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from palio.server.accounts.store import AccountStore
from palio.server.base.clock import ManualClock
from palio.server.play.service import GameService
from palio.server.play.tables import GameRow, SeatRow
from palio.server.tournaments.service import Tournaments
from palio.server.tournaments.tables import RoundRow, TableRow
from tests.server.conftest import POSTGRES_URL, database_url

MOMENT = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[3]

# one process: wait for the agreed instant, then sweep once; print how many games it created
SWEEPER = """
import sys, time
from datetime import datetime
from palio.server.base.clock import ManualClock
from palio.server.play.service import GameService
from palio.server.tournaments.service import Tournaments
url, at, instant = sys.argv[1], datetime.fromisoformat(sys.argv[2]), float(sys.argv[3])
service = GameService(url, clock=ManualClock(at))
tournaments = Tournaments(service)
while time.time() < instant:
    time.sleep(0.001)
print(len(tournaments.sweep()))
"""


@pytest.mark.skipif(not POSTGRES_URL, reason="PALIO_TEST_POSTGRES_URL is not set")
@pytest.mark.parametrize("shape", [{"rounds": 2}, {"format": "arena", "arena_hours": 24}],
                         ids=["swiss", "arena"])
def test_two_processes_create_each_round_once(tmp_path: Path, shape: dict[str, Any]) -> None:
    """A Swiss's first round, or an arena's first tables (its batch 1: everyone waits)."""
    url = database_url("postgres", tmp_path)
    service = GameService(url, clock=ManualClock(MOMENT))
    store = AccountStore(service.sessions, service.clock)
    people = [store.create(f"Player{i}", "correct horse battery") for i in range(24)]
    tournaments = Tournaments(service)
    ids = []
    for n in range(3):  # three due tournaments of 24 entrants: eight games a round each
        tid = tournaments.create(people[0].id, {
            "name": f"Cup {n}", "game": "tiletum", "players": 3, **shape,
            "starts_at": (MOMENT + timedelta(hours=1)).isoformat()})["id"]
        for person in people:
            tournaments.register(tid, person.id, person.name)
        ids.append(tid)
    at = (MOMENT + timedelta(hours=2)).isoformat()
    instant = time.time() + 4  # both have started and connected by then
    env = {"PYTHONPATH": f"{ROOT / 'src'}:{ROOT}", "PATH": "/usr/bin:/bin"}
    runs = [subprocess.Popen([sys.executable, "-c", SWEEPER, url, at, str(instant)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            for _ in range(2)]
    created = []
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
        created.append(int(out.strip().splitlines()[-1]))
    assert sum(created) == 3 * 8, created  # each round's games once, whoever made them
    with service.sessions() as session:
        for tid in ids:
            rounds = list(session.scalars(select(RoundRow).where(RoundRow.tournament_id == tid)))
            assert [r.number for r in rounds] == [1]
            tables = list(session.scalars(select(TableRow).where(
                TableRow.round_id == rounds[0].id)))
            assert len(tables) == 8
            seated = sorted(a for t in tables for a in t.seats)
            assert seated == sorted(p.id for p in people)  # everyone once
        assert session.scalar(select(func.count()).select_from(GameRow)) == 24
        assert session.scalar(select(func.count()).select_from(SeatRow)) == 72
    assert tournaments.sweep() == []  # the rounds are being played: nothing more
    service.close()


# one process writing a round, stopped (kill -9, by the test) after its first game is written
STUCK = """
import sys, time
from datetime import datetime
from palio.server.base.clock import ManualClock
from palio.server.play.service import GameService
from palio.server.tournaments.service import Tournaments
url, at = sys.argv[1], datetime.fromisoformat(sys.argv[2])
service = GameService(url, clock=ManualClock(at))
real = service.create_seated
def stuck(*args, **kwargs):
    made = real(*args, **kwargs)
    print("written", flush=True)
    time.sleep(600)
    return made
service.create_seated = stuck
Tournaments(service).sweep()
"""


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_kill_9_while_a_round_is_written_loses_nothing(tmp_path: Path, backend: str) -> None:
    """kill -9 in the middle of writing a round: nothing of it is in the database, the first
    round's results are all there, and the next sweep writes the whole round."""
    url = database_url(backend, tmp_path)
    service = GameService(url, clock=ManualClock(MOMENT))
    store = AccountStore(service.sessions, service.clock)
    people = [store.create(f"Player{i}", "correct horse battery") for i in range(6)]
    tournaments = Tournaments(service)
    service.finish_hooks.append(tournaments.game_finished)
    tid = tournaments.create(people[0].id, {
        "name": "Cup", "game": "san-gimignano", "players": 2, "rounds": 2,
        "starts_at": (MOMENT + timedelta(hours=1)).isoformat()})["id"]
    for person in people:
        tournaments.register(tid, person.id, person.name)
    service.clock.advance(2 * 3600)
    first = tournaments.sweep()
    assert len(first) == 3
    for game_id in first:  # the first round is played out: its results are rows
        while not (live := service.get(game_id)).state.is_over:
            state = live.state
            service.act(game_id, state.to_move, {"action": str(state.legal_actions()[0]),
                                                 "move_number": live.move_number})
    results = [t["places"] for t in tournaments.detail(tid)["rounds"][0]["tables"]]
    assert all(results)
    env = {"PYTHONPATH": f"{ROOT / 'src'}:{ROOT}", "PATH": "/usr/bin:/bin"}
    run = subprocess.Popen([sys.executable, "-c", STUCK, url,
                            service.clock.now().isoformat()],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert run.stdout.readline().strip() == "written", run.stderr.read()
    finally:
        run.kill()  # SIGKILL: no rollback, no goodbye
        run.wait()
    detail = tournaments.detail(tid)
    assert len(detail["rounds"]) == 1  # nothing of the half-written round
    assert [t["places"] for t in detail["rounds"][0]["tables"]] == results
    with service.sessions() as session:
        assert session.scalar(select(func.count()).select_from(GameRow)) == 3
    second = tournaments.sweep()  # any process carries on from the rows
    assert len(second) == 3 and len(tournaments.detail(tid)["rounds"]) == 2
    service.close()
