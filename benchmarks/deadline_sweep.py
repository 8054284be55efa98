"""The cost of the deadline sweep (palio.server.play.timing) with many pending deadlines.

A fresh database gets ``--pending`` running real-time tables whose deadlines lie in the future
(written as rows in bulk, as ``GameService.create`` and ``join`` would leave them) and
``--due`` tables whose deadlines have passed. Then, per run:

* ``idle sweep``: ``timing.sweep`` with nothing due (the clock before every deadline), the
  median and p99 of ``--sweeps`` sweeps: what every server process pays each
  ``--deadline-sweep`` seconds;
* ``firing``: the clock moved past the ``--due`` deadlines, one sweep acts on them all (load,
  claim, forfeit to a bot, commit): its time and the time per deadline.

Each run starts from a fresh database. On a shared, loaded machine the figures vary: run it
twice (``--runs 2``, the default) and read the spread.

Usage (from the repository root):
  PYTHONPATH=src python benchmarks/deadline_sweep.py --db sqlite
  PALIO_TEST_POSTGRES_URL=postgresql://... PYTHONPATH=src python benchmarks/deadline_sweep.py --db postgres

This is a benchmark, not a test: it asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import insert, text

from palio.server.base.clock import ManualClock
from palio.server.base.db import fresh_postgres_database
from palio.server.play import timing
from palio.server.play.service import GameService, hash_token, new_game_id
from palio.server.play.tables import GameRow, SeatRow

START = datetime(2026, 6, 1, tzinfo=UTC)
REALTIME = {"kind": "realtime", "base_s": 600, "increment_s": 20}


def database(kind: str, tmp: Path, run: int) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp / f'sweep{run}.db'}"
    url = os.environ.get("PALIO_TEST_POSTGRES_URL")
    if not url:
        raise SystemExit("set PALIO_TEST_POSTGRES_URL for --db postgres")
    return fresh_postgres_database(url, "palio_bench")


def fill(service: GameService, pending: int, due: int) -> None:
    """``pending`` tables due between 1 and 10 hours from START, ``due`` ones due before it."""
    template = service.create({"game": "san-gimignano", "players": 2, "seed": 1,
                               "timing": REALTIME})
    games, seats = [], []
    for n in range(pending + due):
        game_id = new_game_id()
        deadline = (START - timedelta(seconds=1 + n) if n < due
                    else START + timedelta(seconds=3600 + n % 32400))
        started = deadline - timedelta(seconds=600)
        games.append({
            "id": game_id, "game": "san-gimignano", "version": template.game.info.version,
            "players": 2, "options": template.options, "seed": n, "status": "running",
            "created_at": started, "updated_at": started, "revision": 2, "move_number": 0,
            "to_move": template.state.to_move, "timing": REALTIME, "rated": False,
            "practice": False, "on_timeout": {"kind": "bot", "level": "medium"},
            "clocks": {"remaining": [600.0, 600.0], "started": started.isoformat()},
            "deadline_at": deadline, "forfeits": []})
        for seat in range(2):
            seats.append({"game_id": game_id, "seat": seat, "kind": "human", "level": None,
                          "name": f"P{seat}", "token_hash": hash_token(f"{game_id}{seat}")})
    with service.sessions.begin() as session:
        for start in range(0, len(games), 2000):
            session.execute(insert(GameRow), games[start:start + 2000])
            session.execute(insert(SeatRow), seats[2 * start:2 * start + 4000])
    if service.shared:  # statistics, as autovacuum keeps them on a running server (without
        # them, right after a bulk insert, PostgreSQL scans the table instead of the index)
        with service.engine.begin() as connection:
            connection.execute(text("ANALYZE games"))


def one_run(url: str, pending: int, due: int, sweeps: int) -> dict[str, float]:
    clock = ManualClock(START - timedelta(hours=1))  # before every deadline
    service = GameService(url, clock=clock)
    try:
        fill(service, pending, due)
        idle = []
        for _ in range(sweeps):
            began = time.perf_counter()
            assert timing.sweep(service) == []
            idle.append(time.perf_counter() - began)
        clock.set(START)
        began = time.perf_counter()
        fired = timing.sweep(service)
        firing = time.perf_counter() - began
        assert len(fired) == due, (len(fired), due)
    finally:
        service.close()
    idle.sort()
    return {"idle_median_ms": 1000 * statistics.median(idle),
            "idle_p99_ms": 1000 * idle[min(len(idle) - 1, int(0.99 * len(idle)))],
            "firing_s": firing, "per_deadline_ms": 1000 * firing / max(1, due)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--pending", type=int, default=10_000)
    parser.add_argument("--due", type=int, default=100)
    parser.add_argument("--sweeps", type=int, default=50)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    print(f"{args.db}: {args.pending} pending deadlines, {args.due} due; "
          f"load average {os.getloadavg()[0]:.1f}")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            result = one_run(database(args.db, Path(tmp), run), args.pending, args.due,
                             args.sweeps)
            results.append(result)
            print(f"run {run + 1}: idle sweep median {result['idle_median_ms']:.2f} ms, "
                  f"p99 {result['idle_p99_ms']:.2f} ms; firing {args.due} deadlines "
                  f"{result['firing_s']:.2f} s ({result['per_deadline_ms']:.1f} ms each)")
    if len(results) > 1:
        for key in ("idle_median_ms", "per_deadline_ms"):
            values = [r[key] for r in results]
            print(f"spread of {key}: {min(values):.2f} - {max(values):.2f} "
                  f"({100 * (max(values) - min(values)) / max(values):.0f}%)")


if __name__ == "__main__":
    main()
