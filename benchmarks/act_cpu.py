"""CPU of a move's writes in one process: GameService's path as the move route takes it (the
game's copy, the checks, the action's row, the game's row and its NOTIFY, the commit; on
PostgreSQL the row's lock, or since pg34 one statement at the copy's revision), no views and
no HTTP, timed with ``time.process_time`` over seeded
random moves of ``--games`` San Gimignano tables. On a tree from before ``act_as`` (issue 34)
it times ``get`` and ``act``, as that route did.

Usage: PYTHONPATH=src python benchmarks/act_cpu.py sqlite|POSTGRES_URL [--games 8]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time

from palio.server.base.db import fresh_postgres_database
from palio.server.play.service import GameService


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db", help="sqlite, or a PostgreSQL cluster's URL (a new database)")
    parser.add_argument("--games", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = (f"sqlite:///{tmp}/act.db" if args.db == "sqlite"
               else fresh_postgres_database(args.db, "palio_actcpu"))
        service = GameService(url)
        lives = []
        for number in range(args.games):
            live = service.create({"game": "san-gimignano", "players": 2, "seed": number,
                                   "seats": [{"kind": "human"}] * 2})
            for seat in range(2):
                service.join(live.id, seat, {"name": f"P{seat}" if seat else None})
            lives.append(live)
        rng = random.Random(1)
        cpu, moves = 0.0, 0
        while any(not live.state.is_over for live in lives):
            for live in lives:
                if live.state.is_over:
                    continue
                seat = live.state.to_move
                body = {"action": str(rng.choice(live.state.legal_actions())),
                        "move_number": live.move_number}
                started = time.process_time()
                if hasattr(service, "act_as"):
                    service._cached(live.id)
                    service.act_as(live.id, lambda _live, seat=seat: seat, body)
                else:  # the route before issue 34's act_as
                    service.get(live.id)
                    service.act(live.id, seat, body)
                cpu += time.process_time() - started
                moves += 1
        service.close()
    print(f"{'sqlite' if args.db == 'sqlite' else 'postgresql'}: {moves} moves, "
          f"{1000 * cpu / moves:.3f} CPU-ms per move")


if __name__ == "__main__":
    main()
