"""What an account costs the server, in one process: the session-cookie look-up every
signed-in request makes (``AccountStore.account_for_token``) and one argon2 password hash
(sign-up, sign-in, password change).

CPU is read with ``time.process_time()`` (all threads of this process; argon2-cffi's hash uses
several lanes), so the figures depend less on a busy machine than the wall times printed
beside them. On PostgreSQL only this process's side of the look-up is counted, not the
database server's.

Usage (from the repository root):
  PYTHONPATH=src python benchmarks/account_costs.py
  PYTHONPATH=src python benchmarks/account_costs.py --postgres postgresql://...

This is a benchmark, not a test: it asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from palio.server.accounts.store import HASHER, AccountStore
from palio.server.base.db import fresh_postgres_database
from palio.server.play.service import GameService


def look_ups(url: str, count: int) -> None:
    service = GameService(url)
    try:
        store = AccountStore(service.sessions, service.clock)
        token = store.start_session(store.create("costs", "costs-password-1"))
        for _ in range(50):  # warm the pool and the caches
            store.account_for_token(token)
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(count):
            if store.account_for_token(token) is None:
                raise SystemExit("the session did not sign in")
        print(f"{service.engine.dialect.name}: session look-up "
              f"{1000 * (time.process_time() - cpu) / count:.2f} ms CPU, "
              f"{1000 * (time.perf_counter() - wall) / count:.2f} ms wall "
              f"({count} look-ups; load {os.getloadavg()[0]:.1f})", flush=True)
    finally:
        service.close()


def hashes(count: int) -> None:
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(count):
        HASHER.hash("costs-password-1")
    print(f"argon2 hash: {1000 * (time.process_time() - cpu) / count:.0f} ms CPU, "
          f"{1000 * (time.perf_counter() - wall) / count:.0f} ms wall each ({count} hashes; "
          f"time cost {HASHER.time_cost}, {HASHER.memory_cost} KiB, "
          f"{HASHER.parallelism} lanes; load {os.getloadavg()[0]:.1f})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", metavar="URL", help="also on this PostgreSQL cluster")
    parser.add_argument("--look-ups", type=int, default=1000)
    parser.add_argument("--hashes", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        look_ups(f"sqlite:///{tmp}/costs.db", args.look_ups)
    if args.postgres:
        look_ups(fresh_postgres_database(args.postgres, "palio_costs"), args.look_ups)
    hashes(args.hashes)


if __name__ == "__main__":
    main()
